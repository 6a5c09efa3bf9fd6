/**
 * The CRC combination (src/edge/s3/checksums/crc-combine.ts), checked against the CRC of the joined bytes as
 * zlib and the AWS SDK compute it, and against the FULL_OBJECT checksum the s3-tests suite gives
 * for two parts (5 MiB of "A", then "tail").
 */
import { crc32 } from "node:zlib";
import { Crc64NvmeJs } from "@aws-sdk/checksums/crc";
import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import { CRC32, CRC64NVME, combineCrc, crcFromBytes, crcToBytes } from "../../src/edge/s3/checksums/crc-combine";

const bytes = (length: number, seed: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + seed * 7) & 0xff);
const join = (a: Uint8Array, b: Uint8Array) => {
	const joined = new Uint8Array(a.length + b.length);
	joined.set(a);
	joined.set(b, a.length);
	return joined;
};

async function crc64(data: Uint8Array): Promise<bigint> {
	const hasher = new Crc64NvmeJs();
	hasher.update(data);
	return crcFromBytes(await hasher.digest());
}

const SPLITS: [number, number][] = [
	[0, 0],
	[0, 17],
	[17, 0],
	[1, 1],
	[1000, 3],
	[65_537, 4_099],
];

describe("combineCrc", () => {
	it.each(SPLITS)("gives CRC32 of A‖B from CRC32(A), CRC32(B) and |B|, for |A| = %i, |B| = %i", (lengthA, lengthB) => {
		const [a, b] = [bytes(lengthA, 1), bytes(lengthB, 2)];
		const combined = combineCrc(CRC32, BigInt(crc32(a)), BigInt(crc32(b)), b.length);
		expect(combined).toBe(BigInt(crc32(join(a, b))));
	});

	it.each(SPLITS)("gives CRC64NVME of A‖B, for |A| = %i, |B| = %i", async (lengthA, lengthB) => {
		const [a, b] = [bytes(lengthA, 3), bytes(lengthB, 4)];
		const combined = combineCrc(CRC64NVME, await crc64(a), await crc64(b), b.length);
		expect(combined).toBe(await crc64(join(a, b)));
	});

	it("gives the FULL_OBJECT CRC64NVME S3 answers for two parts", () => {
		const parts = ["L/E4WYn8v98=", "sAra2CkCEgw="].map((value) =>
			crcFromBytes(Uint8Array.from(atob(value), (c) => c.charCodeAt(0))),
		);
		const combined = combineCrc(CRC64NVME, parts[0] as bigint, parts[1] as bigint, "tail".length);
		expect(toBase64(crcToBytes(CRC64NVME, combined))).toBe("UpfGsWmSCEg=");
	});

	it("round-trips a CRC through its big-endian bytes", () => {
		const value = 0x0123456789abcdefn;
		expect(crcToBytes(CRC64NVME, value)).toEqual(Uint8Array.from([1, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]));
		expect(crcFromBytes(crcToBytes(CRC64NVME, value))).toBe(value);
	});
});
