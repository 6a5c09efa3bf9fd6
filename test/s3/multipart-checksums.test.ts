/**
 * Flexible checksums of multipart uploads through the S3 dialect, as R2 gives them: the upload's
 * algorithm and type (COMPOSITE for CRC32, CRC32C, SHA1, SHA256; FULL_OBJECT for CRC64NVME), each
 * part's checksum verified or computed, the object's made at completion and answered to reads
 * under `x-amz-checksum-mode: ENABLED`; the refusals S3 answers; UploadPartCopy's and CopyObject's
 * computed checksums, and a native-dialect part's. The expected values of the two-part upload are the ones S3 answers, as the
 * s3-tests suite records them (5 MiB of "A", then "tail").
 */
import { crc32 } from "node:zlib";
import { Crc32cJs } from "@aws-sdk/checksums/crc";
import { XMLParser } from "fast-xml-parser";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { expectError, gw } from "../gateway/helpers";
import { BUCKET, bucket, expectS3Error, s3, textOf } from "./helpers";

const parser = new XMLParser({ parseTagValue: false, isArray: (name) => ["Part", "Upload"].includes(name) });

type Xml = Record<string, Record<string, unknown>>;

async function xmlOf(response: Response): Promise<Xml> {
	expect(response.headers.get("content-type")).toBe("application/xml");
	return parser.parse(await response.text());
}

const MiB = 1024 * 1024;
const A = new Uint8Array(5 * MiB).fill("A".charCodeAt(0));
const TAIL = new TextEncoder().encode("tail");
const key = (label: string) => `s3-multipart-checksums/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;
const q = (uploadId: string) => `uploadId=${encodeURIComponent(uploadId)}`;
const header = (algorithm: string) => `x-amz-checksum-${algorithm.toLowerCase()}`;
const MODE = { "x-amz-checksum-mode": "ENABLED" };

const create = (k: string, headers: Record<string, string>) => s3(`${path(k)}?uploads`, { method: "POST", headers });

async function uploadIdOf(response: Response): Promise<string> {
	expect(response.status).toBe(200);
	return String((await xmlOf(response)).InitiateMultipartUploadResult?.UploadId);
}

const putPart = (k: string, uploadId: string, n: number, body: BodyInit, headers: Record<string, string> = {}) =>
	s3(`${path(k)}?partNumber=${n}&${q(uploadId)}`, { method: "PUT", body, headers });

/** A part of the document: number, ETag, and the elements after them (`<ChecksumCRC32>…`). */
type Part = [number, string, string?];

const completeDocument = (parts: Part[]) =>
	`<CompleteMultipartUpload>${parts
		.map(([n, etag, extra = ""]) => `<Part><PartNumber>${n}</PartNumber><ETag>${etag}</ETag>${extra}</Part>`)
		.join("")}</CompleteMultipartUpload>`;

const complete = (k: string, uploadId: string, parts: Part[], headers: Record<string, string> = {}) =>
	s3(`${path(k)}?${q(uploadId)}`, { method: "POST", body: completeDocument(parts), headers });

const listParts = async (k: string, uploadId: string) =>
	(await xmlOf(await s3(`${path(k)}?${q(uploadId)}`))).ListPartsResult ?? {};

async function sha256Of(bytes: Uint8Array): Promise<string> {
	return toBase64(new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(bytes))));
}

function crc32Of(bytes: Uint8Array): string {
	const digest = new Uint8Array(4);
	new DataView(digest.buffer).setUint32(0, crc32(bytes));
	return toBase64(digest);
}

const CASES: [algorithm: string, requested: string, type: string, parts: [string, string], object: string][] = [
	["CRC32", "", "COMPOSITE", ["JRTCyQ==", "fDe0XQ=="], "ar6UVw==-2"],
	["CRC32C", "COMPOSITE", "COMPOSITE", ["MDaLrw==", "B21LrQ=="], "9nmlxg==-2"],
	["CRC64NVME", "", "FULL_OBJECT", ["L/E4WYn8v98=", "sAra2CkCEgw="], "UpfGsWmSCEg="],
	[
		"SHA1",
		"",
		"COMPOSITE",
		["iIaTCGbm+vdVjNqIMF2S0T7ibMk=", "+/XyoodbO7Zbjjsj5swB1YyjBEc="],
		"l89BPfYtRdlTXZSsCsWMB0Elnjg=-2",
	],
	[
		"SHA256",
		"",
		"COMPOSITE",
		["275VF5loJr1YYawit0XSHREhkFXYkkPKGuoK0x9VKxI=", "DGL4du8d6oMN6fMsL0tG3W101Q0ViW4J71ovzUrH4dc="],
		"2kYaKgwMh4G97NB7sxufv13cvQqUqNgjK75WsW6s16Q=-2",
	],
];

describe("a multipart upload with a checksum", () => {
	it.each(CASES)(
		"%s (type %j asked) gives the object S3's %s checksum",
		async (algorithm, requested, type, sums, object) => {
			const k = key(algorithm);
			const asked = {
				"x-amz-checksum-algorithm": algorithm,
				...(requested ? { "x-amz-checksum-type": requested } : {}),
			};
			const started = await create(k, asked);
			expect([started.headers.get("x-amz-checksum-algorithm"), started.headers.get("x-amz-checksum-type")]).toEqual([
				algorithm,
				type,
			]);
			const uploadId = await uploadIdOf(started);

			// The first part's checksum is sent and verified; the second's is computed.
			const first = await putPart(k, uploadId, 1, A, { [header(algorithm)]: sums[0] });
			const second = await putPart(k, uploadId, 2, TAIL);
			const etags = [first, second].map((response) => response.headers.get("etag") ?? "");
			expect([first.status, second.status]).toEqual([200, 200]);
			expect([first, second].map((response) => response.headers.get(header(algorithm)))).toEqual(sums);

			const listed = await listParts(k, uploadId);
			expect(listed).toMatchObject({ ChecksumAlgorithm: algorithm, ChecksumType: type });
			expect((listed.Part as Record<string, string>[]).map((part) => part[`Checksum${algorithm}`])).toEqual(sums);
			const uploads = (await xmlOf(await s3(`/${BUCKET}?uploads&prefix=${encodeURIComponent(k)}`)))
				.ListMultipartUploadsResult?.Upload as Record<string, string>[];
			expect(uploads).toEqual([
				expect.objectContaining({ UploadId: uploadId, ChecksumAlgorithm: algorithm, ChecksumType: type }),
			]);

			const element = (n: 0 | 1) => `<Checksum${algorithm}>${sums[n]}</Checksum${algorithm}>`;
			const completed = await complete(
				k,
				uploadId,
				[
					[1, etags[0] ?? "", element(0)],
					[2, etags[1] ?? "", element(1)],
				],
				{ [header(algorithm)]: object, "x-amz-checksum-type": type },
			);
			expect(completed.status).toBe(200);
			expect((await xmlOf(completed)).CompleteMultipartUploadResult).toMatchObject({
				[`Checksum${algorithm}`]: object,
				ChecksumType: type,
			});
			expect((await bucket().head(k))?.size).toBe(5 * MiB + 4);

			const plain = await s3(path(k), { method: "HEAD" });
			expect([plain.headers.get(header(algorithm)), plain.headers.get("x-amz-checksum-type")]).toEqual([null, null]);
			const checked = await s3(path(k), { method: "HEAD", headers: MODE });
			expect([checked.headers.get(header(algorithm)), checked.headers.get("x-amz-checksum-type")]).toEqual([
				object,
				type,
			]);
			// One part's read answers that part's checksum, as S3 does.
			const partRead = await s3(`${path(k)}?partNumber=2`, { headers: MODE });
			expect([
				partRead.status,
				partRead.headers.get(header(algorithm)),
				partRead.headers.get("x-amz-checksum-type"),
			]).toEqual([206, sums[1], type]);
			expect(await textOf(partRead)).toBe("tail");
			const unasked = await s3(`${path(k)}?partNumber=1`, { method: "HEAD" });
			expect([unasked.status, unasked.headers.get(header(algorithm))]).toEqual([206, null]);
		},
	);

	it.each([
		["SHA1", "FULL_OBJECT", "The FULL_OBJECT checksum type cannot be used with the sha1 checksum algorithm."],
		["SHA256", "FULL_OBJECT", "The FULL_OBJECT checksum type cannot be used with the sha256 checksum algorithm."],
		["CRC64NVME", "COMPOSITE", "The COMPOSITE checksum type cannot be used with the crc64nvme checksum algorithm."],
		// S3 takes these two; R2 does not (developers.cloudflare.com/r2/api/s3/api/, "Checksum types").
		["CRC32", "FULL_OBJECT", "The FULL_OBJECT checksum type cannot be used with the crc32 checksum algorithm."],
		["CRC32C", "FULL_OBJECT", "The FULL_OBJECT checksum type cannot be used with the crc32c checksum algorithm."],
		["", "COMPOSITE", "The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header."],
		["CRC32", "PARTS", "Value for x-amz-checksum-type header is invalid."],
		[
			"MD4",
			"",
			"Checksum algorithm provided is unsupported. Please try again with any of the valid types: [CRC32, CRC32C, CRC64NVME, SHA1, SHA256]",
		],
	])("refuses the algorithm %j with the type %j, and creates no upload", async (algorithm, type, message) => {
		const k = key("refused");
		const headers: Record<string, string> = {};
		if (algorithm) headers["x-amz-checksum-algorithm"] = algorithm;
		if (type) headers["x-amz-checksum-type"] = type;
		const error = await expectS3Error(await create(k, headers), 400, "InvalidRequest");
		expect(error?.Message).toBe(message);
		const listed = await xmlOf(await s3(`/${BUCKET}?uploads&prefix=${encodeURIComponent(k)}`));
		expect(listed.ListMultipartUploadsResult?.Upload).toBeUndefined();
	});

	it("refuses parts and completions that do not match the upload's checksum, leaving the upload as it was", async () => {
		const k = key("refusals");
		const uploadId = await uploadIdOf(await create(k, { "x-amz-checksum-algorithm": "SHA256" }));
		const bytes = (text: string) => new TextEncoder().encode(text);
		const sha = async (text: string) => ({ "x-amz-checksum-sha256": await sha256Of(bytes(text)) });
		const element = async (text: string) => `<ChecksumSHA256>${await sha256Of(bytes(text))}</ChecksumSHA256>`;

		await expectS3Error(await putPart(k, uploadId, 1, "one", await sha("two")), 400, "BadDigest");
		const other = await expectS3Error(
			await putPart(k, uploadId, 1, "one", { "x-amz-checksum-crc32": crc32Of(bytes("one")) }),
			400,
			"InvalidRequest",
		);
		expect(other?.Message).toBe(
			"Checksum Type mismatch occurred, expected checksum Type: sha256, actual checksum Type: crc32",
		);
		expect((await listParts(k, uploadId)).Part).toBeUndefined();

		const etags: string[] = [];
		for (const [n, text] of ["one", "two"].entries()) {
			const response = await putPart(k, uploadId, n + 1, text, await sha(text));
			expect(response.status).toBe(200);
			etags.push(response.headers.get("etag") ?? "");
		}
		const [one = "", two = ""] = etags;
		const first: Part = [1, one, await element("one")];
		const refusals: [Part[], Record<string, string>, string, string?][] = [
			[[[1, one, await element("two")]], {}, "InvalidPart"],
			[[[1, one, `<ChecksumCRC32>${crc32Of(bytes("one"))}</ChecksumCRC32>`]], {}, "InvalidPart"],
			[
				[[1, one]],
				{},
				"InvalidRequest",
				"The upload was created using a sha256 checksum. The complete request must include the checksum for each part. It was missing for part 1 in the request.",
			],
			[[[2, two, await element("two")]], {}, "InvalidPartOrder"],
			[[first], await sha("one"), "BadDigest"],
			[
				[first],
				{ "x-amz-checksum-type": "FULL_OBJECT" },
				"BadDigest",
				"The upload was created using the COMPOSITE checksum mode. The complete request must use the same checksum mode.",
			],
			[[first], { "x-amz-checksum-crc32": crc32Of(bytes("one")) }, "InvalidRequest"],
		];
		for (const [parts, headers, code, message] of refusals) {
			const error = await expectS3Error(await complete(k, uploadId, parts, headers), 400, code);
			if (message !== undefined) expect(error?.Message).toBe(message);
		}
		expect(await bucket().head(k)).toBeNull();
		expect((await listParts(k, uploadId)).Part).toHaveLength(2);

		const inner = Uint8Array.from(atob(await sha256Of(bytes("one"))), (c) => c.charCodeAt(0));
		const composite = `${await sha256Of(inner)}-1`;
		const done = await complete(k, uploadId, [first], { "x-amz-checksum-sha256": composite });
		expect(done.status).toBe(200);
		expect((await xmlOf(done)).CompleteMultipartUploadResult).toMatchObject({
			ChecksumSHA256: composite,
			ChecksumType: "COMPOSITE",
		});
		expect(await (await bucket().get(k))?.text()).toBe("one");
	});

	it("computes the checksum of a part UploadPartCopy copies, and names it in CopyPartResult", async () => {
		const source = key("copy-source");
		const data = new TextEncoder().encode("0123456789abcdef");
		await bucket().put(source, data);
		const k = key("copied-part");
		const uploadId = await uploadIdOf(await create(k, { "x-amz-checksum-algorithm": "CRC32" }));
		const copied = await s3(`${path(k)}?partNumber=1&${q(uploadId)}`, {
			method: "PUT",
			headers: { "x-amz-copy-source": `/${BUCKET}/${source}`, "x-amz-copy-source-range": "bytes=4-9" },
		});
		expect(copied.status).toBe(200);
		const result = (await xmlOf(copied)).CopyPartResult ?? {};
		expect(result.ChecksumCRC32).toBe(crc32Of(data.subarray(4, 10)));
		expect((await listParts(k, uploadId)).Part).toEqual([
			expect.objectContaining({ PartNumber: "1", ChecksumCRC32: crc32Of(data.subarray(4, 10)) }),
		]);
	});

	it("computes and records the checksum of a part sent through the native dialect, and completes with it", async () => {
		const k = key("native-part");
		const uploadId = await uploadIdOf(await create(k, { "x-amz-checksum-algorithm": "CRC32" }));
		const native = await gw(`/${k}?${q(uploadId)}&partNumber=1`, { method: "PUT", body: A });
		expect(native.status).toBe(200);
		const first = `"${(await native.json<{ etag: string }>()).etag}"`;
		const second = (await putPart(k, uploadId, 2, TAIL)).headers.get("etag") ?? "";
		const listed = (await listParts(k, uploadId)).Part as Record<string, string>[];
		expect(listed.map((part) => part.ChecksumCRC32)).toEqual(["JRTCyQ==", "fDe0XQ=="]);

		const crc = (value: string) => `<ChecksumCRC32>${value}</ChecksumCRC32>`;
		const wrong = complete(k, uploadId, [
			[1, first, crc("fDe0XQ==")],
			[2, second, crc("fDe0XQ==")],
		]);
		await expectS3Error(await wrong, 400, "InvalidPart");
		const completed = await complete(k, uploadId, [
			[1, first, crc("JRTCyQ==")],
			[2, second, crc("fDe0XQ==")],
		]);
		expect(completed.status).toBe(200);
		expect((await xmlOf(completed)).CompleteMultipartUploadResult).toMatchObject({
			ChecksumCRC32: "ar6UVw==-2",
			ChecksumType: "COMPOSITE",
		});
	});
	it("checks a native-dialect part against its Content-MD5 as it computes its checksum: a wrong one lists no part", async () => {
		const k = key("native-md5");
		const uploadId = await uploadIdOf(await create(k, { "x-amz-checksum-algorithm": "CRC32" }));
		const md5 = async (bytes: Uint8Array) =>
			toBase64(new Uint8Array(await crypto.subtle.digest("MD5", new Uint8Array(bytes))));
		const part = (headers: Record<string, string>) =>
			gw(`/${k}?${q(uploadId)}&partNumber=1`, { method: "PUT", body: A, headers });
		const refused = await part({ "content-md5": await md5(TAIL) });
		await expectError(refused, 400, 10037);
		expect((await listParts(k, uploadId)).Part).toBeUndefined();
		const taken = await part({ "content-md5": await md5(A) });
		expect(taken.status).toBe(200);
		expect(((await listParts(k, uploadId)).Part as Record<string, string>[]).map((p) => p.ChecksumCRC32)).toEqual([
			"JRTCyQ==",
		]);
	});
});

describe("CopyObject with x-amz-checksum-algorithm", () => {
	it("computes the copy's checksum of that algorithm, answered to checksum-mode reads", async () => {
		const source = key("source");
		const data = new TextEncoder().encode("copied with a new checksum");
		await bucket().put(source, data);
		const k = key("copy");
		const copied = await s3(path(k), {
			method: "PUT",
			headers: { "x-amz-copy-source": `/${BUCKET}/${source}`, "x-amz-checksum-algorithm": "CRC32C" },
		});
		expect(copied.status).toBe(200);
		const crc = new Crc32cJs();
		crc.update(data);
		const expected = toBase64(await crc.digest());
		expect((await xmlOf(copied)).CopyObjectResult?.ChecksumCRC32C).toBe(expected);
		const read = await s3(path(k), { headers: MODE });
		expect([read.headers.get("x-amz-checksum-crc32c"), read.headers.get("x-amz-checksum-type")]).toEqual([
			expected,
			"FULL_OBJECT",
		]);
		expect(await textOf(read)).toBe("copied with a new checksum");

		await expectS3Error(
			await s3(path(k), {
				method: "PUT",
				headers: { "x-amz-copy-source": `/${BUCKET}/${source}`, "x-amz-checksum-algorithm": "MD4" },
			}),
			400,
			"InvalidRequest",
		);
	});

	it("does not give a copy the COMPOSITE checksum of a multipart source, which describes its parts", async () => {
		const source = key("composite-source");
		const uploadId = await uploadIdOf(await create(source, { "x-amz-checksum-algorithm": "CRC32" }));
		const part = await putPart(source, uploadId, 1, "only part");
		const value = part.headers.get("x-amz-checksum-crc32") ?? "";
		const done = await complete(source, uploadId, [
			[1, part.headers.get("etag") ?? "", `<ChecksumCRC32>${value}</ChecksumCRC32>`],
		]);
		expect(done.status).toBe(200);
		const k = key("composite-copy");
		const copied = await s3(path(k), { method: "PUT", headers: { "x-amz-copy-source": `/${BUCKET}/${source}` } });
		expect(copied.status).toBe(200);
		expect((await xmlOf(copied)).CopyObjectResult?.ChecksumCRC32).toBeUndefined();
		expect((await s3(path(k), { method: "HEAD", headers: MODE })).headers.get("x-amz-checksum-crc32")).toBeNull();
	});
});
