/**
 * Multipart uploads: `createMultipartUpload`, and `uploadPart`, `complete`, `abort` of the
 * upload a `(key, uploadId)` pair names (`resumeMultipartUpload`, which checks nothing).
 *
 * Parts stream into R2. R2's rules hold as the binding enforces them: parts of equal size but
 * the last, at least 5 MiB but the last, numbers 1 to 10000 (developers.cloudflare.com/r2/objects/multipart-objects/).
 * The binding's errors are answered as they are, so RemoteBucket throws what the binding throws.
 * That includes an upload id it does not know: uploadPart fails with 10024, but complete and abort
 * with an internal error, 500 (10001), as do complete and abort under a key other than the
 * upload's (Miniflare `completeMultipartUpload` / `abortMultipartUpload` find no upload row and
 * throw `InternalError`). An upload that was completed or aborted is 10024 to complete, and
 * abort of it succeeds.
 *
 * Each operation the binding did is recorded in the bucket's ledger
 * (src/bucket/bucket-ledger.ts), so the S3 dialect lists these uploads and their parts. A part
 * of an upload begun through S3 with a flexible checksum (`x-amz-checksum-algorithm`) gets its
 * checksum of that algorithm computed as it streams and recorded, as S3 computes one for a part
 * sent without it, so the S3 dialect lists it and completes the upload with the object's checksum.
 *
 * A part's Content-MD5 is checked here, as it streams, in the S3 dialect's body loop
 * (src/edge/s3/body/body-pump.ts): the binding's `uploadPart` takes no digest (its options,
 * `R2UploadPartOptions`, hold only `ssecKey`: developers.cloudflare.com/r2/api/workers/workers-api-reference/),
 * where `put` checks its `md5`. A mismatch fails the stream before its last block reaches the
 * binding, so no part is stored (nor one of that number replaced), and is answered as `put`'s is.
 */
import { z } from "zod";
import { bucketLedger, openUpload } from "../../bucket/bucket-ledger";
import { toHex } from "../../common/encoding";
import { isPartNumber, MAX_PART_NUMBER, MIN_PART_NUMBER } from "../../wire/limits";
import { objectToJson } from "../../wire/object-json";
import { type BodyCheck, pumpBody } from "../s3/body/body-pump";
import { badDigest, digestCheck } from "../s3/body/payload";
import { checksumCheck } from "../s3/checksums/checksums";
import { ledgerNameOf } from "./buckets";
import type { GatewayContext } from "./context";
import { badRequest, digestMismatch, type GatewayError, missingContentLength } from "./errors";
import { requestedChecksums, writeMetadataFromHeaders } from "./headers";
import { jsonAnswer } from "./json-answer";
import { readJsonBody } from "./json-body";

/** The ledger of the request's bucket. */
const ledger = async (c: GatewayContext) => bucketLedger(c.env, await ledgerNameOf(c.request, c.env));

/** The upload a request names with `?uploadId=`. */
function upload(c: GatewayContext): R2MultipartUpload {
	const uploadId = c.url.searchParams.get("uploadId");
	if (!uploadId) throw badRequest("uploadId must not be empty.");
	return c.bucket.resumeMultipartUpload(c.key, uploadId);
}

/** `POST /{key}?uploads`: starts an upload with the metadata and storage class of the headers. */
export async function createMultipartUpload(c: GatewayContext): Promise<Response> {
	const options = writeMetadataFromHeaders(c.request.headers);
	const created = await c.bucket.createMultipartUpload(c.key, options);
	const ledgerName = await ledgerNameOf(c.request, c.env);
	await bucketLedger(c.env, ledgerName).created(ledgerName, {
		uploadId: created.uploadId,
		key: created.key,
		initiated: Date.now(),
		storageClass: options.storageClass ?? "Standard",
	});
	return jsonAnswer({ key: created.key, uploadId: created.uploadId });
}

const PART_NUMBER = /^\d{1,5}$/;

/**
 * A part's `Content-MD5`, the 16 bytes it names, or undefined when none is sent. Only this
 * header: a part's `x-amz-checksum-*` are not read here.
 * @throws GatewayError 400 (10014) for a value that is not base64 of 16 bytes, as a PUT's is.
 */
function contentMd5Of(headers: Headers): Uint8Array | undefined {
	const value = headers.get("content-md5");
	return value === null ? undefined : requestedChecksums(new Headers({ "content-md5": value }))[0]?.digest;
}

/**
 * `PUT /{key}?uploadId=&partNumber=`: streams one part; answers `{partNumber, etag}`. A
 * Content-MD5 is checked as the part streams; in an upload with a flexible checksum, the part's
 * checksum is computed on the way and recorded.
 * @throws GatewayError 400 for a bad part number or an upload created with an SSE-C key (through
 * S3), 400 (10014) for a malformed Content-MD5, 400 (10037) for a part that does not match it
 * (no part stored), 411 for a body without Content-Length; the binding's errors as it throws them.
 */
export async function uploadPart(c: GatewayContext): Promise<Response> {
	const text = c.url.searchParams.get("partNumber") ?? "";
	const partNumber = Number(text);
	if (!PART_NUMBER.test(text) || !isPartNumber(partNumber)) {
		throw badRequest(`partNumber must be an integer from ${MIN_PART_NUMBER} to ${MAX_PART_NUMBER}; got ${text}.`);
	}
	const { request } = c;
	if (request.body !== null && request.headers.get("content-length") === null) {
		throw missingContentLength("A part must be sent with Content-Length.");
	}
	const md5 = contentMd5Of(request.headers);
	const handle = upload(c);
	const size = Number(request.headers.get("content-length") ?? 0);
	const recorded = await openUpload(await ledger(c), c.key, handle.uploadId);
	if (recorded?.ssecKeyMd5 !== undefined) {
		throw badRequest(
			"This upload was created with an SSE-C key, which this dialect cannot send: upload its parts through S3.",
		);
	}
	const checks: BodyCheck[] = [];
	let mismatch: GatewayError | undefined;
	if (md5 !== undefined) {
		const expected = toHex(md5);
		checks.push(
			digestCheck("MD5", expected, (actual) => {
				mismatch = digestMismatch("MD5", expected, actual);
				// The S3 error only fails the stream; this dialect answers `mismatch`.
				return badDigest("Content-MD5");
			}),
		);
	}
	const algorithm = recorded?.checksum?.algorithm;
	const computing = algorithm === undefined ? undefined : checksumCheck(algorithm);
	if (computing !== undefined) checks.push(computing);
	// Only a part with a check goes through the S3 dialect's body loop: any other is the request's
	// own stream, which the binding reads with no JavaScript between.
	const body =
		checks.length === 0
			? (request.body ?? "")
			: pumpBody(request.body ?? new Blob([]).stream(), size, undefined, checks).stream;
	let part: R2UploadedPart;
	try {
		part = await handle.uploadPart(partNumber, body);
	} catch (error) {
		throw mismatch ?? error;
	}
	const checksum = computing?.digest();
	await (await ledger(c)).partUploaded(handle.uploadId, c.key, {
		partNumber,
		etag: part.etag,
		size,
		uploaded: Date.now(),
		...(checksum === undefined ? {} : { checksum }),
	});
	return jsonAnswer({ partNumber: part.partNumber, etag: part.etag });
}

const CompleteRequest = z.object({
	parts: z
		.array(
			z.object({
				partNumber: z.number().int().min(MIN_PART_NUMBER).max(MAX_PART_NUMBER),
				etag: z.string().min(1),
			}),
		)
		// An empty list is allowed: R2 then stores an empty object (etag `d41d8…-0`).
		.max(MAX_PART_NUMBER),
});

/** `POST /{key}?uploadId=` with `{"parts": [{partNumber, etag}]}`: completes; answers the object as JSON. */
export async function completeMultipartUpload(c: GatewayContext): Promise<Response> {
	const { parts } = await readJsonBody(c.request, CompleteRequest, '{"parts": [{"partNumber": 1, "etag": "…"}]}');
	const handle = upload(c);
	const object = await handle.complete(parts);
	await (await ledger(c)).finished(handle.uploadId, c.key, "completed", Date.now(), {
		etag: object.etag,
		version: object.version,
		partNumbers: parts.map((part) => part.partNumber),
	});
	return jsonAnswer(objectToJson(object), { headers: { etag: object.httpEtag } });
}

/** `DELETE /{key}?uploadId=`: aborts the upload; 204. */
export async function abortMultipartUpload(c: GatewayContext): Promise<Response> {
	const handle = upload(c);
	await handle.abort();
	await (await ledger(c)).finished(handle.uploadId, c.key, "aborted", Date.now());
	return new Response(null, { status: 204 });
}
