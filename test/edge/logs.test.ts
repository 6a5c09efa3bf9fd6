/**
 * Edge logs end to end (issue 9): custom fields configured and a job created exactly as the
 * spec's flow, gateway requests with headers and cookies, a flush, and the delivered objects
 * read back from the destination bucket.
 */
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { edgeRequest, flush, gunzipped, records, uniquePath, zoneWithHost } from "./logs-helpers";

/** Spec area A, rule 2: find or create the entrypoint ruleset, PUT the rule, create the job. */
async function configure(
	zone_id: string,
	parameters: Record<string, unknown>,
	job: Record<string, unknown> = {},
): Promise<{ job_id: number; path: string }> {
	const list = await call("GET", `/zones/${zone_id}/rulesets`);
	const existing = (list.body.result as { id: string; kind: string; phase: string }[]).find(
		(r) => r.kind === "zone" && r.phase === "http_log_custom_fields",
	);
	let rulesetId = existing?.id;
	if (rulesetId === undefined) {
		const created = await call("POST", `/zones/${zone_id}/rulesets`, {
			name: "Zone-level phase entry point",
			kind: "zone",
			description: "This ruleset configures custom log fields.",
			phase: "http_log_custom_fields",
		});
		expect(created.status).toBe(200);
		rulesetId = (created.body.result as { id: string }).id;
	}
	const put = await call("PUT", `/zones/${zone_id}/rulesets/${rulesetId}`, {
		rules: [
			{
				action: "log_custom_field",
				expression: "true",
				description: "Set Logpush custom fields for HTTP requests",
				action_parameters: parameters,
			},
		],
	});
	expect(put.status, JSON.stringify(put.body)).toBe(200);
	const path = uniquePath("flow");
	const created = await call("POST", `/zones/${zone_id}/logpush/jobs`, {
		name: "example.com",
		destination_conf: `r2://edgezone-logs/${path}/{DATE}`,
		dataset: "http_requests",
		enabled: true,
		output_options: {
			field_names: ["RayID", "EdgeStartTimestamp", "Cookies", "RequestHeaders", "ResponseHeaders"],
			timestamp_format: "rfc3339",
		},
		...job,
	});
	expect(created.status, JSON.stringify(created.body)).toBe(200);
	return { job_id: (created.body.result as { id: number }).id, path };
}

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
