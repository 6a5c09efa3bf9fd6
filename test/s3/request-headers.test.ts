/**
 * The request headers R2 refuses: each refused with R2's error before anything is stored, where
 * dropping it in silence would store an object unlike the one asked for (tagged, locked,
 * KMS-encrypted), and the values R2 takes (AES256, canned ACLs). SSE-C: `ssec.test.ts`.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUCKET, expectS3Error, s3 } from "./helpers";

const key = (name: string) => `s3-request-headers/${name}`;
const path = (k: string) => `/${BUCKET}/${k}`;

/** A PutObject of `k` with `headers`. */
const put = (k: string, headers: Record<string, string>) => s3(path(k), { method: "PUT", body: "body", headers });

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
