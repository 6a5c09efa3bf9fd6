/**
 * S3's flexible checksums of a request body: CRC32, CRC32C, CRC64NVME, SHA1 and SHA256, sent
 * base64 in an `x-amz-checksum-<alg>` header or in a trailer of an aws-chunked body, named by
 * `x-amz-sdk-checksum-algorithm` (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html;
 * R2 takes the same five: https://developers.cloudflare.com/r2/api/s3/api/).
 *
 * A body is hashed as it streams (`verifiedStream`): the CRCs with the AWS SDK for JavaScript's
 * own pure-JS implementations (`@aws-sdk/checksums/crc`: workerd has no native CRC without
 * nodejs_compat), so a value a client computed is matched bit for bit; SHA1 and SHA256 with
 * workerd's `crypto.DigestStream`.
 * The last piece of the body is held back until the digest is compared, so a body that does not
 * match ends with an error instead: whatever reads it (the binding's `put`) never receives the
 * whole body and stores nothing. Memory stays one piece whatever the body's size.
 */
import { Crc32, Crc32cJs, Crc64NvmeJs } from "@aws-sdk/checksums/crc";
import { fromBase64, toBase64 } from "../../common/encoding";
import { S3Error } from "./errors";

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

/** A running digest. */
interface Hasher {
	update(bytes: Uint8Array): Promise<void>;
	digest(): Promise<Uint8Array>;
}

/** A hasher of `checksum`'s algorithm. */
function hasherOf(checksum: FlexibleChecksum): Hasher {
	if (checksum.name === "SHA1" || checksum.name === "SHA256") {
		const stream = new crypto.DigestStream(checksum.name === "SHA1" ? "SHA-1" : "SHA-256");
		const writer = stream.getWriter();
		return {
			update: (bytes) => writer.write(bytes),
			digest: async () => {
				await writer.close();
				return new Uint8Array(await stream.digest);
			},
		};
	}
	const crc = checksum.name === "CRC32" ? new Crc32() : checksum.name === "CRC32C" ? new Crc32cJs() : new Crc64NvmeJs();
	return {
		update: async (bytes) => crc.update(bytes),
		digest: () => crc.digest(),
	};
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
const checksumMismatch = (checksum: FlexibleChecksum) =>
	new S3Error("BadDigest", `The ${checksum.name} you specified did not match the calculated checksum.`);

/** A body being checked: the stream to read, its digest once read, and why it failed, if it did. */
export interface VerifiedStream {
	stream: ReadableStream<Uint8Array>;
	/** The body's digest, base64, once the stream has ended whole; undefined before. */
	digest(): string | undefined;
	/** The S3Error that ended the stream (BadDigest, or the expected value's own error); undefined while it holds. */
	failure(): S3Error | undefined;
}

/**
 * Hashes `body` with `checksum`'s algorithm as it streams and compares the digest with
 * `expected()` when it ends.
 * @param expected the base64 digest the client sent, asked for only at the end, so a trailer
 * read by the stage before this one is known by then; it may throw an S3Error (a missing or
 * malformed trailer), which fails the stream as a mismatch does.
 */
export function verifiedStream(
	body: ReadableStream<Uint8Array>,
	checksum: FlexibleChecksum,
	expected: () => string,
): VerifiedStream {
	const hasher = hasherOf(checksum);
	let held: Uint8Array | undefined;
	let digest: string | undefined;
	let failure: S3Error | undefined;
	const check = new TransformStream<Uint8Array, Uint8Array>({
		async transform(chunk, controller) {
			await hasher.update(chunk);
			if (held !== undefined) controller.enqueue(held);
			held = chunk;
		},
		async flush(controller) {
			const actual = toBase64(await hasher.digest());
			try {
				if (actual !== expected()) throw checksumMismatch(checksum);
			} catch (error) {
				failure = error instanceof S3Error ? error : checksumMismatch(checksum);
				controller.error(failure);
				return;
			}
			digest = actual;
			if (held !== undefined) controller.enqueue(held);
		},
	});
	return { stream: body.pipeThrough(check), digest: () => digest, failure: () => failure };
}
