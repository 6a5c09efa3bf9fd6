/**
 * R2 custom domains and the r2.dev toggle through the official `cloudflare` SDK, unchanged
 * (`client.r2.buckets.domains.custom.*` and `.managed.*`); a file of its own for the SDK's size
 * (docs/architecture.md, "Tests").
 */
import { env } from "cloudflare:workers";
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { R2_ADMIN_READ_TOKEN, R2_ZONE_EDIT_TOKEN, READ_TOKEN } from "./credentials";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

const account_id = env.DEFAULT_ACCOUNT_ID;
const BUCKET = "edgezone-bucket";

/** The error an SDK call fails with. */
const failure = (promise: Promise<unknown>) =>
	promise.then(
		() => undefined,
		(e: unknown) => e as InstanceType<typeof Cloudflare.APIError>,
	);

/** A fresh zone and its name. */
async function zone(cf: Cloudflare): Promise<{ zoneId: string; zoneName: string }> {
	const zoneId = await freshZone();
	return { zoneId, zoneName: (await cf.zones.get({ zone_id: zoneId })).name };
}

describe("client.r2.buckets.domains.custom", () => {
	it("connects, lists, gets, updates and removes a custom domain", async () => {
		const cf = sdkClient();
		const { zoneId, zoneName } = await zone(cf);
		const domain = `cdn.${zoneName}`;
		const created = await cf.r2.buckets.domains.custom.create(BUCKET, {
			account_id,
			domain: domain.toUpperCase(),
			zoneId,
			enabled: true,
		});
		expect(created).toStrictEqual({ domain, enabled: true, zoneId, minTLS: "1.0" });

		const listed = await cf.r2.buckets.domains.custom.list(BUCKET, { account_id });
		expect(listed.domains.filter((d) => d.zoneId === zoneId)).toStrictEqual([
			{ domain, enabled: true, status: { ownership: "active", ssl: "active" }, minTLS: "1.0", zoneId, zoneName },
		]);

		const updated = await cf.r2.buckets.domains.custom.update(domain, {
			account_id,
			bucket_name: BUCKET,
			minTLS: "1.2",
			ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"],
		});
		expect(updated).toStrictEqual({ domain, enabled: true, minTLS: "1.2", ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"] });
		// An absent field keeps its value: minTLS "defaults to previous value" (the SDK's docs).
		await cf.r2.buckets.domains.custom.update(domain, { account_id, bucket_name: BUCKET, enabled: false });
		expect(await cf.r2.buckets.domains.custom.get(domain, { account_id, bucket_name: BUCKET })).toMatchObject({
			domain,
			enabled: false,
			minTLS: "1.2",
			zoneName,
		});

		expect(await cf.r2.buckets.domains.custom.delete(domain, { account_id, bucket_name: BUCKET })).toStrictEqual({
			domain,
		});
		const gone = await failure(cf.r2.buckets.domains.custom.get(domain, { account_id, bucket_name: BUCKET }));
		expect(gone).toBeInstanceOf(Cloudflare.NotFoundError);
		expect(gone?.errors).toMatchObject([{ code: 10061 }]);
	});

	it("refuses an unknown bucket, a domain outside its zone, a taken domain and a partial zone", async () => {
		const cf = sdkClient();
		const { zoneId, zoneName } = await zone(cf);
		const noBucket = await failure(
			cf.r2.buckets.domains.custom.create("no-such-bucket", {
				account_id,
				domain: `a.${zoneName}`,
				zoneId,
				enabled: true,
			}),
		);
		expect(noBucket).toBeInstanceOf(Cloudflare.NotFoundError);
		expect(noBucket?.errors).toStrictEqual([{ code: 10006, message: "The specified bucket does not exist." }]);

		const outside = await failure(
			cf.r2.buckets.domains.custom.create(BUCKET, { account_id, domain: "cdn.elsewhere.test", zoneId, enabled: true }),
		);
		expect(outside).toBeInstanceOf(Cloudflare.BadRequestError);
		expect(outside?.errors).toMatchObject([{ code: 10040, source: { pointer: "/domain" } }]);

		const unknownZone = await failure(
			cf.r2.buckets.domains.custom.create(BUCKET, {
				account_id,
				domain: `b.${zoneName}`,
				zoneId: "0".repeat(32),
				enabled: true,
			}),
		);
		expect(unknownZone?.errors).toMatchObject([{ code: 10040, source: { pointer: "/zoneId" } }]);

		await cf.r2.buckets.domains.custom.create(BUCKET, { account_id, domain: `c.${zoneName}`, zoneId, enabled: true });
		const taken = await failure(
			cf.r2.buckets.domains.custom.create("edgezone-logs", {
				account_id,
				domain: `c.${zoneName}`,
				zoneId,
				enabled: true,
			}),
		);
		expect(taken).toBeInstanceOf(Cloudflare.ConflictError);
		expect(taken?.errors).toMatchObject([{ code: 10062 }]);

		await cf.zones.edit({ zone_id: zoneId, type: "partial" });
		const partial = await failure(
			cf.r2.buckets.domains.custom.create(BUCKET, { account_id, domain: `d.${zoneName}`, zoneId, enabled: true }),
		);
		expect(partial?.errors).toMatchObject([{ code: 10040, source: { pointer: "/zoneId" } }]);
	});

	it("forgets a zone's custom domains when the zone is deleted", async () => {
		const cf = sdkClient();
		const { zoneId, zoneName } = await zone(cf);
		await cf.r2.buckets.domains.custom.create(BUCKET, { account_id, domain: zoneName, zoneId, enabled: true });
		await cf.zones.delete({ zone_id: zoneId });
		const listed = await cf.r2.buckets.domains.custom.list(BUCKET, { account_id });
		expect(listed.domains.map((d) => d.domain)).not.toContain(zoneName);
	});

	it("reads with Workers R2 Storage Read, writes with Edit, and refuses a token of listed zones", async () => {
		const { zoneId, zoneName } = await zone(sdkClient());
		const create = (token: string) =>
			sdkClient(token).r2.buckets.domains.custom.create(BUCKET, {
				account_id,
				domain: `p.${zoneName}`,
				zoneId,
				enabled: true,
			});
		for (const token of [R2_ADMIN_READ_TOKEN, READ_TOKEN, R2_ZONE_EDIT_TOKEN]) {
			const refused = await failure(create(token));
			expect(refused, token).toBeInstanceOf(Cloudflare.PermissionDeniedError);
		}
		await expect(
			sdkClient(R2_ADMIN_READ_TOKEN).r2.buckets.domains.custom.list(BUCKET, { account_id }),
		).resolves.toBeTruthy();
		const zoneToken = await failure(
			sdkClient(R2_ZONE_EDIT_TOKEN).r2.buckets.domains.custom.list(BUCKET, { account_id }),
		);
		expect(zoneToken).toBeInstanceOf(Cloudflare.PermissionDeniedError);
		const otherAccount = await failure(
			sdkClient().r2.buckets.domains.custom.list(BUCKET, { account_id: "f".repeat(32) }),
		);
		expect(otherAccount).toBeInstanceOf(Cloudflare.PermissionDeniedError);
	});
});

describe("client.r2.buckets.domains.managed", () => {
	it("turns the r2.dev URL on and off, naming the same pub-<id>.r2.dev host", async () => {
		const cf = sdkClient();
		const before = await cf.r2.buckets.domains.managed.list("edgezone-logs", { account_id });
		expect(before.enabled).toBe(false);
		expect(before.domain).toBe(`pub-${before.bucketId}.r2.dev`);
		expect(before.bucketId).toMatch(/^[0-9a-f]{32}$/);
		const on = await cf.r2.buckets.domains.managed.update("edgezone-logs", { account_id, enabled: true });
		expect(on).toStrictEqual({ ...before, enabled: true });
		expect(await cf.r2.buckets.domains.managed.list("edgezone-logs", { account_id })).toStrictEqual(on);
		const off = await cf.r2.buckets.domains.managed.update("edgezone-logs", { account_id, enabled: false });
		expect(off).toStrictEqual(before);
		const other = await cf.r2.buckets.domains.managed.list(BUCKET, { account_id });
		expect(other.bucketId).not.toBe(before.bucketId);
	});
});

describe("a created bucket's public access", () => {
	it("serves a bucket created at run time, and goes with it: the name created again has no domain and no r2.dev", async () => {
		const cf = sdkClient();
		const { zoneId, zoneName } = await zone(cf);
		const name = `domains-${crypto.randomUUID().slice(0, 8)}`;
		await cf.r2.buckets.create({ account_id, name });
		await cf.r2.buckets.domains.custom.create(name, { account_id, domain: `files.${zoneName}`, zoneId, enabled: true });
		await cf.r2.buckets.domains.managed.update(name, { account_id, enabled: true });
		expect((await cf.r2.buckets.domains.custom.list(name, { account_id })).domains).toHaveLength(1);

		await cf.r2.buckets.delete(name, { account_id });
		await cf.r2.buckets.create({ account_id, name });
		expect((await cf.r2.buckets.domains.custom.list(name, { account_id })).domains).toStrictEqual([]);
		expect((await cf.r2.buckets.domains.managed.list(name, { account_id })).enabled).toBe(false);
		await cf.r2.buckets.delete(name, { account_id });
	});
});
