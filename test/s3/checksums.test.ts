/**
 * Flexible checksums on PutObject through the S3 dialect (CRC32, CRC32C, CRC64NVME, SHA1,
 * SHA256 in `x-amz-checksum-*` headers), each validated against the body as it streams, and the
 * stored checksums read back with `x-amz-checksum-mode: ENABLED`: the SHAs from the binding, the
 * CRCs from the bucket's ledger.
 */
import { describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { BUCKET, bucket, expectS3Error, s3, xmlOf } from "./helpers";

const key = (label: string) => `s3-checksums/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;

/** The check values of "123456789" (the CRC catalogue's), and its SHA-1 and SHA-256, base64. */
const BODY = "123456789";
const CHECKSUMS = {
	"x-amz-checksum-crc32": "y/Q5Jg==",
	"x-amz-checksum-crc32c": "4waSgw==",
	"x-amz-checksum-crc64nvme": "rosUhgp5mIg=",
	"x-amz-checksum-sha1": "98O8HYCOBHMq32eZZczDTKeuNEE=",
	"x-amz-checksum-sha256": "FeKw08M4keuw8e9gnsQZQgwg4yDOlMZfvIwzEkSOsiU=",
};
/** PutObject of BODY to `target` with its checksum in `header`. */
const putWith = (target: string, header: keyof typeof CHECKSUMS) =>
	s3(target, { method: "PUT", body: BODY, headers: { [header]: CHECKSUMS[header] } });

/** HeadObject of `target` asking for its checksums. */
const headWithChecksums = (target: string) =>
	s3(target, { method: "HEAD", headers: { "x-amz-checksum-mode": "ENABLED" } });

/** The same lengths, other values. */
const WRONG = {
	"x-amz-checksum-crc32": "AAAAAA==",
	"x-amz-checksum-crc32c": "AAAAAA==",
	"x-amz-checksum-crc64nvme": "AAAAAAAAAAA=",
	"x-amz-checksum-sha1": "AAAAAAAAAAAAAAAAAAAAAAAAAAA=",
	"x-amz-checksum-sha256": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
};

describe("PutObject with a flexible checksum header", () => {
	for (const [header, value] of Object.entries(CHECKSUMS)) {
		const name = header.slice("x-amz-checksum-".length).toUpperCase();

		it(`stores a body whose ${name} matches, and answers the checksum`, async () => {
			const k = key(name);
			const response = await s3(path(k), {
				method: "PUT",
				body: BODY,
				headers: { [header]: value, "x-amz-sdk-checksum-algorithm": name },
			});
			expect(response.status).toBe(200);
			expect(response.headers.get(header)).toBe(value);
			expect(await (await bucket().get(k))?.text()).toBe(BODY);
		});

		it(`refuses a body whose ${name} does not match with BadDigest and stores nothing`, async () => {
			const k = key(`${name}-wrong`);
			const response = await s3(path(k), {
				method: "PUT",
				body: BODY,
				headers: { [header]: WRONG[header as keyof typeof WRONG] },
			});
			await expectS3Error(response, 400, "BadDigest");
			expect(await bucket().head(k)).toBeNull();
		});
	}

	it("refuses a CRC32 that is not the body's for a body of unknown length, and stores nothing", async () => {
		const k = key("stream");
		const body = new ReadableStream({
			start(controller) {
				controller.enqueue(new TextEncoder().encode("12345"));
				controller.enqueue(new TextEncoder().encode("6789x"));
				controller.close();
			},
		});
		const response = await s3(path(k), {
			method: "PUT",
			body,
			headers: { "x-amz-checksum-crc32": CHECKSUMS["x-amz-checksum-crc32"] },
		});
		await expectS3Error(response, 400, "BadDigest");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a checksum that is not base64 of its length with InvalidRequest", async () => {
		const k = key("malformed");
		const response = await s3(path(k), {
			method: "PUT",
			body: BODY,
			headers: { "x-amz-checksum-crc32": "AAAAAAAA" },
		});
		await expectS3Error(response, 400, "InvalidRequest");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses two checksums, and an algorithm named without its checksum, with InvalidRequest", async () => {
		const cases: Record<string, string>[] = [
			{
				"x-amz-checksum-crc32": CHECKSUMS["x-amz-checksum-crc32"],
				"x-amz-checksum-crc32c": CHECKSUMS["x-amz-checksum-crc32c"],
			},
			{ "x-amz-sdk-checksum-algorithm": "CRC32" },
			{ "x-amz-sdk-checksum-algorithm": "MD4", "x-amz-checksum-crc32": CHECKSUMS["x-amz-checksum-crc32"] },
		];
		for (const headers of cases) {
			const k = key("invalid");
			const response = await s3(path(k), { method: "PUT", body: BODY, headers });
			await expectS3Error(response, 400, "InvalidRequest");
			expect(await bucket().head(k)).toBeNull();
		}
	});
});

describe("GetObject and HeadObject with x-amz-checksum-mode: ENABLED", () => {
	it("answer the SHA-256 and SHA-1 stored with the object", async () => {
		for (const header of ["x-amz-checksum-sha256", "x-amz-checksum-sha1"] as const) {
			const k = key("mode");
			await s3(path(k), { method: "PUT", body: BODY, headers: { [header]: CHECKSUMS[header] } });
			for (const method of ["GET", "HEAD"]) {
				const response = await s3(path(k), { method, headers: { "x-amz-checksum-mode": "ENABLED" } });
				expect(response.status).toBe(200);
				expect(response.headers.get(header)).toBe(CHECKSUMS[header]);
				expect(response.headers.get("x-amz-checksum-type")).toBe("FULL_OBJECT");
				await response.body?.cancel();
			}
			const plain = await s3(path(k));
			expect(plain.headers.get(header)).toBeNull();
			expect(plain.headers.get("x-amz-checksum-type")).toBeNull();
			await plain.body?.cancel();
		}
	});

	it("answer the CRC an object was uploaded with, which the binding cannot store, until the object changes", async () => {
		for (const header of ["x-amz-checksum-crc32", "x-amz-checksum-crc32c", "x-amz-checksum-crc64nvme"] as const) {
			const k = key("crc-mode");
			expect((await s3(path(k), { method: "PUT", body: BODY, headers: { [header]: CHECKSUMS[header] } })).status).toBe(
				200,
			);
			for (const method of ["GET", "HEAD"]) {
				const response = await s3(path(k), { method, headers: { "x-amz-checksum-mode": "ENABLED" } });
				expect(response.headers.get(header)).toBe(CHECKSUMS[header]);
				expect(response.headers.get("x-amz-checksum-type")).toBe("FULL_OBJECT");
				await response.body?.cancel();
			}
			// Written again by Worker code with other bytes: the CRC no longer describes it.
			await bucket().put(k, "other bytes");
			const changed = await s3(path(k), { headers: { "x-amz-checksum-mode": "ENABLED" } });
			expect(await textOf(changed)).toBe("other bytes");
			expect(changed.headers.get(header)).toBeNull();
		}
	});

	it("forget a deleted object's CRC: the same key written again, even with the same bytes, answers none", async () => {
		const header = "x-amz-checksum-crc32";
		for (const again of ["fresh", BODY]) {
			const k = key("crc-deleted");
			await s3(path(k), { method: "PUT", body: BODY, headers: { [header]: CHECKSUMS[header] } });
			const before = await s3(path(k), { method: "HEAD", headers: { "x-amz-checksum-mode": "ENABLED" } });
			expect(before.headers.get(header)).toBe(CHECKSUMS[header]);
			expect((await s3(path(k), { method: "DELETE" })).status).toBe(204);
			await s3(path(k), { method: "PUT", body: again });
			const response = await s3(path(k), { method: "HEAD", headers: { "x-amz-checksum-mode": "ENABLED" } });
			expect(response.status).toBe(200);
			expect(response.headers.get(header)).toBeNull();
		}
	});

	it("answer the checksum of the latest PutObject of a key at once, after a read of the one before", async () => {
		const k = key("crc-rewritten");
		await putWith(path(k), "x-amz-checksum-crc32");
		const first = await headWithChecksums(path(k));
		expect(first.headers.get("x-amz-checksum-crc32")).toBe(CHECKSUMS["x-amz-checksum-crc32"]);
		// The same bytes (the same ETag), now with a CRC32C.
		expect((await putWith(path(k), "x-amz-checksum-crc32c")).status).toBe(200);
		const second = await headWithChecksums(path(k));
		expect(second.headers.get("x-amz-checksum-crc32c")).toBe(CHECKSUMS["x-amz-checksum-crc32c"]);
		expect(second.headers.get("x-amz-checksum-crc32")).toBeNull();
	});

	it("answer no whole-object checksum on a range, which a client would check against the part it got", async () => {
		const k = key("range");
		await s3(path(k), {
			method: "PUT",
			body: BODY,
			headers: { "x-amz-checksum-sha256": CHECKSUMS["x-amz-checksum-sha256"] },
		});
		const response = await s3(path(k), { headers: { "x-amz-checksum-mode": "ENABLED", range: "bytes=0-3" } });
		expect(response.status).toBe(206);
		expect(await textOf(response)).toBe("1234");
		expect(response.headers.get("x-amz-checksum-sha256")).toBeNull();
	});

	it("answer no checksum on a 304, whose empty body a client would check against it", async () => {
		const k = key("not-modified");
		const header = "x-amz-checksum-sha256";
		const put = await s3(path(k), { method: "PUT", body: BODY, headers: { [header]: CHECKSUMS[header] } });
		const etag = put.headers.get("etag") ?? "";
		for (const method of ["GET", "HEAD"]) {
			const conditions: Record<string, string>[] = [
				{ "if-none-match": etag },
				{ "if-modified-since": "Fri, 01 Jan 2100 00:00:00 GMT" },
			];
			for (const condition of conditions) {
				const response = await s3(path(k), { method, headers: { "x-amz-checksum-mode": "ENABLED", ...condition } });
				expect([method, response.status, response.headers.get(header)]).toEqual([method, 304, null]);
			}
		}
	});
});

describe("CopyObject of an object with a checksum", () => {
	it("gives the copy the source's checksum, in the same bucket or another, as S3 copies it by default", async () => {
		for (const header of ["x-amz-checksum-crc32", "x-amz-checksum-crc64nvme", "x-amz-checksum-sha256"] as const) {
			const source = key("copy-source");
			await putWith(path(source), header);
			for (const target of [path(key("copy")), `/edgezone-logs/${key("copy")}`]) {
				const copy = await s3(target, { method: "PUT", headers: { "x-amz-copy-source": path(source) } });
				expect(copy.status).toBe(200);
				const { CopyObjectResult: result } = await xmlOf<{ CopyObjectResult: Record<string, string> }>(copy);
				expect(result[`Checksum${header.slice("x-amz-checksum-".length).toUpperCase()}`]).toBe(CHECKSUMS[header]);
				const read = await s3(target, { headers: { "x-amz-checksum-mode": "ENABLED" } });
				expect(await textOf(read)).toBe(BODY);
				expect(read.headers.get(header)).toBe(CHECKSUMS[header]);
			}
		}
	});

	it("gives a copy of an object without one none", async () => {
		const source = key("copy-plain");
		await bucket().put(source, BODY);
		const target = path(key("copy"));
		expect((await s3(target, { method: "PUT", headers: { "x-amz-copy-source": path(source) } })).status).toBe(200);
		const read = await headWithChecksums(target);
		for (const header of Object.keys(CHECKSUMS)) expect(read.headers.get(header)).toBeNull();
	});
});
