/**
 * The Security page through HTTP, as a browser without scripts uses it: the expression check the
 * editor's script calls (the engine's exact text, CSRF required), a refused rule shown with the
 * API's text next to its field and nothing stored, a rule created, paused and deleted, and the
 * retention switch of the recent matches. The browser flow is test/dash/e2e/security.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { expressionError } from "../../src/zone/expressions";
import { TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { seen } from "./seen";

const DASH = "http://dash.localhost";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

const cookiesOf = (response: Response) =>
	response.headers
		.getSetCookie()
		.map((c) => c.split(";")[0])
		.join("; ");

let session = "";
let csrf = "";
let zone = "";
let page = "";

/** A POST of `fields` (plus the session's CSRF token) to the Security page's `rest`. */
function post(rest: string, fields: Record<string, string>, token = csrf): Promise<Response> {
	return exports.default.fetch(`${DASH}${page}${rest}`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: session, ...FORM },
		body: new URLSearchParams({ csrf: token, ...fields }),
	});
}

beforeAll(async () => {
	zone = await freshZone();
	page = `/zones/${zone}/security`;
	const signInPage = await exports.default.fetch(`${DASH}/sign-in`);
	const signInCsrf = /name="csrf" value="([^"]+)"/.exec(await signInPage.text())?.[1] ?? "";
	const signedIn = await exports.default.fetch(`${DASH}/sign-in`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: cookiesOf(signInPage), ...FORM },
		body: new URLSearchParams({ csrf: signInCsrf, token: TOKEN }),
	});
	session = cookiesOf(signedIn);
	const html = await (await exports.default.fetch(`${DASH}${page}`, { headers: { cookie: session } })).text();
	csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
	expect(csrf).not.toBe("");
});

describe("the expression check", () => {
	it("answers valid for an expression the engine compiles", async () => {
		const response = await post("/expression", { expression: 'http.request.uri.path eq "/admin"' });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ valid: true });
	});

	it("answers the engine's multi-line text, line and column included, for one it refuses", async () => {
		const expression = 'http.request.uri.path eq "/admin" and';
		const response = await post("/expression", { expression });
		const answer = (await response.json()) as { valid: boolean; error: string };
		expect(answer.valid).toBe(false);
		expect(answer.error).toBe(expressionError(expression));
		expect(answer.error).toMatch(/^Filter parsing error \(1:\d+\):\n/);
		expect(answer.error.split("\n")[1]).toBe(expression);
		expect(answer.error.split("\n")[2]).toMatch(/^ +\^/);
	});

	it("refuses a check without the session's CSRF token", async () => {
		const response = await post("/expression", { expression: "ip.src eq 192.0.2.1" }, "forged");
		expect(response.status).toBe(403);
	});
});

describe("firewall rules without scripts", () => {
	it("shows the API's refusal of an invalid expression next to the editor and stores nothing", async () => {
		const response = await post("/rules", { description: "bad", expression: "http.host eq", action: "block" });
		expect(response.status).toBe(400);
		// The create form's editor (the page's other "Expression" fields belong to its rules).
		const [expression, ...others] = (await seen(await response.text())).fields("Expression");
		expect(expression?.value).toBe("http.host eq");
		expect(expression?.invalid).toBe(true);
		expect(expression?.description).toContain("Filter parsing error (1:");
		expect(others.some((field) => field.invalid)).toBe(false);
		const listed = await call("GET", `/zones/${zone}/firewall/rules`);
		expect(listed.body.result).toEqual([]);
	});

	it("creates, pauses and deletes a rule through the API", async () => {
		const created = await post("/rules", {
			description: "no admin",
			expression: 'http.request.uri.path eq "/admin"',
			action: "block",
			priority: "5",
		});
		expect(created.status).toBe(303);
		const [rule] = (await call("GET", `/zones/${zone}/firewall/rules`)).body.result as {
			id: string;
			priority: number;
			paused: boolean;
		}[];
		expect(rule).toMatchObject({ description: "no admin", action: "block", priority: 5, paused: false });

		expect((await post(`/rules/${rule?.id}/paused`, { paused: "true" })).status).toBe(303);
		expect((await call("GET", `/zones/${zone}/firewall/rules/${rule?.id}`)).body.result).toMatchObject({
			paused: true,
		});
		expect((await post(`/rules/${rule?.id}/delete`, {})).status).toBe(303);
		expect((await call("GET", `/zones/${zone}/firewall/rules`)).body.result).toEqual([]);
		// The rule's own filter went with it.
		expect((await call("GET", `/zones/${zone}/filters`)).body.result).toEqual([]);
	});
});

describe("WAF custom rules without scripts", () => {
	it("edits one: the stored rule becomes the form's, its id kept; a refused expression changes nothing", async () => {
		const custom = await freshZone();
		const entrypoint = `/zones/${custom}/rulesets/phases/http_request_firewall_custom/entrypoint`;
		const response = { status_code: 429, content_type: "text/plain", content: "slow down" };
		const put = await call("PUT", entrypoint, {
			rules: [
				{
					action: "block",
					expression: 'http.request.uri.path eq "/a"',
					description: "first",
					action_parameters: { response },
				},
				{ action: "log", expression: 'http.request.uri.path eq "/b"', description: "second" },
			],
		});
		expect(put.status).toBe(200);
		const ruleset = put.body.result as { id: string; rules: { id: string }[] };
		const [first, second] = ruleset.rules;
		const edit = `/zones/${custom}/security/custom-rules/${ruleset.id}/${first?.id}`;
		const shown = await (await exports.default.fetch(`${DASH}${edit}`, { headers: { cookie: session } })).text();
		const form = await seen(shown);
		expect(form.field("Response status code").value).toBe("429");
		expect(form.fields("Response body").map((f) => f.value)).toContain("slow down");

		const send = (fields: Record<string, string>) =>
			exports.default.fetch(`${DASH}${edit}`, {
				method: "POST",
				redirect: "manual",
				headers: { cookie: session, ...FORM },
				body: new URLSearchParams({ csrf, content_type: "text/html", content: "", status_code: "", ...fields }),
			});
		const fields = { description: "first, logged", action: "log", enabled: "true" };
		const refused = await send({ ...fields, expression: "http.request.uri.path eq" });
		expect(refused.status).toBe(400);
		expect((await seen(await refused.text())).field("Expression").invalid).toBe(true);
		expect((await call("GET", entrypoint)).body.result).toEqual(put.body.result);

		const saved = await send({ ...fields, expression: 'http.request.uri.path eq "/a"' });
		expect(saved.status).toBe(303);
		const after = (await call("GET", entrypoint)).body.result as { rules: Record<string, unknown>[] };
		expect(after.rules[0]).toMatchObject({ id: first?.id, action: "log", description: "first, logged", enabled: true });
		// The block response went with the action: the rule is the form's, not the old one patched.
		expect(after.rules[0]?.action_parameters).toBeUndefined();
		expect(after.rules[1]).toEqual(second);
	});
});

describe("filters without scripts", () => {
	it("creates, pauses and deletes a filter, and shows the API's refusal to delete one a rule uses", async () => {
		const expression = 'http.request.uri.path eq "/filtered"';
		expect((await post("/filters", { expression, description: "filtered" })).status).toBe(303);
		const [filter] = (await call("GET", `/zones/${zone}/filters`)).body.result as { id: string }[];
		expect(filter).toMatchObject({ expression, description: "filtered", paused: false });

		expect((await post(`/filters/${filter?.id}/paused`, { paused: "true" })).status).toBe(303);
		expect((await call("GET", `/zones/${zone}/filters/${filter?.id}`)).body.result).toMatchObject({ paused: true });

		// A rule on the filter (made through the API): the page lists it as the filter's user.
		const rule = await call("POST", `/zones/${zone}/firewall/rules`, [
			{ filter: { id: filter?.id }, action: "log", description: "uses it" },
		]);
		expect(rule.status).toBe(200);
		const html = await (await exports.default.fetch(`${DASH}${page}`, { headers: { cookie: session } })).text();
		expect((await seen(html)).rows.some((row) => row.join("|").includes("filtered|Paused|uses it"))).toBe(true);

		const refused = await post(`/filters/${filter?.id}/delete`, {});
		expect(refused.status).toBe(400);
		const refusal = await call("DELETE", `/zones/${zone}/filters/${filter?.id}`);
		expect((await seen(await refused.text())).alerts).toContain(refusal.body.errors?.[0]?.message);

		const ruleId = (rule.body.result as { id: string }[])[0]?.id;
		expect((await call("DELETE", `/zones/${zone}/firewall/rules/${ruleId}`)).status).toBe(200);
		expect((await post(`/filters/${filter?.id}/delete`, {})).status).toBe(303);
		expect((await call("GET", `/zones/${zone}/filters`)).body.result).toEqual([]);
	});

	it("edits a filter on its own page; a refused expression changes nothing", async () => {
		const created = await call("POST", `/zones/${zone}/filters`, [{ expression: 'http.host eq "a.example"' }]);
		const [filter] = created.body.result as { id: string }[];
		const edit = `/filters/${filter?.id}`;
		const shown = await (await exports.default.fetch(`${DASH}${page}${edit}`, { headers: { cookie: session } })).text();
		expect((await seen(shown)).field("Filter expression").value).toBe('http.host eq "a.example"');

		const refused = await post(edit, { expression: "http.host eq", description: "b", paused: "true" });
		expect(refused.status).toBe(400);
		expect((await seen(await refused.text())).field("Filter expression").invalid).toBe(true);
		const before = (await call("GET", `/zones/${zone}/filters/${filter?.id}`)).body.result;
		expect(before).toMatchObject({ expression: 'http.host eq "a.example"', paused: false });

		const expression = 'http.host eq "b.example"';
		expect((await post(edit, { expression, description: "b only", paused: "true" })).status).toBe(303);
		expect((await call("GET", `/zones/${zone}/filters/${filter?.id}`)).body.result).toMatchObject({
			id: filter?.id,
			expression,
			description: "b only",
			paused: true,
		});
		const listed = await (await exports.default.fetch(`${DASH}${page}`, { headers: { cookie: session } })).text();
		expect((await seen(listed)).links("Edit filter b only").map((a) => a.get("href"))).toEqual([`${page}${edit}`]);
		expect((await call("DELETE", `/zones/${zone}/filters/${filter?.id}`)).status).toBe(200);
	});
});

describe("recent matches", () => {
	it("says retention is off, and its button turns it on through the API", async () => {
		const html = await (await exports.default.fetch(`${DASH}${page}`, { headers: { cookie: session } })).text();
		expect(html).toContain("Log retention is off");
		const response = await post("/retention", {});
		expect(response.status).toBe(303);
		expect((await call("GET", `/zones/${zone}/logs/control/retention/flag`)).body.result).toEqual({ flag: true });
		const after = await (await exports.default.fetch(`${DASH}${page}`, { headers: { cookie: session } })).text();
		expect(after).toContain("No request matched a rule in the last hour.");
	});
});
