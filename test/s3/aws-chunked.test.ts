/**
 * aws-chunked PutObject bodies through the S3 dialect: the three streaming payloads decoded
 * and stored byte for byte, each chunk and trailer signature verified, and every spoiled body
 * refused with S3's error and nothing stored.
 */
import { Crc32, Crc64NvmeJs } from "@aws-sdk/checksums/crc";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { chainedSigner, signatureOf } from "../../src/edge/s3/auth/sigv4";
import { ChunkSigner, chunkedPut, patterned } from "./aws-chunked-helpers";
import { BUCKET, bucket, expectS3Error, s3, sha256Hex } from "./helpers";

const key = (label: string) => `s3-chunked/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;

/** The example of sigv4-streaming.html ("Example: PUT Object"), with its published signatures. */
const EXAMPLE = {
	secret: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	amzDate: "20130524T000000Z",
	seed: "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9",
	chunks: [
		"ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648",
		"0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497",
		"b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9",
	],
};

const crc32Of = async (data: Uint8Array) => {
	const crc = new Crc32();
	crc.update(data);
	return toBase64(await crc.digest());
};

const crc64Of = async (data: Uint8Array) => {
	const crc = new Crc64NvmeJs();
	crc.update(data);
	return toBase64(await crc.digest());
};

/** The stored object's bytes' SHA-256, or null when nothing is stored. */
async function storedSha256(k: string): Promise<string | null> {
	const object = await bucket().get(k);
	return object === null ? null : sha256Hex(new Uint8Array(await object.arrayBuffer()));
}

describe("aws-chunked signatures", () => {
	it("computes AWS's published seed and chunk signatures of sigv4-streaming.html's example", async () => {
		const request = new Request("https://s3.amazonaws.com/examplebucket/chunkObject.txt", {
			method: "PUT",
			headers: {
				"content-encoding": "aws-chunked",
				"content-length": "66824",
				"x-amz-content-sha256": "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
				"x-amz-date": EXAMPLE.amzDate,
				"x-amz-decoded-content-length": "66560",
				"x-amz-storage-class": "REDUCED_REDUNDANCY",
			},
		});
		const scope = { date: "20130524", region: "us-east-1", service: "s3" };
		const input = {
			amzDate: EXAMPLE.amzDate,
			scope,
			signedHeaders: [
				"content-encoding",
				"content-length",
				"host",
				"x-amz-content-sha256",
				"x-amz-date",
				"x-amz-decoded-content-length",
				"x-amz-storage-class",
			],
			payloadHash: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
		};
		expect(signatureOf(request, new URL(request.url), input, EXAMPLE.secret)).toBe(EXAMPLE.seed);

		const seed = { signature: EXAMPLE.seed, amzDate: EXAMPLE.amzDate, scope };
		const data = [new Uint8Array(65536).fill(97), new Uint8Array(1024).fill(97), new Uint8Array(0)];
		const signer = await ChunkSigner.of(EXAMPLE.secret, EXAMPLE.amzDate, "us-east-1", EXAMPLE.seed);
		const sign = chainedSigner(EXAMPLE.secret, seed);
		let previous = EXAMPLE.seed;
		for (const [index, chunk] of data.entries()) {
			const hash = await sha256Hex(chunk);
			const empty = await sha256Hex("");
			previous = sign("AWS4-HMAC-SHA256-PAYLOAD", previous, [empty, hash]);
			expect(previous).toBe(EXAMPLE.chunks[index]);
			expect(await signer.chunk(chunk)).toBe(EXAMPLE.chunks[index]);
		}
	});
});

describe("PutObject with an aws-chunked body", () => {
	it("stores a signed 3-chunk body of 3 MiB byte for byte, without aws-chunked in its Content-Encoding", async () => {
		const k = key("signed");
		const data = patterned(3 * 1024 * 1024 - 1000);
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
			data,
			chunkSize: 1024 * 1024,
			headers: { "content-type": "application/x-test" },
		});
		expect(response.status).toBe(200);
		const stored = await bucket().head(k);
		expect(stored?.size).toBe(data.byteLength);
		expect(stored?.httpMetadata?.contentEncoding).toBeUndefined();
		expect(stored?.httpMetadata?.contentType).toBe("application/x-test");
		expect(await storedSha256(k)).toBe(await sha256Hex(data));
		expect(response.headers.get("etag")).toBe(stored?.httpEtag);
	});

	it("decodes a body whose chunk headers and data cross the 1 MiB blocks it is read in", async () => {
		// The second chunk's header (88 bytes, from byte 1,048,490 of the wire body) crosses the first
		// block's end at 1,048,576; later chunks move every boundary elsewhere in their frames.
		const k = key("blocks");
		const data = patterned(3 * 1_048_400 + 1234);
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
			data,
			chunkSize: 1_048_400,
		});
		expect(response.status).toBe(200);
		expect((await bucket().head(k))?.size).toBe(data.byteLength);
		expect(await storedSha256(k)).toBe(await sha256Hex(data));
	});

	it("keeps a Content-Encoding sent beside aws-chunked", async () => {
		const k = key("gzip");
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
			data: patterned(100),
			headers: { "content-encoding": "aws-chunked,gzip" },
		});
		expect(response.status).toBe(200);
		expect((await bucket().head(k))?.httpMetadata?.contentEncoding).toBe("gzip");
	});

	it("drops aws-chunked from the Content-Encoding of a body that is not chunked and stores the rest, as S3 does", async () => {
		for (const [encoding, stored] of [
			["gzip, aws-chunked", "gzip"],
			["aws-chunked", undefined],
		] as const) {
			const k = key("not-chunked");
			const body = "plain bytes, not framed";
			const response = await s3(`/${BUCKET}/${k}`, {
				method: "PUT",
				body,
				headers: { "content-encoding": encoding, "x-amz-content-sha256": await sha256Hex(body) },
			});
			expect(response.status).toBe(200);
			const object = await bucket().get(k);
			expect(object?.httpMetadata?.contentEncoding).toBe(stored);
			expect(await object?.text()).toBe(body);
		}
	});

	it("stores an unsigned body with a CRC32 trailer, as the AWS SDKs and CLI send by default, and answers its checksum", async () => {
		const k = key("unsigned-trailer");
		const data = patterned(200_000);
		const crc = await crc32Of(data);
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
			data,
			headers: { "x-amz-sdk-checksum-algorithm": "CRC32" },
			trailer: { name: "x-amz-checksum-crc32", value: crc },
		});
		expect(response.status).toBe(200);
		expect(response.headers.get("x-amz-checksum-crc32")).toBe(crc);
		expect(await storedSha256(k)).toBe(await sha256Hex(data));
	});

	it("stores a signed body with a signed CRC64NVME trailer", async () => {
		const k = key("signed-trailer");
		const data = patterned(150_000);
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER",
			data,
			trailer: { name: "x-amz-checksum-crc64nvme", value: await crc64Of(data) },
		});
		expect(response.status).toBe(200);
		expect(await storedSha256(k)).toBe(await sha256Hex(data));
	});

	it("stores an empty body", async () => {
		const k = key("empty");
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
			data: new Uint8Array(0),
			trailer: { name: "x-amz-checksum-crc32", value: await crc32Of(new Uint8Array(0)) },
		});
		expect(response.status).toBe(200);
		expect((await bucket().head(k))?.size).toBe(0);
	});
});

describe("PutObject refuses a spoiled aws-chunked body and stores nothing", () => {
	const data = patterned(3 * 64 * 1024 + 10);

	it("a chunk changed after it was signed: SignatureDoesNotMatch", async () => {
		const k = key("tampered");
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
			data,
			spoil: (frames) => {
				const chunk = frames[4]?.slice() ?? new Uint8Array();
				chunk[100] = (chunk[100] ?? 0) ^ 1;
				return frames.with(4, chunk);
			},
		});
		await expectS3Error(response, 403, "SignatureDoesNotMatch");
		expect(await bucket().head(k)).toBeNull();
	});

	it("a wrong chunk signature, and a wrong final chunk signature: SignatureDoesNotMatch", async () => {
		for (const index of [1, 3]) {
			const k = key(`wrong-signature-${index}`);
			const response = await chunkedPut(path(k), {
				payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
				data,
				wrongSignature: index,
			});
			await expectS3Error(response, 403, "SignatureDoesNotMatch");
			expect(await bucket().head(k)).toBeNull();
		}
	});

	it("a wrong trailer signature: SignatureDoesNotMatch", async () => {
		const k = key("wrong-trailer-signature");
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER",
			data,
			trailer: { name: "x-amz-checksum-crc32", value: await crc32Of(data) },
			wrongSignature: -1,
		});
		await expectS3Error(response, 403, "SignatureDoesNotMatch");
		expect(await bucket().head(k)).toBeNull();
	});

	it("a trailing checksum that is not the body's: BadDigest", async () => {
		for (const payload of [
			"STREAMING-UNSIGNED-PAYLOAD-TRAILER",
			"STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER",
		] as const) {
			const k = key("wrong-trailer");
			const response = await chunkedPut(path(k), {
				payload,
				data,
				trailer: { name: "x-amz-checksum-crc32", value: await crc32Of(data.subarray(1)) },
			});
			await expectS3Error(response, 400, "BadDigest");
			expect(await bucket().head(k)).toBeNull();
		}
	});

	it("a trailing checksum that is not that of a body of several 1 MiB blocks: BadDigest, the older object kept", async () => {
		const k = key("wrong-trailer-long");
		await bucket().put(k, "the older object");
		const long = patterned(3 * 1024 * 1024 + 5);
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
			data: long,
			chunkSize: 1024 * 1024,
			trailer: { name: "x-amz-checksum-crc32", value: await crc32Of(long.subarray(1)) },
		});
		await expectS3Error(response, 400, "BadDigest");
		expect(await (await bucket().get(k))?.text()).toBe("the older object");
	});

	it("a trailer without the checksum x-amz-trailer declares: MalformedTrailerError", async () => {
		const k = key("missing-trailer");
		const response = await chunkedPut(path(k), {
			payload: "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
			data,
			headers: { "x-amz-trailer": "x-amz-checksum-crc32" },
		});
		await expectS3Error(response, 400, "MalformedTrailerError");
		expect(await bucket().head(k)).toBeNull();
	});

	it("chunks that carry fewer or more bytes than x-amz-decoded-content-length: IncompleteBody", async () => {
		for (const decodedLength of [data.byteLength + 1, data.byteLength - 1]) {
			const k = key("length");
			const response = await chunkedPut(path(k), {
				payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD",
				data,
				decodedLength,
			});
			await expectS3Error(response, 400, "IncompleteBody");
			expect(await bucket().head(k)).toBeNull();
		}
	});

	it("a malformed frame, a body cut short, and bytes after the end: InvalidRequest", async () => {
		const spoils: ((frames: Uint8Array[]) => Uint8Array[])[] = [
			(frames) => frames.with(0, new TextEncoder().encode("zz;chunk-signature=x\r\n")),
			(frames) => frames.slice(0, -1),
			(frames) => [...frames, new TextEncoder().encode("0\r\n")],
			(frames) => frames.with(2, new TextEncoder().encode("\n\n")),
		];
		for (const spoil of spoils) {
			const k = key("malformed");
			const response = await chunkedPut(path(k), { payload: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD", data, spoil });
			await expectS3Error(response, 400, "InvalidRequest");
			expect(await bucket().head(k)).toBeNull();
		}
	});

	it("an aws-chunked body without x-amz-decoded-content-length: MissingContentLength", async () => {
		const k = key("no-length");
		const response = await s3(path(k), {
			method: "PUT",
			body: "0\r\n\r\n",
			headers: {
				"x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
				"x-amz-trailer": "x-amz-checksum-crc32",
			},
		});
		await expectS3Error(response, 411, "MissingContentLength");
		expect(await bucket().head(k)).toBeNull();
	});
});
