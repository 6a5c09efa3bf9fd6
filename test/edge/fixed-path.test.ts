import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { firewall } from "../../src/edge/firewall";
import { openLogTap } from "../../src/edge/log-entry";
import { publicBucketOf } from "../../src/edge/r2-domain/hosts";
import { isS3Request } from "../../src/edge/s3/auth/detect";
import { zoneForHost } from "../../src/edge/zone-routing";
import { zoneView } from "../../src/edge/zone-view";
import { DEFAULT_ZONE_ID } from "../api/credentials";

/**
 * The edge's fixed cost per request (BENCHMARKS.md, "Where the edge's fixed cost goes"): once the
 * isolate's caches are warm, every lookup a request makes before its destination answers at
 * once, not as a promise, each of which costs the runtime thousands of instructions.
 */
describe("the edge's per-request lookups, with the isolate's caches fresh", () => {
	it("answer at once: the zone, its view, S3 detection, the firewall, the log tap, the R2 custom domain host", async () => {
		const now = Date.now();
		const host = "localhost";
		// The first reads fill the caches (a promise each, from the Durable Objects).
		const zone = await zoneForHost(env, host, now);
		expect(zone.id).toBe(DEFAULT_ZONE_ID);
		await zoneView(env, zone.id, now);
		await publicBucketOf(env, host, now);
		const later = now + 1;
		const url = new URL(`http://${host}/some/key`);
		const request = new Request(url, { headers: { authorization: "Bearer dev-token" } });
		const context = { rayId: "0123456789abcdef", zoneName: zone.name, receivedAt: later };
		for (const answer of [
			zoneForHost(env, host, later),
			zoneView(env, zone.id, later),
			isS3Request(request, url, env, later),
			firewall(env, zone.id, () => ({}), context.rayId, later),
			openLogTap(env, createExecutionContext(), zone.id, context),
			publicBucketOf(env, host, later),
		]) {
			expect(answer).not.toBeInstanceOf(Promise);
		}
		expect(zoneForHost(env, host, later)).toEqual(zone);
		expect(isS3Request(request, url, env, later)).toBe(false);
		expect(publicBucketOf(env, host, later)).toBeUndefined();
	});
});
