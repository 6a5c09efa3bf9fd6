/**
 * The one loop an object-carrying S3 request body runs through on its way to the binding: the
 * wire bytes read in blocks, decoded by the body's framing (aws-chunked, or none), every byte of
 * the object fed to the body's checks (the signed payload hash, a flexible checksum, Content-MD5),
 * and written to the stream the binding's `put` or `uploadPart` reads.
 *
 * One loop, not a TransformStream per stage, because of what a 1 GiB PutObject measured under
 * `wrangler dev` (BENCHMARKS.md, "One loop for the S3 request body"): a JavaScript
 * TransformStream piped into a FixedLengthStream doubled workerd's memory growth and the upload's
 * time against the plain body handed to `put`, while a loop that awaits each write moves at the
 * binding's pace. Reading blocks of `BLOCK_BYTES` with a BYOB reader, instead of the 4 KiB chunks
 * a request body arrives in, brings its time back to the plain body's, and reading them into the
 * same few buffers in turn keeps its memory near the plain body's. What workerd and Miniflare's
 * R2 simulator hold grows with the number of writes more than with their size: blocks of 1 MiB
 * grew one PutObject of 1 GiB by some 15 MiB less than blocks of 256 KiB, and 64 KiB by some
 * 30 MiB more (BENCHMARKS.md, "Blocks of 1 MiB, and a native tee").
 *
 * The last block is held back until the framing has ended and every check holds, so a body
 * refused at its end never reaches the binding whole: `put` sees its stream fail and stores
 * nothing. Memory is two blocks per request (the one just read, and the one held or being
 * written), whatever the body's size, and at most `MAX_IDLE_BLOCKS` kept idle between requests;
 * a body shorter than a block is read in blocks of its own size.
 */
import { S3Error } from "../errors";

/** A check of the object's bytes, fed every byte in order and asked once at the end. */
export interface BodyCheck {
	/** Feeds the next bytes of the body, synchronously: the loop does not wait on a check. */
	update(bytes: Uint8Array): void;
	/** After the last byte (and after the framing ended): the S3Error refusing the body, or undefined. */
	verdict(): Promise<S3Error | undefined>;
}

/** How the wire body frames the object's bytes (aws-chunked); absent when the body is the bytes. */
export interface BodyFraming {
	/**
	 * Decodes the next block of the wire body in place: the object's bytes in it are moved to its
	 * front, in order.
	 * @returns how many bytes of the object the block held.
	 * @throws S3Error for a body the framing refuses.
	 */
	decode(block: Uint8Array): Promise<number>;
	/** The wire body has ended. @throws S3Error when it ended before the framing did. */
	end(): void;
}

/** A body on its way to the binding. */
export interface PumpedBody {
	/** What the binding reads: of `length` bytes when that is known (a FixedLengthStream). */
	stream: ReadableStream<Uint8Array>;
	/** The S3Error that refused the body (the framing's or a check's); undefined while it holds. */
	failure(): S3Error | undefined;
}

/** The wire body is read in blocks of this many bytes (the last may be shorter). */
const BLOCK_BYTES = 1024 * 1024;

/** The least block, for a short body: an aws-chunked body's framing makes its wire longer than its length. */
const MIN_BLOCK_BYTES = 16 * 1024;

/** The most full blocks kept idle between bodies: 8 MiB per isolate at most, held for the next uploads. */
const MAX_IDLE_BLOCKS = 8;

/**
 * Full blocks that finished bodies gave back, for the next body in this isolate to read into.
 * A multipart upload is a request per part: with two new 1 MiB buffers per part, `aws s3 cp`'s
 * 1 GiB upload left 256 MiB of ArrayBuffers to the garbage collector, which V8 let pile up to
 * some 60 MiB before each collection while the gateway's upload held 1 MiB (BENCHMARKS.md,
 * "Blocks kept between parts"). A block is only ever read into before it is read from, and only
 * the bytes a read delivered are handed on, so nothing of one body shows in another's.
 */
const idleBlocks: ArrayBuffer[] = [];

/** A buffer of `bytes` for the next block: an idle one when it is a full block and one is idle. */
function takeBlock(bytes: number): ArrayBuffer {
	return (bytes === BLOCK_BYTES ? idleBlocks.pop() : undefined) ?? new ArrayBuffer(bytes);
}

/**
 * Gives a block's buffer back once nothing of this body reads it again. A buffer a failed read
 * took (and detached) has no bytes left, and is not kept.
 */
function giveBack(buffer: ArrayBufferLike): void {
	if (buffer.byteLength === BLOCK_BYTES && idleBlocks.length < MAX_IDLE_BLOCKS) {
		idleBlocks.push(buffer as ArrayBuffer);
	}
}

/**
 * Pumps `source`, a byte stream, through `framing` and `checks` into the stream it returns.
 * @param length the object's length in bytes, when known: the stream returned is then of that
 * length, as `R2Bucket.put` needs of a stream.
 * @returns the stream to hand to the binding; it fails (and `failure()` says why, when the body
 * was refused) on a framing error, a check that does not hold, or a source that fails.
 */
export function pumpBody(
	source: ReadableStream<Uint8Array>,
	length: number | undefined,
	framing: BodyFraming | undefined,
	checks: readonly BodyCheck[],
): PumpedBody {
	const sink: { readable: ReadableStream<Uint8Array>; writable: WritableStream<ArrayBufferView> } =
		length === undefined ? new IdentityTransformStream() : new FixedLengthStream(length);
	const writer = sink.writable.getWriter();
	const reader = source.getReader({ mode: "byob" });
	const blockBytes = Math.min(BLOCK_BYTES, Math.max(length ?? BLOCK_BYTES, MIN_BLOCK_BYTES));
	// Blocks are read into the same few buffers in turn, not a new one each time: with a new
	// 256 KiB buffer per block, the garbage of a 1 GiB body grew workerd by some 300 MiB before it
	// was collected. A buffer is taken again once its block has been written, and the sink (an
	// identity stream: https://github.com/cloudflare/workerd, src/workerd/api/streams/identity-transform-stream.c++)
	// settles a write once it has copied the bytes out. Each block is written whole, in one write,
	// its framing decoded in place: the binding's reader then gets large pieces, and Miniflare's
	// R2 simulator, reading them in JavaScript, makes less garbage of its own.
	let held: Uint8Array | undefined;
	let failure: S3Error | undefined;

	/** The next block of the wire body, undefined at its end. */
	const readBlock = async (): Promise<Uint8Array | undefined> => {
		for (;;) {
			// workerd's readAtLeast: a block fills before it is handed on, unless the body ends.
			const { done, value } = await reader.readAtLeast(blockBytes, new Uint8Array(takeBlock(blockBytes)));
			if (value !== undefined && value.byteLength > 0) return value;
			// An empty read hands back the buffer it was given (a view of none of its bytes).
			if (value !== undefined) giveBack(value.buffer);
			if (done) return undefined;
		}
	};

	/** Writes the held block to the sink, then gives its buffer back: the sink copied its bytes. */
	const writeHeld = async (): Promise<void> => {
		const block = held;
		if (block === undefined) return;
		held = undefined;
		await writer.write(block);
		giveBack(block.buffer);
	};

	const pump = async (): Promise<void> => {
		for (let block = await readBlock(); block !== undefined; block = await readBlock()) {
			const data = framing === undefined ? block : block.subarray(0, await framing.decode(block));
			if (data.byteLength === 0) {
				giveBack(block.buffer);
				continue;
			}
			for (const check of checks) check.update(data);
			await writeHeld();
			held = data;
		}
		framing?.end();
		for (const check of checks) {
			const refused = await check.verdict();
			if (refused !== undefined) throw refused;
		}
		await writeHeld();
		await writer.close();
	};

	pump().catch(async (error: unknown) => {
		if (error instanceof S3Error) failure = error;
		// The held block was never written: its buffer is this body's alone.
		if (held !== undefined) giveBack(held.buffer);
		held = undefined;
		// The binding sees the stream fail; the rest of the wire body is not read.
		await Promise.allSettled([writer.abort(error), reader.cancel(error)]);
	});
	return { stream: sink.readable, failure: () => failure };
}
