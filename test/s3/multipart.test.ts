/**
 * S3's multipart uploads through the dialect, checked against what `env.BUCKET` then holds:
 * CreateMultipartUpload, UploadPart (its body checked), CompleteMultipartUpload with R2's rules on
 * parts, AbortMultipartUpload, ListParts, ListMultipartUploads, and uploads that cross between the
 * S3 and native dialects.
 */

import { Crc32 } from "@aws-sdk/checksums/crc";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { textOf } from "../bodies";
import { bytesOf, gw, sha256Hex as hexOf } from "../gateway/helpers";
import { chunkedPut, patterned } from "./aws-chunked-helpers";
import { BUCKET, bucket, expectS3Error, s3, sha256Hex } from "./helpers";

const parser = new XMLParser({
	parseTagValue: false,
	isArray: (name) => ["Part", "Upload", "CommonPrefixes"].includes(name),
});

/** An XML answer's document, parsed (every value a string; Part, Upload, CommonPrefixes arrays). */
async function xmlOf<T>(response: Response): Promise<T> {
	expect(response.headers.get("content-type")).toBe("application/xml");
	return parser.parse(await response.text());
}

const MiB = 1024 * 1024;
const key = (label: string) => `s3-multipart/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;
const q = (uploadId: string) => `uploadId=${encodeURIComponent(uploadId)}`;

async function create(k: string, headers: HeadersInit = {}): Promise<string> {
	const response = await s3(`${path(k)}?uploads`, { method: "POST", headers });
	expect(response.status).toBe(200);
	const { InitiateMultipartUploadResult: result } = await xmlOf<{
		InitiateMultipartUploadResult: { Bucket: string; Key: string; UploadId: string };
	}>(response);
	expect(result.Bucket).toBe(BUCKET);
	expect(result.Key).toBe(k);
	return result.UploadId;
}

const putPart = (k: string, uploadId: string, n: number, body: BodyInit, headers: HeadersInit = {}) =>
	s3(`${path(k)}?partNumber=${n}&${q(uploadId)}`, { method: "PUT", body, headers });

async function part(
	k: string,
	uploadId: string,
	n: number,
	body: BodyInit,
	headers: HeadersInit = {},
): Promise<string> {
	const response = await putPart(k, uploadId, n, body, headers);
	expect(response.status).toBe(200);
	const etag = response.headers.get("etag");
	expect(etag).toMatch(/^".+"$/);
	return etag ?? "";
}

const completeDocument = (parts: [number, string][]) =>
	`<CompleteMultipartUpload>${parts
		.map(([n, etag]) => `<Part><PartNumber>${n}</PartNumber><ETag>${etag}</ETag></Part>`)
		.join("")}</CompleteMultipartUpload>`;

const complete = (k: string, uploadId: string, parts: [number, string][]) =>
	s3(`${path(k)}?${q(uploadId)}`, { method: "POST", body: completeDocument(parts) });

interface PartsXml {
	ListPartsResult: {
		Part?: { PartNumber: string; ETag: string; Size: string }[];
		IsTruncated: string;
		NextPartNumberMarker?: string;
		StorageClass: string;
	};
}

const asArray = <T>(value: T[] | undefined): T[] => value ?? [];

async function listParts(k: string, uploadId: string, query = "") {
	const response = await s3(`${path(k)}?${q(uploadId)}${query}`);
	expect(response.status).toBe(200);
	const { ListPartsResult: result } = await xmlOf<PartsXml>(response);
	return { ...result, parts: asArray(result.Part) };
}

interface UploadsXml {
	ListMultipartUploadsResult: {
		Upload?: { Key: string; UploadId: string; StorageClass: string }[];
		CommonPrefixes?: { Prefix: string }[];
		IsTruncated: string;
		NextKeyMarker?: string;
		NextUploadIdMarker?: string;
	};
}

async function listUploads(query: string) {
	const response = await s3(`/${BUCKET}?uploads&${query}`);
	expect(response.status).toBe(200);
	const { ListMultipartUploadsResult: result } = await xmlOf<UploadsXml>(response);
	return { ...result, uploads: asArray(result.Upload) };
}

describe("a multipart upload through S3", () => {
	it("creates with metadata, takes parts, lists them, and completes into the object R2 would store", async () => {
		const k = key("whole");
		const uploadId = await create(k, {
			"content-type": "application/x-test",
			"x-amz-meta-origin": "s3-multipart",
			"x-amz-storage-class": "STANDARD_IA",
		});
		const first = bytesOf(5 * MiB, 1);
		const second = bytesOf(1000, 2);
		const etag1 = await part(k, uploadId, 1, first);
		const etag2 = await part(k, uploadId, 2, second);

		const listed = await listParts(k, uploadId);
		expect(listed.parts).toEqual([
			expect.objectContaining({ PartNumber: "1", ETag: etag1, Size: String(5 * MiB) }),
			expect.objectContaining({ PartNumber: "2", ETag: etag2, Size: "1000" }),
		]);
		expect(listed.StorageClass).toBe("STANDARD_IA");
		const open = await listUploads(`prefix=${encodeURIComponent(k)}`);
		expect(open.uploads).toEqual([
			expect.objectContaining({ Key: k, UploadId: uploadId, StorageClass: "STANDARD_IA" }),
		]);

		const response = await complete(k, uploadId, [
			[1, etag1],
			[2, etag2],
		]);
		expect(response.status).toBe(200);
		const { CompleteMultipartUploadResult: result } = await xmlOf<{
			CompleteMultipartUploadResult: { Bucket: string; Key: string; ETag: string; Location: string };
		}>(response);
		const stored = await bucket().get(k);
		expect(stored).not.toBeNull();
		expect(result).toMatchObject({ Bucket: BUCKET, Key: k, ETag: stored?.httpEtag });
		expect(result.ETag).toMatch(/^"[0-9a-f]{32}-2"$/);
		expect(stored?.size).toBe(5 * MiB + 1000);
		expect(stored?.httpMetadata).toEqual({ contentType: "application/x-test" });
		expect(stored?.customMetadata).toEqual({ origin: "s3-multipart" });
		// Not asserted: the object's storage class, which Miniflare's binding leaves empty for a
		// completed multipart upload whatever the upload was created with.
		const whole = new Uint8Array(5 * MiB + 1000);
		whole.set(first);
		whole.set(second, 5 * MiB);
		expect(await hexOf(await new Response(stored?.body).arrayBuffer())).toBe(await hexOf(whole));

		// A finished upload is gone from the lists and from every operation on it.
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toEqual([]);
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`, { method: "DELETE" }), 404, "NoSuchUpload");
		// A second completion is R2's NoSuchUpload (S3 would answer 200), and leaves the object as it was.
		await expectS3Error(await complete(k, uploadId, [[1, etag1]]), 404, "NoSuchUpload");
		await expectS3Error(await putPart(k, uploadId, 3, "late"), 404, "NoSuchUpload");
		const after = await bucket().head(k);
		expect(after?.size).toBe(5 * MiB + 1000);
		expect(after?.version).toBe(stored?.version);
	});

	it("serves one part of the completed object by partNumber, with the object's part count", async () => {
		const k = key("part-number");
		const uploadId = await create(k);
		const first = bytesOf(5 * MiB, 3);
		const second = bytesOf(777, 4);
		const etag1 = await part(k, uploadId, 1, first);
		const etag2 = await part(k, uploadId, 2, second);
		expect(
			(
				await complete(k, uploadId, [
					[1, etag1],
					[2, etag2],
				])
			).status,
		).toBe(200);
		const got = await s3(`${path(k)}?partNumber=2`);
		expect(got.status).toBe(206);
		expect(got.headers.get("x-amz-mp-parts-count")).toBe("2");
		expect(got.headers.get("content-range")).toBe(`bytes ${5 * MiB}-${5 * MiB + 776}/${5 * MiB + 777}`);
		expect(await hexOf(await got.arrayBuffer())).toBe(await hexOf(second));
		const head = await s3(`${path(k)}?partNumber=1`, { method: "HEAD" });
		expect([head.status, head.headers.get("content-length")]).toEqual([206, String(5 * MiB)]);
		await expectS3Error(await s3(`${path(k)}?partNumber=3`), 416, "InvalidPartNumber");
		await expectS3Error(await s3(`${path(k)}?partNumber=0`), 400, "InvalidArgument");
		await expectS3Error(
			await s3(`${path(k)}?partNumber=1`, { headers: { range: "bytes=0-1" } }),
			400,
			"InvalidRequest",
		);
		// An object of one part has part 1, the whole object, read as a range.
		await s3(path(`${k}-single`), { method: "PUT", body: "single" });
		const single = await s3(`${path(`${k}-single`)}?partNumber=1`);
		expect([single.status, await single.text()]).toEqual([206, "single"]);
		await expectS3Error(await s3(`${path(`${k}-single`)}?partNumber=2`), 416, "InvalidPartNumber");
	});

	it("completes one small part: the last part has no minimum", async () => {
		const k = key("one");
		const uploadId = await create(k);
		const etag = await part(k, uploadId, 1, "just one part");
		const response = await complete(k, uploadId, [[1, etag]]);
		expect(response.status).toBe(200);
		const stored = await bucket().get(k);
		expect(await stored?.text()).toBe("just one part");
		expect(stored?.etag).toMatch(/^[0-9a-f]{32}-1$/);
		// S3 counts the parts of any multipart object read by partNumber, one part too.
		for (const method of ["GET", "HEAD"]) {
			const read = await s3(`${path(k)}?partNumber=1`, { method });
			expect([read.status, read.headers.get("x-amz-mp-parts-count")]).toEqual([206, "1"]);
			expect(await textOf(read)).toBe(method === "GET" ? "just one part" : "");
		}
	});

	it("refuses a part other than the last under 5 MiB with EntityTooSmall and stores nothing", async () => {
		const k = key("small");
		const uploadId = await create(k);
		const etag1 = await part(k, uploadId, 1, "0123456789");
		const etag2 = await part(k, uploadId, 2, "01234");
		await expectS3Error(
			await complete(k, uploadId, [
				[1, etag1],
				[2, etag2],
			]),
			400,
			"EntityTooSmall",
		);
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses parts of unequal sizes with R2's InvalidPart and stores nothing", async () => {
		const k = key("unequal");
		const uploadId = await create(k);
		const etag1 = await part(k, uploadId, 1, bytesOf(5 * MiB, 3));
		const etag2 = await part(k, uploadId, 2, bytesOf(5 * MiB + 1, 4));
		const error = await expectS3Error(
			await complete(k, uploadId, [
				[1, etag1],
				[2, etag2],
			]),
			400,
			"InvalidPart",
		);
		expect(error?.Message).toBe("All non-trailing parts must have the same length.");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses parts out of order with InvalidPartOrder, a wrong ETag with InvalidPart, and stores nothing", async () => {
		const k = key("order");
		const uploadId = await create(k);
		const etag1 = await part(k, uploadId, 1, "a");
		const etag2 = await part(k, uploadId, 2, "b");
		await expectS3Error(
			await complete(k, uploadId, [
				[2, etag2],
				[1, etag1],
			]),
			400,
			"InvalidPartOrder",
		);
		await expectS3Error(await complete(k, uploadId, [[1, '"0000"']]), 400, "InvalidPart");
		await expectS3Error(
			await complete(k, uploadId, [
				[1, etag1],
				[1, etag1],
			]),
			400,
			"InvalidPart",
		);
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`, { method: "POST", body: "<nope" }), 400, "MalformedXML");
		expect(await bucket().head(k)).toBeNull();
		// The upload is still open: the refusals left it as it was.
		expect((await listParts(k, uploadId)).parts).toHaveLength(2);
	});

	it("refuses a complete document that is not the one signed, and stores nothing", async () => {
		const k = key("tampered-complete");
		const uploadId = await create(k);
		const etag = await part(k, uploadId, 1, "a");
		const response = await s3(`${path(k)}?${q(uploadId)}`, {
			method: "POST",
			body: completeDocument([[1, etag]]),
			headers: { "x-amz-content-sha256": await sha256Hex("<CompleteMultipartUpload/>") },
		});
		await expectS3Error(response, 400, "XAmzContentSHA256Mismatch");
		expect(await bucket().head(k)).toBeNull();
	});
});

describe("UploadPart's body", () => {
	it("refuses a part that is not the one signed, or not its Content-MD5, and keeps the part it had", async () => {
		const k = key("tampered");
		const uploadId = await create(k);
		const etag = await part(k, uploadId, 1, "the real part");
		const tampered = await putPart(k, uploadId, 1, "a tampered part", {
			"x-amz-content-sha256": await sha256Hex("the signed part"),
		});
		await expectS3Error(tampered, 400, "XAmzContentSHA256Mismatch");
		const md5 = btoa(
			String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("MD5", new TextEncoder().encode("x")))),
		);
		await expectS3Error(await putPart(k, uploadId, 1, "not x", { "content-md5": md5 }), 400, "BadDigest");
		expect((await listParts(k, uploadId)).parts).toEqual([expect.objectContaining({ PartNumber: "1", ETag: etag })]);
		expect((await complete(k, uploadId, [[1, etag]])).status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("the real part");
	});

	it("refuses a part of several 1 MiB blocks whose last byte is not the one signed, and keeps the part it had", async () => {
		const k = key("tampered-long");
		const uploadId = await create(k);
		const real = bytesOf(5 * MiB, 5);
		const etag = await part(k, uploadId, 1, real);
		const signed = bytesOf(5 * MiB + 3, 6);
		const sent = signed.slice();
		sent[sent.byteLength - 1] = (signed[signed.byteLength - 1] ?? 0) ^ 1;
		const tampered = await putPart(k, uploadId, 1, sent, { "x-amz-content-sha256": await hexOf(signed) });
		await expectS3Error(tampered, 400, "XAmzContentSHA256Mismatch");
		expect((await complete(k, uploadId, [[1, etag]])).status).toBe(200);
		const stored = await bucket().get(k);
		expect(await hexOf(await new Response(stored?.body).arrayBuffer())).toBe(await hexOf(real));
	});

	it("keeps each part's own bytes when checked parts stream side by side, one of them refused", async () => {
		// Each part is signed with its SHA-256, as the aws CLI sends them, so each goes through the
		// body loop, whose 1 MiB buffers pass from one request to the next: a buffer handed to two
		// bodies at once, or taken again before its block is written, would mix their bytes.
		const k = key("side-by-side");
		const uploadId = await create(k);
		const checkedPart = async (n: number, body: Uint8Array) =>
			part(k, uploadId, n, body, { "x-amz-content-sha256": await hexOf(body) });
		const bodies = [1, 2, 3].map((seed) => bytesOf(5 * MiB, seed));
		const signed = bytesOf(3 * MiB, 9);
		const sent = signed.slice();
		sent[0] = (signed[0] ?? 0) ^ 1;
		const [refused, etags] = await Promise.all([
			putPart(k, uploadId, 4, sent, { "x-amz-content-sha256": await hexOf(signed) }),
			Promise.all(bodies.map((body, i) => checkedPart(i + 1, body))),
		]);
		await expectS3Error(refused, 400, "XAmzContentSHA256Mismatch");
		const last = bytesOf(MiB + 7, 4);
		const parts = [...etags, await checkedPart(4, last)].map((etag, i): [number, string] => [i + 1, etag]);
		expect((await complete(k, uploadId, parts)).status).toBe(200);
		const stored = await new Response((await bucket().get(k))?.body).arrayBuffer();
		expect(await hexOf(stored)).toBe(await hexOf(await new Blob([...bodies, last]).arrayBuffer()));
	});

	it("takes an aws-chunked part with a CRC32 trailer, as the SDKs send it, and refuses one whose trailer is wrong", async () => {
		const k = key("chunked");
		const uploadId = await create(k);
		const data = patterned(100_000);
		const crc = new Crc32();
		crc.update(data);
		const value = toBase64(await crc.digest());
		const partPath = `${path(k)}?partNumber=1&${q(uploadId)}`;
		const send = (trailer: string) =>
			chunkedPut(partPath, {
				payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER",
				data,
				headers: { "x-amz-sdk-checksum-algorithm": "CRC32" },
				trailer: { name: "x-amz-checksum-crc32", value: trailer },
			});
		await expectS3Error(await send("AAAAAA=="), 400, "BadDigest");
		expect((await listParts(k, uploadId)).parts).toEqual([]);
		const response = await send(value);
		expect(response.status).toBe(200);
		expect(response.headers.get("x-amz-checksum-crc32")).toBe(value);
		expect((await complete(k, uploadId, [[1, response.headers.get("etag") ?? ""]])).status).toBe(200);
		const stored = await bucket().get(k);
		expect(await sha256Hex(new Uint8Array(await (stored as R2ObjectBody).arrayBuffer()))).toBe(await sha256Hex(data));
	});

	it("takes a part whose Content-MD5 and signed hash match", async () => {
		const k = key("md5");
		const uploadId = await create(k);
		const body = "checked part";
		const md5 = btoa(
			String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("MD5", new TextEncoder().encode(body)))),
		);
		const response = await putPart(k, uploadId, 1, body, {
			"content-md5": md5,
			"x-amz-content-sha256": await sha256Hex(body),
		});
		expect(response.status).toBe(200);
	});

	it("refuses a part number outside 1 to 10000 with InvalidArgument", async () => {
		const k = key("number");
		const uploadId = await create(k);
		for (const n of [0, 10001]) {
			await expectS3Error(await putPart(k, uploadId, n, "x"), 400, "InvalidArgument");
		}
		expect((await listParts(k, uploadId)).parts).toEqual([]);
	});
});

describe("an unknown or aborted upload", () => {
	it("is NoSuchUpload to every operation", async () => {
		const k = key("unknown");
		await expectS3Error(await putPart(k, "no-such-upload", 1, "x"), 404, "NoSuchUpload");
		await expectS3Error(await complete(k, "no-such-upload", [[1, '"x"']]), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(k)}?uploadId=no-such-upload`, { method: "DELETE" }), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(k)}?uploadId=no-such-upload`), 404, "NoSuchUpload");
		expect(await bucket().head(k)).toBeNull();
	});

	it("aborts: the upload leaves the list, its parts cannot be used, nothing is stored", async () => {
		const k = key("abort");
		const uploadId = await create(k);
		const etag = await part(k, uploadId, 1, "x");
		expect((await s3(`${path(k)}?${q(uploadId)}`, { method: "DELETE" })).status).toBe(204);
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toEqual([]);
		await expectS3Error(await complete(k, uploadId, [[1, etag]]), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`, { method: "DELETE" }), 404, "NoSuchUpload");
		expect(await bucket().head(k)).toBeNull();
	});

	it("is NoSuchUpload under another key", async () => {
		const k = key("owner");
		const uploadId = await create(k);
		await expectS3Error(await putPart(`${k}-other`, uploadId, 1, "x"), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(`${k}-other`)}?${q(uploadId)}`), 404, "NoSuchUpload");
		await expectS3Error(await s3(`${path(`${k}-other`)}?${q(uploadId)}`, { method: "DELETE" }), 404, "NoSuchUpload");
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toHaveLength(1);
	});
});

describe("ListMultipartUploads", () => {
	it("lists open uploads by key under a prefix, rolls keys up under a delimiter, and pages", async () => {
		const base = key("list");
		const ids = [
			await create(`${base}/a`),
			await create(`${base}/b`),
			await create(`${base}/dir/c`),
			await create(`${base}/dir/d`),
		];
		const all = await listUploads(`prefix=${encodeURIComponent(`${base}/`)}`);
		expect(all.uploads.map((upload) => upload.Key)).toEqual([
			`${base}/a`,
			`${base}/b`,
			`${base}/dir/c`,
			`${base}/dir/d`,
		]);
		expect(all.uploads.map((upload) => upload.UploadId)).toEqual(ids);

		const rolled = await listUploads(`prefix=${encodeURIComponent(`${base}/`)}&delimiter=/`);
		expect(rolled.uploads.map((upload) => upload.Key)).toEqual([`${base}/a`, `${base}/b`]);
		expect(asArray(rolled.CommonPrefixes)).toEqual([{ Prefix: `${base}/dir/` }]);

		const first = await listUploads(`prefix=${encodeURIComponent(`${base}/`)}&max-uploads=3`);
		expect(first.IsTruncated).toBe("true");
		expect(first.uploads.map((upload) => upload.Key)).toEqual([`${base}/a`, `${base}/b`, `${base}/dir/c`]);
		const next = await listUploads(
			`prefix=${encodeURIComponent(`${base}/`)}&key-marker=${encodeURIComponent(first.NextKeyMarker ?? "")}&upload-id-marker=${encodeURIComponent(first.NextUploadIdMarker ?? "")}`,
		);
		expect(next.IsTruncated).toBe("false");
		expect(next.uploads.map((upload) => upload.Key)).toEqual([`${base}/dir/d`]);
	});

	it("pages ListParts with max-parts and part-number-marker", async () => {
		const k = key("parts-page");
		const uploadId = await create(k);
		for (const n of [1, 2, 3]) await part(k, uploadId, n, `part ${n}`);
		const first = await listParts(k, uploadId, "&max-parts=2");
		expect(first.parts.map((p) => p.PartNumber)).toEqual(["1", "2"]);
		expect(first.IsTruncated).toBe("true");
		const next = await listParts(k, uploadId, `&part-number-marker=${first.NextPartNumberMarker}`);
		expect(next.parts.map((p) => p.PartNumber)).toEqual(["3"]);
		expect(next.IsTruncated).toBe("false");
	});
});

describe("an upload crossing dialects", () => {
	it("begun through the native dialect is listed by S3 and completed through it", async () => {
		const k = key("native-first");
		const created = await gw(`/${k}?uploads`, { method: "POST", headers: { "x-amz-meta-via": "native" } });
		const { uploadId } = await created.json<{ uploadId: string }>();
		const native = await gw(`/${k}?${q(uploadId)}&partNumber=1`, { method: "PUT", body: "from native" });
		const { etag } = await native.json<{ etag: string }>();
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toEqual([
			expect.objectContaining({ Key: k, UploadId: uploadId }),
		]);
		expect((await listParts(k, uploadId)).parts).toEqual([
			expect.objectContaining({ PartNumber: "1", ETag: `"${etag}"`, Size: "11" }),
		]);
		const s3Etag = await part(k, uploadId, 2, " and s3");
		expect((await listParts(k, uploadId)).parts).toHaveLength(2);
		// Parts 1 and 2 are both small: only the last may be, so complete part 1 alone, then part 2 alone would be refused.
		expect(s3Etag).toMatch(/^".+"$/);
		expect((await complete(k, uploadId, [[1, `"${etag}"`]])).status).toBe(200);
		const stored = await bucket().get(k);
		expect(await stored?.text()).toBe("from native");
		expect(stored?.customMetadata).toEqual({ via: "native" });
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toEqual([]);
	});

	it("begun through S3 continues and completes through the native dialect", async () => {
		const k = key("s3-first");
		const uploadId = await create(k, { "x-amz-meta-via": "s3", "content-type": "text/plain" });
		const etag = await part(k, uploadId, 1, "from s3");
		const response = await gw(`/${k}?${q(uploadId)}`, {
			method: "POST",
			body: JSON.stringify({ parts: [{ partNumber: 1, etag: etag.slice(1, -1) }] }),
		});
		expect(response.status).toBe(200);
		const stored = await bucket().get(k);
		expect(await stored?.text()).toBe("from s3");
		expect(stored?.customMetadata).toEqual({ via: "s3" });
		expect(stored?.httpMetadata).toEqual({ contentType: "text/plain" });
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`), 404, "NoSuchUpload");
	});

	it("aborted through the native dialect is NoSuchUpload to S3", async () => {
		const k = key("native-abort");
		const uploadId = await create(k);
		expect((await gw(`/${k}?${q(uploadId)}`, { method: "DELETE" })).status).toBe(204);
		await expectS3Error(await s3(`${path(k)}?${q(uploadId)}`, { method: "DELETE" }), 404, "NoSuchUpload");
		expect((await listUploads(`prefix=${encodeURIComponent(k)}`)).uploads).toEqual([]);
	});
});
