/**
 * The Rules page through the Worker's front door (no browser): each kind's rule created from its
 * form and listed in its section, a refusal shown at its field with nothing stored, a rule edited
 * and deleted. Browser tests of the same page: test/dash/e2e/rules.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, post, signIn } from "./dash-http";

const open = (browser: Browser, path: string) =>
	exports.default.fetch(`${DASH}${path}`, { headers: { cookie: browser.cookie } });

/** The rules of the zone's entrypoint of `phase` (none: an empty list). */
async function rulesOf(zone: string, phase: string): Promise<Record<string, unknown>[]> {
	const res = await call("GET", `/zones/${zone}/rulesets/phases/${phase}/entrypoint`);
	return res.status === 404 ? [] : ((res.body.result as { rules: Record<string, unknown>[] }).rules ?? []);
}

describe("the Rules page", () => {
	it("creates a rule of each kind from its form and lists it in its section", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const posts: [string, Record<string, string>, string, object][] = [
			[
				"redirects",
				{ target_kind: "static", target: "https://example.com/", status_code: "302", preserve_query: "true" },
				"http_request_dynamic_redirect",
				{
					from_value: { target_url: { value: "https://example.com/" }, status_code: 302, preserve_query_string: true },
				},
			],
			[
				"url-rewrites",
				{ path_kind: "dynamic", path: 'concat("/v2", http.request.uri.path)', query_kind: "preserve", query: "" },
				"http_request_transform",
				{ uri: { path: { expression: 'concat("/v2", http.request.uri.path)' } } },
			],
			[
				"request-headers",
				{
					name_0: "X-Source",
					operation_0: "set",
					kind_0: "static",
					value_0: "edge",
					name_1: "X-Debug",
					operation_1: "remove",
				},
				"http_request_late_transform",
				{ headers: { "X-Source": { operation: "set", value: "edge" }, "X-Debug": { operation: "remove" } } },
			],
			[
				"response-headers",
				{ name_0: "X-Frame-Options", operation_0: "set", kind_0: "static", value_0: "DENY" },
				"http_response_headers_transform",
				{ headers: { "X-Frame-Options": { operation: "set", value: "DENY" } } },
			],
			[
				"origin",
				{ host_header: "api.internal", origin_host: "localhost", origin_port: "3000", sni: "" },
				"http_request_origin",
				{ host_header: "api.internal", origin: { host: "localhost", port: 3000 } },
			],
		];
		for (const [kind, fields, phase, parameters] of posts) {
			const res = await post(browser, `/zones/${zone}/rules/${kind}/new`, {
				description: `my ${kind}`,
				expression: "true",
				enabled: "true",
				...fields,
			});
			expect(res.status, `${kind}: ${await res.clone().text()}`).toBe(303);
			expect(res.headers.get("location")).toBe(`/zones/${zone}/rules?done=created`);
			expect(await rulesOf(zone, phase)).toEqual([
				expect.objectContaining({ description: `my ${kind}`, enabled: true, action_parameters: parameters }),
			]);
		}
		const page = await (await open(browser, `/zones/${zone}/rules?done=created`)).text();
		expect(page).toContain("Rule created.");
		for (const title of [
			"Redirect Rules",
			"URL Rewrite Rules",
			"Request Header Transform Rules",
			"Response Header Transform Rules",
			"Origin Rules",
		]) {
			expect(page).toContain(title);
		}
		expect(page).toContain("302 to &quot;https://example.com/&quot;, query kept");
		expect(page).toContain("set X-Frame-Options: &quot;DENY&quot;");
		expect(page).toContain("Host header api.internal; DNS record localhost; port 3000");
	});

	it("shows a refusal at its field and stores nothing", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const res = await post(browser, `/zones/${zone}/rules/origin/new`, {
			description: "bad port",
			expression: "true",
			enabled: "true",
			origin_port: "70000",
		});
		expect(res.status).toBe(400);
		const html = await res.text();
		expect(html).toMatch(/id="rule-origin_port-error"[^>]*>[^<]*65535/);
		expect(await rulesOf(zone, "http_request_origin")).toEqual([]);
		const expression = await post(browser, `/zones/${zone}/rules/redirects/new`, {
			expression: "http.host eq",
			enabled: "true",
			target_kind: "static",
			target: "https://example.com/",
			status_code: "301",
		});
		expect(expression.status).toBe(400);
		expect(await expression.text()).toMatch(/id="rule-expression-error"/);
	});

	it("edits and deletes a rule", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		await post(browser, `/zones/${zone}/rules/response-headers/new`, {
			description: "frame",
			expression: "true",
			enabled: "true",
			name_0: "X-Frame-Options",
			operation_0: "set",
			kind_0: "static",
			value_0: "DENY",
		});
		const [rule] = await rulesOf(zone, "http_response_headers_transform");
		const edit = await open(browser, `/zones/${zone}/rules/response-headers/${rule?.id}`);
		expect(edit.status).toBe(200);
		expect(await edit.text()).toContain('value="X-Frame-Options"');
		const saved = await post(browser, `/zones/${zone}/rules/response-headers/${rule?.id}`, {
			description: "frame",
			expression: "true",
			name_0: "X-Frame-Options",
			operation_0: "set",
			kind_0: "static",
			value_0: "SAMEORIGIN",
		});
		expect(saved.status).toBe(303);
		expect(await rulesOf(zone, "http_response_headers_transform")).toEqual([
			expect.objectContaining({
				id: rule?.id,
				enabled: false,
				action_parameters: { headers: { "X-Frame-Options": { operation: "set", value: "SAMEORIGIN" } } },
			}),
		]);
		const deleted = await post(browser, `/zones/${zone}/rules/response-headers/${rule?.id}/delete`, {});
		expect(deleted.headers.get("location")).toBe(`/zones/${zone}/rules?done=deleted`);
		expect(await rulesOf(zone, "http_response_headers_transform")).toEqual([]);
	});
});
