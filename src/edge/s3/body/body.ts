/**
 * The body of a request that carries an object's bytes (PutObject, UploadPart), decoded and
 * verified as it streams, in one place for every operation that takes one:
 * - its framing: an aws-chunked body (`x-amz-content-sha256: STREAMING-…`) is decoded, each
 *   chunk signature checked (`aws-chunked.ts`); a plain body signed with its SHA-256 is checked
 *   against it (`payload.ts`); an `UNSIGNED-PAYLOAD` body is taken as it is;
 * - its flexible checksum, from an `x-amz-checksum-<alg>` header or a trailer that
 *   `x-amz-trailer` declares, computed as the body streams and compared at its end (`checksums.ts`);
 * - for an operation whose binding call takes no digest (`uploadPart`), its Content-MD5.
 *
 * The framing and the checks run in one loop between the request and the binding (`body-pump.ts`);
 * a body with neither goes to the binding as it is. Every refusal of the body itself comes at its
 * end, as an error of the stream instead of its last bytes: the binding's `put` reading it fails
 * and stores nothing, and `failure()` then says which S3 error to answer. A refusal of the headers
 * comes at once, thrown.
 *
 * The headers S3 reads here (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObject.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html): `Content-Encoding`
 * (`aws-chunked` is the framing's, left out of what is stored; on a body that is not chunked, a
 * `STREAMING-…` payload not declared, S3 drops it all the same and stores the rest, such as `gzip`),
 * `x-amz-decoded-content-length`,
 * `x-amz-trailer`, `x-amz-sdk-checksum-algorithm` and `x-amz-checksum-*`.
 */

import { toHex } from "../../../common/encoding";
import { headerList } from "../../../common/http-token";
import { requestedChecksums } from "../../gateway/headers";
import { EMPTY_SHA256 } from "../auth/sigv4";
import {
	type ChecksumCheck,
	checksumCheck,
	checksumNamed,
	checksumOfHeader,
	FLEXIBLE_CHECKSUMS,
	type FlexibleChecksum,
	parseChecksumValue,
} from "../checksums/checksums";
import { checksumTypeMismatch } from "../checksums/multipart-checksums";
import type { S3Context } from "../context";
import { notImplemented, S3Error } from "../errors";
import { awsChunkedDecoder } from "./aws-chunked";
import { type BodyCheck, type BodyFraming, pumpBody } from "./body-pump";
import { badDigest, digestCheck, payloadMismatch } from "./payload";

/** A request's body, decoded and being verified. */
export interface RequestBody {
	/** The object's bytes; null for a request without a body. Read it once. */
	stream: ReadableStream<Uint8Array> | null;
	/** Its length in bytes (a stream of that length, as `R2Bucket.put` needs); undefined when unknown. */
	length: number | undefined;
	/** The request's headers as the object's metadata reads them: Content-Encoding without `aws-chunked`. */
	headers: Headers;
	/** The flexible checksum the client sent (in a header or a trailer), or the one `checksum` asked for; undefined for none. */
	checksum: FlexibleChecksum | undefined;
	/** The checksum's value (base64) once the stream ended whole (and matched the one sent); undefined before. */
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

/**
 * The flexible checksum a request declares: one `x-amz-checksum-<alg>` header, or one trailer
 * named by `x-amz-trailer`, agreeing with `x-amz-sdk-checksum-algorithm` when that is sent.
 * @throws S3Error 400 InvalidRequest for two checksums, an unknown trailer or algorithm, an
 * algorithm with no checksum, or a malformed value.
 */
function declaredChecksum(headers: Headers): { checksum: FlexibleChecksum; value?: string } | undefined {
	const inHeaders = FLEXIBLE_CHECKSUMS.filter(({ header }) => headers.has(header));
	const trailer = headerList(headers.get("x-amz-trailer"));
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
	const named = sdk === null ? undefined : checksumNamed(sdk);
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

/** What an operation asks of `requestBody` beyond the body's own headers. */
export interface RequestBodyOptions {
	/** Check Content-MD5 here: for `uploadPart`, which takes no digest (`put` checks its own). */
	contentMd5?: boolean;
	/** Refuse a body of unknown length (411 MissingContentLength), before any of it is read. */
	lengthRequired?: boolean;
	/**
	 * The algorithm whose checksum the body must have (a part of an upload created with it): a
	 * checksum of it sent is verified, one not sent is computed, one of another algorithm refused.
	 */
	checksum?: FlexibleChecksum;
}

/**
 * The decoded, verified body of an object-carrying request.
 * @throws S3Error, at once, for headers that do not describe a body this dialect takes: 400
 * InvalidRequest (checksum headers, a checksum of another algorithm than `options.checksum`, a
 * trailer where the payload has none or none where it must), 400 InvalidDigest (a Content-MD5 that is not one, with `contentMd5`), 411
 * MissingContentLength (an aws-chunked body without its decoded length; any body of unknown
 * length, with `lengthRequired`), 501 for a streaming payload R2 does not take
 * (`STREAMING-AWS4-ECDSA-P256-SHA256-PAYLOAD`, SigV4a); 400 XAmzContentSHA256Mismatch for an
 * empty body not the one signed.
 */
export function requestBody(c: Pick<S3Context, "request" | "caller">, options: RequestBodyOptions = {}): RequestBody {
	const { request, caller } = c;
	const { headers } = request;
	const payloadHash = caller.payloadHash;
	const declared = declaredChecksum(headers);
	const wanted = options.checksum;
	if (wanted !== undefined && declared !== undefined && declared.checksum.name !== wanted.name) {
		throw checksumTypeMismatch(wanted, declared.checksum);
	}
	const lengthHeader = headers.get("content-length");
	let length = lengthHeader !== null ? Number(lengthHeader) : request.body === null ? 0 : undefined;
	let framing: BodyFraming | undefined;
	let trailers: ReadonlyMap<string, string> = new Map();
	const checks: BodyCheck[] = [];
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
		const decoder = awsChunkedDecoder({
			decodedLength: length,
			signing: payload.signed ? { secret: caller.key.secret, seed: caller.seed } : undefined,
			trailer: headerList(headers.get("x-amz-trailer")),
		});
		framing = decoder;
		trailers = decoder.trailers;
	} else if (hasTrailer) {
		// An `aws-chunked` token without a STREAMING-… payload frames nothing: S3 takes the body as
		// it is and only drops the token from the stored Content-Encoding (`storedHeaders`).
		throw new S3Error("InvalidRequest", "A body with x-amz-trailer needs x-amz-content-sha256: STREAMING-…-TRAILER.");
	} else if (SIGNED_HASH.test(payloadHash)) {
		if (request.body === null) {
			if (payloadHash !== EMPTY_SHA256) throw payloadMismatch();
		} else {
			checks.push(digestCheck("SHA-256", payloadHash, payloadMismatch));
		}
	}

	if (options.lengthRequired && length === undefined) throw new S3Error("MissingContentLength");
	const md5 = options.contentMd5 ? requestedChecksums(headers).find(({ name }) => name === "md5") : undefined;
	if (md5 !== undefined) checks.push(digestCheck("MD5", toHex(md5.digest), () => badDigest("Content-MD5")));
	let checksum: ChecksumCheck | undefined;
	if (declared !== undefined) {
		const { checksum: algorithm, value } = declared;
		checksum = checksumCheck(algorithm, () => {
			if (value !== undefined) return value;
			const trailing = trailers.get(algorithm.header);
			if (trailing === undefined) {
				throw new S3Error("MalformedTrailerError", `The trailer does not carry ${algorithm.header}.`);
			}
			return parseChecksumValue(algorithm, trailing);
		});
		checks.push(checksum);
	} else if (wanted !== undefined) {
		checksum = checksumCheck(wanted);
		checks.push(checksum);
	}

	const stored = storedHeaders(headers);
	if (framing === undefined && checks.length === 0) {
		return {
			stream: request.body,
			length,
			headers: stored,
			checksum: undefined,
			checksumValue: () => undefined,
			failure: () => undefined,
		};
	}
	const pumped = pumpBody(request.body ?? new Blob([]).stream(), length, framing, checks);
	return {
		stream: pumped.stream,
		length,
		headers: stored,
		checksum: declared?.checksum ?? wanted,
		checksumValue: () => checksum?.digest(),
		failure: pumped.failure,
	};
}
