/**
 * Validation of `log_custom_field` rules in phase `http_log_custom_fields` (Cloudflare's
 * custom-fields docs, developers.cloudflare.com/logs/reference/custom-fields/, and edgezone's
 * limits in src/zone/limits.ts): each violation is a 400 naming the field
 * and leaves the ruleset unchanged.
 */
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => ({ name: `${prefix}${i}` }));
const valid = {
	action: "log_custom_field",
	expression: "true",
	action_parameters: { request_fields: [{ name: "content-type" }] },
};
const withParams = (action_parameters: unknown) => ({ ...valid, action_parameters });

describe("a log_custom_field rule", () => {
	it("accepts all five lists, keeps cookie names as sent and response options", async () => {
		const zone = await freshZone();
		const action_parameters = {
			request_fields: [{ name: "content-type" }, { name: "x-forwarded-for" }],
			transformed_request_fields: [{ name: "host" }],
			response_fields: [{ name: "server" }, { name: "set-cookie", preserve_duplicates: true }],
			raw_response_fields: [{ name: "allow" }],
			cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }, { name: "__cfruid" }],
		};
		const res = await call("POST", `/zones/${zone}/rulesets`, {
			name: "r",
			kind: "zone",
			phase: "http_log_custom_fields",
			rules: [withParams(action_parameters)],
		});
		expect(res.status).toBe(200);
		expect((res.body.result as { rules: { action_parameters: unknown }[] }).rules[0]?.action_parameters).toEqual(
			action_parameters,
		);
	});

	it("accepts exactly 40 names in all", async () => {
		const zone = await freshZone();
		const rule = withParams({
			request_fields: names("q", 20),
			response_fields: names("s", 10),
			cookie_fields: names("C", 10),
		});
		expect(
			(
				await call("POST", `/zones/${zone}/rulesets`, {
					name: "r",
					kind: "zone",
					phase: "http_log_custom_fields",
					rules: [rule],
				})
			).status,
		).toBe(200);
	});

	const cases: { name: string; rule: unknown; pointer: string; message?: string }[] = [
		{
			name: "an action edgezone does not implement",
			rule: { ...valid, action: "set_config" },
			pointer: "/rules/0/action",
			message:
				"the action must be one that edgezone implements: log_custom_field, block, challenge, js_challenge, managed_challenge, log, skip, rewrite, route, redirect",
		},
		{
			name: "an action of another phase",
			rule: { action: "log", expression: "true" },
			pointer: "/rules/0/action",
			message: "log_custom_field is the only action allowed in phase http_log_custom_fields",
		},
		{
			name: "no action",
			rule: { expression: "true", action_parameters: valid.action_parameters },
			pointer: "/rules/0/action",
		},
		{
			name: "an expression other than true",
			rule: { ...valid, expression: 'http.host eq "a"' },
			pointer: "/rules/0/expression",
			message: 'the expression of a log_custom_field rule must be "true"',
		},
		{ name: "the expression TRUE", rule: { ...valid, expression: "TRUE" }, pointer: "/rules/0/expression" },
		{
			name: "no action_parameters",
			rule: { action: "log_custom_field", expression: "true" },
			pointer: "/rules/0/action_parameters",
		},
		{
			name: "empty action_parameters",
			rule: withParams({}),
			pointer: "/rules/0/action_parameters",
			message:
				"at least one of request_fields, transformed_request_fields, response_fields, raw_response_fields, cookie_fields is required",
		},
		{
			name: "an empty list",
			rule: withParams({ cookie_fields: [] }),
			pointer: "/rules/0/action_parameters/cookie_fields",
		},
		{
			name: "an upper-case request header",
			rule: withParams({ request_fields: [{ name: "Content-Type" }] }),
			pointer: "/rules/0/action_parameters/request_fields/0/name",
			message: "header names must be lower case",
		},
		{
			name: "an upper-case response header",
			rule: withParams({ response_fields: [{ name: "Server" }] }),
			pointer: "/rules/0/action_parameters/response_fields/0/name",
		},
		{
			name: "an upper-case transformed header",
			rule: withParams({ transformed_request_fields: [{ name: "Host" }] }),
			pointer: "/rules/0/action_parameters/transformed_request_fields/0/name",
		},
		{
			name: "an upper-case raw response header",
			rule: withParams({ raw_response_fields: [{ name: "Allow" }] }),
			pointer: "/rules/0/action_parameters/raw_response_fields/0/name",
		},
		{
			name: "a header name with a space",
			rule: withParams({ request_fields: [{ name: "x forwarded" }] }),
			pointer: "/rules/0/action_parameters/request_fields/0/name",
		},
		{
			name: "an empty header name",
			rule: withParams({ request_fields: [{ name: "" }] }),
			pointer: "/rules/0/action_parameters/request_fields/0/name",
		},
		{
			name: "a cookie name with a semicolon",
			rule: withParams({ cookie_fields: [{ name: "a;b" }] }),
			pointer: "/rules/0/action_parameters/cookie_fields/0/name",
		},
		{
			name: "the request header range",
			rule: withParams({ request_fields: [{ name: "content-type" }, { name: "range" }] }),
			pointer: "/rules/0/action_parameters/request_fields/1/name",
			message: "the request header range is not supported as a custom field",
		},
		{
			name: "range as a transformed request header",
			rule: withParams({ transformed_request_fields: [{ name: "range" }] }),
			pointer: "/rules/0/action_parameters/transformed_request_fields/0/name",
		},
		{
			name: "41 names in all",
			rule: withParams({
				request_fields: names("q", 20),
				response_fields: names("s", 11),
				cookie_fields: names("C", 10),
			}),
			pointer: "/rules/0/action_parameters/cookie_fields/9",
			message: "at most 40 custom log fields are allowed per zone",
		},
		{
			name: "a duplicate name in a list",
			rule: withParams({ cookie_fields: [{ name: "a" }, { name: "a" }] }),
			pointer: "/rules/0/action_parameters/cookie_fields/1/name",
		},
		{
			name: "a header both raw and transformed",
			rule: withParams({ request_fields: [{ name: "host" }], transformed_request_fields: [{ name: "host" }] }),
			pointer: "/rules/0/action_parameters/transformed_request_fields/0/name",
		},
		{
			name: "an unknown list",
			rule: withParams({ request_fields: [{ name: "a" }], header_fields: [{ name: "b" }] }),
			pointer: "/rules/0/action_parameters/header_fields",
			message: 'invalid JSON: unknown field "header_fields"',
		},
		{
			name: "an unknown field in a name entry",
			rule: withParams({ request_fields: [{ name: "a", raw: true }] }),
			pointer: "/rules/0/action_parameters/request_fields/0/raw",
		},
		{
			name: "preserve_duplicates on a request header",
			rule: withParams({ request_fields: [{ name: "a", preserve_duplicates: true }] }),
			pointer: "/rules/0/action_parameters/request_fields/0/preserve_duplicates",
		},
		{ name: "an unknown rule field", rule: { ...valid, logging: { enabled: true } }, pointer: "/rules/0/logging" },
		{ name: "enabled that is no boolean", rule: { ...valid, enabled: "yes" }, pointer: "/rules/0/enabled" },
		{ name: "a rule that is no object", rule: "log everything", pointer: "/rules/0" },
	];

	it.each(cases)(
		"is refused for $name, at its field, leaving the ruleset unchanged",
		async ({ rule, pointer, message }) => {
			const zone = await freshZone();
			const created = await call("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, {
				rules: [valid],
			});
			const before = created.body.result as { id: string };
			const res = await call("PUT", `/zones/${zone}/rulesets/${before.id}`, { rules: [rule] });
			expect(res.status).toBe(400);
			const error = res.body.errors?.find((e) => e.source?.pointer === pointer);
			expect(error, JSON.stringify(res.body.errors)).toBeDefined();
			if (message !== undefined) expect(error?.message).toBe(message);
			expect((await call("GET", `/zones/${zone}/rulesets/${before.id}`)).body.result).toEqual(created.body.result);
		},
	);

	it("counts the 40-field limit over all rules of the zone", async () => {
		const zone = await freshZone();
		const rules = [withParams({ request_fields: names("q", 20) }), withParams({ cookie_fields: names("c", 21) })];
		const res = await call("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, { rules });
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.source?.pointer).toBe("/rules/1/action_parameters/cookie_fields/20");
		expect((await call("GET", `/zones/${zone}/rulesets`)).body.result).toEqual([]);
	});

	it("reports every invalid field of a request at once", async () => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/rulesets`, {
			name: "r",
			kind: "zone",
			phase: "http_log_custom_fields",
			rules: [{ ...valid, expression: "false" }, withParams({ request_fields: [{ name: "Range" }] })],
		});
		expect(res.body.errors?.map((e) => e.source?.pointer)).toEqual([
			"/rules/0/expression",
			"/rules/1/action_parameters/request_fields/0/name",
		]);
	});
});
