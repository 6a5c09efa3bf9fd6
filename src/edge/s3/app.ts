/**
 * The S3 dialect of the bucket gateway: R2's S3-compatible API over the R2 bindings, on the same
 * address as the native dialect, for requests signed with SigV4 (`detect.ts`); the edge pipeline
 * calls it where it calls the gateway, after the zone's firewall and before its log tap.
 *
 * Order per request (edgezone's, following S3's: a caller learns nothing of the operations or the
 * buckets before its signature holds): a request signed with SigV2 is 401 Unauthorized and one
 * with no signature at all 403 AccessDenied, as R2 answers them; then the signature (`verify.ts`: malformed 400, unknown key,
 * wrong signature, an unsigned `x-amz-*` header, time), a presigned URL's signed `x-amz-*` query
 * parameters made the headers they name (`query-headers.ts`), the bucket and key from Host and path (`virtual-host.ts`), the operation from method, path and query (`operations.ts`: 405, or 501
 * NotImplemented naming it), the caller's R2 permission (`permissions.ts`: 403), the headers R2
 * refuses (`request-headers.ts`: 501), the bucket, declared or created (`served-bucket.ts`;
 * made first for R2's `cf-create-bucket-if-missing: true` on PutObject and CreateMultipartUpload,
 * https://developers.cloudflare.com/r2/api/s3/extensions/; 404 NoSuchBucket), the keys the caller reaches in it (403), the handler. Every error, thrown here, by the shared gateway helpers or by
 * the binding, becomes S3's XML error (`errors.ts`); every answer carries `x-amz-request-id`.
 *
 * CORS: a preflight is the gateway's (`detect.ts`), and every answer gets the CORS headers of its
 * bucket's rules (PutBucketCors, `cors/`) or, for a bucket without, the gateway's default
 * (`CORS_ORIGINS`), so a page may GET or PUT a presigned URL.
 *
 * Gaps (each answered 501 NotImplemented, never wrongly): the bucket configurations R2 does not
 * implement, and the Put and Delete of those it answers the same for every bucket
 * (`bucket-defaults.ts`).
 * `Expect: 100-continue` is workerd's: its HTTP server answers `100 Continue` before the Worker runs.
 */

import { lookupBucket } from "../../runtime-buckets/catalog";
import { withDefaultClass } from "../../runtime-buckets/default-class";
import { createBucket } from "../../runtime-buckets/manage";
import { withCors } from "../gateway/cors";
import { isFormUpload, isSigned, isSigV2 } from "./auth/detect";
import { authorize, authorizeKey, keyScope } from "./auth/permissions";
import { withQueryHeaders } from "./auth/query-headers";
import { authenticate } from "./auth/verify";
import { s3CorsRules } from "./cors/cached-rules";
import { notImplemented, S3Error, s3ErrorAnswer, s3ErrorOf } from "./errors";
import { addressOf, operationOf } from "./operations";
import { screenHeaders } from "./request-headers";
import { findBucket, s3ErrorOfFailure } from "./served-bucket";
import { withRecordedClasses } from "./storage-class/recorded";
import { virtualHostBucket } from "./virtual-host";

/** R2's message to a request signed with SigV2. */
const SIGV2_REFUSAL = "SigV2 authorization is not supported. Please use SigV4 instead.";

/** Whether a request asks for its bucket to be made if missing (R2's `cf-create-bucket-if-missing`). */
const createsMissingBucket = (request: Request, operation: string) =>
	(operation === "PutObject" || operation === "CreateMultipartUpload") &&
	request.headers.get("cf-create-bucket-if-missing") === "true";

/** Runs the operation a request asks for; errors of any kind come back thrown. */
async function dispatch(received: Request, receivedUrl: URL, env: Env): Promise<Response> {
	// Its signature is in the form's body, which is not read for an operation R2 does not have.
	if (isFormUpload(received, receivedUrl)) {
		throw notImplemented("PostObject (a browser form upload; use a presigned PUT)");
	}
	// R2 takes SigV4 only (developers.cloudflare.com/r2/api/s3/api/); its refusal of SigV2, 401 with
	// this code and message, is as R2's S3 endpoint answers it to SigV2 clients (seen in
	// github.com/vastsa/FileCodeBox/issues/95 and github.com/sansan0/TrendRadar/issues/664).
	if (isSigV2(received, receivedUrl)) throw new S3Error("Unauthorized", SIGV2_REFUSAL);
	// An S3 client's request with no credential (`detect.ts`): R2 serves no S3 operation anonymously.
	if (!isSigned(received, receivedUrl)) throw new S3Error("AccessDenied");
	const now = Date.now();
	const caller = await authenticate(received, receivedUrl, env, now);
	// From here on, a presigned URL's signed x-amz-* parameters are the headers they name.
	const { request, url } = withQueryHeaders(received, receivedUrl);
	const address = addressOf(url, await virtualHostBucket(env, url.hostname, now));
	const operation = operationOf(request, url, address);
	if (operation.handle === undefined) throw notImplemented(operation.name);
	authorize(caller.key, operation.access);
	screenHeaders(request.headers, operation.name);
	if (operation.scope === "service") return operation.handle({ request, url, env, caller });
	if (address.kind === "service") throw new S3Error("InternalError");
	if (operation.scope === "bucket-name")
		return operation.handle({ request, url, env, caller, bucketName: address.bucket });
	if (createsMissingBucket(request, operation.name) && (await lookupBucket(env, address.bucket)) === undefined) {
		// Creating a bucket asks what CreateBucket asks of the caller.
		authorize(caller.key, "manage-buckets");
		const created = await createBucket(env, { name: address.bucket, location: null, storageClass: "Standard" });
		// A request creating it at the same moment is no failure: the bucket is there.
		if (!created.ok && created.failures[0]?.kind !== "conflict") {
			throw s3ErrorOfFailure(created.failures, address.bucket);
		}
	}
	const found = await findBucket(env, address.bucket);
	const recorded = withRecordedClasses(found, env);
	const bucket = { ...recorded, bucket: withDefaultClass(recorded.bucket, found.created?.storageClass) };
	const scope = keyScope(caller.key, bucket.name, env);
	const key = address.kind === "object" ? address.key : "";
	if (address.kind === "object") authorizeKey(scope, key);
	return operation.handle({ request, url, env, caller, bucket, key, scope });
}

/**
 * Answers one S3 request.
 * @param url the request's URL, parsed once by the caller.
 * @param requestId the request's id for `x-amz-request-id` (the edge's ray id, so an answer can
 * be found in the zone's logs).
 * @returns the answer; never throws.
 */
export async function s3(request: Request, url: URL, env: Env, requestId: string): Promise<Response> {
	const rules = await s3CorsRules(request, url, env);
	return withCors(request, env, await answer(request, url, env, requestId), rules);
}

/**
 * The operation's answer, or the XML error of whatever it threw, with `x-amz-request-id` and
 * `Date`, which S3 sends on every answer
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/RESTCommonResponseHeaders.html) and workerd
 * does not add: the AWS SDKs correct a skewed clock from it after a RequestTimeTooSkewed.
 */
async function answer(request: Request, url: URL, env: Env, requestId: string): Promise<Response> {
	let response: Response;
	try {
		response = await dispatch(request, url, env);
		response.headers.set("x-amz-request-id", requestId);
	} catch (error) {
		const known = s3ErrorOf(error);
		if (!known) console.error("s3: unexpected error", error);
		response = s3ErrorAnswer(known ?? new S3Error("InternalError"), request.method, requestId);
	}
	response.headers.set("date", new Date().toUTCString());
	return response;
}
