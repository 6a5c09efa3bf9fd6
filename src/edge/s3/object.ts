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
 * body is checked against a signed `x-amz-content-sha256` as it streams (`payload.ts`).
 *
 * Not yet done here, and refused with 501 rather than answered wrongly: `partNumber` on reads, `versionId`, aws-chunked bodies (`STREAMING-…` payloads).
 */
import { STORED_ENCODING_HEADER } from "../../wire/http-metadata";
import { putChunked } from "../gateway/chunked";
import { hasConditionals, parseConditionals, toOnlyIf } from "../gateway/conditionals";
import type { GatewayContext } from "../gateway/context";
import { requestedChecksums, withChecksums, writeMetadataFromHeaders } from "../gateway/headers";
import { getObject as gatewayGet, headObject as gatewayHead } from "../gateway/object";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { type CheckedBody, checkedBody } from "./payload";

/** The SHA-256 of no bytes: the signed hash of an empty body. */
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

const SIGNED_HASH = /^[0-9a-f]{64}$/;

/** The gateway's context for the same request. */
function gatewayContext(c: S3Context): GatewayContext {
	return { request: c.request, url: c.url, key: c.key, bucket: c.bucket.bucket, env: c.env };
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
		if (name === "partNumber" || name === "versionId") throw notImplemented(`GetObject with ${name}`);
	}
}

/** Sets the headers the `response-*` parameters ask for on a 200 or 206 answer, in place. */
function withOverrides(url: URL, response: Response): Response {
	if (response.status !== 200 && response.status !== 206) return response;
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

/** `GET /<bucket>/<key>`. */
export async function getObject(c: S3Context): Promise<Response> {
	refuseUnsupportedReads(c.url);
	return withOverrides(c.url, withoutGatewayHeaders(await gatewayGet(gatewayContext(c))));
}

/** `HEAD /<bucket>/<key>`. */
export async function headObject(c: S3Context): Promise<Response> {
	refuseUnsupportedReads(c.url);
	return withOverrides(c.url, withoutGatewayHeaders(await gatewayHead(gatewayContext(c))));
}

/** The body to store, checked against the signed payload hash when there is one. */
function bodyToStore(request: Request, payloadHash: string, length: number | undefined): CheckedBody | undefined {
	if (!SIGNED_HASH.test(payloadHash)) return undefined;
	if (request.body === null) {
		if (payloadHash !== EMPTY_SHA256) throw new S3Error("XAmzContentSHA256Mismatch");
		return undefined;
	}
	return checkedBody(request.body, length, payloadHash);
}

/**
 * `PUT /<bucket>/<key>`: streams the body into `put()` (or, without Content-Length, into the
 * gateway's chunked upload), with `x-amz-meta-*`, the six httpMetadata headers, Content-MD5 or
 * one `x-amz-checksum-*`, `x-amz-storage-class` and the conditionals. Answers 200 with the ETag.
 * @throws S3Error 400 XAmzContentSHA256Mismatch (nothing stored) when the body is not the one
 * signed; 501 for an aws-chunked body; 412 PreconditionFailed; the binding's BadDigest.
 */
export async function putObject(c: S3Context): Promise<Response> {
	const { request } = c;
	const { payloadHash } = c.caller;
	const encoding = request.headers.get("content-encoding") ?? "";
	if (payloadHash.startsWith("STREAMING-") || /(^|,)\s*aws-chunked\s*(,|$)/i.test(encoding)) {
		throw notImplemented(`PutObject with an aws-chunked body (x-amz-content-sha256: ${payloadHash})`);
	}
	const conditions = parseConditionals(request.headers);
	const checksums = requestedChecksums(request.headers);
	const options: R2PutOptions = writeMetadataFromHeaders(request.headers);
	if (checksums.length > 1) throw new S3Error("InvalidRequest", "Send one checksum per PutObject: R2 verifies one.");
	const lengthHeader = request.headers.get("content-length");
	const length = lengthHeader === null ? undefined : Number(lengthHeader);
	const checked = bodyToStore(request, payloadHash, length);
	const body = checked?.body ?? request.body;
	let object: R2Object | null;
	try {
		if (body !== null && length === undefined) {
			if (hasConditionals(conditions))
				throw new S3Error("MissingContentLength", "A conditional PutObject must send Content-Length.");
			object = await putChunked(c.bucket.bucket, c.key, body, options, checksums);
		} else {
			withChecksums(options, checksums);
			options.onlyIf = toOnlyIf(conditions);
			object = await c.bucket.bucket.put(c.key, body ?? "", options);
		}
	} catch (error) {
		if (checked?.mismatched()) throw new S3Error("XAmzContentSHA256Mismatch");
		throw error;
	}
	if (object === null) throw new S3Error("PreconditionFailed");
	const headers = new Headers({ etag: object.httpEtag });
	for (const { name } of checksums) {
		if (name !== "md5") headers.set(`x-amz-checksum-${name}`, request.headers.get(`x-amz-checksum-${name}`) ?? "");
	}
	return new Response(null, { status: 200, headers });
}

/** `DELETE /<bucket>/<key>`: 204 whether or not the key existed, as S3 and R2 answer. */
export async function deleteObject(c: S3Context): Promise<Response> {
	await c.bucket.bucket.delete(c.key);
	return new Response(null, { status: 204 });
}
