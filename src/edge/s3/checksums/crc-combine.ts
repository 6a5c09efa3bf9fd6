/**
 * The CRC of two byte strings joined, from the CRC of each and the length of the second, with no
 * byte read again: how S3 makes a multipart object's FULL_OBJECT checksum from its parts' CRCs
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html,
 * "Using full object checksums for multipart upload"), which R2 gives for CRC64NVME
 * (https://developers.cloudflare.com/r2/api/s3/api/, "Checksum types").
 *
 * The method is zlib's `crc32_combine` (github.com/madler/zlib, crc32.c: `multmodp`, `x2nmodp`):
 * for a reflected CRC whose initial value and final XOR are both all ones, CRC(A‖B) is CRC(A)
 * multiplied by x^(8·|B|) modulo the polynomial, XOR CRC(B). Polynomials are kept as BigInt so one
 * routine serves 32- and 64-bit CRCs; the work is O(log |B|) multiplications of `width` steps.
 */

/** A reflected CRC: its width in bits and its polynomial, bit-reversed (zlib's form). */
export interface CrcSpec {
	width: 32 | 64;
	poly: bigint;
}

/** CRC-32 (ISO-HDLC), zlib's and S3's CRC32. */
export const CRC32: CrcSpec = { width: 32, poly: 0xedb88320n };

/** CRC-64/NVME, S3's CRC64NVME. */
export const CRC64NVME: CrcSpec = { width: 64, poly: 0x9a6c9329ac4bc9b5n };

/** a·b modulo the polynomial, both in reflected form (x^0 is the top bit). */
function multModP(spec: CrcSpec, a: bigint, b: bigint): bigint {
	let m = 1n << BigInt(spec.width - 1);
	let p = 0n;
	let rest = b;
	while (m !== 0n) {
		if ((a & m) !== 0n) {
			p ^= rest;
			if ((a & (m - 1n)) === 0n) break;
		}
		m >>= 1n;
		rest = (rest & 1n) !== 0n ? (rest >> 1n) ^ spec.poly : rest >> 1n;
	}
	return p;
}

/** x^(2^k) modulo the polynomial for k = 0…, each spec's table made once. */
const powers = new Map<CrcSpec, bigint[]>();

function powerTable(spec: CrcSpec): bigint[] {
	let table = powers.get(spec);
	if (table === undefined) {
		// 67 entries: lengths up to 2^64 bytes, from x^(2^3) (one byte) on.
		table = [1n << BigInt(spec.width - 2)];
		for (let k = 1; k < 67; k++) {
			const previous = table[k - 1] as bigint;
			table.push(multModP(spec, previous, previous));
		}
		powers.set(spec, table);
	}
	return table;
}

/** x^(8·bytes) modulo the polynomial. */
function shiftFor(spec: CrcSpec, bytes: number): bigint {
	const table = powerTable(spec);
	let p = 1n << BigInt(spec.width - 1);
	let n = BigInt(bytes);
	for (let k = 3; n > 0n; k++, n >>= 1n) {
		if ((n & 1n) !== 0n) p = multModP(spec, table[k] as bigint, p);
	}
	return p;
}

/**
 * The CRC of A‖B.
 * @param crcA the CRC of A, as a number (not its bytes).
 * @param crcB the CRC of B.
 * @param lengthB B's length in bytes (a non-negative integer).
 */
export function combineCrc(spec: CrcSpec, crcA: bigint, crcB: bigint, lengthB: number): bigint {
	return multModP(spec, shiftFor(spec, lengthB), crcA) ^ crcB;
}

/** A CRC's value from its big-endian bytes, as S3 sends it (base64 of these bytes). */
export function crcFromBytes(bytes: Uint8Array): bigint {
	let value = 0n;
	for (const byte of bytes) value = (value << 8n) | BigInt(byte);
	return value;
}

/** A CRC's big-endian bytes, `width / 8` of them. */
export function crcToBytes(spec: CrcSpec, value: bigint): Uint8Array {
	const bytes = new Uint8Array(spec.width / 8);
	let rest = value;
	for (let i = bytes.length - 1; i >= 0; i--, rest >>= 8n) bytes[i] = Number(rest & 0xffn);
	return bytes;
}
