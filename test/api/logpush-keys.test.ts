/**
 * The S3 keys of a log-push destination (`access-key-id` and `secret-access-key` in the query of
 * r2:// and s3://) are checked as an S3 client's would be: the key must be a token's, the secret
 * its secret, and the token must write the bucket at the job's path. A job whose keys fail is
 * refused at create and update with nothing stored; one whose keys may write delivers. The keys
 * decide where: a token of every zone's anywhere in the bucket, one of listed zones' under those
 * zones' ids; only a destination without keys must lie under its own zone's id.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { edgeRequest, flush, records, uniquePath, zoneWithHost } from "../edge/logs-helpers";
import { clientOf, credentialsOf, expectS3Error, s3 } from "../s3/helpers";
import {
	DEFAULT_ZONE_ID,
	R2_BUCKET_ITEM_TOKEN,
	READ_TOKEN,
	SCOPED_TOKEN,
	SCOPED_TOKEN_ID,
	TOKEN,
	WAF_TOKEN,
} from "./credentials";
import { call } from "./http";

/** `r2://edgezone-logs/<path>` with the S3 keys of `token` (its secret replaced when told). */
async function withKeys(path: string, token: string, options: { id?: string; secret?: string } = {}) {
	const { accessKeyId, secretAccessKey } = await credentialsOf(token, options.id);
	const query = new URLSearchParams({
		"account-id": env.DEFAULT_ACCOUNT_ID,
		"access-key-id": accessKeyId,
		"secret-access-key": options.secret ?? secretAccessKey,
	});
	return `r2://edgezone-logs/${path}?${query}`;
}

const jobsPath = (zone: string) => `/zones/${zone}/logpush/jobs`;

async function expectRefused(zone: string, destination_conf: string, why: string): Promise<void> {
	const res = await call("POST", jobsPath(zone), { destination_conf });
	expect(res.status, JSON.stringify(res.body)).toBe(400);
	expect(res.body.errors).toHaveLength(1);
	expect(res.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/destination_conf" } });
	expect(res.body.errors?.[0]?.message).toMatch(/^error validating destination: error writing object: /);
	expect(res.body.errors?.[0]?.message).toContain(why);
	expect(res.body.errors?.[0]?.message).not.toContain((await credentialsOf(TOKEN)).secretAccessKey);
}

describe("log-push destination keys", () => {
	it("refuse a job whose secret is not the key's, and store nothing", async () => {
		const { zone_id } = await zoneWithHost("keys");
		await expectRefused(
			zone_id,
			await withKeys(uniquePath(zone_id, "j"), TOKEN, { secret: "0".repeat(64) }),
			"SignatureDoesNotMatch",
		);
		expect((await call("GET", jobsPath(zone_id))).body.result).toEqual([]);
	});

	it("refuse a job whose key is no token's, and one of another account", async () => {
		const { zone_id } = await zoneWithHost("keys");
		await expectRefused(
			zone_id,
			await withKeys(uniquePath(zone_id, "j"), TOKEN, { id: "0".repeat(32) }),
			"InvalidAccessKeyId",
		);
		const otherAccount = (await withKeys(uniquePath(zone_id, "j"), TOKEN)).replace(
			env.DEFAULT_ACCOUNT_ID,
			"f".repeat(32),
		);
		await expectRefused(zone_id, otherAccount, "NoSuchBucket");
		expect((await call("GET", jobsPath(zone_id))).body.result).toEqual([]);
	});

	it("refuse the keys of a read-only token, of a token without R2 permission or scoped to another bucket, and of another zone's token", async () => {
		const { zone_id } = await zoneWithHost("keys");
		await expectRefused(zone_id, await withKeys(uniquePath(zone_id, "j"), READ_TOKEN), "AccessDenied");
		await expectRefused(zone_id, await withKeys(uniquePath(zone_id, "j"), WAF_TOKEN), "AccessDenied");
		// Object Read & Write, scoped to edgezone-bucket: it may not write edgezone-logs.
		await expectRefused(zone_id, await withKeys(uniquePath(zone_id, "j"), R2_BUCKET_ITEM_TOKEN), "AccessDenied");
		// SCOPED_TOKEN reaches the default zone only: its keys write under that zone's id, not this one's.
		await expectRefused(
			zone_id,
			await withKeys(uniquePath(zone_id, "j"), SCOPED_TOKEN, { id: SCOPED_TOKEN_ID }),
			"AccessDenied",
		);
		expect((await call("GET", jobsPath(zone_id))).body.result).toEqual([]);
		// ... and are accepted under the default zone's id, which the token reaches.
		const own = await withKeys(uniquePath(DEFAULT_ZONE_ID, "scoped"), SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		const res = await call("POST", jobsPath(DEFAULT_ZONE_ID), { destination_conf: own });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		await call("DELETE", `${jobsPath(DEFAULT_ZONE_ID)}/${(res.body.result as { id: number }).id}`);
	});

	it("refuse one key without the other", async () => {
		const { zone_id } = await zoneWithHost("keys");
		const res = await call("POST", jobsPath(zone_id), {
			destination_conf: `r2://edgezone-logs/${zone_id}/j?access-key-id=${"a".repeat(32)}`,
		});
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.message).toContain("access-key-id and secret-access-key go together");
	});

	it("refuse an update to keys that may not write, leaving the job as it was", async () => {
		const { zone_id } = await zoneWithHost("keys");
		const good = await withKeys(uniquePath(zone_id, "j"), TOKEN);
		const created = await call("POST", jobsPath(zone_id), { destination_conf: good });
		expect(created.status).toBe(200);
		const id = (created.body.result as { id: number }).id;
		const res = await call("PUT", `${jobsPath(zone_id)}/${id}`, {
			destination_conf: await withKeys(uniquePath(zone_id, "j"), READ_TOKEN),
		});
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.message).toContain("AccessDenied");
		expect((await call("GET", `${jobsPath(zone_id)}/${id}`)).body.result).toMatchObject({ destination_conf: good });
	});

	it("answer an ownership challenge for keys that may not write with valid: false, writing no file", async () => {
		const { zone_id } = await zoneWithHost("keys");
		const path = uniquePath(zone_id, "challenge");
		const res = await call("POST", `/zones/${zone_id}/logpush/ownership`, {
			destination_conf: await withKeys(path, READ_TOKEN),
		});
		expect(res.body.result).toMatchObject({ valid: false });
		expect((await env.LOGS.list({ prefix: path })).objects).toEqual([]);
	});

	it("deliver a job whose keys may write, and none of a job whose keys may not", async () => {
		const { zone_id, host } = await zoneWithHost("keys");
		const path = uniquePath(zone_id, "deliver");
		const job = { enabled: true, output_options: { field_names: ["RayID", "ClientRequestPath"] } };
		const res = await call("POST", jobsPath(zone_id), { destination_conf: await withKeys(path, TOKEN), ...job });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const readOnly = uniquePath(zone_id, "read-only");
		const refused = await call("POST", jobsPath(zone_id), {
			destination_conf: await withKeys(readOnly, READ_TOKEN),
			...job,
		});
		expect(refused.status).toBe(400);
		const { ray } = await edgeRequest(host, "/keys/delivered");
		const deliveries = await flush(zone_id);
		expect(deliveries).toHaveLength(1);
		const [delivery] = deliveries;
		expect(delivery?.error).toBeUndefined();
		expect(delivery?.objects.every((key) => key.startsWith(`${path}/`))).toBe(true);
		expect(await records(delivery?.objects ?? [])).toContainEqual({ RayID: ray, ClientRequestPath: "/keys/delivered" });
		expect((await env.LOGS.list({ prefix: readOnly })).objects).toEqual([]);
	});

	it("accept the keys of a token of every zone at Cloudflare's r2://<bucket>/{DATE}, and deliver there", async () => {
		const { zone_id, host } = await zoneWithHost("keys");
		const job = { enabled: true, output_options: { field_names: ["RayID", "ClientRequestPath"] } };
		const res = await call("POST", jobsPath(zone_id), { destination_conf: await withKeys("{DATE}", TOKEN), ...job });
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const { ray } = await edgeRequest(host, "/keys/dated");
		const [delivery, ...others] = await flush(zone_id);
		expect(others).toEqual([]);
		expect(delivery?.error).toBeUndefined();
		const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
		expect(delivery?.objects.length).toBeGreaterThan(0);
		for (const key of delivery?.objects ?? []) expect(key).toMatch(new RegExp(`^${today}/[^/]+\\.log\\.gz$`));
		expect(await records(delivery?.objects ?? [])).toContainEqual({ RayID: ray, ClientRequestPath: "/keys/dated" });
		await env.LOGS.delete(delivery?.objects ?? []);
	});

	it("refuse the keys of a token of listed zones outside their ids, as an S3 PutObject with them is refused", async () => {
		const scoped = { id: SCOPED_TOKEN_ID };
		// The default zone's own job: its token's keys still may not write outside the zone's id.
		await expectRefused(DEFAULT_ZONE_ID, await withKeys("{DATE}", SCOPED_TOKEN, scoped), "AccessDenied");
		const today = new Date().toISOString().slice(0, 10).replaceAll("-", "");
		const put = await s3(
			`/edgezone-logs/${today}/keys-${crypto.randomUUID()}.log.gz`,
			{ method: "PUT", body: "x" },
			await clientOf(SCOPED_TOKEN, scoped),
		);
		await expectS3Error(put, 403, "AccessDenied");
		// Under the zone's id they may, whichever zone's job carries them: the keys decide.
		const { zone_id } = await zoneWithHost("keys");
		const res = await call("POST", jobsPath(zone_id), {
			destination_conf: await withKeys(uniquePath(DEFAULT_ZONE_ID, "keys-decide"), SCOPED_TOKEN, scoped),
		});
		expect(res.status, JSON.stringify(res.body)).toBe(200);
	});

	it("keep a destination without keys under its zone's id", async () => {
		const { zone_id } = await zoneWithHost("keys");
		for (const destination_conf of [
			"r2://edgezone-logs/{DATE}",
			`r2://edgezone-logs/{DATE}?account-id=${env.DEFAULT_ACCOUNT_ID}`,
			`r2://edgezone-logs/${DEFAULT_ZONE_ID}/j`,
		]) {
			const res = await call("POST", jobsPath(zone_id), { destination_conf });
			expect(res.status, destination_conf).toBe(400);
			expect(res.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/destination_conf" } });
			expect(res.body.errors?.[0]?.message).toContain("must start with the zone's id");
		}
		expect((await call("GET", jobsPath(zone_id))).body.result).toEqual([]);
	});
});
