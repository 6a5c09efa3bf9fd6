/**
 * A presigned URL's signed `x-amz-*` query parameters are the headers they name, as the AWS SDKs
 * hoist them and S3 reads them: metadata and storage class stored, the headers R2 refuses refused
 * from the query too, the checksums S3 ignores there ignored, `x-amz-copy-source` refused.
 * The URLs are signed by aws4fetch with the parameters already in their query, as the SDKs sign them.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUCKET, bucket, clientOf, expectS3Error, ORIGIN, s3, textOf } from "./helpers";

const key = (label: string) => `s3-query-headers/${label}-${crypto.randomUUID()}`;

/** A presigned URL for `method` on `path`, with `query` in it before signing, and the headers it signs. */
async function presignWith(method: string, path: string, query: string, headers: Record<string, string> = {}) {
	const client = await clientOf();
	const signed = await client.sign(`${ORIGIN}${path}?${query}`, { method, headers, aws: { signQuery: true } });
	return signed.url;
}

describe("a presigned URL's x-amz-* query parameters", () => {
	it("stores X-Amz-Meta-Color from the query as the object's metadata, which a GET answers", async () => {
		const k = key("meta");
		const url = await presignWith("PUT", `/${BUCKET}/${k}`, "X-Amz-Meta-Color=blue");
		expect(new URL(url).searchParams.get("X-Amz-SignedHeaders")).toBe("host");
		const put = await exports.default.fetch(url, { method: "PUT", body: "painted" });
		expect(put.status).toBe(200);
		const got = await s3(`/${BUCKET}/${k}`);
		expect([got.status, got.headers.get("x-amz-meta-color"), await textOf(got)]).toEqual([200, "blue", "painted"]);
		expect((await bucket().head(k))?.customMetadata).toEqual({ color: "blue" });
	});

	it("writes the storage class the query names", async () => {
		const k = key("class");
		const url = await presignWith("PUT", `/${BUCKET}/${k}`, "x-amz-storage-class=STANDARD_IA");
		expect((await exports.default.fetch(url, { method: "PUT", body: "rarely read" })).status).toBe(200);
		const head = await s3(`/${BUCKET}/${k}`, { method: "HEAD" });
		expect(head.headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
	});

	it("refuses x-amz-tagging from the query with 501 as it refuses the header, and stores nothing", async () => {
		const k = key("tagging");
		const url = await presignWith("PUT", `/${BUCKET}/${k}`, "x-amz-tagging=team%3Da");
		const response = await exports.default.fetch(url, { method: "PUT", body: "tagged?" });
		const error = await expectS3Error(response, 501, "NotImplemented");
		expect(error?.Message).toBe("Header 'x-amz-tagging' with value 'team=a' not implemented");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses x-amz-copy-source from the query, which S3 ignores there, and writes nothing", async () => {
		const source = key("source");
		await bucket().put(source, "to copy");
		const k = key("copy");
		const url = await presignWith(
			"PUT",
			`/${BUCKET}/${k}`,
			`x-amz-copy-source=${encodeURIComponent(`${BUCKET}/${source}`)}`,
		);
		const response = await exports.default.fetch(url, { method: "PUT" });
		const error = await expectS3Error(response, 501, "NotImplemented");
		expect(error?.Message).toContain("x-amz-copy-source in a presigned URL's query");
		expect(await bucket().head(k)).toBeNull();
	});

	it("ignores the checksum of an empty body the JavaScript SDK signs into every presigned PutObject URL", async () => {
		const k = key("sdk-checksum");
		const url = await presignWith(
			"PUT",
			`/${BUCKET}/${k}`,
			"x-amz-checksum-crc32=AAAAAA%3D%3D&x-amz-sdk-checksum-algorithm=CRC32",
		);
		expect((await exports.default.fetch(url, { method: "PUT", body: "hello" })).status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("hello");
	});

	it("keeps a signed header the request carries over the query's value of the same name", async () => {
		const k = key("both");
		const url = await presignWith("PUT", `/${BUCKET}/${k}`, "x-amz-meta-color=blue", { "x-amz-meta-color": "red" });
		expect(new URL(url).searchParams.get("X-Amz-SignedHeaders")).toBe("host;x-amz-meta-color");
		const put = await exports.default.fetch(url, { method: "PUT", body: "x", headers: { "x-amz-meta-color": "red" } });
		expect(put.status).toBe(200);
		expect((await bucket().head(k))?.customMetadata).toEqual({ color: "red" });
	});

	it("screens a bucket operation that takes no parameter by the header, not as an unknown parameter", async () => {
		// A bucket nobody serves: the headers are screened before the bucket is looked up.
		const url = await presignWith("DELETE", "/no-such-bucket-here", "x-amz-expected-bucket-owner=123456789012");
		const error = await expectS3Error(await exports.default.fetch(url, { method: "DELETE" }), 501, "NotImplemented");
		expect(error?.Message).toBe("Header 'x-amz-expected-bucket-owner' with value '123456789012' not implemented");
	});
});
