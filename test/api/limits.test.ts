/**
 * Bodies are bounded before anything parses them: a body nested too deep is a 400 and a
 * body too large a 413, both in the envelope, and neither changes the ruleset. Fields are
 * bounded in length (zone/limits.ts), and a ruleset keeps its latest 100 versions.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "./credentials";
import { BASE, call, freshZone } from "./http";
import { callWithEnv } from "./with-env";

const rule = { action: "log_custom_field", expression: "true", action_parameters: { request_fields: [{ name: "a" }] } };

/** `depth` arrays nested in one another, as JSON text. */
const nestedArrays = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
/** `depth` objects nested in one another under the key "a", as JSON text. */
const nestedObjects = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;

async function ruleset() {
	const zone = await freshZone();
	const created = await call("POST", `/zones/${zone}/rulesets`, {
		name: "r",
		kind: "zone",
		phase: "http_log_custom_fields",
		rules: [rule],
	});
	const id = (created.body.result as { id: string }).id;
	return { path: `/zones/${zone}/rulesets/${id}`, before: created.body.result };
}

describe("a request body", () => {
	it.each([
		{ name: "3,586 nested arrays as rules (PUT)", method: "PUT", rest: "", body: `{"rules":${nestedArrays(3586)}}` },
		{
			name: "2,548 nested objects in an extra rule field (POST rule)",
			method: "POST",
			rest: "/rules",
			body: `{"action":"log_custom_field","expression":"true","x":${nestedObjects(2548)}}`,
		},
		{
			name: "nested objects in action_parameters (PUT)",
			method: "PUT",
			rest: "",
			body: `{"rules":[{"action":"log_custom_field","expression":"true","action_parameters":${nestedObjects(40)}}]}`,
		},
	])("nested too deep is a 400 that changes nothing: $name", async ({ method, rest, body }) => {
		const { path, before } = await ruleset();
		const res = await call(method, `${path}${rest}`, body);
		expect(res.status).toBe(400);
		expect(res.body).toMatchObject({
			result: null,
			success: false,
			errors: [{ code: 20200, message: "invalid JSON: nested deeper than 32 levels" }],
		});
		expect((await call("GET", path)).body.result).toEqual(before);
	});

	it("nested as deep as the limit is parsed (and refused by the schema, at its field)", async () => {
		const { path } = await ruleset();
		const res = await call("PUT", path, `{"rules":[{"action":"log_custom_field","x":${nestedObjects(29)}}]}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain("/rules/0/x");
	});

	it("counts brackets inside strings as text, not nesting", async () => {
		const { path } = await ruleset();
		const description = `${"[{".repeat(100)}\\"`;
		const res = await call("PUT", path, { rules: [{ ...rule, description }] });
		expect(res.status).toBe(200);
	});

	it("of several megabytes is a 413 in the envelope that changes nothing", async () => {
		const { path, before } = await ruleset();
		const res = await call("PUT", path, { rules: [{ ...rule, description: "x".repeat(3 * 1024 * 1024) }] });
		expect(res.status).toBe(413);
		expect(res.body).toMatchObject({ result: null, success: false, errors: [{ code: 20200 }] });
		expect(res.headers.get("Content-Type")).toBe("application/json");
		expect((await call("GET", path)).body.result).toEqual(before);
	});

	it("without Content-Length is read only up to the limit", async () => {
		const { path, before } = await ruleset();
		const chunk = new TextEncoder().encode(" ".repeat(64 * 1024));
		let sent = 0;
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				sent += 1;
				if (sent > 64) controller.close();
				else controller.enqueue(chunk);
			},
		});
		const res = await exports.default.fetch(`${BASE}${path}`, {
			method: "PUT",
			headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
			body,
		});
		expect(res.status).toBe(413);
		expect(sent).toBeLessThan(64);
		expect((await call("GET", path)).body.result).toEqual(before);
	});
});

const params = (list: string, names: string[]) => ({
	...rule,
	action_parameters: { [list]: names.map((name) => ({ name })) },
});
const many = (n: number) => Array.from({ length: n }, (_, i) => `f${i}`);

describe("field lengths", () => {
	it.each([
		{ name: "a ruleset name", field: "name", max: 256, body: (v: string) => ({ rules: [rule], name: v }) },
		{
			name: "a ruleset description",
			field: "description",
			max: 500,
			body: (v: string) => ({ rules: [rule], description: v }),
		},
		{
			name: "a rule description",
			field: "rules/0/description",
			max: 500,
			body: (v: string) => ({ rules: [{ ...rule, description: v }] }),
		},
		{ name: "a rule ref", field: "rules/0/ref", max: 64, body: (v: string) => ({ rules: [{ ...rule, ref: v }] }) },
		{
			name: "a request header name",
			field: "rules/0/action_parameters/request_fields/0/name",
			max: 256,
			body: (v: string) => ({ rules: [params("request_fields", [v])] }),
		},
		{
			name: "a cookie name",
			field: "rules/0/action_parameters/cookie_fields/0/name",
			max: 256,
			body: (v: string) => ({ rules: [params("cookie_fields", [v])] }),
		},
	])("$name is accepted at its limit and refused one character over it", async ({ field, max, body }) => {
		const zone = await freshZone();
		const entrypoint = `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`;
		const atLimit = await call("PUT", entrypoint, body("a".repeat(max)));
		expect(atLimit.status).toBe(200);
		const over = await call("PUT", entrypoint, body("a".repeat(max + 1)));
		expect(over.status).toBe(400);
		expect(over.body.errors?.map((e) => e.source?.pointer)).toContain(`/${field}`);
		expect((await call("GET", entrypoint)).body.result).toEqual(atLimit.body.result);
	});

	it("refuses a ruleset name over its limit on create", async () => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/rulesets`, {
			name: "n".repeat(257),
			kind: "zone",
			phase: "http_log_custom_fields",
		});
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.source?.pointer).toBe("/name");
		expect((await call("GET", `/zones/${zone}/rulesets`)).body.result).toEqual([]);
	});

	it("refuses a custom-field list of more than 100 names, at the list", async () => {
		const zone = await freshZone();
		const res = await call("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [params("cookie_fields", many(101))],
		});
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toEqual(["/rules/0/action_parameters/cookie_fields"]);
	});
});

describe("the filters of a zone", () => {
	it("filled to the cap of 5,000 by one POST refused over the rule quota, are freed by deleting its filters", async () => {
		const zone = await freshZone();
		const rules = Array.from({ length: 5000 }, (_, i) => ({
			filter: { expression: `http.request.uri.path eq "/p${i}"` },
			action: "block",
		}));
		const over = await callWithEnv({ FIREWALL_RULES_QUOTA: "0" }, "POST", `/zones/${zone}/firewall/rules`, {
			body: rules,
		});
		expect(over.body.errors?.[0]?.code).toBe(10203);
		const kept = over.body.errors?.[0]?.message.split(": ").at(-1)?.split(", ") ?? [];
		expect(kept).toHaveLength(5000);
		const filters = `/zones/${zone}/filters`;
		const full = await call("POST", filters, [{ expression: 'http.host eq "one more"' }]);
		expect(full.body.errors?.[0]?.code).toBe(10105);
		for (let i = 0; i < kept.length; i += 500) {
			const ids = kept.slice(i, i + 500);
			const res = await call("DELETE", `${filters}?${ids.map((id) => `id=${id}`).join("&")}`);
			expect(res.status).toBe(200);
		}
		expect((await call("POST", filters, [{ expression: 'http.host eq "one more"' }])).status).toBe(200);
	});
});

describe("version history", () => {
	it("keeps the latest 100 versions; an older one is a 404 that says so", async () => {
		const { path } = await ruleset();
		for (let i = 0; i < 104; i++) expect((await call("PUT", path, { rules: [rule] })).status).toBe(200);
		const versions = (await call("GET", `${path}/versions`)).body.result as { version: string }[];
		expect(versions.length).toBe(100);
		expect(versions[0]?.version).toBe("6");
		expect(versions.at(-1)?.version).toBe("105");
		const gone = await call("GET", `${path}/versions/5`);
		expect(gone.status).toBe(404);
		expect(gone.body.errors?.[0]?.message).toBe(
			`version 5 of ruleset ${path.split("/").at(-1)} is no longer kept (edgezone keeps the latest 100 versions)`,
		);
		expect((await call("GET", `${path}/versions/6`)).status).toBe(200);
		expect((await call("GET", `${path}/versions/106`)).body.errors?.[0]?.message).toMatch(
			/^could not find version 106/,
		);
	});
});
