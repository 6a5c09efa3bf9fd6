/**
 * WAF custom rules: the phase `http_request_firewall_custom` through the rulesets API, its
 * actions and their parameters, expressions checked by the Rules language (20125, the rulesets
 * API's wording, rules-language-and-ca.md §1.10) and the bound on its rules (zone/limits.ts).
 */
import { describe, expect, it } from "vitest";
import { MAX_CUSTOM_RULES } from "../../src/zone/limits";
import { ADMIN, INVALID, NET, SHOP } from "./expressions";
import { call, freshZone } from "./http";

const entrypoint = (zone: string) => `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`;

describe("custom rules", () => {
	it("accepts every action of the phase with its parameters", async () => {
		const zone = await freshZone();
		const rules = [
			{
				action: "block",
				expression: ADMIN,
				action_parameters: { response: { status_code: 418, content: "{}", content_type: "application/json" } },
			},
			{ action: "block", expression: 'http.host eq "a"' },
			{ action: "challenge", expression: NET },
			{ action: "js_challenge", expression: SHOP },
			{ action: "managed_challenge", expression: 'http.host eq "b"' },
			{ action: "log", expression: 'http.host eq "c"' },
			{
				action: "skip",
				expression: 'http.host eq "d"',
				action_parameters: { ruleset: "current" },
				logging: { enabled: true },
			},
			{
				action: "skip",
				expression: 'http.host eq "e"',
				action_parameters: { phases: ["http_ratelimit"], products: ["waf", "uaBlock"] },
			},
		];
		const res = await call("PUT", entrypoint(zone), { rules });
		expect(res.status).toBe(200);
		const stored = (res.body.result as { phase: string; rules: { action: string; enabled: boolean }[] }).rules;
		expect(stored.map((r) => r.action)).toEqual(rules.map((r) => r.action));
		expect(stored.every((r) => r.enabled)).toBe(true);
	});

	it("refuses an expression the Rules language refuses with 20125 and the rulesets API's text", async () => {
		const res = await call("PUT", entrypoint(await freshZone()), {
			rules: [
				{ action: "block", expression: ADMIN },
				{ action: "log", expression: INVALID },
			],
		});
		expect(res.status).toBe(400);
		const [error] = res.body.errors ?? [];
		expect(error?.code).toBe(20125);
		expect(error?.source?.pointer).toBe("/rules/1/expression");
		expect(error?.message).toMatch(
			/^'http\.request\.uri\.path eq invalid' is not a valid value for expression because could not parse filter expression: Filter parsing error \(/,
		);
	});

	it("refuses an invalid expression in a rule added or edited one at a time", async () => {
		const zone = await freshZone();
		const ruleset = (await call("PUT", entrypoint(zone), { rules: [{ action: "block", expression: ADMIN }] })).body
			.result as { id: string; rules: { id: string }[] };
		const rules = `/zones/${zone}/rulesets/${ruleset.id}/rules`;
		const added = await call("POST", rules, { action: "log", expression: INVALID });
		expect(added.body.errors?.[0]).toMatchObject({ code: 20125, source: { pointer: "/expression" } });
		const edited = await call("PATCH", `${rules}/${ruleset.rules[0]?.id}`, { expression: INVALID });
		expect(edited.body.errors?.[0]).toMatchObject({ code: 20125, source: { pointer: "/expression" } });
	});

	it.each([
		[
			"a status code outside 400-499",
			{
				action: "block",
				expression: ADMIN,
				action_parameters: { response: { status_code: 302, content: "", content_type: "text/plain" } },
			},
			"/rules/0/action_parameters/response/status_code",
		],
		[
			"an unknown content type",
			{
				action: "block",
				expression: ADMIN,
				action_parameters: { response: { status_code: 403, content: "", content_type: "image/png" } },
			},
			"/rules/0/action_parameters/response/content_type",
		],
		[
			"a content over 10,240 characters",
			{
				action: "block",
				expression: ADMIN,
				action_parameters: { response: { status_code: 403, content: "x".repeat(10_241), content_type: "text/plain" } },
			},
			"/rules/0/action_parameters/response/content",
		],
		[
			"a skip with nothing to skip",
			{ action: "skip", expression: ADMIN, action_parameters: {} },
			"/rules/0/action_parameters",
		],
		[
			"a skip of an unknown phase",
			{ action: "skip", expression: ADMIN, action_parameters: { phases: ["http_request_origin"] } },
			"/rules/0/action_parameters/phases/0",
		],
		[
			"parameters on a challenge",
			{ action: "challenge", expression: ADMIN, action_parameters: { x: 1 } },
			"/rules/0/action_parameters/x",
		],
		["logging on a block", { action: "block", expression: ADMIN, logging: { enabled: true } }, "/rules/0/logging"],
		[
			"an action of another phase",
			{ action: "log_custom_field", expression: "true", action_parameters: { request_fields: [{ name: "a" }] } },
			"/rules/0/action",
		],
	])("refuses %s with 400 at its field", async (_name, rule, pointer) => {
		const res = await call("PUT", entrypoint(await freshZone()), { rules: [rule] });
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
	});

	it(`holds at most ${MAX_CUSTOM_RULES} rules in a ruleset`, async () => {
		const zone = await freshZone();
		const rules = (n: number) =>
			Array.from({ length: n }, (_, i) => ({ action: "log", expression: `http.host eq "h${i}"` }));
		expect((await call("PUT", entrypoint(zone), { rules: rules(MAX_CUSTOM_RULES) })).status).toBe(200);
		const over = await call("PUT", entrypoint(zone), { rules: rules(MAX_CUSTOM_RULES + 1) });
		expect(over.status).toBe(400);
		expect(over.body.errors?.[0]?.source?.pointer).toBe(`/rules/${MAX_CUSTOM_RULES}`);
	});
});
