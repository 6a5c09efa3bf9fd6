/** Zone rulesets: create, list, get, replace, delete, entrypoints and versions. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { WAF_TOKEN } from "./credentials";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

interface RuleResult {
	id: string;
	ref: string;
	version: string;
	enabled: boolean;
	description: string;
	last_updated: string;
	action_parameters: unknown;
}
interface RulesetResult {
	id: string;
	name: string;
	kind: string;
	phase: string;
	version: string;
	description: string;
	last_updated: string;
	rules?: RuleResult[];
}

const PHASE = "http_log_custom_fields";
const rule = (fields: string[], extra: Record<string, unknown> = {}) => ({
	action: "log_custom_field",
	expression: "true",
	action_parameters: { request_fields: fields.map((name) => ({ name })) },
	...extra,
});

async function setup() {
	const zone = await freshZone();
	const base = `/zones/${zone}/rulesets`;
	const created = await call("POST", base, {
		name: "Zone-level phase entry point",
		kind: "zone",
		phase: PHASE,
		description: "custom fields",
	});
	return { zone, base, ruleset: created.body.result as RulesetResult };
}

const result = (res: { body: { result?: unknown } }) => res.body.result as RulesetResult;

describe("POST /rulesets", () => {
	it("creates a ruleset at version 1 with a 32-hex id and fractional-second last_updated", async () => {
		const { ruleset } = await setup();
		expect(ruleset).toMatchObject({
			name: "Zone-level phase entry point",
			kind: "zone",
			phase: PHASE,
			description: "custom fields",
			version: "1",
			rules: [],
		});
		expect(ruleset.id).toMatch(/^[0-9a-f]{32}$/);
		expect(ruleset.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
	});

	it("refuses a second zone ruleset in the same phase with 20217 at /kind", async () => {
		const { base } = await setup();
		const res = await call("POST", base, { name: "again", kind: "zone", phase: PHASE });
		expect(res.status).toBe(400);
		expect(res.body).toStrictEqual({
			result: null,
			success: false,
			errors: [
				{
					code: 20217,
					message: `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${PHASE}`,
					source: { pointer: "/kind" },
				},
			],
			messages: [],
		});
	});

	it("allows several custom rulesets in one phase", async () => {
		const zone = await freshZone();
		for (const name of ["one", "two"]) {
			expect(
				(await call("POST", `/zones/${zone}/rulesets`, { name, kind: "custom", phase: "http_request_firewall_custom" }))
					.status,
			).toBe(200);
		}
	});

	it("creates a ruleset with rules in one call", async () => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/rulesets`, {
			name: "r",
			kind: "zone",
			phase: PHASE,
			rules: [rule(["x-a"])],
		});
		expect(result(res).rules).toMatchObject([
			{ version: "1", enabled: true, action_parameters: { request_fields: [{ name: "x-a" }] } },
		]);
	});

	it.each([
		{ name: "no name", body: { kind: "zone", phase: PHASE }, pointer: "/name" },
		{ name: "an empty name", body: { name: "", kind: "zone", phase: PHASE }, pointer: "/name" },
		{ name: "kind managed", body: { name: "x", kind: "managed", phase: PHASE }, pointer: "/kind" },
		{ name: "kind root", body: { name: "x", kind: "root", phase: PHASE }, pointer: "/kind" },
		{ name: "an unknown phase", body: { name: "x", kind: "zone", phase: "http_nothing" }, pointer: "/phase" },
		{ name: "an unknown field", body: { name: "x", kind: "zone", phase: PHASE, colour: "red" }, pointer: "/colour" },
		{ name: "rules that are no array", body: { name: "x", kind: "zone", phase: PHASE, rules: {} }, pointer: "/rules" },
		{
			name: "a rule in a phase edgezone has no rules for",
			body: { name: "x", kind: "zone", phase: "http_request_cache_settings", rules: [rule(["a"])] },
			pointer: "/rules/0/action",
		},
	])("answers 400 at the field for $name", async ({ body, pointer }) => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/rulesets`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect((await call("GET", `/zones/${zone}/rulesets`)).body.result).toEqual([]);
	});

	it("names unknown fields the way the real API does", async () => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/rulesets`, { name: "x", kind: "zone", phase: PHASE, bic: true });
		expect(res.body.errors).toEqual([
			{ code: 20200, message: 'invalid JSON: unknown field "bic"', source: { pointer: "/bic" } },
		]);
	});
});

describe("GET /rulesets", () => {
	it("lists rulesets without rules, with a cursor result_info", async () => {
		const { base, ruleset } = await setup();
		const res = await call("GET", base);
		expect(res.body.result).toEqual([
			{
				id: ruleset.id,
				name: ruleset.name,
				description: ruleset.description,
				kind: "zone",
				phase: PHASE,
				version: "1",
				last_updated: ruleset.last_updated,
			},
		]);
		expect(res.body.result_info).toEqual({ count: 1, per_page: 50 });
	});

	it("pages with per_page and cursor until the cursor is gone", async () => {
		const zone = await freshZone();
		for (const name of ["a", "b", "c"])
			await call("POST", `/zones/${zone}/rulesets`, { name, kind: "custom", phase: "http_request_firewall_custom" });
		const first = await call("GET", `/zones/${zone}/rulesets?per_page=2`);
		expect(first.body.result_info).toMatchObject({ count: 2, per_page: 2, cursor: expect.any(String) });
		const cursor = String(first.body.result_info?.cursor);
		const second = await call("GET", `/zones/${zone}/rulesets?per_page=2&cursor=${encodeURIComponent(cursor)}`);
		expect(second.body.result_info).toEqual({ count: 1, per_page: 2 });
		const all = [...(first.body.result as RulesetResult[]), ...(second.body.result as RulesetResult[])].map(
			(r) => r.name,
		);
		expect(all.sort()).toEqual(["a", "b", "c"]);
	});

	it.each([
		{ query: "cursor=not-a-cursor", pointer: "/cursor" },
		{ query: "per_page=0", pointer: "/per_page" },
		{ query: "per_page=101", pointer: "/per_page" },
	])("answers 400 for $query", async ({ query, pointer }) => {
		const { base } = await setup();
		const res = await call("GET", `${base}?${query}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.source?.pointer).toBe(pointer);
	});
});

describe("GET, PUT and DELETE /rulesets/{id}", () => {
	it("answers 404 for an unknown ruleset", async () => {
		const { base } = await setup();
		for (const method of ["GET", "PUT", "DELETE"]) {
			const res = await call(method, `${base}/${"0".repeat(32)}`, method === "PUT" ? { rules: [] } : undefined);
			expect(res.status).toBe(404);
			expect(res.body.errors?.[0]?.code).toBe(10005);
		}
	});

	it("replaces all rules, increments the version, and gives rules id, ref, enabled, version", async () => {
		const { base, ruleset } = await setup();
		const first = result(
			await call("PUT", `${base}/${ruleset.id}`, {
				rules: [rule(["a"]), rule(["b"], { ref: "mine", enabled: false })],
			}),
		);
		expect(first.version).toBe("2");
		const [a, b] = first.rules ?? [];
		expect(a).toMatchObject({ version: "1", enabled: true, description: "" });
		expect(a?.ref).toBe(a?.id);
		expect(b).toMatchObject({ ref: "mine", enabled: false });

		const second = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["c"])] }));
		expect(second.version).toBe("3");
		expect(second.rules?.map((r) => r.action_parameters)).toEqual([{ request_fields: [{ name: "c" }] }]);
		expect(result(await call("GET", `${base}/${ruleset.id}`))).toEqual(second);
	});

	it("keeps a rule's id and version when it is sent back unchanged, and bumps the version when it changes", async () => {
		const { base, ruleset } = await setup();
		const [a] = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["a"])] })).rules ?? [];
		const same = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["a"], { id: a?.id })] }));
		expect(same.rules?.[0]).toEqual(a);
		const changed = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["z"], { id: a?.id })] }));
		expect(changed.rules?.[0]).toMatchObject({ id: a?.id, version: "2" });
		const byRef = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["y"], { ref: a?.ref })] }));
		expect(byRef.rules?.[0]).toMatchObject({ id: a?.id, version: "3" });
	});

	it.each([
		{ name: "no rules", body: {}, pointer: "/rules" },
		{ name: "a changed name", body: { rules: [], name: "renamed" }, pointer: "/name" },
		{ name: "a changed phase", body: { rules: [], phase: "http_ratelimit" }, pointer: "/phase" },
		{ name: "a changed kind", body: { rules: [], kind: "custom" }, pointer: "/kind" },
		{
			name: "a rule id not in the ruleset",
			body: { rules: [rule(["a"], { id: "f".repeat(32) })] },
			pointer: "/rules/0/id",
		},
		{
			name: "two rules with one ref",
			body: { rules: [rule(["a"], { ref: "r" }), rule(["b"], { ref: "r" })] },
			pointer: "/rules/1/ref",
		},
		{
			name: "a read-only field in a rule",
			body: { rules: [rule(["a"], { last_updated: "now" })] },
			pointer: "/rules/0/last_updated",
		},
	])("refuses $name with a 400 and leaves the ruleset unchanged", async ({ body, pointer }) => {
		const { base, ruleset } = await setup();
		const res = await call("PUT", `${base}/${ruleset.id}`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect(result(await call("GET", `${base}/${ruleset.id}`))).toEqual(ruleset);
	});

	it("changes the description with a PUT", async () => {
		const { base, ruleset } = await setup();
		expect(result(await call("PUT", `${base}/${ruleset.id}`, { rules: [], description: "new" })).description).toBe(
			"new",
		);
	});

	it("deletes with 204 and no body, with all versions", async () => {
		const { base, ruleset } = await setup();
		await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["a"])] });
		const res = await call("DELETE", `${base}/${ruleset.id}`);
		expect(res.status).toBe(204);
		expect(res.body).toEqual({});
		expect((await call("GET", `${base}/${ruleset.id}`)).status).toBe(404);
		expect((await call("GET", `${base}/${ruleset.id}/versions/1`)).status).toBe(404);
		expect((await call("POST", base, { name: "again", kind: "zone", phase: PHASE })).status).toBe(200);
	});
});

describe("versions", () => {
	it("keeps every version readable, lists them without rules", async () => {
		const { base, ruleset } = await setup();
		await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["a"])] });
		await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["b"])] });
		const list = (await call("GET", `${base}/${ruleset.id}/versions`)).body.result as RulesetResult[];
		expect(list.map((v) => v.version)).toEqual(["1", "2", "3"]);
		expect(list.every((v) => v.rules === undefined)).toBe(true);
		expect(result(await call("GET", `${base}/${ruleset.id}/versions/1`)).rules).toEqual([]);
		expect(result(await call("GET", `${base}/${ruleset.id}/versions/2`)).rules?.[0]?.action_parameters).toEqual({
			request_fields: [{ name: "a" }],
		});
		expect(result(await call("GET", `${base}/${ruleset.id}/versions/3`)).version).toBe("3");
	});

	it("answers 404 for a version that never existed and 7003 for a malformed one", async () => {
		const { base, ruleset } = await setup();
		expect((await call("GET", `${base}/${ruleset.id}/versions/9`)).status).toBe(404);
		expect((await call("GET", `${base}/${ruleset.id}/versions/one`)).body.errors?.[0]?.code).toBe(7003);
		expect((await call("GET", `${base}/${"0".repeat(32)}/versions`)).status).toBe(404);
	});
});

describe("phase entrypoint versions", () => {
	it("lists the entrypoint's versions without rules and reads each with its rules, as the SDK types them", async () => {
		const { zone, base, ruleset } = await setup();
		await call("PUT", `${base}/phases/${PHASE}/entrypoint`, { rules: [rule(["a"])] });
		await call("PUT", `${base}/phases/${PHASE}/entrypoint`, { rules: [rule(["b"])] });
		const client = sdkClient();
		const listed = [];
		for await (const version of client.rulesets.phases.versions.list(PHASE, { zone_id: zone })) listed.push(version);
		expect(listed.map((v) => [v.id, v.version])).toEqual([
			[ruleset.id, "1"],
			[ruleset.id, "2"],
			[ruleset.id, "3"],
		]);
		expect(listed.every((v) => !("rules" in v) && v.kind === "zone" && v.phase === PHASE)).toBe(true);
		const second = await client.rulesets.phases.versions.get("2", { zone_id: zone, ruleset_phase: PHASE });
		expect(second).toEqual(result(await call("GET", `${base}/${ruleset.id}/versions/2`)));
		expect(second.rules[0]?.action_parameters).toEqual({ request_fields: [{ name: "a" }] });
	});

	it("lists [] and answers a version 404 10003 when the phase has no entrypoint", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/rulesets/phases/${PHASE}/entrypoint/versions`;
		const list = await call("GET", path);
		expect(list.status).toBe(200);
		expect(list.body.result).toEqual([]);
		const one = await call("GET", `${path}/1`);
		expect(one.status).toBe(404);
		expect(one.body.errors?.[0]?.code).toBe(10003);
	});

	it("answers 404 for a version the entrypoint never had, 7003 for a malformed version or phase", async () => {
		const { base } = await setup();
		expect((await call("GET", `${base}/phases/${PHASE}/entrypoint/versions/9`)).status).toBe(404);
		for (const path of [`phases/${PHASE}/entrypoint/versions/one`, "phases/http_nothing/entrypoint/versions"]) {
			const res = await call("GET", `${base}/${path}`);
			expect(res.status, path).toBe(400);
			expect(res.body.errors?.[0]?.code).toBe(7003);
		}
	});

	it("asks the phase's read permission: Zone WAF for the custom rules, not the log fields'", async () => {
		const zone = await freshZone();
		const base = `/zones/${zone}/rulesets/phases`;
		const headers = { Authorization: `Bearer ${WAF_TOKEN}` };
		const waf = await call("GET", `${base}/http_request_firewall_custom/entrypoint/versions`, undefined, headers);
		expect(waf.status).toBe(200);
		const log = await call("GET", `${base}/${PHASE}/entrypoint/versions`, undefined, headers);
		expect(log.status).toBe(403);
		expect(log.body.errors).toEqual([{ code: 10000, message: "Authentication error" }]);
		expect((await call("GET", `${base}/${PHASE}/entrypoint/versions/1`, undefined, headers)).status).toBe(403);
	});
});

describe("phase entrypoints", () => {
	it("answers 404 10003 when a phase has no entrypoint", async () => {
		const zone = await freshZone();
		const res = await call("GET", `/zones/${zone}/rulesets/phases/${PHASE}/entrypoint`);
		expect(res.status).toBe(404);
		expect(res.body.errors).toEqual([
			{ code: 10003, message: `could not find entrypoint ruleset in the ${PHASE} phase` },
		]);
	});

	it("creates the entrypoint on PUT, then updates it", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/rulesets/phases/${PHASE}/entrypoint`;
		const created = result(await call("PUT", path, { rules: [rule(["a"])] }));
		expect(created).toMatchObject({ kind: "zone", phase: PHASE, name: "default", version: "1" });
		const updated = result(await call("PUT", path, { rules: [rule(["b"])], description: "d" }));
		expect(updated).toMatchObject({ id: created.id, version: "2", description: "d" });
		expect(result(await call("GET", path))).toEqual(updated);
		expect(result(await call("GET", `/zones/${zone}/rulesets/${created.id}`))).toEqual(updated);
	});

	it("is the zone ruleset created with POST", async () => {
		const { zone, ruleset } = await setup();
		expect(result(await call("GET", `/zones/${zone}/rulesets/phases/${PHASE}/entrypoint`)).id).toBe(ruleset.id);
	});

	it('refuses kind in the body as "unknown field", as the real API does', async () => {
		const zone = await freshZone();
		const res = await call("PUT", `/zones/${zone}/rulesets/phases/${PHASE}/entrypoint`, { rules: [], kind: "zone" });
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.message).toBe('invalid JSON: unknown field "kind"');
	});
});

describe("dry_run", () => {
	const CUSTOM = "http_request_firewall_custom";

	/** A ruleset with two rules (version 2), and everything a write could change. */
	async function withRules() {
		const { zone, base, ruleset } = await setup();
		const put = result(await call("PUT", `${base}/${ruleset.id}`, { rules: [rule(["a"]), rule(["b"])] }));
		const [first] = put.rules ?? [];
		return { zone, base, id: ruleset.id, ruleId: first?.id ?? "" };
	}

	/** The ruleset, its versions, the zone's list, the custom-rules entrypoint and the config version. */
	async function state(zone: string, base: string, id: string) {
		return {
			ruleset: (await call("GET", `${base}/${id}`)).body,
			versions: (await call("GET", `${base}/${id}/versions`)).body,
			list: (await call("GET", base)).body,
			entrypoint: (await call("GET", `${base}/phases/${CUSTOM}/entrypoint`)).status,
			config: (await zoneState(env, zone).edgeConfig()).version,
		};
	}

	it.each([
		{ method: "POST", path: "/", body: { name: "d", kind: "custom", phase: CUSTOM }, status: 200 },
		{ method: "PUT", path: "/{id}", body: { rules: [rule(["c"])], description: "new" }, status: 200 },
		{ method: "DELETE", path: "/{id}", body: undefined, status: 204 },
		{ method: "PUT", path: `/phases/${PHASE}/entrypoint`, body: { rules: [] }, status: 200 },
		{ method: "PUT", path: `/phases/${CUSTOM}/entrypoint`, body: { rules: [] }, status: 200 },
		{ method: "POST", path: "/{id}/rules", body: rule(["c"]), status: 200 },
		{ method: "PATCH", path: "/{id}/rules/{rule}", body: { enabled: false, position: { index: 2 } }, status: 200 },
		{ method: "DELETE", path: "/{id}/rules/{rule}", body: undefined, status: 200 },
	])(
		"validates $method $path without persisting it, answering as Cloudflare ($status, result null)",
		async ({ method, path, body, status }) => {
			const { zone, base, id, ruleId } = await withRules();
			const before = await state(zone, base, id);
			const target = `${base}${path.replace(/^\/$/, "").replace("{id}", id).replace("{rule}", ruleId)}`;
			const res = await call(method, `${target}?dry_run=true`, body);
			expect(res.status, JSON.stringify(res.body)).toBe(status);
			if (status === 200) expect(res.body).toEqual({ result: null, success: true, errors: [], messages: [] });
			expect(await state(zone, base, id)).toEqual(before);
			// The same write without dry_run is a real one.
			expect((await call(method, target, body)).status).toBe(status);
			expect((await state(zone, base, id)).config).toBe(before.config + 1);
		},
	);

	it.each([
		{ what: "a body its schema refuses", method: "PUT", path: "/{id}", body: { rules: [{ action: "nope" }] } },
		{ what: "an unknown field", method: "POST", path: "/{id}/rules", body: { ...rule(["c"]), colour: "red" } },
		{
			what: "a rule its phase refuses",
			method: "POST",
			path: "/{id}/rules",
			body: { action: "block", expression: "true" },
		},
		{
			what: "a second zone ruleset in a phase",
			method: "POST",
			path: "",
			body: { name: "z", kind: "zone", phase: PHASE },
		},
		{ what: "a rule that does not exist", method: "PATCH", path: "/{id}/rules/{missing}", body: { enabled: false } },
		{ what: "a ruleset that does not exist", method: "DELETE", path: "/{missing}", body: undefined },
		{
			what: "an expression that does not compile",
			method: "POST",
			path: "/{id}/rules",
			body: rule(["c"], { expression: "http.host eq" }),
		},
	])("answers $what with the error the write gets", async ({ method, path, body }) => {
		const { zone, base, id } = await withRules();
		const target = `${base}${path.replace(/^\/$/, "").replace("{id}", id).replace("{missing}", "0".repeat(32))}`;
		const before = await state(zone, base, id);
		const dry = await call(method, `${target}?dry_run=true`, body);
		const before2 = await state(zone, base, id);
		const real = await call(method, target, body);
		expect(dry.status).toBeGreaterThanOrEqual(400);
		expect({ status: dry.status, body: dry.body }).toEqual({ status: real.status, body: real.body });
		expect(before2).toEqual(before);
	});

	it("answers 400 for a dry_run that is neither true nor false, and writes with dry_run=false", async () => {
		const { base, ruleset } = await setup();
		expect((await call("PUT", `${base}/${ruleset.id}?dry_run=maybe`, { rules: [] })).body.errors).toEqual([
			{ code: 20200, message: "dry_run must be true or false", source: { pointer: "/dry_run" } },
		]);
		expect(result(await call("PUT", `${base}/${ruleset.id}?dry_run=false`, { rules: [] })).version).toBe("2");
	});

	it("is what the cloudflare SDK's dry_run sends", async () => {
		const { zone, base, ruleset } = await setup();
		const answer = await sdkClient().rulesets.rules.create(ruleset.id, {
			zone_id: zone,
			dry_run: true,
			action: "log_custom_field",
			expression: "true",
			action_parameters: { request_fields: [{ name: "x" }] },
		});
		expect(answer).toBeNull();
		expect(result(await call("GET", `${base}/${ruleset.id}`))).toEqual(ruleset);
	});
});
