// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the Rules language's replacements write ${N}, not templates
/**
 * Redirect, Transform and Origin Rules at the edge, through the front door, in Cloudflare's
 * order of phases: a redirect answers before the rewrite and the firewall run; the firewall sees
 * the rewritten URL; the bucket gateway (the zone's origin) is sent the rewritten key and the
 * transformed headers; the response header rules reach every answer; the log records the
 * headers the visitor sent.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { configure, edgeRequest, flush, records, zoneWithHost } from "./logs-helpers";

/** Puts the zone's entrypoint ruleset of `phase`, expecting 200. */
async function rules(zone_id: string, phase: string, list: object[]): Promise<void> {
	const res = await call("PUT", `/zones/${zone_id}/rulesets/phases/${phase}/entrypoint`, { rules: list });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** GET `path` of `host` without following a redirect. */
function unfollowed(host: string, path: string): Promise<Response> {
	return exports.default.fetch(`http://${host}${path}`, {
		redirect: "manual",
		headers: { authorization: "Bearer test-rw" },
	});
}

/** A zone with an object at `key` (its body is `key` itself). */
async function zoneWithObject(key: string, headers: HeadersInit = {}) {
	const zone = await zoneWithHost("rules");
	const put = await edgeRequest(zone.host, `/${key}`, { method: "PUT", body: key, headers });
	expect(put.status).toBe(200);
	return zone;
}

describe("URL rewrites", () => {
	it("send the gateway the rewritten key, from a value or an expression", async () => {
		const { zone_id, host } = await zoneWithObject("new/a.txt");
		await rules(zone_id, "http_request_transform", [
			{
				action: "rewrite",
				expression: 'starts_with(http.request.uri.path, "/old/")',
				action_parameters: {
					uri: { path: { expression: 'regex_replace(http.request.uri.path, "^/old/(.*)$", "/new/${1}")' } },
				},
			},
			{
				action: "rewrite",
				expression: 'http.request.uri.path eq "/latest"',
				action_parameters: { uri: { path: { value: "/new/a.txt" } } },
			},
		]);
		expect(await edgeRequest(host, "/old/a.txt")).toMatchObject({ status: 200, text: "new/a.txt" });
		expect(await edgeRequest(host, "/latest")).toMatchObject({ status: 200, text: "new/a.txt" });
		expect((await edgeRequest(host, "/other/a.txt")).status).toBe(404);
	});

	it("are what the firewall sees, while raw fields keep the visitor's URL", async () => {
		const { zone_id, host } = await zoneWithObject("new/secret.txt");
		await rules(zone_id, "http_request_transform", [
			{
				action: "rewrite",
				expression: 'http.request.uri.path wildcard "/old/*"',
				action_parameters: {
					uri: {
						path: { expression: 'wildcard_replace(http.request.uri.path, "/old/*", "/new/${1}")' },
						query: { value: "rewritten=1" },
					},
				},
			},
		]);
		await rules(zone_id, "http_request_firewall_custom", [
			{
				action: "block",
				expression: 'http.request.uri.path eq "/new/secret.txt" and http.request.uri.query eq "rewritten=1"',
			},
		]);
		expect((await edgeRequest(host, "/old/secret.txt?v=1")).status).toBe(403);
		expect((await edgeRequest(host, "/new/secret.txt")).status).toBe(200);
		await rules(zone_id, "http_request_firewall_custom", [
			{
				action: "block",
				expression: 'raw.http.request.uri.path eq "/old/secret.txt" and raw.http.request.uri.query eq "v=1"',
			},
		]);
		expect((await edgeRequest(host, "/old/secret.txt?v=1")).status).toBe(403);
		expect(await edgeRequest(host, "/old/secret.txt?v=2")).toMatchObject({ status: 200, text: "new/secret.txt" });
	});
});

describe("Single Redirects", () => {
	it("answer the first matching rule's redirect, its status 301 unless set, the query kept when asked", async () => {
		const { zone_id, host } = await zoneWithHost("redirect");
		await rules(zone_id, "http_request_dynamic_redirect", [
			{
				action: "redirect",
				expression: 'http.request.uri.path eq "/home"',
				action_parameters: {
					from_value: {
						target_url: { expression: 'concat("https://", http.host, "/welcome")' },
						status_code: 308,
						preserve_query_string: true,
					},
				},
			},
			{
				action: "redirect",
				expression: 'starts_with(http.request.uri.path, "/h")',
				action_parameters: { from_value: { target_url: { value: "https://example.com/?from=edge" } } },
			},
		]);
		const home = await unfollowed(host, "/home?a=1");
		expect(home.status).toBe(308);
		expect(home.headers.get("location")).toBe(`https://${host}/welcome?a=1`);
		expect(home.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		const other = await unfollowed(host, "/hello?a=1");
		expect(other.status).toBe(301);
		expect(other.headers.get("location")).toBe("https://example.com/?from=edge");
	});

	it("run before the URL rewrite and the firewall", async () => {
		const { zone_id, host } = await zoneWithHost("redirect");
		await rules(zone_id, "http_request_firewall_custom", [{ action: "block", expression: "true" }]);
		await rules(zone_id, "http_request_transform", [
			{ action: "rewrite", expression: "true", action_parameters: { uri: { path: { value: "/elsewhere" } } } },
		]);
		await rules(zone_id, "http_request_dynamic_redirect", [
			{
				action: "redirect",
				expression: 'http.request.uri.path eq "/go"',
				action_parameters: { from_value: { target_url: { value: "https://example.com/" }, status_code: 302 } },
			},
		]);
		expect((await unfollowed(host, "/go")).status).toBe(302);
		expect((await edgeRequest(host, "/elsewhere")).status).toBe(403);
	});
});

describe("request header rules", () => {
	it("send the gateway the headers they set, add and remove", async () => {
		const { zone_id, host } = await zoneWithObject("open.txt");
		await rules(zone_id, "http_request_late_transform", [
			{
				action: "rewrite",
				expression: 'http.request.uri.path eq "/open.txt"',
				action_parameters: { headers: { Authorization: { operation: "set", value: "Bearer test-ro" } } },
			},
			{
				action: "rewrite",
				expression: 'http.request.uri.path eq "/closed.txt"',
				action_parameters: { headers: { authorization: { operation: "remove" } } },
			},
			{
				action: "rewrite",
				expression: 'http.request.method eq "PUT"',
				action_parameters: {
					headers: {
						"content-type": { operation: "set", expression: 'concat("text/", http.request.uri.path.extension)' },
					},
				},
			},
		]);
		expect(await edgeRequest(host, "/open.txt", { headers: { authorization: "Bearer wrong" } })).toMatchObject({
			status: 200,
			text: "open.txt",
		});
		expect((await edgeRequest(host, "/closed.txt", { method: "PUT", body: "x" })).status).toBe(401);
		expect(
			(await edgeRequest(host, "/typed.plain", { method: "PUT", body: "x", headers: { "content-type": "a/b" } }))
				.status,
		).toBe(200);
		const typed = await edgeRequest(host, "/typed.plain");
		expect(typed.headers.get("content-type")).toBe("text/plain");
	});

	it("leave the log's custom fields the headers the visitor sent", async () => {
		const { zone_id, host } = await zoneWithHost("rules-log");
		await configure(zone_id, { request_fields: [{ name: "x-request-id" }, { name: "x-added" }] });
		await rules(zone_id, "http_request_late_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: {
					headers: {
						"x-request-id": { operation: "set", value: "rewritten" },
						"x-added": { operation: "set", value: "by-rule" },
					},
				},
			},
		]);
		const res = await edgeRequest(host, "/missing", { headers: { "x-request-id": "req-1" } });
		expect(res.status).toBe(404);
		const [delivery] = await flush(zone_id);
		const [entry] = await records(delivery?.objects ?? []);
		expect(entry?.RequestHeaders).toStrictEqual({ "x-request-id": "req-1" });
	});

	it("give transformed_request_fields the headers as the rules left them, beside request_fields' as sent", async () => {
		const { zone_id, host } = await zoneWithHost("rules-log-transformed");
		await configure(zone_id, {
			request_fields: [{ name: "x-request-id" }],
			transformed_request_fields: [{ name: "x-added" }, { name: "x-tenant" }],
		});
		await rules(zone_id, "http_request_late_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: {
					headers: {
						"x-request-id": { operation: "set", value: "rewritten" },
						"x-added": { operation: "set", value: "by-rule" },
						"x-tenant": { operation: "remove" },
					},
				},
			},
		]);
		const res = await edgeRequest(host, "/missing", { headers: { "x-request-id": "req-1", "x-tenant": "acme" } });
		expect(res.status).toBe(404);
		const [delivery] = await flush(zone_id);
		const [entry] = await records(delivery?.objects ?? []);
		expect(entry?.RequestHeaders).toStrictEqual({ "x-request-id": "req-1", "x-added": "by-rule" });
	});
});

describe("response header rules", () => {
	it("change the headers of the gateway's answers and of the edge's own pages", async () => {
		const { zone_id, host } = await zoneWithObject("page.txt");
		await rules(zone_id, "http_response_headers_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: {
					headers: {
						"x-frame-options": { operation: "set", value: "DENY" },
						"set-cookie": { operation: "add", value: "seen=1" },
						etag: { operation: "remove" },
						"x-path": { operation: "set", expression: "http.request.uri.path" },
					},
				},
			},
		]);
		const page = await edgeRequest(host, "/page.txt");
		expect(page.status).toBe(200);
		expect(page.headers.get("x-frame-options")).toBe("DENY");
		expect(page.headers.get("set-cookie")).toBe("seen=1");
		expect(page.headers.get("etag")).toBeNull();
		expect(page.headers.get("x-path")).toBe("/page.txt");
		await rules(zone_id, "http_request_firewall_custom", [
			{ action: "block", expression: 'http.request.uri.path eq "/page.txt"' },
		]);
		const blocked = await edgeRequest(host, "/page.txt");
		expect(blocked.status).toBe(403);
		expect(blocked.headers.get("x-frame-options")).toBe("DENY");
	});
});

describe("response header rules that read the response", () => {
	it("match on the answer's status, media type and headers", async () => {
		const { zone_id, host } = await zoneWithObject("page.html", { "content-type": "text/html; charset=utf-8" });
		await rules(zone_id, "http_response_headers_transform", [
			{
				action: "rewrite",
				expression: "http.response.code eq 404",
				action_parameters: { headers: { "x-missing": { operation: "set", value: "yes" } } },
			},
			{
				action: "rewrite",
				expression: 'http.response.content_type.media_type eq "text/html"',
				action_parameters: {
					headers: { "content-security-policy": { operation: "set", value: "default-src 'self'" } },
				},
			},
			{
				action: "rewrite",
				expression:
					'any(http.response.headers["etag"][*] ne "") and not any(raw.http.response.headers.names[*] eq "x-missing")',
				action_parameters: {
					headers: { "x-etag": { operation: "set", expression: 'http.response.headers["etag"][0]' } },
				},
			},
		]);
		const page = await edgeRequest(host, "/page.html");
		expect(page.status).toBe(200);
		expect(page.headers.get("x-missing")).toBeNull();
		expect(page.headers.get("content-security-policy")).toBe("default-src 'self'");
		expect(page.headers.get("x-etag")).toBe(page.headers.get("etag"));
		const missing = await edgeRequest(host, "/nothing.html");
		expect(missing.status).toBe(404);
		expect(missing.headers.get("x-missing")).toBe("yes");
		expect(missing.headers.get("x-etag")).toBeNull();
	});

	it("are refused in a request phase, as any field the phase does not have", async () => {
		const { zone_id } = await zoneWithHost("rules-response-fields");
		for (const [phase, rule] of [
			[
				"http_request_late_transform",
				{
					action: "rewrite",
					expression: "http.response.code eq 404",
					action_parameters: { headers: { "x-a": { operation: "set", value: "b" } } },
				},
			],
			[
				"http_request_transform",
				{
					action: "rewrite",
					expression: "true",
					action_parameters: { uri: { path: { expression: 'http.response.headers["location"][0]' } } },
				},
			],
			["http_request_firewall_custom", { action: "block", expression: "http.response.code eq 404" }],
		] as const) {
			const res = await call("PUT", `/zones/${zone_id}/rulesets/phases/${phase}/entrypoint`, { rules: [rule] });
			expect(res.status, phase).toBe(400);
			const body = res.body as { errors: { code: number; message: string }[] };
			expect(body.errors[0]?.code, phase).toBe(20125);
			expect(body.errors[0]?.message, phase).toContain("unknown identifier");
		}
		const entry = await call("GET", `/zones/${zone_id}/rulesets/phases/http_request_late_transform/entrypoint`);
		expect(entry.status).toBe(404);
	});
});

describe("a value expression's value in a header", () => {
	it("goes out as its UTF-8 bytes, and one no header can hold changes nothing", async () => {
		const { zone_id, host } = await zoneWithHost("rules-bytes");
		await rules(zone_id, "http_response_headers_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: {
					headers: { "x-path": { operation: "set", expression: "url_decode(http.request.uri.path)" } },
				},
			},
		]);
		const accented = await edgeRequest(host, "/caf%C3%A9");
		expect(accented.status).toBe(404);
		const bytes = Uint8Array.from(accented.headers.get("x-path") ?? "", (c) => c.charCodeAt(0));
		expect(new TextDecoder().decode(bytes)).toBe("/café");
		const broken = await edgeRequest(host, "/a%0Ab");
		expect(broken.status).toBe(404);
		expect(broken.headers.get("x-path")).toBeNull();
	});

	it("redirects to its UTF-8 bytes; a target no Location can hold redirects nowhere", async () => {
		const { zone_id, host } = await zoneWithHost("rules-bytes");
		await rules(zone_id, "http_request_dynamic_redirect", [
			{
				action: "redirect",
				expression: 'starts_with(http.request.uri.path, "/go/")',
				action_parameters: {
					from_value: {
						target_url: { expression: 'concat("https://example.com", url_decode(http.request.uri.path))' },
					},
				},
			},
		]);
		const accented = await unfollowed(host, "/go/caf%C3%A9");
		expect(accented.status).toBe(301);
		const bytes = Uint8Array.from(accented.headers.get("location") ?? "", (c) => c.charCodeAt(0));
		expect(new TextDecoder().decode(bytes)).toBe("https://example.com/go/café");
		expect((await unfollowed(host, "/go/a%0Ab")).status).toBe(404);
	});
});

describe("the request's budget of work", () => {
	it("bounds a costly rewrite: refused with the edge's 400", async () => {
		const { zone_id, host } = await zoneWithHost("rules-budget");
		await rules(zone_id, "http_request_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: {
					uri: { path: { expression: 'regex_replace(http.request.uri.path, "[a-z]{1000}x", "y")' } },
				},
			},
		]);
		const res = await edgeRequest(host, `/${"a".repeat(8000)}`);
		expect(res.status).toBe(400);
		expect(res.text).toContain("units of work");
	});

	it("is one for the rewrite and the firewall: each within it alone, both past it", async () => {
		const { zone_id, host } = await zoneWithHost("rules-budget");
		const path = `/${"a".repeat(8000)}`;
		const rewrite = {
			action: "rewrite",
			expression: "true",
			action_parameters: { uri: { path: { expression: 'regex_replace(http.request.uri.path, "[a-z]{300}x", "y")' } } },
		};
		const block = { action: "block", expression: 'http.request.uri.path matches "[a-z]{300}y"' };
		await rules(zone_id, "http_request_transform", [rewrite]);
		expect((await edgeRequest(host, path)).text).not.toContain("units of work");
		await rules(zone_id, "http_request_transform", []);
		await rules(zone_id, "http_request_firewall_custom", [block]);
		expect((await edgeRequest(host, path)).text).not.toContain("units of work");
		await rules(zone_id, "http_request_transform", [rewrite]);
		const both = await edgeRequest(host, path);
		expect(both.status).toBe(400);
		expect(both.text).toContain("units of work");
	});
});
