/**
 * A request body checked against the SHA-256 its signature covers (`x-amz-content-sha256`), as
 * it streams: the body goes on to the binding chunk by chunk while a DigestStream (workerd's
 * `crypto.DigestStream`) hashes it, and the last chunk is held back until the digest is known.
 * A body that does not match ends with an error instead of its last chunk, so the binding never
 * receives a whole body and stores nothing; the caller then answers S3's
 * `XAmzContentSHA256Mismatch` (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
 * Memory stays one chunk, whatever the body's size.
 */
import { toHex } from "../../common/encoding";
import { S3Error } from "./errors";

/** A body being checked: the stream to store, and whether it turned out not to match. */
export interface CheckedBody {
	body: ReadableStream<Uint8Array>;
	/** True once the whole body was read and its SHA-256 is not the signed one. */
	mismatched(): boolean;
}

/**
 * Checks `body` against `expectedHex` as it streams. The result has no length of its own: a
 * caller storing it gives it one (`body.ts`).
 */
export function checkedBody(body: ReadableStream<Uint8Array>, expectedHex: string): CheckedBody {
	const digest = new crypto.DigestStream("SHA-256");
	const writer = digest.getWriter();
	let held: Uint8Array | undefined;
	let mismatch = false;
	const check = new TransformStream<Uint8Array, Uint8Array>({
		async transform(chunk, controller) {
			await writer.write(chunk);
			if (held !== undefined) controller.enqueue(held);
			held = chunk;
		},
		async flush(controller) {
			await writer.close();
			if (toHex(new Uint8Array(await digest.digest)) !== expectedHex) {
				mismatch = true;
				controller.error(new Error("the body does not match x-amz-content-sha256"));
				return;
			}
			if (held !== undefined) controller.enqueue(held);
		},
	});
	return { body: body.pipeThrough(check), mismatched: () => mismatch };
}

/**
 * A small body read whole (an XML document of a request), checked against the signed payload
 * hash when there is one.
 * @param limit the most bytes taken; a longer body is refused before it is all read.
 * @throws S3Error 400 XAmzContentSHA256Mismatch; 400 MalformedXML past `limit`.
 */
export async function checkedBytes(request: Request, payloadHash: string, limit: number): Promise<Uint8Array> {
	const chunks: Uint8Array[] = [];
	let length = 0;
	if (request.body !== null) {
		for await (const chunk of request.body) {
			length += chunk.byteLength;
			if (length > limit) throw new S3Error("MalformedXML", `The request's document is over ${limit} bytes.`);
			chunks.push(chunk);
		}
	}
	const bytes = new Uint8Array(length);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	if (/^[0-9a-f]{64}$/.test(payloadHash)) {
		const actual = toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
		if (actual !== payloadHash) throw new S3Error("XAmzContentSHA256Mismatch");
	}
	return bytes;
}
