/**
 * Which edge requests speak S3: those signed with AWS Signature Version 4, in the
 * `Authorization` header or in the query of a presigned URL
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-auth-using-authorization-header.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), and a browser's
 * form upload (S3's PostObject, https://docs.aws.amazon.com/AmazonS3/latest/API/RESTObjectPOST.html),
 * whose signature travels in the form's fields, so that it is answered as R2 answers it: R2 does
 * not implement PostObject.
 *
 * A request signed with AWS Signature Version 2 (`isSigV2`: `Authorization: AWS <key>:<signature>`,
 * or a presigned URL's `AWSAccessKeyId` and `Signature`,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/Appendix-Sigv2.html) is S3's too, so that it
 * gets R2's refusal: R2 takes SigV4 only (https://developers.cloudflare.com/r2/api/s3/api/).
 *
 * Edgezone's choice: the signature, not a path prefix or a port, tells the dialects apart, so
 * S3 clients use the same address as everything else and the native dialect keeps every path it
 * has (its requests carry `Authorization: Bearer` or no credential at all).
 *
 * A request with no credential at all is S3's too when it is plainly an S3 client's
 * (`isPlainlyS3`), so that it gets R2's answer to an anonymous S3 request, 403 AccessDenied in
 * XML, rather than the native dialect's 401 JSON, which an S3 client cannot read. Plainly S3's:
 * - a header only S3 clients send: an `x-amz-*` the native dialect does not read (its own are
 *   `x-amz-meta-*`, `x-amz-checksum-*` and `x-amz-storage-class`), such as `x-amz-date`,
 *   `x-amz-content-sha256` or `x-amz-copy-source`, or the AWS SDKs' `amz-sdk-*` (their retry
 *   layer sends `amz-sdk-invocation-id` and `amz-sdk-request` on every attempt: smithy-typescript,
 *   `@smithy/core` `util-retry/constants`; botocore, `botocore/handlers.py`);
 * - a query parameter only S3 clients send: `list-type` (ListObjectsV2), the AWS SDKs' `x-id`,
 *   or a presigned URL's `X-Amz-*` without its algorithm;
 * - a Host naming a served bucket in virtual-host style (`virtual-host.ts`): the native dialect
 *   names its bucket with `x-r2-bucket`, never the Host;
 * - a path naming a served bucket alone (`/<bucket>`, path-style), with a query parameter the
 *   native dialect takes on no key (`?cors`, `?location`, `?prefix=`, `?delete`, …; its key
 *   operations' own `uploads`, `uploadId` and `partNumber` keep their native meaning).
 * None of these changes a request the native dialect answers with anything but a refusal, but
 * for a public (`PUBLIC_READ`) read of an object whose key is a bucket's name, with a query.
 */
import type { MaybePromise } from "../../../common/maybe-promise";
import { bucketNames } from "../../../runtime-buckets/catalog";
import { virtualHostBucket } from "../virtual-host";

/** The SigV4 algorithm's name, as the header and the query spell it. */
export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";

/**
 * Whether a request speaks S3: signed with SigV4 (`isSigned`) or SigV2 (`isSigV2`), a form
 * upload, or with no credential but plainly an S3 client's (`isPlainlyS3`).
 * A CORS preflight never is: browsers send it without credentials (Fetch standard, "CORS-preflight
 * fetch"), so the preflight of a presigned URL is answered by the gateway's CORS, as before.
 * @param now the request's time, ms since the epoch (the zone names' cache).
 */
export function isS3Request(request: Request, url: URL, env: Env, now: number): MaybePromise<boolean> {
	if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) return false;
	// Read once: each read of a header crosses into the runtime. With it the answer is known at once.
	const authorization = request.headers.get("authorization");
	if (authorization !== null) return signsSigV4(authorization) || signsSigV2(authorization);
	return (
		isSigned(request, url) || isSigV2(request, url) || isFormUpload(request, url) || isPlainlyS3(request, url, env, now)
	);
}

/** Whether an `Authorization` value is SigV2's: `AWS <AccessKeyId>:<Signature>`. */
const signsSigV2 = (authorization: string) => /^AWS [^\s:]+:/.test(authorization.trimStart());

/** Whether an `Authorization` value is SigV4's: `AWS4-HMAC-SHA256 …`. */
const signsSigV4 = (authorization: string) => authorization.trimStart().startsWith(`${SIGV4_ALGORITHM} `);

/**
 * Whether a request is signed with AWS Signature Version 2
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/Appendix-Sigv2.html): `Authorization: AWS
 * <AccessKeyId>:<Signature>` ("RESTAuthentication"), or, without an `Authorization` header, a
 * presigned URL's `AWSAccessKeyId` and `Signature` ("Query string request authentication") and no
 * SigV4 `X-Amz-Algorithm`.
 */
export function isSigV2(request: Request, url: URL): boolean {
	const authorization = request.headers.get("authorization");
	if (authorization !== null) return signsSigV2(authorization);
	return (
		url.searchParams.has("AWSAccessKeyId") &&
		url.searchParams.has("Signature") &&
		!url.searchParams.has("X-Amz-Algorithm")
	);
}

/** Whether a request is signed with SigV4: `Authorization: AWS4-HMAC-SHA256 …` or `?X-Amz-Algorithm=`. */
export function isSigned(request: Request, url: URL): boolean {
	const authorization = request.headers.get("authorization");
	if (authorization !== null) return signsSigV4(authorization);
	return url.searchParams.has("X-Amz-Algorithm");
}

/** The `x-amz-*` request headers the native dialect reads (docs/gateway.md). */
const isNativeAmzHeader = (name: string) =>
	name.startsWith("x-amz-meta-") || name.startsWith("x-amz-checksum-") || name === "x-amz-storage-class";

/** The query parameters any native operation on a key takes (`gateway/operations.ts`). */
const NATIVE_KEY_PARAMETERS = new Set(["uploads", "uploadId", "partNumber"]);

/**
 * Whether a request without a credential is plainly an S3 client's (the module's header says
 * which signals count, and why none shadows a native request).
 * @param now the request's time, ms since the epoch (the zone names' cache).
 */
async function isPlainlyS3(request: Request, url: URL, env: Env, now: number): Promise<boolean> {
	for (const name of request.headers.keys()) {
		if (name.startsWith("amz-sdk-") || (name.startsWith("x-amz-") && !isNativeAmzHeader(name))) return true;
	}
	const names = [...url.searchParams.keys()];
	if (names.some((name) => name === "list-type" || name === "x-id" || name.toLowerCase().startsWith("x-amz-"))) {
		return true;
	}
	let buckets: readonly string[];
	try {
		buckets = await bucketNames(env, now);
	} catch {
		// R2_BUCKETS is not valid: the native dialect answers, as it does not need it.
		return false;
	}
	const path = url.pathname.replace(/^\/|\/$/g, "");
	if (buckets.includes(path) && names.some((name) => !NATIVE_KEY_PARAMETERS.has(name))) return true;
	return (await virtualHostBucket(env, url.hostname, now)) !== undefined;
}

/**
 * Whether a request is an HTML form upload to a bucket (PostObject): a POST of
 * `multipart/form-data` with no query and no `Authorization`. The native dialect has no such
 * operation (its POSTs carry `?uploads`, `?uploadId` or `?delete`, and a token), so no path it
 * answers changes meaning.
 */
export function isFormUpload(request: Request, url: URL): boolean {
	return (
		request.method === "POST" &&
		url.search === "" &&
		!request.headers.has("authorization") &&
		(request.headers.get("content-type") ?? "").trimStart().toLowerCase().startsWith("multipart/form-data")
	);
}

/**
 * Whether a query parameter only says how a request was sent, not what it asks: a presigned
 * URL's `X-Amz-*` (its signature) or the AWS SDKs' `x-id` (the operation's name). An operation
 * that takes a fixed set of parameters lets these through.
 */
export function isTransportParameter(name: string): boolean {
	return name.startsWith("X-Amz-") || name === "x-id";
}
