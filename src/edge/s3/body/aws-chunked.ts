/**
 * The decoding of an `aws-chunked` request body, as a stream: frames in, the object's bytes out
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html and
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming-trailers.html).
 *
 * A body is a run of chunks, `<size in hex>[;chunk-signature=<sig>]\r\n<size bytes>\r\n`, ended by
 * a chunk of size 0, then the trailing headers (`name:value\r\n` each; with a signed payload,
 * `x-amz-trailer-signature:<sig>\r\n` last) and an empty line. Three payloads:
 * - `STREAMING-AWS4-HMAC-SHA256-PAYLOAD`: every chunk signed, each signature chained from the
 *   previous one (the seed: the request's own signature); no trailer.
 * - `STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER`: the same, and a trailer signed after the last chunk.
 * - `STREAMING-UNSIGNED-PAYLOAD-TRAILER`: no signatures; the trailer carries the body's checksum,
 *   which is what guards it (what the AWS SDKs and the aws CLI send by default).
 *
 * The decoder is the framing of `body-pump.ts`: it is handed the wire body block by block and
 * decodes each in place, its data moved to the block's front, never gathered into whole chunks. Work is linear in
 * the body; memory is one frame line: a chunk's SHA-256 is a hasher fed as its data pass.
 * The pump holds the last piece back until the decoder has ended, so a body refused at its end
 * (a wrong signature, a missing trailer) never reaches the binding whole.
 *
 * Errors (edgezone's choice of S3 codes where S3's documentation names none for the case): a
 * wrong chunk or trailer signature 403 SignatureDoesNotMatch; a frame that does not parse 400
 * InvalidRequest naming what is wrong; data longer or shorter than `x-amz-decoded-content-length`
 * 400 IncompleteBody; a trailer that does not parse, or names a header not declared in
 * `x-amz-trailer`, 400 MalformedTrailerError.
 */
import { toHex } from "../../../common/encoding";
import {
	type ChainedAlgorithm,
	type ChainedSigner,
	chainedSigner,
	EMPTY_SHA256,
	type SignatureSeed,
	sha256Hex,
} from "../auth/sigv4";
import { digestHasher, type Hasher } from "../checksums/checksums";
import { S3Error } from "../errors";
import type { BodyFraming } from "./body-pump";

/** How the chunks of a body are signed: with the caller's secret, chained from the seed. */
interface ChunkSigning {
	secret: string;
	seed: SignatureSeed;
}

/** What a decoder expects of a body. */
export interface AwsChunkedOptions {
	/** `x-amz-decoded-content-length`: the bytes the chunks carry in all. */
	decodedLength: number;
	/** For a signed payload, how its chunks and trailer are signed; undefined for an unsigned one. */
	signing?: ChunkSigning;
	/** The trailing headers `x-amz-trailer` declares, lower case; empty for a body without a trailer. */
	trailer: readonly string[];
}

/** A decoder of one body. */
export interface AwsChunkedDecoder extends BodyFraming {
	/** The trailing headers read, by lower-case name; complete once `end()` has returned. */
	trailers: ReadonlyMap<string, string>;
}

/** The longest frame line taken (a signed chunk's is 87 bytes), and the most trailer bytes. */
const MAX_LINE = 256;
const MAX_TRAILER = 4096;

const SIGNED_HEADER = /^([0-9a-fA-F]{1,16});chunk-signature=([0-9a-f]{64})$/;
const UNSIGNED_HEADER = /^([0-9a-fA-F]{1,16})$/;
const TRAILER_LINE = /^([A-Za-z0-9-]+):(.*)$/;
const TRAILER_SIGNATURE = "x-amz-trailer-signature";
const decoder = new TextDecoder();

const CR = 13;
const LF = 10;

const malformed = (why: string) => new S3Error("InvalidRequest", `The aws-chunked body is malformed: ${why}.`);
const badSignature = () =>
	new S3Error("SignatureDoesNotMatch", "The chunk signature we calculated does not match the signature you provided.");
const malformedTrailer = (why: string) =>
	new S3Error("MalformedTrailerError", `The request contained trailing data that was not well-formed: ${why}.`);

/**
 * A decoder of an aws-chunked body: `decode` takes the wire body's blocks in order and moves the
 * decoded bytes in each to its front, exactly `decodedLength` of them in all; `end` is called when the wire body ends.
 * Both throw an S3Error (see the module comment) on a malformed frame, a wrong signature, or a
 * length other than `decodedLength`.
 */
export function awsChunkedDecoder(options: AwsChunkedOptions): AwsChunkedDecoder {
	const { signing, decodedLength } = options;
	const trailers = new Map<string, string>();
	/** `size`: reading a chunk's header line; `data`: its bytes; `crlf`: the CRLF after them; `trailer`: trailing lines; `done`. */
	let state: "size" | "data" | "crlf" | "trailer" | "done" = "size";
	let line: number[] = [];
	let trailerBytes = 0;
	let remaining = 0;
	let decoded = 0;
	let crlfSeen = 0;
	let previous = signing?.seed.signature ?? "";
	let claimed = "";
	let digest: Hasher | undefined;
	let signer: ChainedSigner | undefined;

	/** The signature of `algorithm` over `hashes`, chained from the previous one. */
	function sign(chunking: ChunkSigning, algorithm: ChainedAlgorithm, hashes: string[]): string {
		signer ??= chainedSigner(chunking.secret, chunking.seed);
		return signer(algorithm, previous, hashes);
	}

	/** Checks the signature of a chunk whose data hashed to `dataHash`. */
	function checkChunk(dataHash: string): void {
		if (signing === undefined) return;
		const expected = sign(signing, "AWS4-HMAC-SHA256-PAYLOAD", [EMPTY_SHA256, dataHash]);
		if (expected !== claimed) throw badSignature();
		previous = expected;
	}

	/** Reads a chunk's header line; on the last chunk (size 0), checks its signature. */
	function onSizeLine(text: string): void {
		const match = (signing === undefined ? UNSIGNED_HEADER : SIGNED_HEADER).exec(text);
		if (match === null) {
			throw malformed(
				`expected a chunk header (${signing === undefined ? "<hex size>" : "<hex size>;chunk-signature=<64 hex>"}), got ${JSON.stringify(text.slice(0, 100))}`,
			);
		}
		const size = Number.parseInt(match[1] ?? "", 16);
		claimed = match[2] ?? "";
		if (decoded + size > decodedLength) {
			throw new S3Error(
				"IncompleteBody",
				`The chunks carry more than x-amz-decoded-content-length, ${decodedLength} bytes.`,
			);
		}
		if (size === 0) {
			checkChunk(EMPTY_SHA256);
			state = "trailer";
			return;
		}
		remaining = size;
		state = "data";
		if (signing !== undefined) {
			digest = digestHasher("SHA-256");
		}
	}

	/** Reads one trailing line; the empty line ends the body. */
	function onTrailerLine(text: string): void {
		if (text === "") {
			for (const name of options.trailer) {
				if (!trailers.has(name)) throw malformedTrailer(`the trailer declares ${name}, which the body does not carry`);
			}
			if (signing !== undefined && options.trailer.length > 0 && !trailers.has(TRAILER_SIGNATURE)) {
				throw malformedTrailer(`a signed payload's trailer must end with ${TRAILER_SIGNATURE}`);
			}
			state = "done";
			return;
		}
		const match = TRAILER_LINE.exec(text);
		if (match === null) throw malformedTrailer(`expected name:value, got ${JSON.stringify(text.slice(0, 100))}`);
		const name = (match[1] ?? "").toLowerCase();
		const value = (match[2] ?? "").trim();
		if (name === TRAILER_SIGNATURE && signing !== undefined) {
			const canonical = options.trailer.map((declared) => `${declared}:${trailers.get(declared) ?? ""}\n`).join("");
			const hash = sha256Hex(canonical);
			const expected = sign(signing, "AWS4-HMAC-SHA256-TRAILER", [hash]);
			if (expected !== value) throw badSignature();
		} else if (!options.trailer.includes(name) || trailers.has(name)) {
			throw malformedTrailer(`${name} is not declared in x-amz-trailer, or comes twice`);
		}
		trailers.set(name, value);
	}

	async function decode(chunk: Uint8Array): Promise<number> {
		let at = 0;
		let out = 0;
		while (at < chunk.byteLength) {
			if (state === "data") {
				const take = Math.min(remaining, chunk.byteLength - at);
				digest?.update(chunk.subarray(at, at + take));
				// In place: the data never lies before what was decoded ahead of it.
				chunk.copyWithin(out, at, at + take);
				out += take;
				at += take;
				remaining -= take;
				decoded += take;
				if (remaining === 0) {
					if (digest !== undefined) checkChunk(toHex(await digest.digest()));
					state = "crlf";
					crlfSeen = 0;
				}
			} else if (state === "crlf") {
				const byte = chunk[at++];
				if (byte !== (crlfSeen === 0 ? CR : LF)) throw malformed("a chunk's data must be followed by CRLF");
				crlfSeen += 1;
				if (crlfSeen === 2) state = "size";
			} else if (state === "done") {
				throw malformed("bytes follow the end of the body");
			} else {
				const byte = chunk[at++] ?? 0;
				if (state === "trailer" && ++trailerBytes > MAX_TRAILER)
					throw malformedTrailer(`it is over ${MAX_TRAILER} bytes`);
				if (byte === LF && line.at(-1) === CR) {
					const text = decoder.decode(new Uint8Array(line.slice(0, -1)));
					line = [];
					if (state === "size") onSizeLine(text);
					else onTrailerLine(text);
				} else {
					if (line.length >= MAX_LINE) {
						if (state === "trailer") throw malformedTrailer(`a line is over ${MAX_LINE} bytes`);
						throw malformed(`a chunk header is over ${MAX_LINE} bytes`);
					}
					line.push(byte);
				}
			}
		}
		return out;
	}

	function end(): void {
		if (state === "done" && decoded === decodedLength) return;
		throw decoded < decodedLength
			? new S3Error(
					"IncompleteBody",
					`The chunks carry ${decoded} bytes; x-amz-decoded-content-length says ${decodedLength}.`,
				)
			: malformed("the body ends before its last chunk and trailer");
	}

	return { decode, end, trailers };
}
