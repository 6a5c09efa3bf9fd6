/**
 * The body of a request that carries an object's bytes (PutObject, UploadPart), decoded and
 * verified as it streams, in one place for every operation that takes one:
 * - its framing: an aws-chunked body (`x-amz-content-sha256: STREAMING-…`) is decoded, each
 *   chunk signature checked (`aws-chunked.ts`); a plain body signed with its SHA-256 is checked
 *   against it (`payload.ts`); an `UNSIGNED-PAYLOAD` body is taken as it is;
 * - its flexible checksum, from an `x-amz-checksum-<alg>` header or a trailer that
 *   `x-amz-trailer` declares, computed as the body streams and compared at its end (`checksums.ts`).
 *
 * Every refusal of the body itself comes at its end, as an error of the stream instead of its
 * last bytes: the binding's `put` reading it fails and stores nothing, and `failure()` then says
 * which S3 error to answer. A refusal of the headers comes at once, thrown.
 *
 * The headers S3 reads here (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html): `Content-Encoding`
 * (`aws-chunked` is the framing's, left out of what is stored), `x-amz-decoded-content-length`,
 * `x-amz-trailer`, `x-amz-sdk-checksum-algorithm` and `x-amz-checksum-*`.
 */

import { decodeAwsChunked } from "./aws-chunked";
import {
	checksumOfHeader,
	FLEXIBLE_CHECKSUMS,
	type FlexibleChecksum,
	parseChecksumValue,
	verifiedStream,
} from "./checksums";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { checkedBody } from "./payload";

/** A request's body, decoded and being verified. */
export interface RequestBody {
	/** The object's bytes; null for a request without a body. Read it once. */
	stream: ReadableStream<Uint8Array> | null;
	/** Its length in bytes (a stream of that length, as `R2Bucket.put` needs); undefined when unknown. */
	length: number | undefined;
	/** The request's headers as the object's metadata reads them: Content-Encoding without `aws-chunked`. */
	headers: Headers;
	/** The flexible checksum the client sent (in a header or a trailer), if any. */
	checksum: FlexibleChecksum | undefined;
	/** The checksum's value (base64) once the stream ended whole and matched it; undefined before. */
	checksumValue(): string | undefined;
	/** Why the stream failed (the S3 error to answer); undefined while it holds. */
	failure(): S3Error | undefined;
}

/** The payloads of an aws-chunked body this dialect decodes, and whether their chunks are signed and carry a trailer. */
const STREAMING_PAYLOADS: Record<string, { signed: boolean; trailer: boolean }> = {
	"STREAMING-AWS4-HMAC-SHA256-PAYLOAD": { signed: true, trailer: false },
	"STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER": { signed: true, trailer: true },
	"STREAMING-UNSIGNED-PAYLOAD-TRAILER": { signed: false, trailer: true },
};

const SIGNED_HASH = /^[0-9a-f]{64}$/;

/** The SHA-256 of no bytes: the signed hash of an empty body. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/** A comma-separated header's values, trimmed, lower case, empty ones left out. */
const listOf = (value: string | null) =>
	(value ?? "")
		.split(",")
		.map((part) => part.trim().toLowerCase())
		.filter((part) => part !== "");

/**
 * The flexible checksum a request declares: one `x-amz-checksum-<alg>` header, or one trailer
 * named by `x-amz-trailer`, agreeing with `x-amz-sdk-checksum-algorithm` when that is sent.
 * @throws S3Error 400 InvalidRequest for two checksums, an unknown trailer or algorithm, an
 * algorithm with no checksum, or a malformed value.
 */
function declaredChecksum(headers: Headers): { checksum: FlexibleChecksum; value?: string } | undefined {
	const inHeaders = FLEXIBLE_CHECKSUMS.filter(({ header }) => headers.has(header));
	const trailer = listOf(headers.get("x-amz-trailer"));
	const inTrailer = trailer.map((name) => {
		const checksum = checksumOfHeader(name);
		if (checksum === undefined) {
			throw new S3Error("InvalidRequest", `The value specified in the x-amz-trailer header is not supported: ${name}.`);
		}
		return checksum;
	});
	if (inHeaders.length + inTrailer.length > 1) {
		throw new S3Error(
			"InvalidRequest",
			"Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.",
		);
	}
	const sdk = headers.get("x-amz-sdk-checksum-algorithm");
	const named = sdk === null ? undefined : FLEXIBLE_CHECKSUMS.find(({ name }) => name === sdk.trim().toUpperCase());
	if (sdk !== null && named === undefined) {
		throw new S3Error("InvalidRequest", "Value for x-amz-sdk-checksum-algorithm header is invalid.");
	}
	const header = inHeaders[0];
	if (header !== undefined)
		return { checksum: header, value: parseChecksumValue(header, headers.get(header.header) ?? "") };
	const trailing = inTrailer[0];
	if (trailing !== undefined) return { checksum: trailing };
	if (named !== undefined) {
		throw new S3Error(
			"InvalidRequest",
			"x-amz-sdk-checksum-algorithm specified, but no corresponding x-amz-checksum-* or x-amz-trailer headers were found.",
		);
	}
	return undefined;
}

/** The decimal `x-amz-decoded-content-length` of an aws-chunked body. @throws S3Error 411 MissingContentLength. */
function decodedLengthOf(headers: Headers): number {
	const value = headers.get("x-amz-decoded-content-length");
	if (value === null || !/^\d{1,15}$/.test(value.trim())) {
		throw new S3Error(
			"MissingContentLength",
			"An aws-chunked body must send x-amz-decoded-content-length, in decimal.",
		);
	}
	return Number(value.trim());
}

/** The request's headers with `aws-chunked` left out of Content-Encoding (dropped when nothing else is left). */
function storedHeaders(headers: Headers): Headers {
	const encodings = (headers.get("content-encoding") ?? "").split(",").map((part) => part.trim());
	if (!encodings.some((encoding) => encoding.toLowerCase() === "aws-chunked")) return headers;
	const copy = new Headers(headers);
	const rest = encodings.filter((encoding) => encoding !== "" && encoding.toLowerCase() !== "aws-chunked");
	if (rest.length === 0) copy.delete("content-encoding");
	else copy.set("content-encoding", rest.join(","));
	return copy;
}

/**
 * The decoded, verified body of an object-carrying request.
 * @throws S3Error, at once, for headers that do not describe a body this dialect takes: 400
 * InvalidRequest (checksum headers, `aws-chunked` without a `STREAMING-…` payload, a trailer
 * where the payload has none or none where it must), 411 MissingContentLength, 501 for a
 * streaming payload R2 does not take (`STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD`, SigV4a);
 * 400 XAmzContentSHA256Mismatch for an empty body not the one signed.
 */
export function requestBody(c: Pick<S3Context, "request" | "caller">): RequestBody {
	const { request, caller } = c;
	const { headers } = request;
	const payloadHash = caller.payloadHash;
	const declared = declaredChecksum(headers);
	const chunkedEncoding = listOf(headers.get("content-encoding")).includes("aws-chunked");
	const lengthHeader = headers.get("content-length");
	let length = lengthHeader === null ? undefined : Number(lengthHeader);
	let stream = request.body;
	let trailers: ReadonlyMap<string, string> = new Map();
	let framingFailure = () => undefined as S3Error | undefined;
	const hasTrailer = headers.has("x-amz-trailer");

	if (payloadHash.startsWith("STREAMING-")) {
		const payload = STREAMING_PAYLOADS[payloadHash];
		if (payload === undefined) throw notImplemented(`PutObject with x-amz-content-sha256: ${payloadHash}`);
		if (payload.trailer !== hasTrailer) {
			throw new S3Error(
				"InvalidRequest",
				payload.trailer
					? `${payloadHash} needs the x-amz-trailer header.`
					: `${payloadHash} carries no trailer; send STREAMING-…-TRAILER with x-amz-trailer.`,
			);
		}
		length = decodedLengthOf(headers);
		const decoded = decodeAwsChunked(stream ?? new Blob([]).stream(), {
			decodedLength: length,
			signing: payload.signed ? { secret: caller.key.secret, seed: caller.seed } : undefined,
			trailer: listOf(headers.get("x-amz-trailer")),
		});
		stream = decoded.stream;
		trailers = decoded.trailers;
		framingFailure = decoded.failure;
	} else if (chunkedEncoding || hasTrailer) {
		throw new S3Error(
			"InvalidRequest",
			"An aws-chunked body (Content-Encoding: aws-chunked, x-amz-trailer) needs x-amz-content-sha256: STREAMING-….",
		);
	} else if (SIGNED_HASH.test(payloadHash)) {
		if (stream === null) {
			if (payloadHash !== EMPTY_SHA256) throw new S3Error("XAmzContentSHA256Mismatch");
		} else {
			const checked = checkedBody(stream, payloadHash);
			stream = checked.body;
			framingFailure = () => (checked.mismatched() ? new S3Error("XAmzContentSHA256Mismatch") : undefined);
		}
	}

	let checksumValue = () => undefined as string | undefined;
	let checksumFailure = () => undefined as S3Error | undefined;
	if (declared !== undefined) {
		const { checksum, value } = declared;
		const verified = verifiedStream(stream ?? new Blob([]).stream(), checksum, () => {
			if (value !== undefined) return value;
			const trailing = trailers.get(checksum.header);
			if (trailing === undefined) {
				throw new S3Error("MalformedTrailerError", `The trailer does not carry ${checksum.header}.`);
			}
			return parseChecksumValue(checksum, trailing);
		});
		stream = verified.stream;
		checksumValue = verified.digest;
		checksumFailure = verified.failure;
	}

	if (stream !== null && stream !== request.body && length !== undefined) {
		const fixed = new FixedLengthStream(length);
		// A failure reaches the reader of `fixed.readable` (the binding); nothing else waits on the pipe.
		stream.pipeTo(fixed.writable).catch(() => undefined);
		stream = fixed.readable;
	}
	return {
		stream,
		length,
		headers: storedHeaders(headers),
		checksum: declared?.checksum,
		checksumValue,
		failure: () => framingFailure() ?? checksumFailure(),
	};
}
