/**
 * SSE-C, objects stored with a customer-provided key (src/edge/s3/ssec/): every operation that
 * writes or reads an object's bytes takes the key, answers its MD5, and refuses a read or a part
 * without it, or with another, as S3 does; seen through HTTP, and through `env.BUCKET` for what
 * was (or was not) stored.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { gw } from "../gateway/helpers";
import { BUCKET, expectS3Error, s3, xmlOf } from "./helpers";

const key = (name: string) => `s3-ssec/${name}`;
const path = (k: string) => `/${BUCKET}/${k}`;
const q = (uploadId: string) => `uploadId=${encodeURIComponent(uploadId)}`;

const md5Of = async (bytes: Uint8Array<ArrayBuffer>) =>
	toBase64(new Uint8Array(await crypto.subtle.digest("MD5", bytes)));

/** SSE-C's three headers for the key of 32 bytes of `fill`, under `prefix`. */
async function ssec(fill: number, prefix = "x-amz-"): Promise<Record<string, string>> {
	const secret = new Uint8Array(32).fill(fill);
	return {
		[`${prefix}server-side-encryption-customer-algorithm`]: "AES256",
		[`${prefix}server-side-encryption-customer-key`]: toBase64(secret),
		[`${prefix}server-side-encryption-customer-key-MD5`]: await md5Of(secret),
	};
}

const KEY_MD5 = "x-amz-server-side-encryption-customer-key-md5";

/** Objects here are text, so that reading an answer as text is what its type says. */
const TEXT = { "content-type": "text/plain" };

async function createUpload(k: string, headers: Record<string, string> = {}): Promise<string> {
	const created = await s3(`${path(k)}?uploads`, { method: "POST", headers: { ...TEXT, ...headers } });
	expect(created.status).toBe(200);
	const { InitiateMultipartUploadResult: result } = await xmlOf<{
		InitiateMultipartUploadResult: { UploadId: string };
	}>(created);
	return result.UploadId;
}

describe("PutObject, GetObject and HeadObject with a customer key", () => {
	it("stores with the key, answers its MD5, and reads only with the same key", async () => {
		const k = key("one");
		const seven = await ssec(7);
		const put = await s3(path(k), { method: "PUT", body: "secret body", headers: { ...TEXT, ...seven } });
		expect(put.status).toBe(200);
		expect(put.headers.get("x-amz-server-side-encryption-customer-algorithm")).toBe("AES256");
		expect(put.headers.get(KEY_MD5)).toBe(seven["x-amz-server-side-encryption-customer-key-MD5"]);

		const read = await s3(path(k), { headers: seven });
		expect(read.status).toBe(200);
		expect(read.headers.get(KEY_MD5)).toBe(seven["x-amz-server-side-encryption-customer-key-MD5"]);
		expect(await read.text()).toBe("secret body");
		const ranged = await s3(path(k), { headers: { ...seven, range: "bytes=0-5" } });
		expect(ranged.status).toBe(206);
		expect(await ranged.text()).toBe("secret");
		expect((await s3(path(k), { method: "HEAD", headers: seven })).headers.get(KEY_MD5)).not.toBeNull();

		const bare = await expectS3Error(await s3(path(k)), 400, "InvalidRequest");
		expect(bare?.Message).toContain("stored using a form of Server Side Encryption");
		await expectS3Error(await s3(path(k), { method: "HEAD" }), 400, "InvalidRequest");
		// The key is asked for before the conditions are weighed.
		await expectS3Error(await s3(path(k), { headers: { "if-match": '"other"' } }), 400, "InvalidRequest");
		await expectS3Error(await s3(path(k), { headers: await ssec(8) }), 403, "AccessDenied");
		await expectS3Error(await s3(path(k), { method: "HEAD", headers: await ssec(8) }), 403, "AccessDenied");
		await env.BUCKET.delete(k);
	});

	it("refuses a key sent for an object stored without one", async () => {
		const k = key("plain");
		await env.BUCKET.put(k, "plain", { httpMetadata: { contentType: "text/plain" } });
		const error = await expectS3Error(await s3(path(k), { headers: await ssec(7) }), 400, "InvalidRequest");
		expect(error?.Message).toBe("The encryption parameters are not applicable to this object.");
		await env.BUCKET.delete(k);
	});

	it("takes an object written again without a key as stored without one, and forgets a deleted one", async () => {
		const k = key("rewritten");
		expect((await s3(path(k), { method: "PUT", body: "a", headers: { ...TEXT, ...(await ssec(7)) } })).status).toBe(
			200,
		);
		await env.BUCKET.put(k, "b", { httpMetadata: { contentType: "text/plain" } });
		const plain = await s3(path(k));
		expect(plain.status).toBe(200);
		expect(plain.headers.get(KEY_MD5)).toBeNull();
		expect(await plain.text()).toBe("b");
		// The key it was stored with no longer applies.
		await expectS3Error(await s3(path(k), { headers: await ssec(7) }), 400, "InvalidRequest");

		expect((await s3(path(k), { method: "PUT", body: "c", headers: { ...TEXT, ...(await ssec(7)) } })).status).toBe(
			200,
		);
		expect((await s3(path(k), { method: "DELETE" })).status).toBe(204);
		expect((await s3(path(k), { method: "PUT", body: "d", headers: TEXT })).status).toBe(200);
		expect(await (await s3(path(k))).text()).toBe("d");
		await env.BUCKET.delete(k);
	});

	it("checks the three headers and the key, as S3 does, storing nothing", async () => {
		const headers = await ssec(7);
		const without = (suffix: string) =>
			Object.fromEntries(Object.entries(headers).filter(([name]) => !name.endsWith(suffix)));
		const refusals: [Record<string, string>, string, string][] = [
			[without("customer-key"), "InvalidArgument", "an appropriate secret key"],
			[without("key-MD5"), "InvalidArgument", "MD5 of the secret key"],
			[without("algorithm"), "InvalidArgument", "a valid encryption algorithm"],
			[
				{ ...headers, "x-amz-server-side-encryption-customer-algorithm": "AES128" },
				"InvalidEncryptionAlgorithmError",
				"AES256",
			],
			[
				{ ...headers, "x-amz-server-side-encryption-customer-key": toBase64(new Uint8Array(16)) },
				"InvalidArgument",
				"The secret key was invalid for the specified algorithm.",
			],
			[
				{ ...headers, "x-amz-server-side-encryption-customer-key-MD5": await md5Of(new Uint8Array(32)) },
				"InvalidArgument",
				"The calculated MD5 hash of the key did not match the hash that was provided.",
			],
		];
		for (const [sent, code, message] of refusals) {
			const k = key("refused");
			const error = await expectS3Error(
				await s3(path(k), { method: "PUT", body: "x", headers: { ...TEXT, ...sent } }),
				400,
				code,
			);
			expect(error?.Message).toContain(message);
			expect(await env.BUCKET.head(k)).toBeNull();
		}
	});
});

describe("multipart uploads with a customer key", () => {
	it("takes each part only with the upload's key, and the object needs it to be read", async () => {
		const k = key("multi");
		const seven = await ssec(7);
		const uploadId = await createUpload(k, seven);
		const part = (headers: Record<string, string>) =>
			s3(`${path(k)}?partNumber=1&${q(uploadId)}`, { method: "PUT", body: "part one", headers });

		await expectS3Error(await part({}), 400, "InvalidRequest");
		await expectS3Error(await part(await ssec(8)), 400, "InvalidRequest");
		const native = await gw(`/${k}?${q(uploadId)}&partNumber=1`, { method: "PUT", body: "in the clear" });
		expect(native.status).toBe(400);
		const taken = await part(seven);
		expect(taken.status).toBe(200);
		expect(taken.headers.get(KEY_MD5)).toBe(seven["x-amz-server-side-encryption-customer-key-MD5"]);

		const complete = await s3(`${path(k)}?${q(uploadId)}`, {
			method: "POST",
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${taken.headers.get("etag")}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(complete.status).toBe(200);
		expect(complete.headers.get(KEY_MD5)).toBe(seven["x-amz-server-side-encryption-customer-key-MD5"]);
		await expectS3Error(await s3(path(k)), 400, "InvalidRequest");
		expect(await (await s3(path(k), { headers: seven })).text()).toBe("part one");
		await env.BUCKET.delete(k);
	});

	it("refuses a key for a part of an upload created without one", async () => {
		const k = key("multi-plain");
		const uploadId = await createUpload(k);
		const part = await s3(`${path(k)}?partNumber=1&${q(uploadId)}`, {
			method: "PUT",
			body: "x",
			headers: await ssec(7),
		});
		await expectS3Error(part, 400, "InvalidRequest");
		expect((await s3(`${path(k)}?${q(uploadId)}`, { method: "DELETE" })).status).toBe(204);
	});
});

describe("CopyObject and UploadPartCopy with customer keys", () => {
	it("reads the source with its key and stores the copy with the destination's", async () => {
		const source = key("copy-source");
		expect(
			(await s3(path(source), { method: "PUT", body: "to copy", headers: { ...TEXT, ...(await ssec(7)) } })).status,
		).toBe(200);
		const copy = (destination: string, headers: Record<string, string>) =>
			s3(path(destination), { method: "PUT", headers: { "x-amz-copy-source": path(source), ...headers } });

		await expectS3Error(await copy(key("copy-a"), {}), 400, "InvalidRequest");
		await expectS3Error(await copy(key("copy-a"), await ssec(8, "x-amz-copy-source-")), 403, "AccessDenied");
		expect(await env.BUCKET.head(key("copy-a"))).toBeNull();

		// Decrypted into a plain copy, then into one under another key.
		expect((await copy(key("copy-plain"), await ssec(7, "x-amz-copy-source-"))).status).toBe(200);
		expect(await (await s3(path(key("copy-plain")))).text()).toBe("to copy");
		const eight = await ssec(8);
		const rekeyed = await copy(key("copy-eight"), { ...(await ssec(7, "x-amz-copy-source-")), ...eight });
		expect(rekeyed.status).toBe(200);
		expect(rekeyed.headers.get(KEY_MD5)).toBe(eight["x-amz-server-side-encryption-customer-key-MD5"]);
		await expectS3Error(await s3(path(key("copy-eight")), { headers: await ssec(7) }), 403, "AccessDenied");
		expect(await (await s3(path(key("copy-eight")), { headers: eight })).text()).toBe("to copy");

		// A copy onto itself that changes only the key is a change, as S3 takes it.
		const rotated = await s3(path(source), {
			method: "PUT",
			headers: { "x-amz-copy-source": path(source), ...(await ssec(7, "x-amz-copy-source-")), ...eight },
		});
		expect(rotated.status).toBe(200);
		expect(await (await s3(path(source), { headers: eight })).text()).toBe("to copy");
		await env.BUCKET.delete([source, key("copy-plain"), key("copy-eight")]);
	});

	it("copies a part from a source read with its key into an upload with its own", async () => {
		const source = key("part-source");
		const k = key("part-copy");
		expect(
			(await s3(path(source), { method: "PUT", body: "copied part", headers: { ...TEXT, ...(await ssec(7)) } })).status,
		).toBe(200);
		const eight = await ssec(8);
		const uploadId = await createUpload(k, eight);
		const copyPart = (headers: Record<string, string>) =>
			s3(`${path(k)}?partNumber=1&${q(uploadId)}`, {
				method: "PUT",
				headers: { "x-amz-copy-source": path(source), ...headers },
			});
		await expectS3Error(await copyPart(eight), 400, "InvalidRequest");
		await expectS3Error(await copyPart(await ssec(7, "x-amz-copy-source-")), 400, "InvalidRequest");
		const copied = await copyPart({ ...(await ssec(7, "x-amz-copy-source-")), ...eight });
		expect(copied.status).toBe(200);
		const { CopyPartResult: result } = await xmlOf<{ CopyPartResult: { ETag: string } }>(copied);
		const complete = await s3(`${path(k)}?${q(uploadId)}`, {
			method: "POST",
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${result.ETag}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(complete.status).toBe(200);
		expect(await (await s3(path(k), { headers: eight })).text()).toBe("copied part");
		await env.BUCKET.delete([source, k]);
	});
});
