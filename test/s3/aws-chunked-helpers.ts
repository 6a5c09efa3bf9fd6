/**
 * aws-chunked request bodies built as an S3 client builds them, from the published algorithm
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming-trailers.html): the request's
 * headers signed by aws4fetch (the seed signature), each chunk's signature chained from it
 * here with WebCrypto, independently of the code under test (aws-chunked.test.ts checks this
 * helper against AWS's published example). No library signs aws-chunked chunks: aws4fetch does
 * not, and `@smithy/signature-v4` signs event-stream messages, not chunks.
 */
import { exports } from "cloudflare:workers";
import { toHex } from "../../src/common/encoding";
import { clientOf, ORIGIN } from "./helpers";

const encoder = new TextEncoder();
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
	return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

async function hmac(key: Uint8Array<ArrayBuffer>, data: string): Promise<Uint8Array<ArrayBuffer>> {
	const imported = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
	return new Uint8Array(await crypto.subtle.sign("HMAC", imported, encoder.encode(data)));
}

/** The chain of a streaming upload's signatures: the signing key and scope, and the latest signature. */
export class ChunkSigner {
	private constructor(
		private readonly key: Uint8Array<ArrayBuffer>,
		private readonly amzDate: string,
		private readonly scope: string,
		public previous: string,
	) {}

	/** A chain from `seed`, for `secret` at `amzDate` (`YYYYMMDDTHHMMSSZ`) in `region`. */
	static async of(secret: string, amzDate: string, region: string, seed: string): Promise<ChunkSigner> {
		const date = amzDate.slice(0, 8);
		let key = await hmac(new Uint8Array(encoder.encode(`AWS4${secret}`)), date);
		for (const part of [region, "s3", "aws4_request"]) key = await hmac(key, part);
		return new ChunkSigner(key, amzDate, `${date}/${region}/s3/aws4_request`, seed);
	}

	private async sign(algorithm: string, hashes: string[]): Promise<string> {
		const text = [algorithm, this.amzDate, this.scope, this.previous, ...hashes].join("\n");
		this.previous = toHex(await hmac(this.key, text));
		return this.previous;
	}

	/** The next chunk's signature. */
	chunk(data: Uint8Array<ArrayBuffer>): Promise<string> {
		return sha256Hex(data).then((hash) => this.sign("AWS4-HMAC-SHA256-PAYLOAD", [EMPTY_SHA256, hash]));
	}

	/** The trailer's signature, over its `name:value\n` lines. */
	async trailer(lines: string): Promise<string> {
		return this.sign("AWS4-HMAC-SHA256-TRAILER", [await sha256Hex(new Uint8Array(encoder.encode(lines)))]);
	}
}

/** The three payloads of an aws-chunked body. */
type StreamingPayload =
	| "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"
	| "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER"
	| "STREAMING-UNSIGNED-PAYLOAD-TRAILER";

/** What a chunked PUT sends, and how a test spoils it. */
export interface ChunkedPut {
	payload: StreamingPayload;
	/** The object's bytes, cut into chunks of `chunkSize` (64 KiB unless told; the last may be shorter). */
	data: Uint8Array<ArrayBuffer>;
	chunkSize?: number;
	/** A trailing checksum: its header name and base64 value. */
	trailer?: { name: string; value: string };
	/** Further request headers (signed). */
	headers?: Record<string, string>;
	/** x-amz-decoded-content-length, when not `data`'s length. */
	decodedLength?: number;
	/** Spoils the framed body after it was signed. */
	spoil?: (frames: Uint8Array[]) => Uint8Array[];
	/** Replaces the signature of chunk `index` (or of the trailer, index -1) with another. */
	wrongSignature?: number;
}

const concat = (parts: Uint8Array[]): Uint8Array<ArrayBuffer> => {
	const out = new Uint8Array(parts.reduce((n, part) => n + part.byteLength, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.byteLength;
	}
	return out;
};

const WRONG = "0".repeat(64);

/**
 * PUTs `options.data` to `path` as an aws-chunked body, through the Worker's front door.
 * @returns the answer.
 */
export async function chunkedPut(path: string, options: ChunkedPut): Promise<Response> {
	const { payload, data } = options;
	const chunkSize = options.chunkSize ?? 64 * 1024;
	const signed = payload !== "STREAMING-UNSIGNED-PAYLOAD-TRAILER";
	const headers: Record<string, string> = {
		"x-amz-content-sha256": payload,
		"content-encoding": "aws-chunked",
		"x-amz-decoded-content-length": String(options.decodedLength ?? data.byteLength),
		...options.headers,
	};
	if (options.trailer !== undefined) headers["x-amz-trailer"] = options.trailer.name;
	const client = await clientOf();
	const request = await client.sign(`${ORIGIN}${path}`, { method: "PUT", headers });
	const authorization = request.headers.get("authorization") ?? "";
	const seed = /Signature=([0-9a-f]{64})/.exec(authorization)?.[1] ?? "";
	const signer = await ChunkSigner.of(client.secretAccessKey, request.headers.get("x-amz-date") ?? "", "auto", seed);

	const frames: Uint8Array[] = [];
	const chunks: Uint8Array<ArrayBuffer>[] = [];
	for (let at = 0; at < data.byteLength; at += chunkSize) chunks.push(data.slice(at, at + chunkSize));
	chunks.push(new Uint8Array(0));
	for (const [index, chunk] of chunks.entries()) {
		let header = chunk.byteLength.toString(16);
		if (signed) {
			const signature = await signer.chunk(chunk);
			header += `;chunk-signature=${options.wrongSignature === index ? WRONG : signature}`;
		}
		frames.push(encoder.encode(`${header}\r\n`));
		if (chunk.byteLength > 0) frames.push(chunk, encoder.encode("\r\n"));
	}
	let tail = "";
	if (options.trailer !== undefined) {
		const line = `${options.trailer.name}:${options.trailer.value}\n`;
		tail += line.replace("\n", "\r\n");
		if (signed) {
			const signature = await signer.trailer(line);
			tail += `x-amz-trailer-signature:${options.wrongSignature === -1 ? WRONG : signature}\r\n`;
		}
	}
	frames.push(encoder.encode(`${tail}\r\n`));
	const body = concat(options.spoil?.(frames) ?? frames);
	return exports.default.fetch(new Request(request.url, { method: "PUT", headers: request.headers, body }));
}

/** `count` bytes of a repeating, position-dependent pattern, so a moved or changed byte shows. */
export function patterned(count: number): Uint8Array<ArrayBuffer> {
	const bytes = new Uint8Array(count);
	for (let i = 0; i < count; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
	return bytes;
}
