/**
 * `@aws-sdk/client-s3` against wrangler dev, configured as R2's docs configure it for R2
 * (https://developers.cloudflare.com/r2/examples/aws/aws-sdk-js-v3/: endpoint, region `auto`) and
 * otherwise unchanged: its default checksums, its clock correction, its parsers. Every operation of
 * docs/gateway.md's S3 table, the error codes the dialect answers, presigned GET and PUT fetched
 * with plain `fetch`, `@aws-sdk/lib-storage`'s Upload from a stream of unknown length, and parity:
 * the same writes through S3 and through the native dialect (RemoteBucket) leave the same objects.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { crc32, gzipSync } from "node:zlib";
import { Crc64NvmeJs } from "@aws-sdk/checksums/crc";
import {
	AbortMultipartUploadCommand,
	CompleteMultipartUploadCommand,
	CopyObjectCommand,
	CreateBucketCommand,
	CreateMultipartUploadCommand,
	DeleteBucketCommand,
	DeleteBucketCorsCommand,
	DeleteBucketLifecycleCommand,
	DeleteObjectCommand,
	DeleteObjectsCommand,
	GetBucketAclCommand,
	GetBucketCorsCommand,
	GetBucketEncryptionCommand,
	GetBucketLifecycleConfigurationCommand,
	GetBucketLocationCommand,
	GetBucketTaggingCommand,
	GetBucketVersioningCommand,
	GetObjectCommand,
	GetObjectTaggingCommand,
	HeadBucketCommand,
	HeadObjectCommand,
	ListBucketsCommand,
	ListMultipartUploadsCommand,
	ListObjectsCommand,
	ListObjectsV2Command,
	ListPartsCommand,
	PutBucketCorsCommand,
	PutBucketLifecycleConfigurationCommand,
	PutObjectCommand,
	type PutObjectCommandInput,
	S3ServiceException,
	UploadPartCommand,
	UploadPartCopyCommand,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { beforeAll, describe, expect, inject, it, vi } from "vitest";
import {
	BUCKET,
	type Credentials,
	credentialsOf,
	DEV_TOKEN,
	nativeBucket,
	patternBytes,
	READ_TOKEN,
	SCOPED_TOKEN,
	s3Client,
	sha256Hex,
	storedObject,
} from "./s3.ts";

/** `bytes` cut into parts of `size` bytes, the last shorter. */
function partsOf(bytes: Uint8Array, size: number): Uint8Array[] {
	const parts: Uint8Array[] = [];
	for (let at = 0; at < bytes.length; at += size) parts.push(bytes.subarray(at, at + size));
	return parts;
}

/** zlib's CRC32 of `bytes`, as the four big-endian bytes S3 sends. */
function crc32Bytes(bytes: Uint8Array): Buffer {
	const digest = Buffer.alloc(4);
	digest.writeUInt32BE(crc32(bytes));
	return digest;
}

const crc32Base64 = (bytes: Uint8Array) => crc32Bytes(bytes).toString("base64");

/** The AWS SDK's own CRC64NVME of `bytes`, base64. */
async function crc64NvmeBase64(bytes: Uint8Array): Promise<string> {
	const crc = new Crc64NvmeJs();
	crc.update(bytes);
	return Buffer.from(await crc.digest()).toString("base64");
}

const dev = inject("dev");
const native = nativeBucket(dev.url);
let admin: Credentials;
let s3: ReturnType<typeof s3Client>;

beforeAll(async () => {
	admin = await credentialsOf();
	s3 = s3Client(dev.url, admin);
});

const MiB = 1024 * 1024;
const text = (s: string) => new TextEncoder().encode(s);
const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest();
const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");

/** The S3 error a promise rejects with: its code (the SDK's name for it) and status. */
async function s3Error(promise: Promise<unknown>): Promise<{ code: string; status?: number; message: string }> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof S3ServiceException) {
			return { code: error.name, status: error.$metadata.httpStatusCode, message: error.message };
		}
		throw error;
	}
	throw new Error("expected an S3 error, got a success");
}

/** A stream that does not say its length, as a pipe or a generated body does. */
const unknownLength = (bytes: Uint8Array, chunk = 64 * 1024) =>
	Readable.from(
		(function* () {
			for (let i = 0; i < bytes.length; i += chunk) yield Buffer.from(bytes.subarray(i, i + chunk));
		})(),
	);

describe("@aws-sdk/client-s3 against wrangler dev: buckets", () => {
	it("lists the buckets of wrangler.toml", async () => {
		const { Buckets } = await s3.send(new ListBucketsCommand({}));
		expect(Buckets?.map((b) => b.Name)).toEqual(expect.arrayContaining(["edgezone-bucket", "edgezone-logs"]));
	});

	it("heads a declared bucket and gives its location as auto", async () => {
		expect((await s3.send(new HeadBucketCommand({ Bucket: BUCKET }))).$metadata.httpStatusCode).toBe(200);
		// GetBucketLocation's empty LocationConstraint means us-east-1 to the SDK; R2 answers `auto`.
		const { LocationConstraint } = await s3.send(new GetBucketLocationCommand({ Bucket: BUCKET }));
		expect(LocationConstraint).toBe("auto");
	});

	it("answers NoSuchBucket for a bucket wrangler.toml does not declare", async () => {
		expect(await s3Error(s3.send(new ListObjectsV2Command({ Bucket: "no-such-bucket" })))).toMatchObject({
			code: "NoSuchBucket",
			status: 404,
		});
		expect(await s3Error(s3.send(new HeadBucketCommand({ Bucket: "no-such-bucket" })))).toMatchObject({ status: 404 });
	});

	it("answers CreateBucket of a declared bucket as S3 does for a bucket you own", async () => {
		expect(await s3Error(s3.send(new CreateBucketCommand({ Bucket: BUCKET })))).toMatchObject({
			code: "BucketAlreadyOwnedByYou",
			status: 409,
		});
	});

	// CreateBucket of any other name creates it: test/node/buckets.node.ts.

	it("refuses DeleteBucket of a declared bucket, leaving the bucket and its objects", async () => {
		await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/bucket/keep.txt", Body: "keep" }));
		const error = await s3Error(s3.send(new DeleteBucketCommand({ Bucket: BUCKET })));
		expect(error.status).toBeLessThan(500);
		expect((await s3.send(new HeadBucketCommand({ Bucket: BUCKET }))).$metadata.httpStatusCode).toBe(200);
		expect(await native.head("s3-sdk/bucket/keep.txt")).not.toBeNull();
		expect(await s3Error(s3.send(new DeleteBucketCommand({ Bucket: "undeclared-bucket" })))).toMatchObject({
			code: "NoSuchBucket",
		});
	});

	it("reads the bucket configurations R2 answers the same for every bucket, as a new AWS bucket's", async () => {
		const versioning = await s3.send(new GetBucketVersioningCommand({ Bucket: BUCKET }));
		expect(versioning.$metadata.httpStatusCode).toBe(200);
		expect(versioning.Status).toBeUndefined();
		const { ServerSideEncryptionConfiguration: encryption } = await s3.send(
			new GetBucketEncryptionCommand({ Bucket: BUCKET }),
		);
		expect(encryption?.Rules?.[0]?.ApplyServerSideEncryptionByDefault?.SSEAlgorithm).toBe("AES256");
		const acl = await s3.send(new GetBucketAclCommand({ Bucket: BUCKET }));
		expect(acl.Grants).toEqual([
			{ Grantee: expect.objectContaining({ Type: "CanonicalUser" }), Permission: "FULL_CONTROL" },
		]);
		expect(acl.Grants?.[0]?.Grantee?.ID).toBe(acl.Owner?.ID);
		expect(await s3Error(s3.send(new GetBucketTaggingCommand({ Bucket: BUCKET })))).toMatchObject({
			code: "NoSuchTagSet",
			status: 404,
		});
	});

	it("puts a bucket's CORS rules, reads them back, sees a browser's preflight follow them, and deletes them", async () => {
		const CORSRules = [
			{
				ID: "app",
				AllowedMethods: ["GET", "PUT"],
				AllowedOrigins: ["https://app.example"],
				AllowedHeaders: ["content-type"],
				ExposeHeaders: ["ETag"],
				MaxAgeSeconds: 600,
			},
		];
		await s3.send(new PutBucketCorsCommand({ Bucket: BUCKET, CORSConfiguration: { CORSRules } }));
		expect((await s3.send(new GetBucketCorsCommand({ Bucket: BUCKET }))).CORSRules).toEqual(CORSRules);
		const preflight = (origin: string) =>
			fetch(`${dev.url}/${BUCKET}/s3-sdk/cors.txt`, {
				method: "OPTIONS",
				headers: { origin, "access-control-request-method": "PUT", "access-control-request-headers": "content-type" },
			});
		const allowed = await preflight("https://app.example");
		expect(allowed.status).toBe(200);
		expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
		expect(allowed.headers.get("access-control-max-age")).toBe("600");
		expect((await preflight("https://other.example")).status).toBe(403);
		await s3.send(new DeleteBucketCorsCommand({ Bucket: BUCKET }));
		// Back to the default, CORS_ORIGINS ("*" under npm run dev).
		const byDefault = await preflight("https://other.example");
		expect(byDefault.status).toBe(204);
		expect((await s3.send(new GetBucketCorsCommand({ Bucket: BUCKET }))).CORSRules?.[0]?.AllowedOrigins).toEqual(["*"]);
	});

	it("reads R2's default lifecycle rule, replaces it, sees a rule act, and deletes the configuration", async () => {
		// No test configures the log bucket: it has R2's default rule, as every new bucket.
		const before = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: "edgezone-logs" }));
		expect(before.Rules).toEqual([
			{
				ID: "Default Multipart Abort Rule",
				Filter: { Prefix: "" },
				Status: "Enabled",
				AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 },
			},
		]);
		const rules = [
			{
				ID: "Delete Old Logs",
				Status: "Enabled" as const,
				Filter: { Prefix: "sdk-lifecycle/" },
				Expiration: { Days: 90 },
			},
			...(before.Rules ?? []),
		];
		await s3.send(
			new PutBucketLifecycleConfigurationCommand({ Bucket: BUCKET, LifecycleConfiguration: { Rules: rules } }),
		);
		const after = await s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: BUCKET }));
		expect(after.Rules?.map((rule) => [rule.ID, rule.Filter?.Prefix, rule.Expiration?.Days])).toEqual([
			["Delete Old Logs", "sdk-lifecycle/", 90],
			["Default Multipart Abort Rule", "", undefined],
		]);
		const transition = s3.send(
			new PutBucketLifecycleConfigurationCommand({
				Bucket: BUCKET,
				LifecycleConfiguration: {
					Rules: [
						{ ID: "ia", Status: "Enabled", Filter: {}, Transitions: [{ Days: 30, StorageClass: "STANDARD_IA" }] },
					],
				},
			}),
		);
		expect(await s3Error(transition)).toMatchObject({ code: "NotImplemented", status: 501 });

		// The emulator route applies the rules as they will stand in 100 days.
		await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "sdk-lifecycle/old.log", Body: "old" }));
		const sweep = await fetch(
			`${dev.url}/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/emulator/buckets/${BUCKET}/lifecycle`,
			{
				method: "POST",
				headers: { Authorization: `Bearer ${DEV_TOKEN}`, "Content-Type": "application/json" },
				body: JSON.stringify({ at: new Date(Date.now() + 100 * 86_400_000).toISOString() }),
			},
		);
		expect(((await sweep.json()) as { result: { objects_expired: number } }).result.objects_expired).toBe(1);
		expect(await native.head("sdk-lifecycle/old.log")).toBeNull();

		await s3.send(new DeleteBucketLifecycleCommand({ Bucket: BUCKET }));
		expect(await s3Error(s3.send(new GetBucketLifecycleConfigurationCommand({ Bucket: BUCKET })))).toMatchObject({
			code: "NoSuchLifecycleConfiguration",
			status: 404,
		});
		// Left with R2's default rule, sent back as R2's docs advise.
		await s3.send(
			new PutBucketLifecycleConfigurationCommand({ Bucket: BUCKET, LifecycleConfiguration: { Rules: before.Rules } }),
		);
	});
});

describe("@aws-sdk/client-s3 against wrangler dev: objects", () => {
	const key = "s3-sdk/objects/hello.txt";
	const body = "hello, S3 clients";
	const expires = new Date("2030-01-01T00:00:00Z");

	it("puts an object with its metadata and reads it back with GetObject and HeadObject", async () => {
		const put = await s3.send(
			new PutObjectCommand({
				Bucket: BUCKET,
				Key: key,
				Body: body,
				ContentType: "text/plain; charset=utf-8",
				CacheControl: "max-age=60",
				ContentDisposition: 'attachment; filename="hello.txt"',
				ContentLanguage: "en",
				Expires: expires,
				Metadata: { owner: "ops" },
			}),
		);
		expect(put.ETag).toBe(`"${md5(text(body)).toString("hex")}"`);
		const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }));
		expect(await got.Body?.transformToString()).toBe(body);
		expect(got).toMatchObject({
			ContentType: "text/plain; charset=utf-8",
			CacheControl: "max-age=60",
			ContentDisposition: 'attachment; filename="hello.txt"',
			ContentLanguage: "en",
			ContentLength: body.length,
			ETag: put.ETag,
			Metadata: { owner: "ops" },
		});
		expect(got.ExpiresString ?? got.Expires?.toUTCString()).toBe(expires.toUTCString());
		const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
		expect(head).toMatchObject({ ContentLength: body.length, ETag: put.ETag, Metadata: { owner: "ops" } });
	});

	it("reads ranges, and answers InvalidRange past the end", async () => {
		const range = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: "bytes=0-4" }));
		expect([range.$metadata.httpStatusCode, range.ContentRange, await range.Body?.transformToString()]).toEqual([
			206,
			`bytes 0-4/${body.length}`,
			"hello",
		]);
		const suffix = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: "bytes=-7" }));
		expect(await suffix.Body?.transformToString()).toBe("clients");
		expect(
			await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, Range: "bytes=1000-" }))),
		).toMatchObject({ code: "InvalidRange", status: 416 });
	});

	it("answers the four conditionals: 304 for If-None-Match and If-Modified-Since, PreconditionFailed for the others", async () => {
		const { ETag, LastModified } = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
		const past = new Date("2000-01-01T00:00:00Z");
		const later = new Date((LastModified?.getTime() ?? 0) + 60_000);
		expect(
			(await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfMatch: ETag }))).$metadata.httpStatusCode,
		).toBe(200);
		expect(await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfNoneMatch: ETag })))).toMatchObject(
			{
				status: 304,
			},
		);
		expect(
			await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfModifiedSince: later }))),
		).toMatchObject({ status: 304 });
		expect(
			await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfMatch: '"other"' }))),
		).toMatchObject({
			code: "PreconditionFailed",
			status: 412,
		});
		expect(
			await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfUnmodifiedSince: past }))),
		).toMatchObject({ code: "PreconditionFailed", status: 412 });
		// HEAD answers have no body: the SDK names the error by its status.
		expect(
			await s3Error(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key, IfNoneMatch: ETag }))),
		).toMatchObject({
			status: 304,
		});
	});

	it("overrides the answer's headers with the six response-* parameters", async () => {
		const got = await s3.send(
			new GetObjectCommand({
				Bucket: BUCKET,
				Key: key,
				ResponseContentType: "application/json",
				ResponseContentLanguage: "fr",
				ResponseContentDisposition: "inline",
				ResponseContentEncoding: "identity",
				ResponseCacheControl: "no-store",
				ResponseExpires: new Date("2031-01-01T00:00:00Z"),
			}),
		);
		expect(got).toMatchObject({
			ContentType: "application/json",
			ContentLanguage: "fr",
			ContentDisposition: "inline",
			ContentEncoding: "identity",
			CacheControl: "no-store",
		});
		expect(got.ExpiresString ?? got.Expires?.toUTCString()).toBe("Wed, 01 Jan 2031 00:00:00 GMT");
	});

	it("answers NoSuchKey for a missing key, and a 404 to HEAD", async () => {
		expect(await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/missing" })))).toMatchObject({
			code: "NoSuchKey",
			status: 404,
		});
		expect(await s3Error(s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/missing" })))).toMatchObject({
			status: 404,
		});
	});

	for (const algorithm of ["CRC32", "CRC32C", "CRC64NVME", "SHA1", "SHA256"] as const) {
		it(`stores a ${algorithm} checksum the SDK computes, and gives it back under ChecksumMode`, async () => {
			const k = `s3-sdk/checksums/${algorithm}`;
			const put = await s3.send(
				new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "checksummed", ChecksumAlgorithm: algorithm }),
			);
			const field = `Checksum${algorithm}` as const;
			expect(put[field]).toBeTruthy();
			const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: k, ChecksumMode: "ENABLED" }));
			expect(head[field]).toBe(put[field]);
			const got = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: k, ChecksumMode: "ENABLED" }));
			expect([got[field], await got.Body?.transformToString()]).toEqual([put[field], "checksummed"]);
		});
	}

	it("refuses a wrong Content-MD5 or checksum with BadDigest, storing nothing", async () => {
		const k = "s3-sdk/bad-digest";
		const wrongMd5 = base64(md5(text("other")));
		expect(
			await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "data", ContentMD5: wrongMd5 }))),
		).toMatchObject({ code: "BadDigest", status: 400 });
		const wrongSha256 = base64(createHash("sha256").update("other").digest());
		expect(
			await s3Error(
				s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "data", ChecksumSHA256: wrongSha256 })),
			),
		).toMatchObject({ code: "BadDigest", status: 400 });
		expect(await native.head(k)).toBeNull();
	});

	it("takes the storage classes R2 has, STANDARD and STANDARD_IA, and refuses another with InvalidStorageClass", async () => {
		for (const StorageClass of ["STANDARD", "STANDARD_IA"] as const) {
			const k = `s3-sdk/class/${StorageClass}`;
			await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "cold", StorageClass }));
			const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: k }));
			expect(await read.Body?.transformToString()).toBe("cold");
		}
		// STANDARD_IA reads back as R2 reports it (the bucket's ledger records what Miniflare drops).
		const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/class/STANDARD_IA" }));
		expect(head.StorageClass).toBe("STANDARD_IA");
		const k = "s3-sdk/class/GLACIER";
		expect(
			await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "x", StorageClass: "GLACIER" }))),
		).toMatchObject({ status: 400, code: "InvalidStorageClass" });
		expect(await native.head(k)).toBeNull();
	});

	it("puts conditionally: If-None-Match * creates once, If-Match needs the current ETag", async () => {
		const k = "s3-sdk/conditional.txt";
		const first = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "first", IfNoneMatch: "*" }));
		expect(
			await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "second", IfNoneMatch: "*" }))),
		).toMatchObject({ code: "PreconditionFailed", status: 412 });
		expect(
			await s3Error(s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "third", IfMatch: '"other"' }))),
		).toMatchObject({ code: "PreconditionFailed", status: 412 });
		await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "fourth", IfMatch: first.ETag }));
		expect(await (await native.get(k))?.arrayBuffer().then((b) => Buffer.from(b).toString())).toBe("fourth");
	});

	it("deletes one object, and answers 204 for a key that is not there", async () => {
		const k = "s3-sdk/delete-me.txt";
		await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: "x" }));
		expect((await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: k }))).$metadata.httpStatusCode).toBe(204);
		expect(await native.head(k)).toBeNull();
		expect((await s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: k }))).$metadata.httpStatusCode).toBe(204);
	});

	it("deletes many objects, verbose and quiet", async () => {
		const keys = ["s3-sdk/many/a", "s3-sdk/many/b", "s3-sdk/many/c"];
		for (const k of keys) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: k }));
		const verbose = await s3.send(
			new DeleteObjectsCommand({
				Bucket: BUCKET,
				Delete: { Objects: [{ Key: "s3-sdk/many/a" }, { Key: "s3-sdk/many/b" }] },
			}),
		);
		expect(verbose.Deleted?.map((d) => d.Key).sort()).toEqual(["s3-sdk/many/a", "s3-sdk/many/b"]);
		const quiet = await s3.send(
			new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: "s3-sdk/many/c" }], Quiet: true } }),
		);
		expect([quiet.Deleted ?? [], quiet.Errors ?? []]).toEqual([[], []]);
		expect((await native.list({ prefix: "s3-sdk/many/" })).objects).toEqual([]);
	});

	it("copies an object, keeping or replacing its metadata, under copy-source conditionals", async () => {
		const source = "s3-sdk/copy/source.txt";
		const put = await s3.send(
			new PutObjectCommand({
				Bucket: BUCKET,
				Key: source,
				Body: "copy me",
				ContentType: "text/plain",
				Metadata: { a: "1" },
			}),
		);
		const copied = await s3.send(
			new CopyObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/copy/kept.txt", CopySource: `${BUCKET}/${source}` }),
		);
		expect(copied.CopyObjectResult?.ETag).toBe(put.ETag);
		expect(await storedObject(native, "s3-sdk/copy/kept.txt")).toMatchObject({
			httpMetadata: { contentType: "text/plain" },
			customMetadata: { a: "1" },
			sha256: sha256Hex("copy me"),
		});
		await s3.send(
			new CopyObjectCommand({
				Bucket: BUCKET,
				Key: "s3-sdk/copy/replaced.txt",
				CopySource: `${BUCKET}/${source}`,
				MetadataDirective: "REPLACE",
				ContentType: "text/markdown",
				Metadata: { b: "2" },
			}),
		);
		expect(await storedObject(native, "s3-sdk/copy/replaced.txt")).toMatchObject({
			httpMetadata: { contentType: "text/markdown" },
			customMetadata: { b: "2" },
		});
		expect(
			await s3Error(
				s3.send(
					new CopyObjectCommand({
						Bucket: BUCKET,
						Key: "s3-sdk/copy/refused.txt",
						CopySource: `${BUCKET}/${source}`,
						CopySourceIfMatch: '"other"',
					}),
				),
			),
		).toMatchObject({ code: "PreconditionFailed", status: 412 });
		expect(await native.head("s3-sdk/copy/refused.txt")).toBeNull();
	});

	it("refuses object tags with NotImplemented, as R2 does, and stores nothing", async () => {
		const tagged = "s3-sdk/refused/tagged.txt";
		const error = await s3Error(
			s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: tagged, Body: "x", Tagging: "a=b" })),
		);
		expect(error).toMatchObject({ code: "NotImplemented", status: 501 });
		expect(error.message).toContain("x-amz-tagging");
		expect(await native.head(tagged)).toBeNull();
	});

	it("stores and reads objects with a customer key (SSE-C), as R2's SSE-C example does", async () => {
		const customerKey = Buffer.alloc(32, 7);
		const ssec = {
			SSECustomerAlgorithm: "AES256",
			SSECustomerKey: customerKey.toString("base64"),
			SSECustomerKeyMD5: base64(md5(customerKey)),
		};
		const single = "s3-sdk/ssec/single-part";
		const put = await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: single, Body: "BeepBoop", ...ssec }));
		expect(put).toMatchObject({ SSECustomerAlgorithm: "AES256", SSECustomerKeyMD5: ssec.SSECustomerKeyMD5 });

		const multi = "s3-sdk/ssec/multi-part";
		const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: multi, ...ssec }));
		const parts = [];
		for (const [index, body] of [Buffer.alloc(5 * 1024 * 1024, 1), Buffer.from("tail")].entries()) {
			const { ETag } = await s3.send(
				new UploadPartCommand({ Bucket: BUCKET, Key: multi, UploadId, PartNumber: index + 1, Body: body, ...ssec }),
			);
			parts.push({ ETag, PartNumber: index + 1 });
		}
		await s3.send(
			new CompleteMultipartUploadCommand({
				Bucket: BUCKET,
				Key: multi,
				UploadId,
				MultipartUpload: { Parts: parts },
				...ssec,
			}),
		);
		const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: multi, ...ssec }));
		expect(head).toMatchObject({ ContentLength: 5 * 1024 * 1024 + 4, SSECustomerKeyMD5: ssec.SSECustomerKeyMD5 });
		const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: single, ...ssec }));
		expect(await read.Body?.transformToString()).toBe("BeepBoop");

		// A presigned GET: the SDK signs the SSE-C headers rather than hoist them into the URL.
		const url = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: single, ...ssec }));
		const presigned = await fetch(url, {
			headers: {
				"x-amz-server-side-encryption-customer-algorithm": "AES256",
				"x-amz-server-side-encryption-customer-key": ssec.SSECustomerKey,
				"x-amz-server-side-encryption-customer-key-md5": ssec.SSECustomerKeyMD5,
			},
		});
		expect([presigned.status, await presigned.text()]).toEqual([200, "BeepBoop"]);

		expect(await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: single })))).toMatchObject({
			code: "InvalidRequest",
			status: 400,
		});
		const otherKey = Buffer.alloc(32, 8);
		const other = {
			SSECustomerAlgorithm: "AES256",
			SSECustomerKey: otherKey.toString("base64"),
			SSECustomerKeyMD5: base64(md5(otherKey)),
		};
		expect(await s3Error(s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: multi, ...other })))).toMatchObject({
			code: "AccessDenied",
			status: 403,
		});
		await s3.send(new DeleteObjectsCommand({ Bucket: BUCKET, Delete: { Objects: [{ Key: single }, { Key: multi }] } }));
		expect(await native.head(single)).toBeNull();
	});

	it("answers NotImplemented naming an operation R2 does not implement", async () => {
		const error = await s3Error(s3.send(new GetObjectTaggingCommand({ Bucket: BUCKET, Key: key })));
		expect(error).toMatchObject({ code: "NotImplemented", status: 501 });
		expect(error.message).toMatch(/GetObjectTagging/);
	});
});

describe("@aws-sdk/client-s3 against wrangler dev: lists", () => {
	const keys = [
		"s3-sdk/list/a.txt",
		"s3-sdk/list/b.txt",
		"s3-sdk/list/dir/c.txt",
		"s3-sdk/list/dir/d.txt",
		"s3-sdk/list/e f+g.txt",
	];
	beforeAll(async () => {
		for (const k of keys) await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: k, Body: k }));
	});

	it("stored each key with its name as its body", async () => {
		const bodies = await Promise.all(
			keys.map(async (Key) => (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key }))).Body?.transformToString()),
		);
		expect(bodies).toEqual(keys);
	});

	it("lists V2 with a prefix and a delimiter", async () => {
		const page = await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "s3-sdk/list/", Delimiter: "/" }));
		expect(page.Contents?.map((o) => o.Key)).toEqual([
			"s3-sdk/list/a.txt",
			"s3-sdk/list/b.txt",
			"s3-sdk/list/e f+g.txt",
		]);
		expect(page.CommonPrefixes?.map((p) => p.Prefix)).toEqual(["s3-sdk/list/dir/"]);
		expect(page.KeyCount).toBe(4);
	});

	it("pages V2 with max-keys and continuation tokens, and starts after a key", async () => {
		const seen: string[] = [];
		let token: string | undefined;
		do {
			const page = await s3.send(
				new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "s3-sdk/list/", MaxKeys: 2, ContinuationToken: token }),
			);
			seen.push(...(page.Contents ?? []).map((o) => o.Key ?? ""));
			token = page.NextContinuationToken;
			expect(page.IsTruncated).toBe(token !== undefined);
		} while (token !== undefined);
		expect(seen).toEqual([...keys].sort());
		const after = await s3.send(
			new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "s3-sdk/list/", StartAfter: "s3-sdk/list/dir/d.txt" }),
		);
		expect(after.Contents?.map((o) => o.Key)).toEqual(["s3-sdk/list/e f+g.txt"]);
	});

	it("lists V2 with encoding-type=url", async () => {
		const page = await s3.send(
			new ListObjectsV2Command({ Bucket: BUCKET, Prefix: "s3-sdk/list/e", EncodingType: "url" }),
		);
		expect(page.EncodingType).toBe("url");
		expect(page.Contents?.map((o) => decodeURIComponent((o.Key ?? "").replace(/\+/g, " ")))).toEqual([
			"s3-sdk/list/e f+g.txt",
		]);
	});

	it("pages V1 with markers", async () => {
		const first = await s3.send(new ListObjectsCommand({ Bucket: BUCKET, Prefix: "s3-sdk/list/", MaxKeys: 3 }));
		expect(first.IsTruncated).toBe(true);
		const second = await s3.send(
			new ListObjectsCommand({
				Bucket: BUCKET,
				Prefix: "s3-sdk/list/",
				Marker: first.NextMarker ?? first.Contents?.at(-1)?.Key,
			}),
		);
		expect([...(first.Contents ?? []), ...(second.Contents ?? [])].map((o) => o.Key)).toEqual([...keys].sort());
	});
});

describe("@aws-sdk/client-s3 against wrangler dev: multipart uploads", () => {
	const part1 = patternBytes(5 * MiB, 2);
	const part2 = patternBytes(1024, 3);

	it("creates, lists, uploads parts (one copied), lists parts and completes an upload", async () => {
		const key = "s3-sdk/multipart/whole.bin";
		const { UploadId } = await s3.send(
			new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ContentType: "application/octet-stream" }),
		);
		expect(UploadId).toBeTruthy();
		const uploads = await s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: "s3-sdk/multipart/" }));
		expect(uploads.Uploads?.map((u) => [u.Key, u.UploadId])).toContainEqual([key, UploadId]);
		const p1 = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: part1 }));
		await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/multipart/source.bin", Body: part2 }));
		const p2 = await s3.send(
			new UploadPartCopyCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId,
				PartNumber: 2,
				CopySource: `${BUCKET}/s3-sdk/multipart/source.bin`,
			}),
		);
		const parts = await s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId }));
		expect(parts.Parts?.map((p) => [p.PartNumber, p.Size])).toEqual([
			[1, part1.length],
			[2, part2.length],
		]);
		const done = await s3.send(
			new CompleteMultipartUploadCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId,
				MultipartUpload: {
					Parts: [
						{ PartNumber: 1, ETag: p1.ETag },
						{ PartNumber: 2, ETag: p2.CopyPartResult?.ETag },
					],
				},
			}),
		);
		expect(done.ETag).toMatch(/-2"$/);
		expect((await storedObject(native, key))?.sha256).toBe(sha256Hex(Buffer.concat([part1, part2])));
		const second = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, PartNumber: 2 }));
		expect([second.PartsCount, second.ContentLength]).toEqual([2, part2.length]);
	});

	it("refuses small parts, wrong parts, parts out of order and unknown uploads with S3's codes", async () => {
		const key = "s3-sdk/multipart/refused.bin";
		const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
		const p1 = await s3.send(
			new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: patternBytes(1024) }),
		);
		const p2 = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 2, Body: part2 }));
		const complete = (Parts: { PartNumber: number; ETag?: string }[]) =>
			s3.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts } }));
		expect(await s3Error(complete([{ PartNumber: 1, ETag: '"0000"' }]))).toMatchObject({
			code: "InvalidPart",
			status: 400,
		});
		expect(
			await s3Error(
				complete([
					{ PartNumber: 2, ETag: p2.ETag },
					{ PartNumber: 1, ETag: p1.ETag },
				]),
			),
		).toMatchObject({ code: "InvalidPartOrder", status: 400 });
		expect(
			await s3Error(
				complete([
					{ PartNumber: 1, ETag: p1.ETag },
					{ PartNumber: 2, ETag: p2.ETag },
				]),
			),
		).toMatchObject({ code: "EntityTooSmall", status: 400 });
		expect(await native.head(key)).toBeNull();
		await s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId }));
		expect(await s3Error(s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId })))).toMatchObject({
			code: "NoSuchUpload",
			status: 404,
		});
	});

	it("continues through S3 an upload the native dialect created, and the other way round", async () => {
		const key = "s3-sdk/multipart/crossed.bin";
		const created = await native.createMultipartUpload(key);
		const p1 = await s3.send(
			new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId: created.uploadId, PartNumber: 1, Body: part1 }),
		);
		const p2 = await created.uploadPart(2, part2);
		await s3.send(
			new CompleteMultipartUploadCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId: created.uploadId,
				MultipartUpload: {
					Parts: [
						{ PartNumber: 1, ETag: p1.ETag },
						{ PartNumber: 2, ETag: `"${p2.etag}"` },
					],
				},
			}),
		);
		expect((await storedObject(native, key))?.sha256).toBe(sha256Hex(Buffer.concat([part1, part2])));

		const back = "s3-sdk/multipart/crossed-back.bin";
		const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: back }));
		const resumed = native.resumeMultipartUpload(back, UploadId ?? "");
		const q1 = await resumed.uploadPart(1, part1);
		const q2 = await resumed.uploadPart(2, part2);
		await resumed.complete([q1, q2]);
		expect((await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: back }))).ContentLength).toBe(
			part1.length + part2.length,
		);
		const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: back }));
		expect(sha256Hex(Buffer.from((await read.Body?.transformToByteArray()) ?? []))).toBe(
			sha256Hex(Buffer.concat([part1, part2])),
		);
	});

	it("uploads a stream of unknown length with lib-storage's Upload, in parts when it is long", async () => {
		for (const [key, bytes] of [
			["s3-sdk/upload/small.bin", patternBytes(MiB, 4)],
			["s3-sdk/upload/long.bin", patternBytes(12 * MiB + 5, 5)],
		] as const) {
			const upload = new Upload({
				client: s3,
				params: { Bucket: BUCKET, Key: key, Body: unknownLength(bytes), ContentType: "application/octet-stream" },
			});
			const result = await upload.done();
			const stored = await storedObject(native, key);
			expect([stored?.size, stored?.sha256, stored?.httpMetadata]).toEqual([
				bytes.length,
				sha256Hex(bytes),
				{ contentType: "application/octet-stream" },
			]);
			if (bytes.length < 5 * MiB) continue;
			// Upload creates the upload with CRC32 and sends each part's: the object has the
			// COMPOSITE CRC32 of its three 5 MiB parts, which a read under ChecksumMode gives back.
			const composite = `${crc32Base64(Buffer.concat(partsOf(bytes, 5 * MiB).map(crc32Bytes)))}-3`;
			expect([result.ChecksumCRC32, result.ChecksumType]).toEqual([composite, "COMPOSITE"]);
			const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: "ENABLED" }));
			expect([head.ChecksumCRC32, head.ChecksumType]).toEqual([composite, "COMPOSITE"]);
			const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: "ENABLED" }));
			expect(sha256Hex(Buffer.from((await read.Body?.transformToByteArray()) ?? []))).toBe(sha256Hex(bytes));
		}
	});

	it("makes a FULL_OBJECT CRC64NVME of an upload's parts, the whole object's CRC", async () => {
		const key = "s3-sdk/upload/crc64nvme.bin";
		const bytes = patternBytes(5 * MiB + 3, 6);
		const created = await s3.send(
			new CreateMultipartUploadCommand({
				Bucket: BUCKET,
				Key: key,
				ChecksumAlgorithm: "CRC64NVME",
				ChecksumType: "FULL_OBJECT",
			}),
		);
		expect([created.ChecksumAlgorithm, created.ChecksumType]).toEqual(["CRC64NVME", "FULL_OBJECT"]);
		const { UploadId } = created;
		const Parts = [];
		for (const [index, Body] of partsOf(bytes, 5 * MiB).entries()) {
			const part = await s3.send(
				new UploadPartCommand({
					Bucket: BUCKET,
					Key: key,
					UploadId,
					PartNumber: index + 1,
					Body,
					ChecksumAlgorithm: "CRC64NVME",
				}),
			);
			Parts.push({ PartNumber: index + 1, ETag: part.ETag, ChecksumCRC64NVME: part.ChecksumCRC64NVME });
		}
		const whole = await crc64NvmeBase64(bytes);
		const done = await s3.send(
			new CompleteMultipartUploadCommand({
				Bucket: BUCKET,
				Key: key,
				UploadId,
				MultipartUpload: { Parts },
				ChecksumCRC64NVME: whole,
				ChecksumType: "FULL_OBJECT",
			}),
		);
		expect([done.ChecksumCRC64NVME, done.ChecksumType]).toEqual([whole, "FULL_OBJECT"]);
		const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: "ENABLED" }));
		expect([head.ChecksumCRC64NVME, head.ChecksumType]).toEqual([whole, "FULL_OBJECT"]);
		// A full-object checksum is the object's own: the SDK validates the body read against it.
		const read = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: "ENABLED" }));
		expect(sha256Hex(Buffer.from((await read.Body?.transformToByteArray()) ?? []))).toBe(sha256Hex(bytes));
	});
});

describe("@aws-sdk/client-s3 against wrangler dev: presigned URLs, fetched with plain fetch", () => {
	it("GETs and PUTs through presigned URLs", async () => {
		const key = "s3-sdk/presigned/object.txt";
		const put = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 300 });
		const stored = await fetch(put, { method: "PUT", body: "presigned body" });
		expect(stored.status).toBe(200);
		const get = await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: key }), { expiresIn: 300 });
		const read = await fetch(get);
		expect([read.status, await read.text()]).toEqual([200, "presigned body"]);
	});

	it("stores the metadata getSignedUrl hoists into the URL's query, which HeadObject reads back", async () => {
		const key = "s3-sdk/presigned/metadata.txt";
		const command = new PutObjectCommand({ Bucket: BUCKET, Key: key, Metadata: { color: "blue" } });
		const url = new URL(await getSignedUrl(s3, command, { expiresIn: 300 }));
		// The SDK signs x-amz-meta-color into the query, not as a header: the holder sends the URL and a body.
		expect([url.searchParams.get("x-amz-meta-color"), url.searchParams.get("X-Amz-SignedHeaders")]).toEqual([
			"blue",
			"host",
		]);
		const stored = await fetch(url, { method: "PUT", body: "painted blue" });
		expect(stored.status).toBe(200);
		const head = await s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
		expect(head.Metadata).toEqual({ color: "blue" });
	});

	it("refuses a presigned CopyObject, whose x-amz-copy-source the SDK puts in the query, writing nothing", async () => {
		const key = "s3-sdk/presigned/copy.txt";
		const command = new CopyObjectCommand({
			Bucket: BUCKET,
			Key: key,
			CopySource: `${BUCKET}/s3-sdk/presigned/object.txt`,
		});
		const url = new URL(await getSignedUrl(s3, command, { expiresIn: 300 }));
		expect(url.searchParams.has("x-amz-copy-source")).toBe(true);
		const answer = await fetch(url, { method: "PUT" });
		expect([answer.status, await answer.text()]).toEqual([501, expect.stringContaining("<Code>NotImplemented</Code>")]);
		expect(await native.head(key)).toBeNull();
	});

	it("refuses an expired presigned URL with AccessDenied, storing nothing", async () => {
		const key = "s3-sdk/presigned/expired.txt";
		const signingDate = new Date(Date.now() - 3600_000);
		const put = await getSignedUrl(s3, new PutObjectCommand({ Bucket: BUCKET, Key: key }), {
			expiresIn: 60,
			signingDate,
		});
		const answer = await fetch(put, { method: "PUT", body: "too late" });
		expect([answer.status, await answer.text()]).toEqual([403, expect.stringContaining("<Code>AccessDenied</Code>")]);
		expect(await native.head(key)).toBeNull();
	});

	it("refuses a presigned URL whose query was changed with SignatureDoesNotMatch", async () => {
		const url = new URL(
			await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/presigned/object.txt" }), {
				expiresIn: 300,
			}),
		);
		url.searchParams.set("X-Amz-Expires", "600");
		const answer = await fetch(url);
		expect([answer.status, await answer.text()]).toEqual([
			403,
			expect.stringContaining("<Code>SignatureDoesNotMatch</Code>"),
		]);
	});
});

describe("@aws-sdk/client-s3 against wrangler dev: credentials and permissions", () => {
	const key = "s3-sdk/refused.txt";
	const put = (client: ReturnType<typeof s3Client>) =>
		client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: "refused" }));

	it("refuses an unknown access key with InvalidAccessKeyId, storing nothing", async () => {
		const stranger = s3Client(dev.url, { accessKeyId: "0".repeat(32), secretAccessKey: admin.secretAccessKey });
		expect(await s3Error(put(stranger))).toMatchObject({ code: "InvalidAccessKeyId", status: 403 });
		expect(await native.head(key)).toBeNull();
	});

	it("refuses a wrong secret with SignatureDoesNotMatch, storing nothing", async () => {
		const wrong = s3Client(dev.url, { accessKeyId: admin.accessKeyId, secretAccessKey: "f".repeat(64) });
		expect(await s3Error(put(wrong))).toMatchObject({ code: "SignatureDoesNotMatch", status: 403 });
		expect(await native.head(key)).toBeNull();
	});

	it("answers RequestTimeTooSkewed to a machine whose clock is off, which the SDK corrects and retries", async () => {
		// This process's clock an hour behind (Date alone: the SDK signs with Date.now()).
		vi.useFakeTimers({ toFake: ["Date"], now: Date.now() - 3600_000 });
		try {
			const once = s3Client(dev.url, admin, { maxAttempts: 1 });
			expect(await s3Error(put(once))).toMatchObject({ code: "RequestTimeTooSkewed", status: 403 });
			await s3Client(dev.url, admin).send(
				new PutObjectCommand({ Bucket: BUCKET, Key: "s3-sdk/skew-corrected.txt", Body: "in time" }),
			);
		} finally {
			vi.useRealTimers();
		}
		expect(await native.head(key)).toBeNull();
		const corrected = await native.get("s3-sdk/skew-corrected.txt");
		expect(new TextDecoder().decode(await corrected?.arrayBuffer())).toBe("in time");
	});

	it("refuses writes to a read-only key and ListBuckets to an object key with AccessDenied", async () => {
		const reader = s3Client(dev.url, await credentialsOf(READ_TOKEN));
		expect(await s3Error(put(reader))).toMatchObject({ code: "AccessDenied", status: 403 });
		expect(await native.head(key)).toBeNull();
		expect((await reader.send(new ListObjectsV2Command({ Bucket: BUCKET, MaxKeys: 1 }))).$metadata.httpStatusCode).toBe(
			200,
		);
		const scoped = s3Client(dev.url, await credentialsOf(SCOPED_TOKEN));
		expect(await s3Error(scoped.send(new ListBucketsCommand({})))).toMatchObject({ code: "AccessDenied", status: 403 });
	});
});

/** One write, as S3 and as the native dialect make it. */
interface ParityCase {
	name: string;
	s3: Omit<PutObjectCommandInput, "Bucket" | "Key">;
	native: { body: Uint8Array | string; options?: object };
}

const gzipped = new Uint8Array(gzipSync("compressed ".repeat(100)));
const binary = patternBytes(MiB + 3, 6);
const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest();
const sha1 = (bytes: Uint8Array) => createHash("sha1").update(bytes).digest();
const PARITY: ParityCase[] = [
	{
		name: "text with a type",
		s3: { Body: "plain", ContentType: "text/plain" },
		native: { body: "plain", options: { httpMetadata: { contentType: "text/plain" } } },
	},
	{
		name: "every httpMetadata field and custom metadata",
		s3: {
			Body: gzipped,
			ContentType: "text/plain",
			ContentEncoding: "gzip",
			ContentLanguage: "en",
			ContentDisposition: "inline",
			CacheControl: "max-age=60",
			Expires: new Date("2030-01-01T00:00:00Z"),
			Metadata: { owner: "ops", team: "edge" },
		},
		native: {
			body: gzipped,
			options: {
				httpMetadata: {
					contentType: "text/plain",
					contentEncoding: "gzip",
					contentLanguage: "en",
					contentDisposition: "inline",
					cacheControl: "max-age=60",
					cacheExpiry: new Date("2030-01-01T00:00:00Z"),
				},
				customMetadata: { owner: "ops", team: "edge" },
			},
		},
	},
	{
		name: "Content-MD5",
		s3: { Body: binary, ContentMD5: base64(md5(binary)) },
		native: { body: binary, options: { md5: md5(binary) } },
	},
	{
		name: "SHA-256",
		s3: { Body: binary, ChecksumSHA256: base64(sha256(binary)) },
		native: { body: binary, options: { sha256: sha256(binary) } },
	},
	{
		name: "SHA-1",
		s3: { Body: binary, ChecksumSHA1: base64(sha1(binary)) },
		native: { body: binary, options: { sha1: sha1(binary) } },
	},
	{
		name: "STANDARD_IA",
		s3: { Body: "cold", StorageClass: "STANDARD_IA" },
		native: { body: "cold", options: { storageClass: "InfrequentAccess" } },
	},
	{ name: "an empty body", s3: { Body: "" }, native: { body: "" } },
	{ name: "a key of spaces, plus and unicode", s3: { Body: "ü" }, native: { body: "ü" } },
];

describe("parity: the same writes through S3 (the SDK) and the native dialect (RemoteBucket) leave the same objects", () => {
	for (const [i, c] of PARITY.entries()) {
		it(`stores ${c.name} alike, as the native dialect reads it back`, async () => {
			const suffix = c.name.startsWith("a key") ? `${i} ü +x.txt` : `${i}`;
			await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: `s3-sdk/parity/s3/${suffix}`, ...c.s3 }));
			// Given no ContentType, the SDK sends `application/octet-stream` (its REST-XML serializer's
			// default for a blob payload): the native write says the same.
			const options =
				c.s3.ContentType === undefined
					? { ...c.native.options, httpMetadata: { contentType: "application/octet-stream" } }
					: c.native.options;
			await native.put(`s3-sdk/parity/native/${suffix}`, c.native.body, options);
			const viaS3 = await storedObject(native, `s3-sdk/parity/s3/${suffix}`);
			const viaNative = await storedObject(native, `s3-sdk/parity/native/${suffix}`);
			expect(viaS3).not.toBeNull();
			expect(viaS3).toEqual(viaNative);
		});
	}

	it("stores a two-part upload alike, ETag and all", async () => {
		const part1 = patternBytes(5 * MiB, 7);
		const part2 = patternBytes(100, 8);
		const key = "s3-sdk/parity/s3/multipart";
		const { UploadId } = await s3.send(
			new CreateMultipartUploadCommand({
				Bucket: BUCKET,
				Key: key,
				ContentType: "application/x-test",
				Metadata: { m: "1" },
			}),
		);
		const parts = [];
		for (const [n, body] of [part1, part2].entries()) {
			const { ETag } = await s3.send(
				new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: n + 1, Body: body }),
			);
			parts.push({ PartNumber: n + 1, ETag });
		}
		await s3.send(
			new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId, MultipartUpload: { Parts: parts } }),
		);
		const upload = await native.createMultipartUpload("s3-sdk/parity/native/multipart", {
			httpMetadata: { contentType: "application/x-test" },
			customMetadata: { m: "1" },
		});
		const nativeParts = [await upload.uploadPart(1, part1), await upload.uploadPart(2, part2)];
		await upload.complete(nativeParts);
		expect(await storedObject(native, key)).toEqual(await storedObject(native, "s3-sdk/parity/native/multipart"));
	});
});
