/**
 * The computation of AWS Signature Version 4 for S3: the canonical request, the string to sign,
 * the signing key and the signature, with `node:crypto`'s HMAC-SHA256, synchronous calls where
 * WebCrypto's would each be a promise to await on every request
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html, "Signature
 * Calculations for the Authorization Header", and
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html).
 *
 * S3's canonical URI encodes each path segment once (other services encode twice); the query's
 * names and values are RFC 3986 encoded and sorted by name, then value; each signed header is its
 * lower-case name, a colon and its value trimmed with inner runs of spaces made one.
 */
import { createHash, createHmac } from "node:crypto";

/** The credential scope a signature names: `<date>/<region>/<service>/aws4_request`. */
export interface Scope {
	/** YYYYMMDD. */
	date: string;
	region: string;
	service: string;
}

/** What a signature covers beyond the request itself. */
export interface SignatureInput {
	/** X-Amz-Date, `YYYYMMDDTHHMMSSZ`. */
	amzDate: string;
	scope: Scope;
	/** Lower-case header names, in the order the client listed them. */
	signedHeaders: string[];
	/** The payload's hash as signed: 64 hex, `UNSIGNED-PAYLOAD`, or a `STREAMING-…` value. */
	payloadHash: string;
	/** Query parameters left out of the canonical query: `X-Amz-Signature` of a presigned URL. */
	excludedParams?: string[];
}

/** RFC 3986 percent-encoding of a string's UTF-8 bytes: everything but `A-Za-z0-9-._~`. */
function encodeRfc3986(text: string): string {
	return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A URL component decoded, or as it is when it is not valid percent-encoding. */
function decoded(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}

/** S3's canonical URI: each segment of the path decoded, then encoded once. */
function canonicalUri(path: string): string {
	return path
		.split("/")
		.map((segment) => encodeRfc3986(decoded(segment)))
		.join("/");
}

/**
 * The canonical URIs a client may have signed for this path: S3's (each segment decoded, then
 * encoded once), and, for a path with an encoded slash, the same with `%2F` read as `/`. S3 reads
 * `%2F` in a key as `/`, so both name the same object, and clients differ in which they sign:
 * botocore signs the path as sent (`S3SigV4Auth` leaves it unnormalized), while aws4fetch decodes
 * the whole path before encoding it segment by segment (its `AwsV4Signer`, for service `s3`).
 */
export function canonicalUris(url: URL): string[] {
	const asSent = canonicalUri(url.pathname);
	if (!/%2f/i.test(url.pathname)) return [asSent];
	return [asSent, canonicalUri(url.pathname.replace(/%2f/gi, "/"))];
}

/**
 * The canonical query string: names and values decoded as a form decodes them (`+` is a space,
 * as URLSearchParams writes one; SDKs send `%20` and `%2B`, which read the same), encoded, and
 * sorted by name then value.
 */
function canonicalQuery(url: URL, excluded: readonly string[]): string {
	const pairs: [string, string][] = [];
	for (const [name, value] of url.searchParams) {
		if (!excluded.includes(name)) pairs.push([encodeRfc3986(name), encodeRfc3986(value)]);
	}
	pairs.sort(([n1, v1], [n2, v2]) => (n1 < n2 ? -1 : n1 > n2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0));
	return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/**
 * One signed header's canonical value; `host` from the URL when the request has no Host header;
 * `accept-encoding` as `acceptEncoding` says when it is given.
 */
function headerValue(request: Request, url: URL, name: string, acceptEncoding: string | undefined): string {
	const value =
		(name === "accept-encoding" ? acceptEncoding : undefined) ??
		request.headers.get(name) ??
		(name === "host" ? url.host : "");
	return value.trim().replace(/\s+/g, " ");
}

/** The canonical request of a request under `input`. */
function canonicalRequest(
	request: Request,
	url: URL,
	input: SignatureInput,
	acceptEncoding: string | undefined,
	uri: string,
): string {
	const headers = input.signedHeaders
		.map((name) => `${name}:${headerValue(request, url, name, acceptEncoding)}\n`)
		.join("");
	return [
		request.method,
		uri,
		canonicalQuery(url, input.excludedParams ?? []),
		headers,
		input.signedHeaders.join(";"),
		input.payloadHash,
	].join("\n");
}

/** The SHA-256 of a string's UTF-8, in lower-case hex: how SigV4 hashes what it signs. */
export const sha256Hex = (text: string): string => createHash("sha256").update(text).digest("hex");

/** The SHA-256 of no bytes: the signed hash of an empty body, and the second hash of every aws-chunked chunk's string to sign. */
export const EMPTY_SHA256 = sha256Hex("");

/** HMAC-SHA256 of `data` under `key` (raw bytes, or a string as its UTF-8). */
const hmac = (key: Uint8Array | string, data: string): Uint8Array => createHmac("sha256", key).update(data).digest();

/**
 * Signing keys by secret and scope: one per key and day, so a day's requests derive it once (four
 * HMACs saved on every request after the first).
 */
const signingKeys = new Map<string, Uint8Array>();
const MAX_SIGNING_KEYS = 256;

/** `kSigning` = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, date), region), service), "aws4_request"). */
function signingKey(secret: string, scope: Scope): Uint8Array {
	const cacheKey = [secret, scope.date, scope.region, scope.service].join("\n");
	const cached = signingKeys.get(cacheKey);
	if (cached !== undefined) return cached;
	const kDate = hmac(`AWS4${secret}`, scope.date);
	const kRegion = hmac(kDate, scope.region);
	const kService = hmac(kRegion, scope.service);
	const key = hmac(kService, "aws4_request");
	if (signingKeys.size >= MAX_SIGNING_KEYS) signingKeys.clear();
	signingKeys.set(cacheKey, key);
	return key;
}

/** The scope as the string to sign and the credential spell it. */
function scopeString(scope: Scope): string {
	return `${scope.date}/${scope.region}/${scope.service}/aws4_request`;
}

/**
 * The signature (64 lower-case hex) a holder of `secret` computes for this request.
 * @param url the request's URL, parsed once by the caller.
 * @param acceptEncoding the value of `Accept-Encoding` to sign instead of the received one (the
 * value the client sent, when a proxy rewrote it: `accept-encoding.ts`).
 * @param uri the canonical URI signed, one of `canonicalUris(url)` (the first when not given).
 */
export function signatureOf(
	request: Request,
	url: URL,
	input: SignatureInput,
	secret: string,
	acceptEncoding?: string,
	uri: string = canonicalUri(url.pathname),
): string {
	const stringToSign = [
		"AWS4-HMAC-SHA256",
		input.amzDate,
		scopeString(input.scope),
		sha256Hex(canonicalRequest(request, url, input, acceptEncoding, uri)),
	].join("\n");
	return createHmac("sha256", signingKey(secret, input.scope)).update(stringToSign).digest("hex");
}

/** The algorithm of a streaming upload's chunk signatures, and of its trailer's. */
export type ChainedAlgorithm = "AWS4-HMAC-SHA256-PAYLOAD" | "AWS4-HMAC-SHA256-TRAILER";

/** What a streaming upload's chunk signatures chain from: the request's own signature and scope. */
export interface SignatureSeed {
	/** The request's signature (the seed signature), 64 hex. */
	signature: string;
	amzDate: string;
	scope: Scope;
}

/** Signs one chunk (or the trailer) of a streaming upload, chained from `previous`. */
export type ChainedSigner = (algorithm: ChainedAlgorithm, previous: string, hashes: string[]) => string;

/**
 * The signer of a streaming upload's chunks and trailer: HMAC with the request's signing key of
 * `<algorithm>\n<date>\n<scope>\n<previous signature>\n<hashes…>`, where the hashes are, for a
 * chunk, the SHA-256 of no bytes and of the chunk's data and, for the trailer, the SHA-256 of its
 * canonical headers (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-streaming-trailers.html), with the
 * request's signing key as `signingKey` keeps it.
 * @returns a function of the algorithm, the previous signature (the seed's for the first chunk)
 * and the hashes (lower-case hex, in order), giving the signature in lower-case hex.
 */
export function chainedSigner(secret: string, seed: SignatureSeed): ChainedSigner {
	const key = signingKey(secret, seed.scope);
	const scope = scopeString(seed.scope);
	return (algorithm, previous, hashes) => {
		const stringToSign = [algorithm, seed.amzDate, scope, previous, ...hashes].join("\n");
		return createHmac("sha256", key).update(stringToSign).digest("hex");
	};
}
