/**
 * Edge logs end to end: custom fields configured and a job created as the docs' custom-fields
 * steps do (https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/), gateway
 * requests with headers and cookies, a flush, and the delivered objects read back from the
 * destination bucket.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { sdkClient } from "../api/sdk";
import { configure, edgeRequest, flush, gunzipped, records, uniquePath, zoneWithHost } from "./logs-helpers";

describe("edge logs, the spec's flow", () => {
	it("delivers each request with the configured headers and cookies", async () => {
		const { zone_id, host } = await zoneWithHost();
		const { path } = await configure(zone_id, {
			request_fields: [{ name: "content-type" }, { name: "x-forwarded-for" }],
			response_fields: [{ name: "server" }, { name: "content-type" }, { name: "etag" }],
			cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }, { name: "__cfruid" }],
		});
		const put = await edgeRequest(host, "/logs/a.txt", {
			method: "PUT",
			body: "hello",
			headers: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.7" },
		});
		expect(put.status).toBe(200);
		const get = await edgeRequest(host, "/logs/a.txt", {
			headers: { cookie: "__ga=GA1.2.3; accountNumber=12345; other=x", "X-Forwarded-For": "203.0.113.9" },
		});
		expect(get.status).toBe(200);
		const deliveries = await flush(zone_id);
		expect(deliveries).toHaveLength(1);
		expect(deliveries[0]).toMatchObject({ entries: 2, records: 2 });
		const keys = deliveries[0]?.objects ?? [];
		const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
		for (const key of keys)
			expect(key).toMatch(new RegExp(`^${path}/${today}/\\d{8}T\\d{6}Z_\\d{8}T\\d{6}Z_[0-9a-f]{8}\\.log\\.gz$`));
		const entries = await records(keys);
		const byRay = new Map(entries.map((e) => [e.RayID, e]));
		expect(byRay.get(put.ray)).toStrictEqual({
			RayID: put.ray,
			EdgeStartTimestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
			Cookies: {},
			RequestHeaders: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.7" },
			ResponseHeaders: { "content-type": "application/json", etag: expect.any(String) },
		});
		expect(byRay.get(get.ray)).toStrictEqual({
			RayID: get.ray,
			EdgeStartTimestamp: expect.any(String),
			Cookies: { __ga: "GA1.2.3", accountNumber: "12345" },
			RequestHeaders: { "x-forwarded-for": "203.0.113.9" },
			ResponseHeaders: { "content-type": "text/plain", etag: get.headers.get("etag") },
		});
		expect(await gunzipped(keys[0] ?? "")).toMatch(/^\{"RayID":/);
	});
});

describe("edge logs, through the cloudflare SDK", () => {
	it("configures fields and a job with the SDK and finds the entries in the destination", async () => {
		const cf = sdkClient();
		const { zone_id, host } = await zoneWithHost("sdk");
		let rulesetId: string | undefined;
		for await (const r of cf.rulesets.list({ zone_id }))
			if (r.kind === "zone" && r.phase === "http_log_custom_fields") rulesetId = r.id;
		if (rulesetId === undefined) {
			const created = await cf.rulesets.create({
				zone_id,
				name: "Zone-level phase entry point",
				kind: "zone",
				description: "This ruleset configures custom log fields.",
				phase: "http_log_custom_fields",
			});
			rulesetId = (created as { id: string }).id;
		}
		await cf.rulesets.update(rulesetId, {
			zone_id,
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					description: "Set Logpush custom fields for HTTP requests",
					action_parameters: {
						request_fields: [{ name: "x-request-id" }],
						response_fields: [{ name: "content-type" }],
						cookie_fields: [{ name: "Theme" }],
					},
				},
			],
		});
		const path = uniquePath(zone_id, "sdk");
		const job = await cf.logpush.jobs.create({
			zone_id,
			name: "sdk-example",
			destination_conf: `r2://edgezone-logs/${path}/{DATE}`,
			dataset: "http_requests",
			enabled: true,
			output_options: {
				field_names: ["RayID", "ClientRequestPath", "Cookies", "RequestHeaders", "ResponseHeaders"],
				timestamp_format: "rfc3339",
			},
		});
		const res = await edgeRequest(host, "/sdk/missing", { headers: { "x-request-id": "req-1", cookie: "Theme=dark" } });
		expect(res.status).toBe(404);
		const [delivery] = await flush(zone_id);
		expect(delivery?.records).toBe(1);
		const [entry] = await records(delivery?.objects ?? []);
		expect(entry).toStrictEqual({
			RayID: res.ray,
			ClientRequestPath: "/sdk/missing",
			Cookies: { Theme: "dark" },
			RequestHeaders: { "x-request-id": "req-1" },
			ResponseHeaders: { "content-type": "application/json" },
		});
		const after = await cf.logpush.jobs.get(job?.id ?? 0, { zone_id });
		expect(after?.last_complete).toMatch(/^\d{4}-\d\d-\d\dT/);
		expect(after?.last_error).toBeNull();
		expect(after?.error_message).toBeNull();
	});
});

describe("the fields of an entry", () => {
	it("records the request, the answer and the zone, with documented absent values", async () => {
		const { zone_id, host } = await zoneWithHost("fields");
		await configure(
			zone_id,
			{ request_fields: [{ name: "x-none" }] },
			{
				output_options: {
					field_names: [
						"RayID",
						"ClientIP",
						"ClientRequestHost",
						"ClientRequestMethod",
						"ClientRequestURI",
						"ClientRequestPath",
						"ClientRequestScheme",
						"ClientRequestUserAgent",
						"ClientRequestReferer",
						"ClientRequestBytes",
						"EdgeResponseStatus",
						"EdgeResponseBytes",
						"EdgeResponseBodyBytes",
						"EdgeResponseContentType",
						"EdgeStartTimestamp",
						"EdgeEndTimestamp",
						"EdgeTimeToFirstByteMs",
						"CacheCacheStatus",
						"OriginResponseStatus",
						"ZoneName",
						"SecurityAction",
						"SecurityActions",
						"BotScore",
						"EdgePathingOp",
					],
					timestamp_format: "unix",
				},
			},
		);
		await edgeRequest(host, "/f/obj.bin", {
			method: "PUT",
			body: "x".repeat(1024),
			headers: { "content-type": "application/octet-stream" },
		});
		const sent = { "cf-connecting-ip": "192.0.2.10", "user-agent": "curl/8", referer: "https://ref.example/" };
		const res = await edgeRequest(host, "/f/obj.bin?x=1", { headers: sent });
		const head = await edgeRequest(host, "/f/obj.bin", { method: "HEAD" });
		const [delivery] = await flush(zone_id);
		const entries = await records(delivery?.objects ?? []);
		const get = entries.find((e) => e.RayID === res.ray);
		expect(get).toMatchObject({
			ClientIP: "192.0.2.10",
			ClientRequestHost: host,
			ClientRequestMethod: "GET",
			ClientRequestURI: "/f/obj.bin?x=1",
			ClientRequestPath: "/f/obj.bin",
			ClientRequestScheme: "http",
			ClientRequestUserAgent: "curl/8",
			ClientRequestReferer: "https://ref.example/",
			EdgeResponseStatus: 200,
			EdgeResponseBodyBytes: 1024,
			EdgeResponseContentType: "application/octet-stream",
			CacheCacheStatus: "dynamic",
			OriginResponseStatus: 200,
			ZoneName: host,
			SecurityAction: "",
			SecurityActions: [],
			BotScore: 0,
			EdgePathingOp: "unknown",
		});
		// Heads in HTTP/1.1 form: the first line, `name: value` per header, each ending in CRLF, a blank line.
		const headBytes = (first: string, headers: Iterable<[string, string]>) =>
			[...headers].reduce((bytes, [name, value]) => bytes + name.length + value.length + 4, first.length + 4);
		const requestHeaders = new Headers({ ...sent, authorization: "Bearer test-rw" });
		expect(get?.ClientRequestBytes).toBe(headBytes("GET /f/obj.bin?x=1 HTTP/1.1", requestHeaders));
		// The response as sent: CF-Ray included.
		expect(res.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		expect(get?.EdgeResponseBytes).toBe(headBytes("HTTP/1.1 200 OK", res.headers) + 1024);
		expect(Math.abs((get?.EdgeStartTimestamp as number) - Date.now() / 1000)).toBeLessThan(60);
		expect(get?.EdgeEndTimestamp as number).toBeGreaterThanOrEqual(get?.EdgeStartTimestamp as number);
		expect(entries.find((e) => e.RayID === head.ray)).toMatchObject({
			ClientRequestMethod: "HEAD",
			EdgeResponseBodyBytes: 0,
		});
	});

	it("counts a body without Content-Length (chunked) in ClientRequestBytes, as the gateway reads it", async () => {
		const { zone_id, host } = await zoneWithHost("chunked");
		await configure(
			zone_id,
			{ request_fields: [{ name: "x-none" }] },
			{
				output_options: { field_names: ["RayID", "ClientRequestBytes"] },
			},
		);
		const chunks = ["a".repeat(1000), "b".repeat(2345)];
		const body = new ReadableStream<Uint8Array>({
			pull(controller) {
				const next = chunks.shift();
				if (next === undefined) controller.close();
				else controller.enqueue(new TextEncoder().encode(next));
			},
		});
		const headers = new Headers({ authorization: "Bearer test-rw", "content-type": "text/plain" });
		const response = await exports.default.fetch(`http://${host}/chunked.txt`, { method: "PUT", headers, body });
		expect(response.status).toBe(200);
		expect(headers.has("content-length")).toBe(false);
		const ray = (response.headers.get("cf-ray") ?? "").split("-")[0];
		const stored = await edgeRequest(host, "/chunked.txt");
		expect(stored.text).toBe(`${"a".repeat(1000)}${"b".repeat(2345)}`);
		const [delivery] = await flush(zone_id);
		const entry = (await records(delivery?.objects ?? [])).find((e) => e.RayID === ray);
		const head = [...headers].reduce(
			(n, [name, value]) => n + name.length + value.length + 4,
			"PUT /chunked.txt HTTP/1.1".length + 4,
		);
		// The runtime sends such a body with Transfer-Encoding: chunked, a header of the head too.
		expect(entry?.ClientRequestBytes).toBe(head + "transfer-encoding: chunked\r\n".length + 3345);
	});

	it("logs a request the firewall answered, with the rule that ended it", async () => {
		const { zone_id, host } = await zoneWithHost("fw");
		await configure(
			zone_id,
			{ request_fields: [{ name: "x-a" }] },
			{
				output_options: {
					field_names: [
						"RayID",
						"EdgeResponseStatus",
						"OriginResponseStatus",
						"SecurityAction",
						"SecurityRuleID",
						"SecurityActions",
						"SecuritySources",
						"FirewallMatchesActions",
						"FirewallMatchesRuleIDs",
						"FirewallMatchesSources",
						"RequestHeaders",
					],
				},
			},
		);
		const rules = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: [
				{ action: "log", expression: 'starts_with(http.request.uri.path, "/")' },
				{ action: "block", expression: 'http.request.uri.path eq "/private"' },
			],
		});
		expect(rules.status).toBe(200);
		const [logRule, blockRule] = (rules.body.result as { rules: { id: string }[] }).rules;
		const blocked = await edgeRequest(host, "/private", { headers: { "x-a": "1" } });
		expect(blocked.status).toBe(403);
		const [delivery] = await flush(zone_id);
		const [entry] = (await records(delivery?.objects ?? [])).filter((e) => e.RayID === blocked.ray);
		expect(entry).toStrictEqual({
			RayID: blocked.ray,
			EdgeResponseStatus: 403,
			OriginResponseStatus: 0,
			SecurityAction: "block",
			SecurityRuleID: blockRule?.id,
			SecurityActions: ["log", "block"],
			SecuritySources: ["firewallCustom", "firewallCustom"],
			FirewallMatchesActions: ["log", "block"],
			FirewallMatchesRuleIDs: [logRule?.id, blockRule?.id],
			FirewallMatchesSources: ["firewallCustom", "firewallCustom"],
			RequestHeaders: { "x-a": "1" },
		});
	});
});
