/**
 * Buckets created at run time through S3 (src/runtime-buckets/): CreateBucket, a bucket filled,
 * listed, emptied and deleted, in path and virtual-host style; their names' rules; DeleteBucket
 * refusing a bucket that holds objects and leaving no record behind; R2's
 * `cf-create-bucket-if-missing`.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bucketLedger } from "../../src/bucket/bucket-ledger";
import { zoneRegistry } from "../../src/common/durable-objects";
import { ledgerName } from "../../src/runtime-buckets/catalog";
import { READ_TOKEN } from "../api/credentials";
import { call, zonePath } from "../api/http";
import { BUCKET, clientOf, expectS3Error, s3, textOf, xmlOf } from "./helpers";

const unique = (stem: string) => `${stem}-${crypto.randomUUID().slice(0, 8)}`;

/** The registry's row of a created bucket. */
async function rowOf(name: string) {
	const row = await zoneRegistry(env).createdBucket(name);
	if (row === null) throw new Error(`${name} is not created`);
	return row;
}

type Listed = { ListAllMyBucketsResult: { Buckets: { Bucket: { Name: string; CreationDate: string }[] } } };

/** Every bucket ListBuckets answers, with its creation date. */
async function listed(): Promise<{ Name: string; CreationDate: string }[]> {
	const { ListAllMyBucketsResult: result } = await xmlOf<Listed>(await s3("/"));
	return [result.Buckets.Bucket].flat();
}

type Objects = { ListBucketResult: { Contents?: { Key: string } | { Key: string }[]; CommonPrefixes?: unknown } };

/** The keys a ListObjectsV2 of `path` answers. */
async function keysAt(path: string): Promise<string[]> {
	const { ListBucketResult: result } = await xmlOf<Objects>(await s3(path));
	return [result.Contents ?? []].flat().map((c) => c.Key);
}

describe("CreateBucket and DeleteBucket of a bucket created at run time", () => {
	it("creates, fills, lists, empties and deletes a bucket; the objects live under its namespace", async () => {
		const name = unique("made");
		const before = Date.now();
		const created = await s3(`/${name}`, {
			method: "PUT",
			body: '<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>auto</LocationConstraint></CreateBucketConfiguration>',
		});
		expect(created.status).toBe(200);
		expect(created.headers.get("location")).toBe(`/${name}`);
		expect((await s3(`/${name}`, { method: "HEAD" })).status).toBe(200);
		const entry = (await listed()).find((b) => b.Name === name);
		expect(Date.parse(entry?.CreationDate ?? "")).toBeGreaterThanOrEqual(before - 1000);

		expect((await s3(`/${name}/a/one.txt`, { method: "PUT", body: "one" })).status).toBe(200);
		expect((await s3(`/${name}/a/two.txt`, { method: "PUT", body: "two" })).status).toBe(200);
		expect((await s3(`/${name}/b.txt`, { method: "PUT", body: "b" })).status).toBe(200);
		expect(await textOf(await s3(`/${name}/a/two.txt`))).toBe("two");
		expect(await keysAt(`/${name}?list-type=2`)).toEqual(["a/one.txt", "a/two.txt", "b.txt"]);
		expect(await keysAt(`/${name}?list-type=2&prefix=a/&start-after=a/one.txt`)).toEqual(["a/two.txt"]);
		const { id } = await rowOf(name);
		const backing = await env.RUNTIME_BUCKETS.list({ prefix: `${id}/` });
		expect(backing.objects.map((o) => o.key)).toEqual([`${id}/a/one.txt`, `${id}/a/two.txt`, `${id}/b.txt`]);
		// Another bucket does not see them.
		expect(await keysAt(`/${BUCKET}?list-type=2&prefix=a/one`)).toEqual([]);

		await expectS3Error(await s3(`/${name}`, { method: "DELETE" }), 409, "BucketNotEmpty");
		for (const key of ["a/one.txt", "a/two.txt", "b.txt"]) {
			expect((await s3(`/${name}/${key}`, { method: "DELETE" })).status).toBe(204);
		}
		expect((await s3(`/${name}`, { method: "DELETE" })).status).toBe(204);
		await expectS3Error(await s3(`/${name}`, { method: "HEAD" }), 404, "NoSuchBucket");
		await expectS3Error(await s3(`/${name}/b.txt`), 404, "NoSuchBucket");
		expect((await listed()).map((b) => b.Name)).not.toContain(name);
		await expectS3Error(await s3(`/${name}`, { method: "DELETE" }), 404, "NoSuchBucket");
	});

	it("serves a created bucket in virtual-host style", async () => {
		const name = unique("virtual");
		expect((await s3(`/${name}`, { method: "PUT" })).status).toBe(200);
		const origin = `http://${name}.localhost`;
		expect((await s3("/key.txt", { method: "PUT", body: "hosted" }, undefined, origin)).status).toBe(200);
		expect(await textOf(await s3(`/${name}/key.txt`))).toBe("hosted");
		expect(await keysAt(`/${name}?list-type=2`)).toEqual(["key.txt"]);
	});

	it("answers BucketAlreadyOwnedByYou for a name created or declared, and keeps the bucket's objects", async () => {
		const name = unique("twice");
		expect((await s3(`/${name}`, { method: "PUT" })).status).toBe(200);
		await s3(`/${name}/kept`, { method: "PUT", body: "kept" });
		await expectS3Error(await s3(`/${name}`, { method: "PUT" }), 409, "BucketAlreadyOwnedByYou");
		await expectS3Error(await s3(`/${BUCKET}`, { method: "PUT" }), 409, "BucketAlreadyOwnedByYou");
		expect(await textOf(await s3(`/${name}/kept`))).toBe("kept");
	});

	it("takes us-east-1, an empty constraint and R2's location hints; refuses other locations and names R2 would not take", async () => {
		const config = (location: string) =>
			`<CreateBucketConfiguration><LocationConstraint>${location}</LocationConstraint></CreateBucketConfiguration>`;
		expect((await s3(`/${unique("east")}`, { method: "PUT", body: config("us-east-1") })).status).toBe(200);
		const hinted = unique("hinted");
		expect((await s3(`/${hinted}`, { method: "PUT", body: config("weur") })).status).toBe(200);
		expect((await rowOf(hinted)).location).toBe("weur");
		const mars = unique("mars");
		await expectS3Error(
			await s3(`/${mars}`, { method: "PUT", body: config("mars-1") }),
			400,
			"InvalidLocationConstraint",
		);
		await expectS3Error(await s3(`/${mars}`, { method: "PUT", body: "<Nope/>" }), 400, "MalformedXML");
		await expectS3Error(await s3(`/${mars}`, { method: "HEAD" }), 404, "NoSuchBucket");
		// S3 takes dots; R2 does not in a new bucket's name.
		await expectS3Error(await s3("/with.dots.here", { method: "PUT" }), 400, "InvalidBucketName");
		await expectS3Error(await s3("/-leading-hyphen", { method: "PUT" }), 400, "InvalidBucketName");
	});

	it("needs Admin Read & Write to create, and R2's cf-create-bucket-if-missing creates the bucket a PutObject names", async () => {
		const name = unique("missing");
		await expectS3Error(await s3(`/${name}`, { method: "PUT" }, await clientOf(READ_TOKEN)), 403, "AccessDenied");
		const put = await s3(`/${name}/first`, {
			method: "PUT",
			body: "first",
			headers: { "cf-create-bucket-if-missing": "true" },
		});
		expect(put.status).toBe(200);
		expect(await textOf(await s3(`/${name}/first`))).toBe("first");
		const again = await s3(`/${name}/second`, {
			method: "PUT",
			body: "second",
			headers: { "cf-create-bucket-if-missing": "true" },
		});
		expect(again.status).toBe(200);
		expect(await keysAt(`/${name}?list-type=2`)).toEqual(["first", "second"]);
	});

	it("deleting leaves no record: open uploads aborted, the ledger's rows and its CORS and lifecycle gone; a new bucket of the name starts empty", async () => {
		const name = unique("records");
		expect((await s3(`/${name}`, { method: "PUT" })).status).toBe(200);
		const { id } = await rowOf(name);
		const cors =
			"<CORSConfiguration><CORSRule><AllowedOrigin>https://a.example</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>";
		expect((await s3(`/${name}?cors`, { method: "PUT", body: cors })).status).toBe(200);
		const lifecycle =
			"<LifecycleConfiguration><Rule><ID>old</ID><Status>Enabled</Status><Filter><Prefix></Prefix></Filter><Expiration><Days>30</Days></Expiration></Rule></LifecycleConfiguration>";
		expect((await s3(`/${name}?lifecycle`, { method: "PUT", body: lifecycle })).status).toBe(200);
		const started = await s3(`/${name}/big?uploads`, { method: "POST" });
		expect(started.status).toBe(200);
		const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await started.text())?.[1] ?? "";

		expect((await s3(`/${name}`, { method: "DELETE" })).status).toBe(204);
		const tables = await runInDurableObject(bucketLedger(env, ledgerName(id)), (_, state) =>
			state.storage.sql
				.exec<{ name: string }>(
					"SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'",
				)
				.toArray(),
		);
		expect(tables).toEqual([]);
		await expect(env.RUNTIME_BUCKETS.resumeMultipartUpload(`${id}/big`, uploadId).uploadPart(1, "x")).rejects.toThrow();

		expect((await s3(`/${name}`, { method: "PUT" })).status).toBe(200);
		expect((await rowOf(name)).id).not.toBe(id);
		expect(await keysAt(`/${name}?list-type=2`)).toEqual([]);
		// A bucket without rules answers the default of CORS_ORIGINS as one rule.
		expect(await textOf(await s3(`/${name}?cors`))).not.toContain("https://a.example");
		expect(await textOf(await s3(`/${name}?lifecycle`))).not.toContain("<ID>old</ID>");
	});

	it("applies a created bucket's lifecycle rules to its own objects only (the emulator's sweep, through its ledger)", async () => {
		const name = unique("swept");
		expect((await s3(`/${name}`, { method: "PUT" })).status).toBe(200);
		const lifecycle =
			"<LifecycleConfiguration><Rule><ID>all</ID><Status>Enabled</Status><Filter><Prefix>old/</Prefix></Filter><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
		expect((await s3(`/${name}?lifecycle`, { method: "PUT", body: lifecycle })).status).toBe(200);
		await s3(`/${name}/old/a`, { method: "PUT", body: "a" });
		await s3(`/${name}/new/b`, { method: "PUT", body: "b" });
		await s3(`/${BUCKET}/old/${name}`, { method: "PUT", body: "declared" });
		const swept = await call("POST", zonePath(`/emulator/buckets/${name}/lifecycle`), { at: "2100-01-01T00:00:00Z" });
		expect(swept.status).toBe(200);
		expect(swept.body.result).toMatchObject({ bucket: name, objects_expired: 1 });
		expect(await keysAt(`/${name}?list-type=2`)).toEqual(["new/b"]);
		expect(await textOf(await s3(`/${BUCKET}/old/${name}`))).toBe("declared");
	});

	it("refuses a bucket past R2's 1,000 per account, declared ones counted, with TooManyBuckets", async () => {
		const registry = zoneRegistry(env);
		const existing = (await registry.createdBuckets()).length;
		// Fills the list up to 1,000 with the 2 declared buckets, straight in the registry's table.
		await runInDurableObject(registry, (_, state) => {
			state.storage.sql.exec(
				`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
				 INSERT INTO created_buckets (name, id, created, location, storage_class)
				 SELECT 'filler-' || i, 'filler' || i, '2026-01-01T00:00:00.000Z', NULL, 'Standard' FROM n`,
				1000 - 2 - existing,
			);
		});
		const error = await expectS3Error(await s3(`/${unique("one-too-many")}`, { method: "PUT" }), 400, "TooManyBuckets");
		expect(error?.Message).toContain("1000");
		const api = await call("POST", "/accounts/01a7362d577a6c3019a474fd6f485823/r2/buckets", {
			name: unique("api-too-many"),
		});
		expect(api.status).toBe(400);
		expect(api.body.errors?.[0]?.code).toBe(10009);
		// One deleted, one fits again.
		expect((await s3("/filler-1", { method: "DELETE" })).status).toBe(204);
		expect((await s3(`/${unique("fits")}`, { method: "PUT" })).status).toBe(200);
		// The other fillers go, so later tests have room.
		await runInDurableObject(registry, (_, state) => {
			state.storage.sql.exec("DELETE FROM created_buckets WHERE name LIKE 'filler-%'");
		});
	});
});

describe("a created bucket's default storage class", () => {
	it("is what an object written without a class gets, in a PutObject and a multipart upload, through S3 and the gateway", async () => {
		const name = unique("cold");
		const created = await call("POST", "/accounts/01a7362d577a6c3019a474fd6f485823/r2/buckets", {
			name,
			storageClass: "InfrequentAccess",
		});
		expect(created.status).toBe(200);
		await s3(`/${name}/put.txt`, { method: "PUT", body: "p" });
		expect((await s3(`/${name}/put.txt`, { method: "HEAD" })).headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
		await s3(`/${name}/standard.txt`, { method: "PUT", body: "s", headers: { "x-amz-storage-class": "STANDARD" } });
		// S3 tells no class of a STANDARD object.
		expect((await s3(`/${name}/standard.txt`, { method: "HEAD" })).headers.get("x-amz-storage-class")).toBeNull();
		const started = await s3(`/${name}/multi.bin?uploads`, { method: "POST" });
		const uploadId = /<UploadId>([^<]+)<\/UploadId>/.exec(await started.text())?.[1] ?? "";
		const part = await s3(`/${name}/multi.bin?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`, {
			method: "PUT",
			body: "whole",
		});
		const etag = part.headers.get("etag") ?? "";
		const done = await s3(`/${name}/multi.bin?uploadId=${encodeURIComponent(uploadId)}`, {
			method: "POST",
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${etag}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(done.status).toBe(200);
		expect((await s3(`/${name}/multi.bin`, { method: "HEAD" })).headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
		const viaGateway = await exports.default.fetch(`http://gateway.test/gw.txt`, {
			method: "PUT",
			body: "g",
			headers: { authorization: "Bearer test-rw", "x-r2-bucket": name },
		});
		expect(((await viaGateway.json()) as { storageClass: string }).storageClass).toBe("InfrequentAccess");
	});
});
