/**
 * `startEdgezone` as a user's Node test uses it: `import { startEdgezone } from "edgezone"` (the
 * package's own export), the `cloudflare` SDK and `@aws-sdk/client-s3` configured from what it
 * answers and nothing else. Two at once get two ports and two states, and `stop()` frees the port
 * and removes the temporary state.
 */
import { GetObjectCommand, ListBucketsCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import Cloudflare from "cloudflare";
import { type Edgezone, startEdgezone } from "edgezone";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

describe("startEdgezone", () => {
	let edgezone: Edgezone;
	let other: Edgezone | undefined;
	beforeAll(async () => {
		edgezone = await startEdgezone({ buckets: ["my-bucket", "uploads"] });
	});
	afterAll(async () => {
		await edgezone?.stop();
		await other?.stop();
	});

	it("answers the API v4 to the cloudflare SDK with its apiToken and apiBaseUrl", async () => {
		const cf = new Cloudflare({ apiToken: edgezone.apiToken, baseURL: edgezone.apiBaseUrl });
		const zones = [];
		for await (const zone of cf.zones.list()) zones.push(zone.name);
		expect(zones).toContain("example.com");
		const zone = (await cf.zones.list({ name: "example.com" })).result[0];
		if (zone === undefined) throw new Error("no example.com zone");
		const record = await cf.dns.records.create({
			zone_id: zone.id,
			type: "A",
			name: "www.example.com",
			content: "192.0.2.1",
			ttl: 1,
		});
		const list = await cf.dns.records.list({ zone_id: zone.id });
		expect(list.result.map((r) => r.id)).toContain(record.id);
		// A token it did not answer is refused: the credentials are its own, not a fixed default.
		const stranger = new Cloudflare({ apiToken: "x".repeat(40), baseURL: edgezone.apiBaseUrl });
		await expect(stranger.zones.list()).rejects.toMatchObject({ status: 403 });
	});

	it("serves its buckets to an S3 client with its s3 credentials: put, then get", async () => {
		const s3 = new S3Client({ ...edgezone.s3, forcePathStyle: true, credentials: edgezone.s3 });
		await s3.send(new PutObjectCommand({ Bucket: "uploads", Key: "a/b.txt", Body: "hello from S3" }));
		const got = await s3.send(new GetObjectCommand({ Bucket: "uploads", Key: "a/b.txt" }));
		expect(await got.Body?.transformToString()).toBe("hello from S3");
		const buckets = await s3.send(new ListBucketsCommand({}));
		expect(buckets.Buckets?.map((b) => b.Name).sort()).toEqual(["edgezone-logs", "my-bucket", "uploads"]);
	});

	it("serves the first bucket on the gateway with its gatewayToken", async () => {
		const auth = { authorization: `Bearer ${edgezone.gatewayToken}` };
		const put = await fetch(`${edgezone.url}/note.txt`, { method: "PUT", headers: auth, body: "native" });
		expect(put.status).toBe(200);
		const s3 = new S3Client({ ...edgezone.s3, forcePathStyle: true, credentials: edgezone.s3 });
		const got = await s3.send(new GetObjectCommand({ Bucket: "my-bucket", Key: "note.txt" }));
		expect(await got.Body?.transformToString()).toBe("native");
	});

	it("starts a second one on another port with state and tokens of its own, and stop() frees the port", async () => {
		other = await startEdgezone();
		expect(other.url).not.toBe(edgezone.url);
		expect(other.apiToken).not.toBe(edgezone.apiToken);
		expect(other.buckets).toEqual(["edgezone-bucket"]);
		const auth = { authorization: `Bearer ${other.gatewayToken}` };
		expect((await fetch(`${other.url}/note.txt`, { headers: auth })).status).toBe(404);
		const url = other.url;
		await other.stop();
		other = undefined;
		await expect(fetch(url, { signal: AbortSignal.timeout(2000) })).rejects.toThrow();
	});

	it("refuses a bucket name R2 would refuse, before starting anything", async () => {
		await expect(startEdgezone({ buckets: ["Not_A_Bucket"] })).rejects.toThrow(/not an R2 bucket name/);
	});
});
