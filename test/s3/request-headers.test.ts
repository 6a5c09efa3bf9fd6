/**
 * The request headers R2 refuses: each refused with R2's error before anything is stored, where
 * dropping it in silence would store an object unlike the one asked for (tagged, locked,
 * KMS-encrypted, encrypted with the caller's key), and the values R2 takes (AES256, canned ACLs).
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUCKET, expectS3Error, s3 } from "./helpers";

const key = (name: string) => `s3-request-headers/${name}`;
const path = (k: string) => `/${BUCKET}/${k}`;

/** A PutObject of `k` with `headers`. */
const put = (k: string, headers: Record<string, string>) => s3(path(k), { method: "PUT", body: "body", headers });

/** SSE-C's three headers for a 256-bit key, under `prefix`. */
async function ssec(prefix = "x-amz-", algorithm = "AES256"): Promise<Record<string, string>> {
	const secret = new Uint8Array(32).fill(7);
	const md5 = new Uint8Array(await crypto.subtle.digest("MD5", secret));
	const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));
	return {
		[`${prefix}server-side-encryption-customer-algorithm`]: algorithm,
		[`${prefix}server-side-encryption-customer-key`]: base64(secret),
		[`${prefix}server-side-encryption-customer-key-MD5`]: base64(md5),
	};
}

describe("headers R2 does not implement", () => {
	it("refuses each on PutObject with NotImplemented naming it and its value, and stores nothing", async () => {
		const refused: Record<string, string> = {
			"x-amz-tagging": "team=a",
			"x-amz-grant-read": 'id="someone"',
			"x-amz-website-redirect-location": "/elsewhere",
			"x-amz-object-lock-mode": "GOVERNANCE",
			"x-amz-object-lock-legal-hold": "ON",
			"x-amz-server-side-encryption-aws-kms-key-id": "kms-key",
			"x-amz-expected-bucket-owner": "123456789012",
			"x-amz-server-side-encryption": "aws:kms",
			"x-amz-acl": "not-a-canned-acl",
		};
		for (const [name, value] of Object.entries(refused)) {
			const k = key(`refused-${name}`);
			const error = await expectS3Error(await put(k, { [name]: value }), 501, "NotImplemented");
			expect(error?.Message).toBe(`Header '${name}' with value '${value}' not implemented`);
			expect(await env.BUCKET.head(k)).toBeNull();
		}
	});

	it("takes AES256 (R2's encryption at rest) and a canned ACL, which change nothing", async () => {
		const k = key("taken");
		const response = await put(k, { "x-amz-server-side-encryption": "AES256", "x-amz-acl": "private" });
		expect(response.status).toBe(200);
		expect(await (await env.BUCKET.get(k))?.text()).toBe("body");
		await env.BUCKET.delete(k);
	});

	it("refuses them on CreateMultipartUpload and CopyObject too, creating nothing", async () => {
		const k = key("upload");
		const created = await s3(`${path(k)}?uploads`, { method: "POST", headers: { "x-amz-tagging": "a=b" } });
		await expectS3Error(created, 501, "NotImplemented");
		const source = key("copy-source");
		await env.BUCKET.put(source, "source");
		const copied = await s3(path(key("copy")), {
			method: "PUT",
			headers: { "x-amz-copy-source": `/${BUCKET}/${source}`, "x-amz-tagging-directive": "REPLACE" },
		});
		const error = await expectS3Error(copied, 501, "NotImplemented");
		expect(error?.Message).toContain("x-amz-tagging-directive");
		expect(await env.BUCKET.head(key("copy"))).toBeNull();
		await env.BUCKET.delete(source);
	});

	it("refuses x-amz-expected-bucket-owner on reads, and MFA on a delete, which then deletes nothing", async () => {
		const k = key("kept");
		await env.BUCKET.put(k, "kept");
		const owner = { "x-amz-expected-bucket-owner": "123456789012" };
		await expectS3Error(await s3(path(k), { headers: owner }), 501, "NotImplemented");
		await expectS3Error(await s3(`/${BUCKET}?list-type=2`, { headers: owner }), 501, "NotImplemented");
		const deleted = await s3(path(k), { method: "DELETE", headers: { "x-amz-mfa": "serial 123456" } });
		await expectS3Error(deleted, 501, "NotImplemented");
		expect(await env.BUCKET.head(k)).not.toBeNull();
		await env.BUCKET.delete(k);
	});

	it("does not refuse x-amz-expected-bucket-owner on AbortMultipartUpload, as R2 does not", async () => {
		const k = key("abort");
		const upload = await env.BUCKET.createMultipartUpload(k);
		const aborted = await s3(`${path(k)}?uploadId=${encodeURIComponent(upload.uploadId)}`, {
			method: "DELETE",
			headers: { "x-amz-expected-bucket-owner": "123456789012" },
		});
		expect(aborted.status).toBe(204);
	});
});

describe("SSE-C (customer-provided keys)", () => {
	it("refuses a write with a key as not implemented here, storing nothing in the clear", async () => {
		const k = key("ssec-put");
		const error = await expectS3Error(await put(k, await ssec()), 501, "NotImplemented");
		expect(error?.Message).toContain("x-amz-server-side-encryption-customer-algorithm");
		expect(await env.BUCKET.head(k)).toBeNull();
	});

	it("asks for all three headers, then AES256, as R2 does", async () => {
		const headers = await ssec();
		const without = (name: string) =>
			Object.fromEntries(Object.entries(headers).filter(([header]) => !header.endsWith(name)));
		const noKey = await expectS3Error(await put(key("a"), without("customer-key")), 400, "InvalidArgument");
		expect(noKey?.Message).toContain("an appropriate secret key");
		const noMd5 = await expectS3Error(await put(key("b"), without("key-MD5")), 400, "InvalidArgument");
		expect(noMd5?.Message).toContain("MD5 of the secret key");
		await expectS3Error(await put(key("c"), await ssec("x-amz-", "AES128")), 400, "InvalidEncryptionAlgorithmError");
	});

	it("answers a read with a key that its object was not stored with one, as R2 answers", async () => {
		const k = key("ssec-read");
		await env.BUCKET.put(k, "plain");
		const error = await expectS3Error(await s3(path(k), { headers: await ssec() }), 400, "InvalidRequest");
		expect(error?.Message).toBe("The encryption parameters are not applicable to this object.");
		const copied = await s3(path(key("ssec-copy")), {
			method: "PUT",
			headers: { "x-amz-copy-source": `/${BUCKET}/${k}`, ...(await ssec("x-amz-copy-source-")) },
		});
		await expectS3Error(copied, 400, "InvalidRequest");
		expect(await env.BUCKET.head(key("ssec-copy"))).toBeNull();
		await env.BUCKET.delete(k);
	});
});
