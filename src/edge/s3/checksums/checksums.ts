/**
 * S3's flexible checksums of a request body: CRC32, CRC32C, CRC64NVME, SHA1 and SHA256, sent
 * base64 in an `x-amz-checksum-<alg>` header or in a trailer of an aws-chunked body, named by
 * `x-amz-sdk-checksum-algorithm` (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html;
 * R2 takes the same five: https://developers.cloudflare.com/r2/api/s3/api/).
 *
 * A body is hashed as it streams (`checksumCheck`, one of the pump's checks, `body-pump.ts`):
 * CRC32 with zlib's native `crc32` (`node:zlib`, which nodejs_compat gives workerd; the one the
 * SDKs send by default, so it is the fast one), CRC32C and CRC64NVME with the AWS SDK for
 * JavaScript's own pure-JS implementations (`@aws-sdk/checksums/crc`), so a value a client
 * computed is matched bit for bit; SHA1 and SHA256 with `node:crypto`'s `createHash`.
 *
 * The SHAs (and the MD5 and signed SHA-256 of `payload.ts`, and each aws-chunked chunk's
 * SHA-256) are hashed with `createHash`, not workerd's `crypto.DigestStream`: a write to that
 * stream from JavaScript costs memory that waits for the garbage collector, and `aws s3 cp`'s 1 GiB
 * upload (each part checked against its Content-MD5 and signed SHA-256) grew workerd by 217.6 MiB
 * with it against 204.2 MiB with `createHash`, the gateway's same upload 170 MiB (BENCHMARKS.md).
 */
import { createHash } from "node:crypto";
import { crc32 } from "node:zlib";
import { Crc32cJs, Crc64NvmeJs } from "@aws-sdk/checksums/crc";
import { fromBase64, toBase64 } from "../../../common/encoding";
import { type BodyCheck, pumpBody } from "../body/body-pump";
import { S3Error } from "../errors";

/** The five algorithms: S3's name, the header's suffix, and the digest's length in bytes. */
export const FLEXIBLE_CHECKSUMS = [
	{ name: "CRC32", header: "x-amz-checksum-crc32", bytes: 4 },
	{ name: "CRC32C", header: "x-amz-checksum-crc32c", bytes: 4 },
	{ name: "CRC64NVME", header: "x-amz-checksum-crc64nvme", bytes: 8 },
	{ name: "SHA1", header: "x-amz-checksum-sha1", bytes: 20 },
	{ name: "SHA256", header: "x-amz-checksum-sha256", bytes: 32 },
] as const;

/** One algorithm of `FLEXIBLE_CHECKSUMS`. */
export type FlexibleChecksum = (typeof FLEXIBLE_CHECKSUMS)[number];

/** The algorithm whose header (or trailer) is `name` (lower case), or undefined. */
export function checksumOfHeader(name: string): FlexibleChecksum | undefined {
	return FLEXIBLE_CHECKSUMS.find((checksum) => checksum.header === name);
}

/** The algorithm S3 names `name` (`CRC32`, any case), or undefined. */
export function checksumNamed(name: string): FlexibleChecksum | undefined {
	return FLEXIBLE_CHECKSUMS.find((checksum) => checksum.name === name.trim().toUpperCase());
}

/**
 * The `Checksum<ALGORITHM>` elements S3's documents name checksums with (CopyObjectResult,
 * CopyPartResult, CompleteMultipartUploadResult), for the flexible checksums among `headers`
 * (S3 has none for MD5).
 */
export function checksumElements(headers: Headers): Record<string, string> {
	const elements: Record<string, string> = {};
	for (const algorithm of FLEXIBLE_CHECKSUMS) {
		const value = headers.get(algorithm.header);
		if (value !== null) Object.assign(elements, checksumElement(algorithm, value));
	}
	return elements;
}

/** The `Checksum<ALGORITHM>` element of one checksum (base64, as its header carries it). */
export function checksumElement(algorithm: FlexibleChecksum, value: string): Record<string, string> {
	return { [`Checksum${algorithm.name}`]: value };
}

/** A running digest, fed synchronously (`node:crypto`, zlib and the AWS SDK's CRCs all are). */
export interface Hasher {
	update(bytes: Uint8Array): void;
	digest(): Promise<Uint8Array>;
}

/** A hasher of one of WebCrypto's digests (`SHA-1`, `SHA-256`, `MD5`…), fed through `node:crypto`'s `createHash`. */
export function digestHasher(algorithm: string): Hasher {
	const hash = createHash(algorithm.toLowerCase().replace("-", ""));
	return {
		update: (bytes) => {
			hash.update(bytes);
		},
		digest: async () => new Uint8Array(hash.digest()),
	};
}

/** A CRC32 (ISO-HDLC, zlib's) hasher: its digest is the CRC's four bytes, big-endian, as S3 sends it. */
function crc32Hasher(): Hasher {
	let value = 0;
	return {
		update: (bytes) => {
			value = crc32(bytes, value);
		},
		digest: async () => {
			const digest = new Uint8Array(4);
			new DataView(digest.buffer).setUint32(0, value >>> 0);
			return digest;
		},
	};
}

/** A hasher of `checksum`'s algorithm. */
export function hasherOf(checksum: FlexibleChecksum): Hasher {
	switch (checksum.name) {
		case "SHA1":
			return digestHasher("SHA-1");
		case "SHA256":
			return digestHasher("SHA-256");
		case "CRC32":
			return crc32Hasher();
		case "CRC32C":
			return new Crc32cJs();
		case "CRC64NVME":
			return new Crc64NvmeJs();
	}
}

/**
 * The digest a checksum header or trailer carries.
 * @throws S3Error 400 InvalidRequest when it is not the base64 of a digest of the algorithm's
 * length (S3's answer to a malformed checksum, https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html).
 */
export function parseChecksumValue(checksum: FlexibleChecksum, value: string): string {
	const digest = fromBase64(value.trim());
	if (digest?.byteLength !== checksum.bytes) {
		throw new S3Error("InvalidRequest", `Value for ${checksum.header} header is invalid.`);
	}
	return toBase64(digest);
}

/** 400 BadDigest naming the algorithm, as S3 words it. */
export const checksumMismatch = (checksum: FlexibleChecksum) =>
	new S3Error("BadDigest", `The ${checksum.name} you specified did not match the calculated checksum.`);

/** A body's check against its flexible checksum, which keeps the digest once it held. */
export interface ChecksumCheck extends BodyCheck {
	/** The body's digest, base64, once the check held; undefined before. */
	digest(): string | undefined;
}

/**
 * The check of a body against `checksum`'s algorithm: the digest of every byte is compared, at
 * the end, with `expected()`.
 * @param expected the base64 digest the client sent, asked for only at the end, so a trailer the
 * framing read is known by then; it may throw an S3Error (a missing or malformed trailer), which
 * refuses the body as a mismatch does (BadDigest). Absent, the digest is only computed (a part
 * of an upload with a checksum, sent without one: S3 computes it).
 */
export function checksumCheck(checksum: FlexibleChecksum, expected?: () => string): ChecksumCheck {
	const hasher = hasherOf(checksum);
	let digest: string | undefined;
	return {
		update: (bytes) => hasher.update(bytes),
		async verdict() {
			const actual = toBase64(await hasher.digest());
			try {
				if (expected !== undefined && actual !== expected()) return checksumMismatch(checksum);
			} catch (error) {
				return error instanceof S3Error ? error : checksumMismatch(checksum);
			}
			digest = actual;
			return undefined;
		},
		digest: () => digest,
	};
}

/**
 * `source`, `length` bytes, on its way to the binding with its checksum of `algorithm` computed
 * as it passes, in the body loop (`body-pump.ts`): bytes no client sent that checksum of, which
 * S3 gives one (a copy, a part of an upload with a checksum).
 * @returns the stream to hand to the binding, of `length` bytes, and the check whose `digest()`
 * is the checksum (base64) once the stream ended whole.
 */
export function checksummedStream(
	source: ReadableStream<Uint8Array>,
	length: number,
	algorithm: FlexibleChecksum,
): { stream: ReadableStream<Uint8Array>; checksum: ChecksumCheck } {
	const checksum = checksumCheck(algorithm);
	return { stream: pumpBody(source, length, undefined, [checksum]).stream, checksum };
}
