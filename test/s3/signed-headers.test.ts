/**
 * What a signature covers: every `x-amz-*` header a request carries must be signed, as S3
 * requires (403 AccessDenied naming them in `HeadersNotSigned`), so the holder of a presigned URL
 * or a signed request cannot add instructions its signer never gave; and a signed
 * `Accept-Encoding` still verifies after a proxy rewrote it, as Cloudflare's edge does.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { unsignedHeaders } from "../../src/edge/s3/auth/signed-headers";
import { textOf } from "../bodies";
import { BUCKET, bucket, clientOf, expectS3Error, ORIGIN, presign, s3 } from "./helpers";

const key = (label: string) => `s3-signed-headers/${label}-${crypto.randomUUID()}`;
const NOT_SIGNED = "There were headers present in the request which were not signed";

/** SSE-C's three headers for a key of 32 bytes of 7. */
async function ssecHeaders(): Promise<Record<string, string>> {
	const secret = new Uint8Array(32).fill(7);
	return {
		"x-amz-server-side-encryption-customer-algorithm": "AES256",
		"x-amz-server-side-encryption-customer-key": toBase64(secret),
		"x-amz-server-side-encryption-customer-key-MD5": toBase64(
			new Uint8Array(await crypto.subtle.digest("MD5", secret)),
		),
	};
}

/** Asserts S3's refusal of unsigned headers, naming `names`. */
async function expectNotSigned(response: Response, names: string) {
	const error = await expectS3Error(response, 403, "AccessDenied");
	expect(error?.Message).toBe(NOT_SIGNED);
	expect(error?.HeadersNotSigned).toBe(names);
}

describe("unsigned x-amz-* headers on a presigned URL", () => {
	it("refuses a presigned PutObject URL sent with an added x-amz-copy-source, and copies nothing", async () => {
		const secret = `${key("secret")}/admin.txt`;
		await bucket().put(secret, "the admin's secret");
		const target = key("upload");
		const url = await presign(`/${BUCKET}/${target}`, { method: "PUT" });
		expect(new URL(url).searchParams.get("X-Amz-SignedHeaders")).toBe("host");
		const response = await exports.default.fetch(url, {
			method: "PUT",
			headers: { "x-amz-copy-source": `${BUCKET}/${secret}` },
		});
		await expectNotSigned(response, "x-amz-copy-source");
		expect(await bucket().head(target)).toBeNull();
	});

	it("refuses unsigned SSE-C headers added to a presigned PUT, and stores nothing", async () => {
		const target = key("ssec");
		const url = await presign(`/${BUCKET}/${target}`, { method: "PUT" });
		const response = await exports.default.fetch(url, { method: "PUT", body: "x", headers: await ssecHeaders() });
		await expectNotSigned(
			response,
			"x-amz-server-side-encryption-customer-algorithm, x-amz-server-side-encryption-customer-key, x-amz-server-side-encryption-customer-key-md5",
		);
		expect(await bucket().head(target)).toBeNull();
	});

	it("refuses unsigned x-amz-meta-* headers added to a presigned PUT, and stores nothing", async () => {
		const target = key("meta");
		const url = await presign(`/${BUCKET}/${target}`, { method: "PUT" });
		const response = await exports.default.fetch(url, {
			method: "PUT",
			body: "x",
			headers: { "x-amz-meta-owner": "mallory", "x-amz-meta-role": "admin" },
		});
		await expectNotSigned(response, "x-amz-meta-owner, x-amz-meta-role");
		expect(await bucket().head(target)).toBeNull();
	});

	it("takes x-amz-* headers that X-Amz-SignedHeaders lists", async () => {
		const target = key("signed-meta");
		const client = await clientOf();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${target}`, {
			method: "PUT",
			body: "signed",
			headers: { "x-amz-meta-owner": "alice" },
			aws: { signQuery: true },
		});
		expect(new URL(signed.url).searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-amz-meta-owner");
		expect((await exports.default.fetch(signed)).status).toBe(200);
		expect((await bucket().head(target))?.customMetadata).toEqual({ owner: "alice" });
	});

	it("takes a header the signed query carries with the same value, and refuses another value", async () => {
		const target = key("hoisted");
		const client = await clientOf();
		// The AWS SDKs hoist x-amz-* headers into the query they sign.
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${target}?x-amz-meta-owner=alice`, {
			method: "PUT",
			aws: { signQuery: true },
		});
		const put = (owner: string) =>
			exports.default.fetch(signed.url, { method: "PUT", body: "hoisted", headers: { "x-amz-meta-owner": owner } });
		await expectNotSigned(await put("mallory"), "x-amz-meta-owner");
		expect(await bucket().head(target)).toBeNull();
		expect((await put("alice")).status).toBe(200);
		expect((await bucket().head(target))?.customMetadata).toEqual({ owner: "alice" });
	});
});

describe("unsigned x-amz-* headers on a header-signed request", () => {
	it("refuses an x-amz-copy-source added after signing, and copies nothing", async () => {
		const secret = `${key("secret")}/admin.txt`;
		await bucket().put(secret, "the admin's secret");
		const target = key("header-signed");
		const client = await clientOf();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${target}`, { method: "PUT", body: "mine" });
		const headers = new Headers(signed.headers);
		headers.set("x-amz-copy-source", `${BUCKET}/${secret}`);
		const response = await exports.default.fetch(signed.url, { method: "PUT", body: "mine", headers });
		await expectNotSigned(response, "x-amz-copy-source");
		expect(await bucket().head(target)).toBeNull();
	});

	it("takes an x-amz-user-agent added after signing: the AWS SDK's browser builds send it unsigned", async () => {
		const k = key("user-agent");
		await bucket().put(k, "read me");
		const client = await clientOf();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${k}`, { method: "GET" });
		const headers = new Headers(signed.headers);
		headers.set("x-amz-user-agent", "aws-sdk-js/3.0.0 ua/2.1 os/other lang/js md/browser#unknown");
		const response = await exports.default.fetch(signed.url, { headers });
		expect([response.status, await textOf(response)]).toEqual([200, "read me"]);
	});

	it("lists the unsigned ones, leaving out what S3 takes unsigned (x-amz-content-sha256, x-amz-user-agent)", () => {
		const headers = new Headers({
			"x-amz-content-sha256": "UNSIGNED-PAYLOAD",
			"x-amz-user-agent": "aws-sdk-js/3",
			"x-amz-date": "20260101T000000Z",
			"x-amz-acl": "private",
			"x-amz-tagging": "a=b",
			"content-type": "text/plain",
			"x-amzn-trace-id": "Root=1",
		});
		expect(unsignedHeaders(headers, ["host", "x-amz-date"])).toEqual(["x-amz-acl", "x-amz-tagging"]);
		expect(unsignedHeaders(headers, ["host"], new URLSearchParams("X-Amz-Acl=private&x-amz-tagging=c%3Dd"))).toEqual([
			"x-amz-date",
			"x-amz-tagging",
		]);
	});
});

describe("a signed Accept-Encoding rewritten on the way", () => {
	/** A GET of `k` signed with `Accept-Encoding: <signedAs>`, sent with `sentAs` and `request.cf` as given. */
	async function rewritten(k: string, signedAs: string, sentAs: string, cf?: { clientAcceptEncoding: string }) {
		const client = await clientOf();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${k}`, { headers: { "accept-encoding": signedAs } });
		expect(signed.headers.get("authorization")).toContain("accept-encoding");
		const headers = new Headers(signed.headers);
		headers.set("accept-encoding", sentAs);
		return exports.default.fetch(new Request(signed.url, { headers, cf: cf as RequestInitCfProperties }));
	}

	it("verifies rclone's signed gzip received as Cloudflare's br, gzip, with the client's value in request.cf", async () => {
		const k = key("gzip-cf");
		await bucket().put(k, "rclone reads this");
		const response = await rewritten(k, "gzip", "br, gzip", { clientAcceptEncoding: "gzip" });
		expect([response.status, await textOf(response)]).toEqual([200, "rclone reads this"]);
	});

	it("verifies a common value received rewritten without request.cf (a proxy in front)", async () => {
		const k = key("identity");
		await bucket().put(k, "minio-java reads this");
		const response = await rewritten(k, "identity", "gzip");
		expect([response.status, await textOf(response)]).toEqual([200, "minio-java reads this"]);
	});

	it("verifies an uncommon value only from request.cf", async () => {
		const k = key("uncommon");
		await bucket().put(k, "x");
		await expectS3Error(await rewritten(k, "compress", "br, gzip"), 403, "SignatureDoesNotMatch");
		expect((await rewritten(k, "compress", "br, gzip", { clientAcceptEncoding: "compress" })).status).toBe(200);
	});

	it("sends S3 errors uncompressed, whatever the client accepts", async () => {
		const response = await s3(`/${BUCKET}/${key("missing")}`, { headers: { "accept-encoding": "gzip" } });
		expect(response.headers.get("content-encoding")).toBe("identity");
		expect(response.headers.get("cache-control")).toBe("no-transform");
		await expectS3Error(response, 404, "NoSuchKey");
	});
});
