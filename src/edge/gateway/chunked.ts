/**
 * PUT of a body without Content-Length (chunked), which `R2Bucket.put` cannot take: it needs a
 * stream of known length (workerd `src/workerd/api/r2-rpc.c++`,
 * `doR2HTTPPutRequest`).
 *
 * The body is read into one reusable part-sized buffer, so memory stays bounded by one part
 * whatever the object's size:
 * - a body that ends within the first part is stored with one `put()`, exactly as a PUT with
 *   Content-Length would be (same etag, stored checksums);
 * - a longer one becomes a multipart upload of PART_SIZE parts (all equal but the last, as R2
 *   requires). Its etag is multipart-style, `{md5 of the parts' md5s}-{parts}`, and R2 stores no
 *   checksums for it. Requested checksums are computed while streaming and compared before
 *   `complete()`; on a mismatch, or any failure, the upload is aborted and nothing is stored.
 */

import { toHex } from "../../common/encoding";
import type { RequestedChecksum } from "../../wire/checksums";
import { digestHasher } from "../s3/checksums/checksums";
import { digestMismatch, type GatewayError } from "./errors";
import { withChecksums } from "./headers";

/** Bytes per part of a chunked upload: above R2's 5 MiB minimum, small enough to hold in memory. */
export const PART_SIZE = 8 * 1024 * 1024;

/**
 * Fills `buffer` from `reader`; returns the bytes written and whether the stream ended. A full
 * buffer reads one chunk ahead (kept in `pending`), so a body that ends exactly at a part's end
 * is known to have ended.
 */
async function fill(
	reader: ReadableStreamDefaultReader<Uint8Array>,
	buffer: Uint8Array,
	pending: { chunk?: Uint8Array },
): Promise<{ filled: number; done: boolean }> {
	let filled = 0;
	while (filled < buffer.byteLength) {
		let chunk = pending.chunk;
		pending.chunk = undefined;
		if (chunk === undefined) {
			const read = await reader.read();
			if (read.done) return { filled, done: true };
			chunk = read.value;
		}
		const take = Math.min(chunk.byteLength, buffer.byteLength - filled);
		buffer.set(chunk.subarray(0, take), filled);
		filled += take;
		if (take < chunk.byteLength) pending.chunk = chunk.subarray(take);
	}
	while (pending.chunk === undefined) {
		const read = await reader.read();
		if (read.done) return { filled, done: true };
		if (read.value.byteLength > 0) pending.chunk = read.value;
	}
	return { filled, done: false };
}

/**
 * Running digests of the requested checksums, on `node:crypto` (`digestHasher`): a synchronous
 * update per part, where a `crypto.DigestStream` write costs memory that waits for the garbage
 * collector (BENCHMARKS.md, "Hashing off `crypto.DigestStream`").
 */
function digesters(checksums: RequestedChecksum[]) {
	const hashers = checksums.map((checksum) => ({ checksum, hasher: digestHasher(checksum.algorithm) }));
	return {
		update(bytes: Uint8Array): void {
			for (const { hasher } of hashers) hasher.update(bytes);
		},
		/** The first checksum that does not match what was received, as a 400 (10037). */
		async mismatch(): Promise<GatewayError | undefined> {
			for (const { checksum, hasher } of hashers) {
				const actual = toHex(await hasher.digest());
				const expected = toHex(checksum.digest);
				if (actual !== expected) return digestMismatch(checksum.label, expected, actual);
			}
			return undefined;
		},
	};
}

/**
 * Stores a stream of unknown length under `key`.
 *
 * @param options httpMetadata, customMetadata, storageClass and ssecKey of the object (no `onlyIf`:
 * completing a multipart upload cannot be conditional, so callers refuse conditional chunked PUTs).
 * @param checksums digests the client sent (at most one algorithm); verified by R2 on a single
 * put, by this function on a multipart upload.
 * @returns the stored object (null is never returned without `onlyIf`, but `put` is typed so).
 * @throws GatewayError 400 (10037) on a checksum mismatch; binding errors as thrown by R2.
 */
export async function putChunked(
	bucket: R2Bucket,
	key: string,
	body: ReadableStream<Uint8Array>,
	options: R2MultipartOptions,
	checksums: RequestedChecksum[],
): Promise<R2Object | null> {
	const reader = body.getReader();
	const pending: { chunk?: Uint8Array } = {};
	const buffer = new Uint8Array(PART_SIZE);
	const first = await fill(reader, buffer, pending);
	if (first.done) {
		return bucket.put(key, buffer.subarray(0, first.filled), withChecksums({ ...options }, checksums));
	}

	const upload = await bucket.createMultipartUpload(key, options);
	// Each part of an upload with an SSE-C key carries it again (R2UploadPartOptions).
	const partOptions = options.ssecKey === undefined ? undefined : { ssecKey: options.ssecKey };
	try {
		const digest = digesters(checksums);
		const parts: R2UploadedPart[] = [];
		let step = first;
		while (step.filled > 0) {
			const bytes = buffer.subarray(0, step.filled);
			digest.update(bytes);
			parts.push(await upload.uploadPart(parts.length + 1, bytes, partOptions));
			if (step.done) break;
			step = await fill(reader, buffer, pending);
		}
		const mismatch = await digest.mismatch();
		if (mismatch) throw mismatch;
		return await upload.complete(parts);
	} catch (error) {
		await upload.abort().catch(() => undefined);
		await reader.cancel().catch(() => undefined);
		throw error;
	}
}
