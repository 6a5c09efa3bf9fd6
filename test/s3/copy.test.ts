/**
 * CopyObject and UploadPartCopy through the S3 dialect, checked against what the buckets then
 * hold: the metadata directive, copies within and across served buckets, the copy-source
 * conditionals and ranges, and refusals that store nothing.
 */
import { env } from "cloudflare:workers";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { BUCKET, bucket, expectS3Error, s3 } from "./helpers";

const key = (label: string) => `s3-copy/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;
const source = (k: string, name = BUCKET) => `/${name}/${k.split("/").map(encodeURIComponent).join("/")}`;

const parser = new XMLParser({ parseTagValue: false });

async function xmlOf<T>(response: Response): Promise<T> {
	expect(response.headers.get("content-type")).toBe("application/xml");
	return parser.parse(await response.text());
}

async function seed(k: string): Promise<R2Object> {
	const object = await bucket().put(k, "copy me", {
		httpMetadata: { contentType: "text/plain", cacheControl: "max-age=5" },
		customMetadata: { colour: "blue" },
	});
	if (object === null) throw new Error("seed failed");
	return object;
}

const copy = (to: string, from: string, headers: Record<string, string> = {}) =>
	s3(path(to), { method: "PUT", headers: { "x-amz-copy-source": from, ...headers } });

describe("CopyObject", () => {
	it("copies the bytes and, by default, the source's metadata, and answers the copy's ETag", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const response = await copy(to, source(from));
		expect(response.status).toBe(200);
		const { CopyObjectResult: result } = await xmlOf<{ CopyObjectResult: { ETag: string; LastModified: string } }>(
			response,
		);
		const stored = await bucket().get(to);
		expect(await stored?.text()).toBe("copy me");
		expect(result.ETag).toBe(stored?.httpEtag);
		expect(result.LastModified).toBe(stored?.uploaded.toISOString());
		expect(stored?.httpMetadata).toEqual({ contentType: "text/plain", cacheControl: "max-age=5" });
		expect(stored?.customMetadata).toEqual({ colour: "blue" });
	});

	it("takes the request's metadata under REPLACE", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const response = await copy(to, source(from), {
			"x-amz-metadata-directive": "REPLACE",
			"content-type": "application/json",
			"x-amz-meta-shape": "square",
		});
		expect(response.status).toBe(200);
		const stored = await bucket().head(to);
		expect(stored?.httpMetadata).toEqual({ contentType: "application/json" });
		expect(stored?.customMetadata).toEqual({ shape: "square" });
	});

	it("merges the request's metadata into the source's under R2's MERGE, removing nothing", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const response = await copy(to, source(from), {
			"x-amz-metadata-directive": "MERGE",
			"content-type": "application/json",
			"x-amz-meta-shape": "square",
		});
		expect(response.status).toBe(200);
		const stored = await bucket().head(to);
		expect(stored?.httpMetadata).toEqual({ contentType: "application/json", cacheControl: "max-age=5" });
		expect(stored?.customMetadata).toEqual({ colour: "blue", shape: "square" });
		// Onto itself, MERGE changes the metadata it names, as REPLACE would.
		expect(
			(await copy(from, source(from), { "x-amz-metadata-directive": "MERGE", "x-amz-meta-colour": "red" })).status,
		).toBe(200);
		expect((await bucket().head(from))?.customMetadata).toEqual({ colour: "red" });
	});

	it("holds R2's cf-copy-destination-if-* conditions on the destination, and stores nothing when one fails", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const existing = await bucket().put(to, "already here");
		if (existing === null) throw new Error("put failed");
		await expectS3Error(
			await copy(to, source(from), { "cf-copy-destination-if-none-match": "*" }),
			412,
			"PreconditionFailed",
		);
		await expectS3Error(
			await copy(to, source(from), { "cf-copy-destination-if-match": '"0123"' }),
			412,
			"PreconditionFailed",
		);
		expect(await (await bucket().get(to))?.text()).toBe("already here");
		// R2's header takes the place of S3's own of the same name.
		const matched = await copy(to, source(from), {
			"cf-copy-destination-if-match": existing.httpEtag,
			"if-match": '"0123"',
		});
		expect(matched.status).toBe(200);
		expect(await (await bucket().get(to))?.text()).toBe("copy me");
	});

	it("copies across served buckets, and keys with spaces and Unicode", async () => {
		const from = key("dir/ü nïcode & x");
		await seed(from);
		const to = key("across");
		const response = await s3(`/edgezone-logs/${to}`, {
			method: "PUT",
			headers: { "x-amz-copy-source": source(from).slice(1) },
		});
		expect(response.status).toBe(200);
		expect(await (await env.LOGS.get(to))?.text()).toBe("copy me");
		await env.LOGS.delete(to);
	});

	it("holds the copy-source conditionals and stores nothing when one fails", async () => {
		const [from, to] = [key("src"), key("dst")];
		const seeded = await seed(from);
		const later = new Date(seeded.uploaded.getTime() + 60_000).toUTCString();
		const earlier = new Date(seeded.uploaded.getTime() - 60_000).toUTCString();
		const conditions: Record<string, string>[] = [
			{ "x-amz-copy-source-if-match": '"0123"' },
			{ "x-amz-copy-source-if-none-match": seeded.httpEtag },
			{ "x-amz-copy-source-if-modified-since": later },
			{ "x-amz-copy-source-if-unmodified-since": earlier },
		];
		for (const headers of conditions) {
			await expectS3Error(await copy(to, source(from), headers), 412, "PreconditionFailed");
			expect(await bucket().head(to)).toBeNull();
		}
		expect((await copy(to, source(from), { "x-amz-copy-source-if-match": seeded.httpEtag })).status).toBe(200);
		expect(await (await bucket().get(to))?.text()).toBe("copy me");
	});

	it("compares an unquoted ETag in the copy-source conditionals as if quoted, as S3 does", async () => {
		const [from, to] = [key("src"), key("dst")];
		const seeded = await seed(from);
		await expectS3Error(
			await copy(to, source(from), { "x-amz-copy-source-if-none-match": seeded.etag }),
			412,
			"PreconditionFailed",
		);
		await expectS3Error(
			await copy(to, source(from), { "x-amz-copy-source-if-match": "0123" }),
			412,
			"PreconditionFailed",
		);
		expect(await bucket().head(to)).toBeNull();
		expect((await copy(to, source(from), { "x-amz-copy-source-if-match": seeded.etag })).status).toBe(200);
		expect(await (await bucket().get(to))?.text()).toBe("copy me");
		expect((await copy(to, source(from), { "x-amz-copy-source-if-none-match": "0123" })).status).toBe(200);
	});

	it("refuses a missing source with NoSuchKey, a copy onto itself changing nothing, and a bad directive", async () => {
		const [from, to] = [key("src"), key("dst")];
		await expectS3Error(await copy(to, source(from)), 404, "NoSuchKey");
		await seed(from);
		await expectS3Error(await copy(from, source(from)), 400, "InvalidRequest");
		await expectS3Error(await copy(to, source(from), { "x-amz-metadata-directive": "MOVE" }), 400, "InvalidArgument");
		await expectS3Error(await copy(to, "no-slash"), 400, "InvalidArgument");
		await expectS3Error(await copy(to, source(from, "no-such-bucket")), 404, "NoSuchBucket");
		expect(await bucket().head(to)).toBeNull();
		// Onto itself with new metadata is a copy S3 allows.
		const replaced = await copy(from, source(from), { "x-amz-metadata-directive": "REPLACE", "x-amz-meta-v": "2" });
		expect(replaced.status).toBe(200);
		const stored = await bucket().get(from);
		expect(await stored?.text()).toBe("copy me");
		expect(stored?.customMetadata).toEqual({ v: "2" });
	});
});

describe("UploadPartCopy", () => {
	async function create(k: string): Promise<string> {
		const response = await s3(`${path(k)}?uploads`, { method: "POST" });
		const { InitiateMultipartUploadResult: result } = await xmlOf<{
			InitiateMultipartUploadResult: { UploadId: string };
		}>(response);
		return result.UploadId;
	}

	const copyPart = (to: string, uploadId: string, n: number, from: string, headers: Record<string, string> = {}) =>
		s3(`${path(to)}?partNumber=${n}&uploadId=${encodeURIComponent(uploadId)}`, {
			method: "PUT",
			headers: { "x-amz-copy-source": from, ...headers },
		});

	it("copies a range of the source as a part, and the completed object holds those bytes", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const uploadId = await create(to);
		const response = await copyPart(to, uploadId, 1, source(from), { "x-amz-copy-source-range": "bytes=2-5" });
		expect(response.status).toBe(200);
		const { CopyPartResult: result } = await xmlOf<{ CopyPartResult: { ETag: string } }>(response);
		const listed = await s3(`${path(to)}?uploadId=${encodeURIComponent(uploadId)}`);
		expect(await listed.text()).toContain("<Size>4</Size>");
		const done = await s3(`${path(to)}?uploadId=${encodeURIComponent(uploadId)}`, {
			method: "POST",
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${result.ETag}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(done.status).toBe(200);
		expect(await (await bucket().get(to))?.text()).toBe("py m");
	});

	it("copies the whole source without a range", async () => {
		const [from, to] = [key("src"), key("dst")];
		await seed(from);
		const uploadId = await create(to);
		const response = await copyPart(to, uploadId, 1, source(from));
		expect(response.status).toBe(200);
		expect(await s3(`${path(to)}?uploadId=${encodeURIComponent(uploadId)}`).then((r) => r.text())).toContain(
			"<Size>7</Size>",
		);
	});

	it("refuses a range past the source's end, a failed condition and an unknown upload, and adds no part", async () => {
		const [from, to] = [key("src"), key("dst")];
		const seeded = await seed(from);
		const uploadId = await create(to);
		await expectS3Error(
			await copyPart(to, uploadId, 1, source(from), { "x-amz-copy-source-range": "bytes=2-7" }),
			400,
			"InvalidArgument",
		);
		await expectS3Error(
			await copyPart(to, uploadId, 1, source(from), { "x-amz-copy-source-range": "bytes=5-2" }),
			400,
			"InvalidArgument",
		);
		await expectS3Error(
			await copyPart(to, uploadId, 1, source(from), { "x-amz-copy-source-if-none-match": seeded.httpEtag }),
			412,
			"PreconditionFailed",
		);
		await expectS3Error(await copyPart(to, "no-such-upload", 1, source(from)), 404, "NoSuchUpload");
		expect(await s3(`${path(to)}?uploadId=${encodeURIComponent(uploadId)}`).then((r) => r.text())).not.toContain(
			"<Part>",
		);
	});
});
