// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the Rules language's replacements write ${N}, not templates
/**
 * Transform, Origin and Redirect Rules through the rulesets API, driven by the official
 * `cloudflare` SDK (`rulesets.phases.update` / `get`): each phase's action and parameters as
 * Cloudflare's docs write them, and the refusals of what a phase does not accept.
 */
import Cloudflare from "cloudflare";
import type { PhaseUpdateParams, PhaseUpdateResponse } from "cloudflare/resources/rulesets/phases/phases";
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import { describe, expect, it } from "vitest";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

type Rules = NonNullable<PhaseUpdateParams["rules"]>;
async function put(zone_id: string, phase: Phase, rules: unknown[]): Promise<PhaseUpdateResponse.Ruleset> {
	return (await sdkClient().rulesets.phases.update(phase, {
		zone_id,
		rules: rules as Rules,
	})) as PhaseUpdateResponse.Ruleset;
}

/** The first error of a refused update: its code, pointer and message. */
async function refusal(phase: Phase, rules: unknown[]): Promise<{ code?: number; pointer?: string; message?: string }> {
	const error = await put(await freshZone(), phase, rules).catch((e: unknown) => e);
	expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
	const [entry] = (error as InstanceType<typeof Cloudflare.BadRequestError>).errors as {
		code?: number;
		message?: string;
		source?: { pointer?: string };
	}[];
	return { code: entry?.code, pointer: entry?.source?.pointer, message: entry?.message };
}

describe("the rules phases through the SDK", () => {
	it("stores URL rewrites, header modifications, origin routes and redirects, and gets them back", async () => {
		const zone_id = await freshZone();
		const cases: [Phase, unknown[]][] = [
			[
				"http_request_transform",
				[
					{
						action: "rewrite",
						expression: 'starts_with(http.request.uri.path, "/old/")',
						action_parameters: {
							uri: {
								path: { expression: 'regex_replace(http.request.uri.path, "^/old/", "/new/")' },
								query: { value: "v=2" },
							},
						},
					},
				],
			],
			[
				"http_request_late_transform",
				[
					{
						action: "rewrite",
						expression: "true",
						action_parameters: {
							headers: {
								"X-Source": { operation: "set", value: "edgezone" },
								"X-Country": { operation: "set", expression: "ip.src.country" },
								"X-Debug": { operation: "remove" },
							},
						},
					},
				],
			],
			[
				"http_response_headers_transform",
				[
					{
						action: "rewrite",
						expression: 'http.host eq "example.com"',
						action_parameters: { headers: { "Set-Cookie": { operation: "add", value: "seen=1" } } },
					},
				],
			],
			[
				"http_request_origin",
				[
					{
						action: "route",
						expression: 'starts_with(http.request.uri.path, "/api/")',
						action_parameters: {
							host_header: "api.internal",
							origin: { host: "localhost", port: 3000 },
							sni: { value: "api.internal" },
						},
					},
				],
			],
			[
				"http_request_dynamic_redirect",
				[
					{
						action: "redirect",
						expression: 'http.request.uri.path eq "/home"',
						action_parameters: {
							from_value: {
								target_url: { expression: 'concat("https://", http.host, "/")' },
								status_code: 308,
								preserve_query_string: true,
							},
						},
					},
				],
			],
		];
		for (const [phase, rules] of cases) {
			const stored = await put(zone_id, phase, rules);
			expect(stored.phase).toBe(phase);
			expect(stored.rules).toMatchObject(rules as object[]);
			const got = await sdkClient().rulesets.phases.get(phase, { zone_id });
			expect(got.rules).toEqual(stored.rules);
		}
	});

	it("refuses an action its phase does not take", async () => {
		const refused = await refusal("http_request_origin", [
			{ action: "rewrite", expression: "true", action_parameters: { uri: { path: { value: "/" } } } },
		]);
		expect(refused).toMatchObject({ code: 20200, pointer: "/rules/0/action" });
	});

	it("refuses a value expression the Rules language refuses, with 20125 at its pointer", async () => {
		const refused = await refusal("http_request_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: { uri: { path: { expression: "ip.src" } } },
			},
		]);
		expect(refused.code).toBe(20125);
		expect(refused.pointer).toBe("/rules/0/action_parameters/uri/path/expression");
		expect(refused.message).toContain("expected value of type Bytes, but got Ip");
	});

	it("refuses rewrite functions in a rule's filter expression", async () => {
		const refused = await refusal("http_request_transform", [
			{
				action: "rewrite",
				expression: 'regex_replace(http.host, "a", "b") eq "b"',
				action_parameters: { uri: { path: { value: "/" } } },
			},
		]);
		expect(refused).toMatchObject({ code: 20125, pointer: "/rules/0/expression" });
		expect(refused.message).toContain("unknown identifier");
	});

	it("refuses headers a transform may not touch", async () => {
		const cases: [Phase, string, object][] = [
			["http_request_late_transform", "CF-Ray", { operation: "set", value: "x" }],
			["http_request_late_transform", "cookie", { operation: "set", value: "a=b" }],
			["http_request_late_transform", "X-Forwarded-Proto", { operation: "remove" }],
			["http_response_headers_transform", "server", { operation: "set", value: "x" }],
			["http_response_headers_transform", "x-cf-thing", { operation: "remove" }],
		];
		for (const [phase, name, change] of cases) {
			const refused = await refusal(phase, [
				{ action: "rewrite", expression: "true", action_parameters: { headers: { [name]: change } } },
			]);
			expect(refused, name).toMatchObject({ code: 20200, pointer: `/rules/0/action_parameters/headers/${name}` });
		}
		// Cloudflare lets a request rule remove cf-connecting-ip and x-forwarded-for, and nothing else of theirs.
		const zone_id = await freshZone();
		const removes = {
			"cf-connecting-ip": { operation: "remove" },
			"x-forwarded-for": { operation: "remove" },
		};
		const stored = await put(zone_id, "http_request_late_transform", [
			{ action: "rewrite", expression: "true", action_parameters: { headers: removes } },
		]);
		expect(stored.rules[0]).toMatchObject({ action_parameters: { headers: removes } });
	});

	it("refuses bad header names and values, ports, hostnames, status codes and target URLs", async () => {
		const cases: [Phase, object, string][] = [
			[
				"http_request_late_transform",
				{ headers: { "bad name": { operation: "remove" } } },
				"/rules/0/action_parameters/headers/bad name",
			],
			[
				"http_request_late_transform",
				{ headers: { "x-a": { operation: "set", value: "a\nb" } } },
				"/rules/0/action_parameters/headers/x-a/value",
			],
			["http_request_transform", { uri: { path: { value: "no-slash" } } }, "/rules/0/action_parameters/uri/path/value"],
			["http_request_transform", { headers: { "x-a": { operation: "remove" } } }, "/rules/0/action_parameters/headers"],
			["http_request_origin", { origin: { port: 70000 } }, "/rules/0/action_parameters/origin/port"],
			["http_request_origin", { host_header: "not a host" }, "/rules/0/action_parameters/host_header"],
			["http_request_origin", {}, "/rules/0/action_parameters"],
			[
				"http_request_dynamic_redirect",
				{ from_value: { target_url: { value: "/relative" } } },
				"/rules/0/action_parameters/from_value/target_url",
			],
			[
				"http_request_dynamic_redirect",
				{ from_value: { target_url: { value: "https://a.example/" }, status_code: 304 } },
				"/rules/0/action_parameters/from_value/status_code",
			],
		];
		const actions: Partial<Record<Phase, string>> = {
			http_request_late_transform: "rewrite",
			http_request_transform: "rewrite",
			http_request_origin: "route",
			http_request_dynamic_redirect: "redirect",
		};
		for (const [phase, action_parameters, pointer] of cases) {
			const refused = await refusal(phase, [{ action: actions[phase], expression: "true", action_parameters }]);
			expect(refused.pointer, JSON.stringify(action_parameters)).toContain(pointer);
		}
	});
});
