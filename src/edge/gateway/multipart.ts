/**
 * Multipart uploads: `createMultipartUpload`, and `uploadPart`, `complete`, `abort` of the
 * upload a `(key, uploadId)` pair names (`resumeMultipartUpload`, which checks nothing).
 *
 * Parts stream into R2. R2's rules hold as the binding enforces them: parts of equal size but
 * the last, at least 5 MiB but the last, numbers 1 to 10000 (developers.cloudflare.com/r2/objects/multipart-objects/).
 * Client quirk handled here: for an upload id it does not know, the binding's complete and
 * abort fail with an internal error (10001) while uploadPart says 10024; all three answer 404 10024.
 * The binding's complete also answers 10001 to a list naming a part number twice (Miniflare
 * `completeMultipartUpload`), which is not an unknown upload: that 10001 is answered as it is.
 */
import { z } from "zod";
import { parseBindingMessage, R2_ERRORS } from "../../wire/error-codes";
import { isPartNumber, MAX_PART_NUMBER, MIN_PART_NUMBER } from "../../wire/limits";
import { objectToJson } from "../../wire/object-json";
import type { GatewayContext } from "./context";
import { badRequest, missingContentLength, noSuchUpload } from "./errors";
import { writeMetadataFromHeaders } from "./headers";
import { jsonAnswer } from "./json-answer";
import { readJsonBody } from "./json-body";

/** The upload a request names with `?uploadId=`. */
function upload(c: GatewayContext): R2MultipartUpload {
	const uploadId = c.url.searchParams.get("uploadId");
	if (!uploadId) throw badRequest("uploadId must not be empty.");
	return c.bucket.resumeMultipartUpload(c.key, uploadId);
}

/** Runs a call on an upload, answering 404 10024 where the binding reports an unknown upload as 10001. */
async function onUpload<T>(call: () => Promise<T>): Promise<T> {
	try {
		return await call();
	} catch (error) {
		const code = error instanceof Error ? parseBindingMessage(error.message)?.code : undefined;
		if (code === R2_ERRORS.InternalError.code) throw noSuchUpload();
		throw error;
	}
}

/** `POST /{key}?uploads`: starts an upload with the metadata and storage class of the headers. */
export async function createMultipartUpload(c: GatewayContext): Promise<Response> {
	const created = await c.bucket.createMultipartUpload(c.key, writeMetadataFromHeaders(c.request.headers));
	return jsonAnswer({ key: created.key, uploadId: created.uploadId });
}

const PART_NUMBER = /^\d{1,5}$/;

/** `PUT /{key}?uploadId=&partNumber=`: streams one part; answers `{partNumber, etag}`. */
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
	const part = await onUpload(() => upload(c).uploadPart(partNumber, request.body ?? ""));
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
	const complete = () => upload(c).complete(parts);
	const repeated = new Set(parts.map((part) => part.partNumber)).size < parts.length;
	const object = repeated ? await complete() : await onUpload(complete);
	return jsonAnswer(objectToJson(object), { headers: { etag: object.httpEtag } });
}

/** `DELETE /{key}?uploadId=`: aborts the upload; 204. */
export async function abortMultipartUpload(c: GatewayContext): Promise<Response> {
	await onUpload(() => upload(c).abort());
	return new Response(null, { status: 204 });
}
