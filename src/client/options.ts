/**
 * Binding options in their HTTP spelling (docs/gateway.md): ranges, conditionals, write metadata,
 * checksums and request bodies.
 *
 * Where the binding checks an argument in JavaScript before any request (workerd
 * `src/workerd/api/r2-bucket.c++`), these functions throw the same TypeError or
 * RangeError, so a RemoteBucket fails the way the binding does without a round trip.
 */
import { fromHex } from "../common/encoding.ts";
import { CHECKSUMS, type ChecksumName, checksumToRequest } from "../wire/checksums.ts";
import { customMetadataToHeaders } from "../wire/custom-metadata.ts";
import { R2_ERRORS } from "../wire/error-codes.ts";
import { copyHttpMetadataHeaders, httpMetadataToHeaders } from "../wire/http-metadata.ts";
import { MAX_METADATA_SIZE, metadataSize } from "../wire/limits.ts";
import { parseRange } from "../wire/ranges.ts";
import { STORAGE_CLASS_HEADER } from "../wire/storage-class.ts";
import { RemoteBucketError } from "./transport.ts";

/** Whether this runs in workerd, whose binding reads only its own `Headers` as headers. */
const IN_WORKERD = typeof navigator !== "undefined" && navigator.userAgent === "Cloudflare-Workers";

/**
 * Whether a `range`, `onlyIf` or `httpMetadata` value is read as headers, as the binding of the
 * runtime RemoteBucket runs in reads it. In workerd that is only the runtime's own `Headers`
 * (workerd unwraps `jsg::Ref<Headers>`); any other object is the plain R2Range, R2Conditional or
 * R2HTTPMetadata it would be. Elsewhere (Node) the binding is the one Miniflare hands out
 * (`getR2Bucket`), which also takes the `Headers` of another fetch implementation, such as the
 * `Headers` Miniflare exports from its own undici: an object that names itself `Headers`
 * (`Symbol.toStringTag`) and has `get` and `entries` (Miniflare `src/workers/core/devalue.ts`,
 * `isHeadersLike`). A polyfill that does not name itself so is a plain object in both.
 */
export function isHeaders(value: unknown): value is Headers {
	if (value instanceof Headers) return true;
	if (IN_WORKERD || typeof value !== "object" || value === null) return false;
	const like = value as { [Symbol.toStringTag]?: unknown; get?: unknown; entries?: unknown };
	return like[Symbol.toStringTag] === "Headers" && typeof like.get === "function" && typeof like.entries === "function";
}

/** The three fields of an R2Range, read by name as workerd reads the struct: other properties are not looked at. */
type RangeFields = { offset?: number; length?: number; suffix?: number };

/**
 * The `Range` header for an R2Range, or null for none.
 *
 * Any object that `isHeaders` does not take is read as an R2Range, as the binding reads it:
 * only `offset`, `length` and `suffix`, so a Headers polyfill is a range without fields (the
 * whole object). A zero length or zero suffix, which the binding refuses with 10039, is sent as
 * `bytes=-0`, the one spelling the gateway refuses with the same 416 (10039); `bytes=a-(a-1)`
 * would be a 400.
 * @throws RangeError / TypeError for what workerd refuses before any request.
 */
export function rangeHeader(range: R2Range): string {
	const { offset, length, suffix }: RangeFields = range;
	for (const [name, value] of Object.entries({ offset, length, suffix })) {
		if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
			throw new RangeError(`Invalid range ${name}: ${String(value)}; it must be a non-negative integer.`);
		}
	}
	if (suffix !== undefined) {
		if (offset !== undefined || length !== undefined) {
			throw new TypeError("Suffix is incompatible with offset and length.");
		}
		return `bytes=-${suffix}`;
	}
	if (length === undefined) return `bytes=${offset ?? 0}-`;
	if (length === 0) return "bytes=-0";
	return `bytes=${offset ?? 0}-${(offset ?? 0) + length - 1}`;
}

/**
 * The `Range` header to send for a `Headers` range, or null to ask for the whole object.
 *
 * The binding forwards a `Range` header to R2, which honours exactly one valid range and serves the
 * whole object for anything else (malformed, several ranges, inverted, `bytes=-0`), never an error
 * (Miniflare `workers/shared/range.ts`; kotx/render#18 for R2). The gateway answers those with 400
 * or 416 instead, so only a range it would serve is sent; one starting past the end is caught from
 * the 416 (bucket.ts).
 */
export function headersRange(headers: Headers): string | null {
	const value = headers.get("range");
	return parseRange(value).kind === "range" ? value : null;
}

const SECOND = 1000;
const floorSecond = (date: Date) => Math.floor(date.getTime() / SECOND) * SECOND;

/**
 * An R2Conditional etag as an If-Match/If-None-Match value: `*`, or one strong entity tag. The
 * binding takes one etag here, not a list: `"a, b"` is compared as a single literal.
 * @throws TypeError for a quoted etag, as workerd.
 */
function entityTag(etag: string): string {
	if (etag.startsWith('"') || etag.startsWith('W/"')) {
		throw new TypeError(`Conditional ETag should not be wrapped in quotes (${etag}).`);
	}
	return etag === "*" ? "*" : `"${etag}"`;
}

/** A date header of a `Headers` onlyIf, or undefined when absent or not a date (RFC 9110 §13.1.3). */
function dateHeader(headers: Headers, name: string): Date | undefined {
	const value = headers.get(name);
	if (value === null) return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : new Date(ms);
}

/**
 * Writes `onlyIf` as conditional headers into `headers`.
 *
 * Etags map directly (`etagMatches` to If-Match, `etagDoesNotMatch` to If-None-Match). Dates need
 * care, because the binding compares strictly and HTTP dates have whole seconds:
 * - `uploadedAfter` passes on the binding when `uploadedAfter < uploaded`; If-Modified-Since
 *   passes when Last-Modified is later in whole seconds, so the date is sent as is, truncated.
 * - `uploadedBefore` passes on the binding when `uploaded < uploadedBefore`; the gateway's
 *   If-Unmodified-Since passes when Last-Modified is not later (RFC 9110 §13.1.4), so the date is
 *   sent one second earlier.
 * With `secondsGranularity` (always so for a `Headers` onlyIf) this is exactly the binding's
 * answer. With millisecond dates it is never a pass where the binding fails, but a condition
 * within the same second as the upload may fail where the binding passes: HTTP cannot carry
 * milliseconds.
 */
export function writeConditionals(onlyIf: R2Conditional | Headers, headers: Headers): void {
	let conditional: R2Conditional;
	if (isHeaders(onlyIf)) {
		// Etag lists go as written: the gateway parses them as the binding parses the header.
		const ifMatch = onlyIf.get("if-match");
		const ifNoneMatch = onlyIf.get("if-none-match");
		if (ifMatch !== null) headers.set("if-match", ifMatch);
		if (ifNoneMatch !== null) headers.set("if-none-match", ifNoneMatch);
		conditional = {
			uploadedAfter: dateHeader(onlyIf, "if-modified-since"),
			uploadedBefore: dateHeader(onlyIf, "if-unmodified-since"),
		};
	} else {
		conditional = onlyIf;
		if (onlyIf.etagMatches !== undefined) headers.set("if-match", entityTag(onlyIf.etagMatches));
		if (onlyIf.etagDoesNotMatch !== undefined) {
			headers.set("if-none-match", entityTag(onlyIf.etagDoesNotMatch));
		}
	}
	if (conditional.uploadedAfter !== undefined) {
		headers.set("if-modified-since", new Date(floorSecond(conditional.uploadedAfter)).toUTCString());
	}
	if (conditional.uploadedBefore !== undefined) {
		headers.set("if-unmodified-since", new Date(floorSecond(conditional.uploadedBefore) - SECOND).toUTCString());
	}
}

/**
 * Writes httpMetadata, custom metadata and storage class, the metadata PUT and multipart
 * creation share, as request headers.
 *
 * Custom metadata over the binding's limit is refused here, counted as the binding counts it:
 * over HTTP, names differing only in case would become one header and could pass the gateway's
 * binding where the caller's own call would not.
 * @throws RemoteBucketError 10012, the binding's error for metadata over MAX_METADATA_SIZE.
 */
export function writeMetadata(
	action: "put" | "createMultipartUpload",
	options: R2MultipartOptions,
	headers: Headers,
): void {
	if (options.ssecKey !== undefined) throw unsupportedSsec();
	const { httpMetadata, customMetadata, storageClass } = options;
	if (customMetadata !== undefined && metadataSize(customMetadata) > MAX_METADATA_SIZE) {
		const { status, code, message } = R2_ERRORS.MetadataTooLarge;
		throw new RemoteBucketError(action, code, message, status);
	}
	if (isHeaders(httpMetadata)) {
		copyHttpMetadataHeaders(httpMetadata, headers);
	} else if (httpMetadata !== undefined) {
		httpMetadataToHeaders(httpMetadata, headers);
	}
	if (customMetadata !== undefined) customMetadataToHeaders(customMetadata, headers);
	if (storageClass !== undefined) headers.set(STORAGE_CLASS_HEADER, storageClass);
}

/** SSE-C has no spelling in the gateway's native dialect; its S3 dialect takes it (docs/gateway.md). */
export function unsupportedSsec(): TypeError {
	return new TypeError(
		"RemoteBucket: ssecKey is not supported; the gateway's native dialect has no spelling for SSE-C (its S3 dialect takes it).",
	);
}

/** A digest given as hex or bytes, as bytes. @throws TypeError for the wrong length, as workerd. */
function digestBytes(label: string, size: number, value: ArrayBuffer | ArrayBufferView | string): Uint8Array {
	if (typeof value === "string") {
		const bytes = value.length === size * 2 ? fromHex(value) : undefined;
		if (bytes === undefined) throw new TypeError(`${label} is ${size * 2} hex characters, not ${value.length}`);
		return bytes;
	}
	const bytes = ArrayBuffer.isView(value)
		? new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
		: new Uint8Array(value);
	if (bytes.byteLength !== size) throw new TypeError(`${label} is ${size} bytes, not ${bytes.byteLength}`);
	return bytes;
}

/**
 * Writes the put's checksum as `Content-MD5` or `x-amz-checksum-{alg}`, base64.
 * @throws TypeError for more than one algorithm or a digest of the wrong length, as workerd.
 */
export function writeChecksum(options: Pick<R2PutOptions, ChecksumName>, headers: Headers): void {
	const given = CHECKSUMS.filter(({ name }) => options[name] !== undefined);
	if (given.length > 1) throw new TypeError("You cannot specify multiple hashing algorithms.");
	for (const { name, label, bytes } of given) {
		const value = options[name];
		if (value !== undefined) checksumToRequest(name, digestBytes(label, bytes, value), headers);
	}
}

/** A put or part value as a fetch body. */
export type BodyValue = ReadableStream | ArrayBuffer | ArrayBufferView | string | null | Blob;

/**
 * A value as a request body that makes fetch add no Content-Type of its own: fetch types string
 * bodies `text/plain;charset=UTF-8` and Blob bodies with their type, which the gateway would
 * store as httpMetadata while the binding stores none. Streams pass through, unbuffered.
 */
export function requestBody(value: BodyValue): BodyInit | null {
	if (value === null) return null;
	if (typeof value === "string") return new TextEncoder().encode(value);
	if (value instanceof Blob) return value.type === "" ? value : new Blob([value]);
	if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
	return value;
}

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31 - 1;

/**
 * A list `limit` as the binding reads it, a JS `int` (workerd `R2ListOptions.limit`): converted
 * to a number and truncated toward zero, NaN and the infinities as 0, which R2 then refuses with
 * 10022. A negative limit lists as if none were given on the binding (measured on the installed
 * workerd and Miniflare; test/parity/errors.test.ts), so it is not sent.
 * @throws TypeError outside the 32-bit range, with workerd's message.
 */
export function listLimit(limit: number): number | undefined {
	const number = Number(limit);
	const int = Number.isFinite(number) ? Math.trunc(number) : 0;
	if (int < INT_MIN || int > INT_MAX) {
		throw new TypeError(`Value out of range. Must be between ${INT_MIN} and ${INT_MAX} (inclusive).`);
	}
	return int < 0 ? undefined : int;
}
