// Deterministic pseudo-random bytes: the AES-128-CTR keystream of a key derived from a seed.
// Fast (the cipher runs in OpenSSL), reproducible on any Node, and as incompressible as real
// random data, which is what the fixtures and the benchmark need.
import { createCipheriv, createHash } from "node:crypto";

const CHUNK = 1 << 20;

/** A generator of `size` bytes for `seed`, in chunks of at most `chunkSize` bytes. */
export function* prngChunks(seed, size, chunkSize = CHUNK) {
	const key = createHash("sha256").update(`edgezone-prng:${seed}`).digest();
	const cipher = createCipheriv("aes-128-ctr", key.subarray(0, 16), key.subarray(16, 32));
	const zeros = Buffer.alloc(chunkSize);
	for (let left = size; left > 0; left -= chunkSize) {
		yield cipher.update(left >= chunkSize ? zeros : zeros.subarray(0, left));
	}
}

/** The same bytes as one Buffer; for small sizes only. */
export function prngBytes(seed, size) {
	return Buffer.concat([...prngChunks(seed, size)]);
}

/**
 * The same bytes as a web ReadableStream (a request body that is never held whole in memory).
 * `onChunk` sees each chunk as it is handed to the stream, e.g. to hash what was sent.
 */
export function prngStream(seed, size, { chunkSize = CHUNK, onChunk } = {}) {
	const chunks = prngChunks(seed, size, chunkSize);
	return new ReadableStream({
		pull(controller) {
			const next = chunks.next();
			if (next.done) return controller.close();
			onChunk?.(next.value);
			controller.enqueue(next.value);
		},
	});
}
