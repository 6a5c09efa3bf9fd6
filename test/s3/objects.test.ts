/**
 * GetObject, HeadObject, PutObject and DeleteObject through the S3 dialect, checked against what
 * `env.BUCKET` holds; the signed payload hash checked against the body; S3's errors for the rest.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { BUCKET, bucket, expectS3Error, presign, s3, sha256Hex } from "./helpers";

const key = (label: string) => `s3-objects/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;

describe("PutObject", () => {
	it("stores the body with its x-amz-meta-* and Content-Type, and answers its ETag", async () => {
		const k = key("put");
		const response = await s3(path(k), {
			method: "PUT",
			body: "hello s3",
			headers: { "content-type": "text/plain", "x-amz-meta-colour": "blue", "cache-control": "max-age=60" },
		});
		expect(response.status).toBe(200);
		const stored = await bucket().get(k);
		expect(await stored?.text()).toBe("hello s3");
		expect(response.headers.get("etag")).toBe(stored?.httpEtag);
		expect(stored?.customMetadata).toEqual({ colour: "blue" });
		expect(stored?.httpMetadata).toMatchObject({ contentType: "text/plain", cacheControl: "max-age=60" });
	});

	it("signs and stores keys with spaces, Unicode and reserved characters", async () => {
		const k = key("dir/ü nïcode & (x)!*'=;,$@%");
		const response = await s3(`/${BUCKET}/${k.split("/").map(encodeURIComponent).join("/")}`, {
			method: "PUT",
			body: "odd",
		});
		expect(response.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("odd");
	});

	it("stores a body whose signed SHA-256 matches", async () => {
		const k = key("signed");
		const response = await s3(path(k), {
			method: "PUT",
			body: "signed body",
			headers: { "x-amz-content-sha256": await sha256Hex("signed body") },
		});
		expect(response.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("signed body");
	});

	it("refuses a body that is not the one signed with XAmzContentSHA256Mismatch and stores nothing", async () => {
		const k = key("tampered");
		const response = await s3(path(k), {
			method: "PUT",
			body: "tampered body",
			headers: { "x-amz-content-sha256": await sha256Hex("signed body") },
		});
		await expectS3Error(response, 400, "XAmzContentSHA256Mismatch");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a body of several 1 MiB blocks whose last byte is not the one signed, keeping the object the key held", async () => {
		const k = key("tampered-long");
		await bucket().put(k, "the older object");
		const signed = new Uint8Array(3 * 1024 * 1024 + 17).fill(7);
		const sent = signed.slice();
		sent[sent.byteLength - 1] = 8;
		const response = await s3(path(k), {
			method: "PUT",
			body: sent,
			headers: { "x-amz-content-sha256": await sha256Hex(signed) },
		});
		await expectS3Error(response, 400, "XAmzContentSHA256Mismatch");
		expect(await (await bucket().get(k))?.text()).toBe("the older object");
	});

	it("refuses a body of unknown length that is not the one signed, and stores nothing", async () => {
		const k = key("tampered-stream");
		const body = new ReadableStream({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("tampered "));
				controller.enqueue(new TextEncoder().encode("stream"));
				controller.close();
			},
		});
		const response = await s3(path(k), {
			method: "PUT",
			body,
			headers: { "x-amz-content-sha256": await sha256Hex("signed stream") },
		});
		await expectS3Error(response, 400, "XAmzContentSHA256Mismatch");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a Content-MD5 that is not the body's with BadDigest and stores nothing", async () => {
		const k = key("md5");
		const response = await s3(path(k), {
			method: "PUT",
			body: "md5 body",
			headers: { "content-md5": btoa("0123456789abcdef") },
		});
		await expectS3Error(response, 400, "BadDigest");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a storage class R2 does not have with InvalidStorageClass, as R2, and stores nothing", async () => {
		const k = key("glacier");
		const response = await s3(path(k), { method: "PUT", body: "cold", headers: { "x-amz-storage-class": "GLACIER" } });
		await expectS3Error(response, 400, "InvalidStorageClass");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses an aws-chunked body signed with SigV4a with NotImplemented rather than storing its framing", async () => {
		const k = key("chunked");
		const response = await s3(path(k), {
			method: "PUT",
			body: "0;chunk-signature=x\r\n\r\n",
			headers: {
				"x-amz-content-sha256": "STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD",
				"content-encoding": "aws-chunked",
				"x-amz-decoded-content-length": "0",
			},
		});
		const error = await expectS3Error(response, 501, "NotImplemented");
		expect(error?.Message).toContain("STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD");
		expect(await bucket().head(k)).toBeNull();
	});

	it("answers a failed If-None-Match: * with PreconditionFailed and keeps the object", async () => {
		const k = key("if-none-match");
		await bucket().put(k, "first");
		const response = await s3(path(k), { method: "PUT", body: "second", headers: { "if-none-match": "*" } });
		await expectS3Error(response, 412, "PreconditionFailed");
		expect(await (await bucket().get(k))?.text()).toBe("first");
	});
});

describe("GetObject and HeadObject", () => {
	it("answers the object with its metadata headers and no gateway extensions", async () => {
		const k = key("get");
		const stored = await bucket().put(k, "the body", {
			httpMetadata: { contentType: "text/plain" },
			customMetadata: { colour: "blue" },
		});
		const response = await s3(path(k));
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("the body");
		expect(response.headers.get("etag")).toBe(stored?.httpEtag);
		expect(response.headers.get("content-type")).toBe("text/plain");
		expect(response.headers.get("x-amz-meta-colour")).toBe("blue");
		expect(response.headers.get("x-amz-request-id")).toMatch(/^[0-9a-f]{16}$/);
		expect([...response.headers.keys()].filter((name) => name.startsWith("x-r2-"))).toEqual([]);
	});

	it("serves a Range with 206 and Content-Range", async () => {
		const k = key("range");
		await bucket().put(k, "0123456789");
		const response = await s3(path(k), { headers: { range: "bytes=2-4" } });
		expect(response.status).toBe(206);
		expect(response.headers.get("content-range")).toBe("bytes 2-4/10");
		expect(await textOf(response)).toBe("234");
	});

	it("refuses a range past the end with InvalidRange", async () => {
		const k = key("range-past");
		await bucket().put(k, "0123");
		const response = await s3(path(k), { headers: { range: "bytes=10-" } });
		await expectS3Error(response, 416, "InvalidRange");
		expect(response.headers.get("content-range")).toBe("bytes */4");
	});

	it("answers 304 to a matching If-None-Match and PreconditionFailed to a failing If-Match", async () => {
		const k = key("conditional");
		const stored = await bucket().put(k, "conditional");
		const notModified = await s3(path(k), { headers: { "if-none-match": stored?.httpEtag ?? "" } });
		expect(notModified.status).toBe(304);
		await expectS3Error(await s3(path(k), { headers: { "if-match": '"other"' } }), 412, "PreconditionFailed");
	});

	it("compares an unquoted ETag in If-Match and If-None-Match as if quoted, as S3 does", async () => {
		const k = key("unquoted");
		const stored = await bucket().put(k, "unquoted");
		const etag = stored?.etag ?? "";
		const matched = await s3(path(k), { headers: { "if-match": etag } });
		expect(matched.status).toBe(200);
		expect(await textOf(matched)).toBe("unquoted");
		expect((await s3(path(k), { method: "HEAD", headers: { "if-match": etag } })).status).toBe(200);
		expect((await s3(path(k), { headers: { "if-none-match": etag } })).status).toBe(304);
		expect((await s3(path(k), { method: "HEAD", headers: { "if-none-match": `"x", ${etag}` } })).status).toBe(304);
		await expectS3Error(await s3(path(k), { headers: { "if-match": "other" } }), 412, "PreconditionFailed");
		await expectS3Error(
			await s3(path(k), { method: "PUT", body: "again", headers: { "if-match": "other" } }),
			412,
			"PreconditionFailed",
		);
		const put = await s3(path(k), { method: "PUT", body: "again", headers: { "if-match": etag } });
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("again");
	});

	it("answers HEAD with the object's headers and no body", async () => {
		const k = key("head");
		await bucket().put(k, "twelve bytes");
		const response = await s3(path(k), { method: "HEAD" });
		expect(response.status).toBe(200);
		expect(response.headers.get("content-length")).toBe("12");
		expect(response.body).toBeNull();
	});

	it("refuses a missing key with NoSuchKey, and a HEAD of one with a bare 404", async () => {
		await expectS3Error(await s3(path(key("missing"))), 404, "NoSuchKey");
		await expectS3Error(await s3(path(key("missing")), { method: "HEAD" }), 404, "NoSuchKey");
	});

	it("sets the headers response-* asks for, as a presigned download link uses them", async () => {
		const k = key("override");
		await bucket().put(k, "x", { httpMetadata: { contentType: "text/plain" } });
		const url = await presign(
			`${path(k)}?response-content-disposition=${encodeURIComponent('attachment; filename="a.txt"')}&response-content-type=application/x-download`,
		);
		const response = await exports.default.fetch(url);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-disposition")).toBe('attachment; filename="a.txt"');
		expect(response.headers.get("content-type")).toBe("application/x-download");
		await response.arrayBuffer();
		expect((await bucket().head(k))?.httpMetadata?.contentType).toBe("text/plain");
	});

	it("refuses a response-* parameter S3 does not have, and versionId, which R2's binding has no versions for", async () => {
		const k = key("override-unknown");
		await bucket().put(k, "x");
		await expectS3Error(await s3(`${path(k)}?response-foo=bar`), 400, "InvalidArgument");
		const error = await expectS3Error(await s3(`${path(k)}?versionId=1`), 501, "NotImplemented");
		expect(error?.Message).toContain("versionId");
	});
});

describe("DeleteObject", () => {
	it("deletes the key and answers 204, and 204 again for a key that is gone", async () => {
		const k = key("delete");
		await bucket().put(k, "x");
		expect((await s3(path(k), { method: "DELETE" })).status).toBe(204);
		expect(await bucket().head(k)).toBeNull();
		expect((await s3(path(k), { method: "DELETE" })).status).toBe(204);
	});
});

describe("buckets and operations", () => {
	it("answers HeadBucket and GetBucketLocation (auto) for a declared bucket", async () => {
		expect((await s3(`/${BUCKET}`, { method: "HEAD" })).status).toBe(200);
		const location = await s3(`/${BUCKET}?location`);
		expect(location.status).toBe(200);
		expect(await location.text()).toContain(">auto</LocationConstraint>");
	});

	it("refuses a bucket neither declared nor created with NoSuchBucket naming it, saying how to make one", async () => {
		const response = await s3("/no-such-bucket/k", { method: "PUT", body: "x" });
		const error = await expectS3Error(response, 404, "NoSuchBucket");
		expect(error?.BucketName).toBe("no-such-bucket");
		expect(error?.Message).toContain("wrangler.toml");
	});

	it("reaches the log-push bucket by its bucket_name", async () => {
		const k = key("logs");
		expect((await s3(`/edgezone-logs/${k}`, { method: "PUT", body: "log" })).status).toBe(200);
		expect(await (await env.LOGS.get(k))?.text()).toBe("log");
		await env.LOGS.delete(k);
	});

	it("reads an object whose metadata names HTTP cannot carry, leaving them out as R2 does", async () => {
		const k = key("metadata-names");
		await env.BUCKET.put(k, "readable", { customMetadata: { kept: "yes", ünï: "v" } });
		for (const method of ["GET", "HEAD"]) {
			const response = await s3(path(k), { method });
			expect(response.status).toBe(200);
			expect(response.headers.get("x-amz-meta-kept")).toBe("yes");
			expect(response.headers.get("x-amz-missing-meta")).toBe("1");
		}
		await env.BUCKET.delete(k);
	});

	it("answers operations it does not do with NotImplemented naming each", async () => {
		const cases: [string, RequestInit, string][] = [
			[`/${BUCKET}?website`, {}, "GetBucketWebsite"],
			[`/${BUCKET}?list-type=3`, {}, "ListObjectsV3"],
		];
		for (const [target, init, name] of cases) {
			const error = await expectS3Error(await s3(target, init), 501, "NotImplemented");
			expect(error?.Message).toContain(name);
		}
	});
});

describe("a browser form upload (PostObject)", () => {
	/** A form as `createPresignedPost` (or boto3's `generate_presigned_post`) has a page send it. */
	function form(k: string): FormData {
		const fields = new FormData();
		fields.set("key", k);
		fields.set("X-Amz-Algorithm", "AWS4-HMAC-SHA256");
		fields.set("X-Amz-Credential", "id/20261125/auto/s3/aws4_request");
		fields.set("X-Amz-Date", "20261125T000000Z");
		fields.set("Policy", btoa("{}"));
		fields.set("X-Amz-Signature", "0".repeat(64));
		fields.set("file", new Blob(["posted"]), "posted.txt");
		return fields;
	}

	it("is refused with NotImplemented naming PostObject, as R2 does not take it, and stores nothing", async () => {
		const k = "s3-objects/form/posted.txt";
		const response = await exports.default.fetch(`http://s3.test/${BUCKET}`, { method: "POST", body: form(k) });
		const error = await expectS3Error(response, 501, "NotImplemented");
		expect(error?.Message).toMatch(/^PostObject/);
		expect(await bucket().head(k)).toBeNull();
	});

	it("leaves a form POST with the gateway's token to the native dialect", async () => {
		const response = await exports.default.fetch(`http://s3.test/${BUCKET}`, {
			method: "POST",
			body: form("s3-objects/form/native.txt"),
			headers: { authorization: "Bearer test-rw" },
		});
		expect(response.status).toBe(405);
		expect(response.headers.get("content-type")).toMatch(/^application\/json/);
		await response.body?.cancel();
	});
});
