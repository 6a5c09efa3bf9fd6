/**
 * GetObject, HeadObject, PutObject and DeleteObject on the binding
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html and its siblings; R2's
 * support: https://developers.cloudflare.com/r2/api/s3/api/).
 *
 * Reads are the gateway's own handlers (src/edge/gateway/object.ts): the same one binding call
 * with Range and the four conditionals, the same 200/206/304/412/416 and the same object
 * headers (`x-amz-meta-*`, Content-Type and the other httpMetadata, `x-amz-checksum-*` under
 * `x-amz-checksum-mode: ENABLED`), without the gateway's `x-r2-*` extensions. A write takes its
 * metadata, checksums, storage class and conditions from the gateway's header mapping, and its
 * body is decoded and verified as it streams (`body.ts`).
 *
 * Refused with 501 rather than answered wrongly: `versionId` (the binding keeps no versions), and
 * `partNumber` of a multipart object whose part sizes the bucket's ledger does not hold.
 */

import { ledgerOf, type ObjectChecksum, type ObjectParts, type RecordedChecksum } from "../../bucket/bucket-ledger";
import { checksumsToHeaders, wantsChecksums } from "../../wire/checksums";
import { STORED_ENCODING_HEADER } from "../../wire/http-metadata";
import { isPartNumber } from "../../wire/limits";
import { putChunked } from "../gateway/chunked";
import { hasConditionals, parseConditionals, toOnlyIf } from "../gateway/conditionals";
import type { GatewayContext } from "../gateway/context";
import { requestedChecksums, withChecksums, writeMetadataFromHeaders } from "../gateway/headers";
import { getObject as gatewayGet, headObject as gatewayHead } from "../gateway/object";
import { requestBody } from "./body/body";
import { FLEXIBLE_CHECKSUMS } from "./checksums/checksums";
import { forgetObjects, recordChecksum, recordedChecksum } from "./checksums/ledger-checksums";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { lifecycleRules, withExpiration } from "./lifecycle/cached-rules";
import { expirationHeader } from "./lifecycle/rules";
import { customerKeyOf, withCustomerKeyHeaders } from "./ssec/customer-key";
import { checkedRead, recordSsec, ssecRead } from "./ssec/recorded";

/** The gateway's context for the same request, reading an unquoted ETag as S3 does. */
function gatewayContext(c: S3Context): GatewayContext {
	return { request: c.request, url: c.url, key: c.key, bucket: c.bucket.bucket, env: c.env, etagsAsQuoted: true };
}

/**
 * The `response-*` parameters of a read and the headers they set on its answer
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html, "Overriding response
 * header values"): what a presigned download link uses to name the file it saves.
 */
const OVERRIDES: Record<string, string> = {
	"response-cache-control": "cache-control",
	"response-content-disposition": "content-disposition",
	"response-content-encoding": "content-encoding",
	"response-content-language": "content-language",
	"response-content-type": "content-type",
	"response-expires": "expires",
};

/** @throws S3Error 501 for the read parameters this dialect does not do yet; 400 for an unknown `response-*`. */
function refuseUnsupportedReads(url: URL): void {
	for (const name of url.searchParams.keys()) {
		if (name.startsWith("response-") && !(name in OVERRIDES)) {
			throw new S3Error("InvalidArgument", `${name} is not a response header override.`, { ArgumentName: name });
		}
		if (name === "versionId") throw notImplemented(`GetObject with ${name}`);
	}
}

/** Sets the headers the `response-*` parameters ask for on a 200 or 206 answer, in place. */
function withOverrides(url: URL, response: Response): Response {
	if (response.status !== 200 && response.status !== 206) return response;
	// Most reads name none: a presigned URL's six parameters are not searched six times.
	if (!url.search.includes("response-")) return response;
	for (const [name, header] of Object.entries(OVERRIDES)) {
		const value = url.searchParams.get(name);
		if (value !== null) response.headers.set(header, value);
	}
	return response;
}

/** The gateway's answer without its own extensions (`x-r2-*`), which are not S3's. */
function withoutGatewayHeaders(response: Response): Response {
	for (const name of [...response.headers.keys()]) {
		if (name.startsWith("x-r2-") && name !== STORED_ENCODING_HEADER) response.headers.delete(name);
	}
	return response;
}

/**
 * An answer that is not the whole object without the object's checksums: a client validating the
 * answer under `x-amz-checksum-mode: ENABLED` (the AWS SDKs do by default) checks what it got
 * against them. On a range it would check the part and fail; S3 sends none there
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html). On a 304
 * botocore wraps the empty body of any answer carrying one in its validating stream, then cannot
 * parse the error from it (TypeError, not ClientError 304: botocore/endpoint.py calls
 * httpchecksum.handle_checksum_body before it looks at the status); RFC 9110 section 15.4.5 has a
 * 304 carry no representation metadata beyond ETag, Date and the cache headers.
 */
function withoutWholeChecksums(response: Response): Response {
	if (response.status !== 206 && response.status !== 304) return response;
	for (const name of [...response.headers.keys()]) {
		if (name.startsWith("x-amz-checksum-")) response.headers.delete(name);
	}
	return response;
}

/**
 * The flexible checksum the bucket's ledger holds for `c.key` (a CRC the binding cannot store),
 * asked only under `x-amz-checksum-mode: ENABLED`, which the AWS SDKs send on every GetObject;
 * undefined when not asked. Asked before the read, so that when the ledger is called its answer
 * and the binding's arrive together rather than one after the other.
 */
function ledgerChecksum(c: S3Context): Promise<RecordedChecksum | null> | undefined {
	return wantsChecksums(c.request.headers) ? recordedChecksum(c, c.key, Date.now()) : undefined;
}

/**
 * A 200 answer with the ledger's checksum beside the binding's own, when the ledger's was
 * computed over the object answered (the same ETag).
 */
function withLedgerChecksum(response: Response, stored: RecordedChecksum | null | undefined): Response {
	if (response.status !== 200 || stored == null) return response;
	if (response.headers.get("etag") !== `"${stored.etag}"` || response.headers.has(stored.header)) return response;
	response.headers.set(stored.header, stored.value);
	response.headers.set("x-amz-checksum-type", stored.type);
	return response;
}

/**
 * A whole object's answer naming its flexible checksum's type, as S3 does under
 * `x-amz-checksum-mode: ENABLED`: a checksum stored whole with the object (a PutObject's, a
 * copy's) is `FULL_OBJECT`; a multipart object's type came with it from the ledger.
 */
function withChecksumType(response: Response): Response {
	if (response.status !== 200 || response.headers.has("x-amz-checksum-type")) return response;
	if (FLEXIBLE_CHECKSUMS.some(({ header }) => response.headers.has(header))) {
		response.headers.set("x-amz-checksum-type", "FULL_OBJECT");
	}
	return response;
}

/**
 * A read of one part (`?partNumber=N`, https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html):
 * the gateway's context for the same read as a Range over that part, and the object's part
 * count. The part boundaries of a multipart object come from the bucket's ledger, which records
 * them for uploads completed through the edge; an object of one part has part 1 only, the whole
 * object. The count is a multipart object's (undefined for an object put whole). Under
 * `x-amz-checksum-mode: ENABLED`, the part's checksum when the object's was made from its parts'.
 * Undefined when the request names no part.
 * @throws S3Error 400 InvalidArgument for a number outside 1 to 10000, InvalidRequest beside a
 * Range; 416 InvalidPartNumber past the object's parts; 404 NoSuchKey; 501 for a multipart
 * object whose parts the edge did not see completed.
 */
async function partRead(
	c: S3Context,
): Promise<{ context: GatewayContext; count?: number; checksum?: ObjectChecksum } | undefined> {
	const text = c.url.searchParams.get("partNumber");
	if (text === null) return undefined;
	const partNumber = Number(text);
	if (!/^\d{1,5}$/.test(text) || !isPartNumber(partNumber)) {
		throw new S3Error("InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive", {
			ArgumentName: "partNumber",
			ArgumentValue: text,
		});
	}
	if (c.request.headers.has("range")) {
		throw new S3Error("InvalidRequest", "Cannot specify both Range header and partNumber query parameter");
	}
	const object = await c.bucket.bucket.head(c.key);
	if (object === null) throw new S3Error("NoSuchKey");
	const parts: ObjectParts | null = object.etag.includes("-")
		? await ledgerOf(c).objectParts(c.key, object.etag)
		: { sizes: [object.size] };
	if (parts === null) {
		throw notImplemented("GetObject with partNumber of a multipart object not completed through this endpoint");
	}
	const { sizes } = parts;
	const size = sizes[partNumber - 1];
	if (size === undefined) throw new S3Error("InvalidPartNumber");
	const start = sizes.slice(0, partNumber - 1).reduce((sum, n) => sum + n, 0);
	const headers = new Headers(c.request.headers);
	// The part of the object just read: If-Match keeps another write from moving its bytes meanwhile.
	if (!headers.has("if-match")) headers.set("if-match", object.httpEtag);
	if (size > 0) headers.set("range", `bytes=${start}-${start + size - 1}`);
	const request = new Request(c.request.url, { method: c.request.method, headers });
	// S3 counts the parts of any multipart object, one part too; an object put whole has none.
	const count = object.etag.includes("-") ? sizes.length : undefined;
	const read = { context: { ...gatewayContext(c), request }, count };
	const value = parts.checksums?.[partNumber - 1];
	if (value === undefined || !wantsChecksums(c.request.headers)) return read;
	// The part's checksum, of the algorithm and type of the object's, as S3 answers a part.
	const whole = await recordedChecksum(c, c.key, Date.now());
	if (whole === null || whole.etag !== object.etag) return read;
	return { ...read, checksum: { header: whole.header, value, type: whole.type } };
}

/** Adds `x-amz-mp-parts-count` to a part's answer, as S3 does for a multipart object (of one part too). */
function withPartsCount(response: Response, count: number | undefined): Response {
	if (count !== undefined && response.status < 300) {
		response.headers.set("x-amz-mp-parts-count", String(count));
	}
	return response;
}

/**
 * A read of the object or of one part, answered by the gateway's `read` (its GET or its HEAD)
 * and turned into S3's answer: no `x-r2-*` headers, the parts count, the checksums that apply,
 * `x-amz-expiration` (the bucket's lifecycle rules asked beside the read), the `response-*`
 * overrides; checked against the SSE-C key the object was stored with (`ssec/`).
 * @throws S3Error those of `ssecRead` and `checkedRead` for SSE-C.
 */
async function objectRead(c: S3Context, read: (context: GatewayContext) => Promise<Response>): Promise<Response> {
	refuseUnsupportedReads(c.url);
	const ssec = await ssecRead(c, c.key, c.request.headers);
	const part = await partRead(c);
	// A part's answer carries no whole-object checksum (`withoutWholeChecksums`).
	const stored = part === undefined ? ledgerChecksum(c) : undefined;
	const context = part?.context ?? gatewayContext(c);
	context.ssecKey = ssec.ssecKey;
	const [answer, checksum, rules] = await Promise.all([read(context), stored, lifecycleRules(c, Date.now())]);
	const keyMd5 = await checkedRead(answer, ssec);
	const response = withoutWholeChecksums(withoutGatewayHeaders(withPartsCount(answer, part?.count)));
	withCustomerKeyHeaders(response.headers, keyMd5);
	if (part?.checksum !== undefined && response.status < 300) {
		response.headers.set(part.checksum.header, part.checksum.value);
		response.headers.set("x-amz-checksum-type", part.checksum.type);
	}
	const uploaded = Date.parse(response.headers.get("last-modified") ?? "");
	const expiration =
		response.status < 300 && !Number.isNaN(uploaded) ? expirationHeader(rules, c.key, uploaded) : undefined;
	if (expiration !== undefined) response.headers.set("x-amz-expiration", expiration);
	return withOverrides(c.url, withChecksumType(withLedgerChecksum(response, checksum)));
}

/** `GET /<bucket>/<key>`, of the object or of one part. */
export const getObject = (c: S3Context): Promise<Response> => objectRead(c, gatewayGet);

/** `HEAD /<bucket>/<key>`, of the object or of one part. */
export const headObject = (c: S3Context): Promise<Response> => objectRead(c, gatewayHead);

/**
 * `PUT /<bucket>/<key>`: streams the body (`body.ts`: aws-chunked decoded, the signed payload
 * hash and the flexible checksum verified) into `put()` (or, without a length, into the
 * gateway's chunked upload), with `x-amz-meta-*`, the six httpMetadata headers, Content-MD5,
 * `x-amz-storage-class` and the conditionals. A SHA1 or SHA256 sent in a header is also given to
 * `put()`, which stores it for `x-amz-checksum-mode` reads. An SSE-C key goes to `put()`, and its
 * MD5 to the bucket's ledger. Answers 200 with the ETag, the verified checksum, the SSE-C
 * headers, and `x-amz-expiration` when a lifecycle rule expires the object.
 * @throws S3Error, with nothing stored: those of `requestBody`, and the stream's own refusal
 * (BadDigest, SignatureDoesNotMatch, IncompleteBody, XAmzContentSHA256Mismatch, …) when the body
 * turned out not to be the one sent; 412 PreconditionFailed; the binding's BadDigest (Content-MD5).
 */
export async function putObject(c: S3Context): Promise<Response> {
	const body = requestBody(c);
	const conditions = parseConditionals(body.headers, true);
	const checksums = requestedChecksums(body.headers);
	const options: R2PutOptions = writeMetadataFromHeaders(body.headers);
	if (checksums.length > 1) throw new S3Error("InvalidRequest", "Send one checksum per PutObject: R2 verifies one.");
	const sent = await customerKeyOf(body.headers);
	if (sent !== undefined) options.ssecKey = sent.key;
	let object: R2Object | null;
	try {
		if (body.stream !== null && body.length === undefined) {
			if (hasConditionals(conditions))
				throw new S3Error("MissingContentLength", "A conditional PutObject must send Content-Length.");
			object = await putChunked(c.bucket.bucket, c.key, body.stream, options, checksums);
		} else {
			withChecksums(options, checksums);
			options.onlyIf = toOnlyIf(conditions);
			object = await c.bucket.bucket.put(c.key, body.stream ?? "", options);
		}
	} catch (error) {
		throw body.failure() ?? error;
	}
	if (object === null) throw new S3Error("PreconditionFailed");
	const headers = new Headers({ etag: object.httpEtag });
	if (sent !== undefined) await recordSsec(c, c.key, object.version, sent.keyMd5);
	withCustomerKeyHeaders(headers, sent?.keyMd5);
	await withExpiration(c, headers, c.key, object.uploaded.getTime());
	const value = body.checksumValue();
	if (body.checksum !== undefined && value !== undefined) {
		headers.set(body.checksum.header, value);
		// The binding stored the SHAs it was given up front; anything else the ledger keeps.
		const stored = new Headers();
		checksumsToHeaders(object.checksums, stored);
		if (!stored.has(body.checksum.header)) {
			await recordChecksum(c, c.key, object.etag, { header: body.checksum.header, value, type: "FULL_OBJECT" });
		}
	}
	return new Response(null, { status: 200, headers });
}

/** `DELETE /<bucket>/<key>`: 204 whether or not the key existed, as S3 and R2 answer. */
export async function deleteObject(c: S3Context): Promise<Response> {
	await c.bucket.bucket.delete(c.key);
	await forgetObjects(c, [c.key]);
	return new Response(null, { status: 204 });
}
