/** Single-rule endpoints: add (with position), edit (fields and position), delete. */
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";

interface Rule {
	id: string;
	version: string;
	ref: string;
	enabled: boolean;
	description: string;
	action_parameters: { request_fields?: { name: string }[] };
}
interface Ruleset {
	id: string;
	version: string;
	rules: Rule[];
}

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
	action: "log_custom_field",
	expression: "true",
	action_parameters: { request_fields: [{ name }] },
	...extra,
});
const names = (r: Ruleset) => r.rules.map((x) => x.action_parameters.request_fields?.[0]?.name);

async function rulesetWith(...fields: string[]) {
	const zone = await freshZone();
	const created = await call("POST", `/zones/${zone}/rulesets`, {
		name: "r",
		kind: "zone",
		phase: "http_log_custom_fields",
		rules: fields.map((f) => rule(f)),
	});
	const ruleset = created.body.result as Ruleset;
	return { ruleset, rules: `/zones/${zone}/rulesets/${ruleset.id}/rules` };
}

describe("POST .../rules", () => {
	it("appends a rule and answers the whole ruleset at its next version", async () => {
		const { ruleset, rules } = await rulesetWith("a");
		const res = await call("POST", rules, rule("b"));
		expect(res.status).toBe(200);
		const next = res.body.result as Ruleset;
		expect(next.version).toBe("2");
		expect(names(next)).toEqual(["a", "b"]);
		expect(next.rules[0]).toEqual(ruleset.rules[0]);
	});

	it.each([
		{ position: { before: "" }, expected: ["new", "a", "b"] },
		{ position: { after: "" }, expected: ["a", "b", "new"] },
		{ position: { index: 2 }, expected: ["a", "new", "b"] },
		{ position: { index: 9 }, expected: ["a", "b", "new"] },
	])("places the rule at $position", async ({ position, expected }) => {
		const { rules } = await rulesetWith("a", "b");
		expect(names((await call("POST", rules, { ...rule("new"), position })).body.result as Ruleset)).toEqual(expected);
	});

	it("places the rule before or after a given rule id", async () => {
		const { ruleset, rules } = await rulesetWith("a", "b");
		const b = ruleset.rules[1]?.id ?? "";
		expect(
			names((await call("POST", rules, { ...rule("x"), position: { before: b } })).body.result as Ruleset),
		).toEqual(["a", "x", "b"]);
		expect(names((await call("POST", rules, { ...rule("y"), position: { after: b } })).body.result as Ruleset)).toEqual(
			["a", "x", "b", "y"],
		);
	});

	it.each([
		{ name: "an invalid rule", body: rule("Upper"), pointer: "/action_parameters/request_fields/0/name" },
		{
			name: "a position naming an unknown rule",
			body: { ...rule("x"), position: { after: "f".repeat(32) } },
			pointer: "/position/after",
		},
		{ name: "a malformed position", body: { ...rule("x"), position: { index: 0 } }, pointer: "/position/index" },
		{ name: "a rule id not in the ruleset", body: rule("x", { id: "e".repeat(32) }), pointer: "/id" },
	])("refuses $name with a 400 at the field, leaving the ruleset unchanged", async ({ body, pointer }) => {
		const { ruleset, rules } = await rulesetWith("a");
		const res = await call("POST", rules, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect((await call("GET", rules.replace(/\/rules$/, ""))).body.result).toEqual(ruleset);
	});

	it("answers 404 for an unknown ruleset", async () => {
		const zone = await freshZone();
		expect((await call("POST", `/zones/${zone}/rulesets/${"0".repeat(32)}/rules`, rule("a"))).status).toBe(404);
	});
});

describe("PATCH .../rules/{rule_id}", () => {
	it("changes the given fields, bumping the rule's version", async () => {
		const { ruleset, rules } = await rulesetWith("a");
		const id = ruleset.rules[0]?.id ?? "";
		const next = (await call("PATCH", `${rules}/${id}`, { enabled: false, description: "off" })).body.result as Ruleset;
		expect(next.version).toBe("2");
		expect(next.rules[0]).toMatchObject({
			id,
			version: "2",
			enabled: false,
			description: "off",
			action_parameters: { request_fields: [{ name: "a" }] },
		});
	});

	it("moves a rule without bumping its version", async () => {
		const { ruleset, rules } = await rulesetWith("a", "b", "c");
		const c = ruleset.rules[2];
		const next = (await call("PATCH", `${rules}/${c?.id}`, { position: { before: "" } })).body.result as Ruleset;
		expect(names(next)).toEqual(["c", "a", "b"]);
		expect(next.rules[0]).toEqual(c);
	});

	it("refuses an edit that breaks the phase's rules, leaving the ruleset unchanged", async () => {
		const { ruleset, rules } = await rulesetWith("a");
		const res = await call("PATCH", `${rules}/${ruleset.rules[0]?.id}`, { expression: 'http.host eq "x"' });
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.source?.pointer).toBe("/expression");
		expect((await call("GET", rules.replace(/\/rules$/, ""))).body.result).toEqual(ruleset);
	});

	it.each([
		{ name: "a malformed id", body: { id: "nope" }, pointer: "/id" },
		{ name: "an unknown field", body: { enabled: false, colour: "red" }, pointer: "/colour" },
		{ name: "an action edgezone does not implement", body: { action: "set_config" }, pointer: "/action" },
		{
			name: "invalid action_parameters",
			body: { action: "log_custom_field", action_parameters: { request_fields: [{ name: "Upper" }] } },
			pointer: "/action_parameters/request_fields/0/name",
		},
		{
			name: "action_parameters without action",
			body: { action_parameters: { request_fields: [{ name: "b" }] } },
			pointer: "/action",
		},
		{ name: "a description that is no string", body: { description: 7 }, pointer: "/description" },
	])("refuses $name in the body with 20200 at its field, as POST does", async ({ body, pointer }) => {
		const { ruleset, rules } = await rulesetWith("a");
		const res = await call("PATCH", `${rules}/${ruleset.rules[0]?.id}`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors).toContainEqual(expect.objectContaining({ code: 20200, source: { pointer } }));
		expect((await call("GET", rules.replace(/\/rules$/, ""))).body.result).toEqual(ruleset);
	});

	it("takes action_parameters only with their action, as Cloudflare does, and the other fields alone", async () => {
		const { ruleset, rules } = await rulesetWith("a");
		const id = ruleset.rules[0]?.id ?? "";
		const parameters = { request_fields: [{ name: "b" }] };
		const alone = await call("PATCH", `${rules}/${id}`, { action_parameters: parameters });
		expect(alone.status).toBe(400);
		expect(alone.body.errors).toContainEqual(
			expect.objectContaining({ message: "action is required for action parameters", source: { pointer: "/action" } }),
		);
		const paired = await call("PATCH", `${rules}/${id}`, { action: "log_custom_field", action_parameters: parameters });
		expect(paired.status).toBe(200);
		expect((paired.body.result as Ruleset).rules[0]).toMatchObject({ id, action_parameters: parameters });
	});

	it("answers 404 for an unknown rule and 7003 for a malformed rule id", async () => {
		const { rules } = await rulesetWith("a");
		const missing = await call("PATCH", `${rules}/${"0".repeat(32)}`, { enabled: false });
		expect(missing.status).toBe(404);
		expect((await call("PATCH", `${rules}/nope`, { enabled: false })).body.errors?.[0]?.code).toBe(7003);
	});
});

describe("DELETE .../rules/{rule_id}", () => {
	it("removes the rule and answers the ruleset at its next version", async () => {
		const { ruleset, rules } = await rulesetWith("a", "b");
		const res = await call("DELETE", `${rules}/${ruleset.rules[0]?.id}`);
		expect(res.status).toBe(200);
		const next = res.body.result as Ruleset;
		expect(next.version).toBe("2");
		expect(names(next)).toEqual(["b"]);
	});

	it("answers 404 for an unknown rule", async () => {
		const { rules } = await rulesetWith("a");
		expect((await call("DELETE", `${rules}/${"0".repeat(32)}`)).status).toBe(404);
	});
});
