/**
 * Bodies are bounded before anything parses them: a body nested too deep is a 400 and a
 * body too large a 413, both in the envelope, and neither changes the ruleset.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "./credentials";
import { BASE, call, freshZone } from "./http";

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
