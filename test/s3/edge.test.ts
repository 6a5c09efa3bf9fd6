/**
 * S3 requests are edge requests: the zone of their Host, its firewall and its log tap see them
 * as they see the native dialect's, and the answer carries the ray id as `x-amz-request-id`.
 */
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { configure, flush, records, zoneWithHost } from "../edge/logs-helpers";
import { BUCKET, bucket, s3 } from "./helpers";

describe("S3 at the edge", () => {
	it("passes the zone's firewall: a blocked path stores nothing, another is served", async () => {
		const { zone_id, host } = await zoneWithHost("s3-fw");
		const res = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ action: "block", filter: { expression: `starts_with(http.request.uri.path, "/${BUCKET}/blocked/")` } },
		]);
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const k = `blocked/${crypto.randomUUID()}`;
		const response = await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, undefined, `http://${host}`);
		// The firewall's block page, not an S3 answer: the request never reached the dialect.
		expect(response.status).toBe(403);
		expect(response.headers.get("x-amz-request-id")).toBeNull();
		await response.arrayBuffer();
		expect(await bucket().head(k)).toBeNull();
		const allowed = `allowed/${crypto.randomUUID()}`;
		const served = await s3(`/${BUCKET}/${allowed}`, { method: "PUT", body: "y" }, undefined, `http://${host}`);
		expect(served.status).toBe(200);
		expect(await (await bucket().get(allowed))?.text()).toBe("y");
	});

	it("is logged like every edge request, under the ray id it answers as x-amz-request-id", async () => {
		const { zone_id, host } = await zoneWithHost("s3-logs");
		await configure(zone_id, {
			request_fields: [{ name: "x-amz-date" }],
			response_fields: [{ name: "content-type" }],
			cookie_fields: [{ name: "session" }],
		});
		const response = await s3(`/${BUCKET}/logged-${crypto.randomUUID()}`, {}, undefined, `http://${host}`);
		expect(response.status).toBe(404);
		await response.arrayBuffer();
		const requestId = response.headers.get("x-amz-request-id");
		expect(response.headers.get("cf-ray")?.split("-")[0]).toBe(requestId);
		const [delivery] = await flush(zone_id);
		const entries = await records(delivery?.objects ?? []);
		expect(entries.map((entry) => entry.RayID)).toContain(requestId);
	});
});
