/**
 * HEAD, GET, PUT and DELETE of one key: `head`, `get`, `put` and `delete` of the binding.
 *
 * Emulates: ranges (RFC 9110 §14), conditionals (§13) and the metadata headers of
 * docs/gateway.md, with one binding call per request, including 304/412 and range answers.
 * Bodies stream both ways; responses use `encodeBody: "manual"` so an object stored with a
 * Content-Encoding goes out byte for byte instead of being compressed again by the runtime.
 * Gaps: `If-Range` (the binding has none), multiple ranges (R2 serves one).
 */

import { objectToJson } from "../../wire/object-json";
import { contentRange, isSatisfiable, type ParsedRange, parseRange, servedRange } from "../../wire/ranges";
import { putChunked } from "./chunked";
import { evaluate, failureStatus, hasConditionals, parseConditionals, toOnlyIf } from "./conditionals";
import type { GatewayContext } from "./context";
import { badRequest, missingContentLength, noSuchKey, preconditionFailed, rangeNotSatisfiable } from "./errors";
import {
	type AnswerOptions,
	answerOptions,
	objectHeaders,
	requestedChecksums,
	withChecksums,
	writeMetadataFromHeaders,
} from "./headers";
import { jsonAnswer } from "./json-answer";

/** The parsed Range of a request; malformed ones end here with a 400. */
function requestedRange(request: Request): Exclude<ParsedRange, { kind: "invalid" }> {
	const parsed = parseRange(request.headers.get("range"));
	if (parsed.kind === "invalid") throw badRequest(parsed.reason);
	return parsed;
}

/**
 * 304 or 412 for a read whose condition failed; 412 carries the object in its JSON body, which is
 * not the object's bytes, so its Content-Encoding goes in `x-r2-content-encoding` as for a raw read.
 */
function conditionFailed(status: 304 | 412, object: R2Object, options: AnswerOptions): Response {
	if (status === 412) {
		throw preconditionFailed(objectToJson(object), objectHeaders(object, { ...options, raw: true }));
	}
	const headers = objectHeaders(object, options);
	// RFC 9110 §8.6: a 304 may carry the Content-Length a 200 would have, which tells clients the size.
	headers.set("content-length", String(object.size));
	return new Response(null, { status: 304, headers, encodeBody: "manual" });
}

/**
 * The 200 or 206 answer to a read whose conditions held: the whole object, or the requested range
 * with its Content-Range; a range the object cannot satisfy ends here as a 416 (its body cancelled).
 * @param body the object's body, or null for HEAD.
 */
async function readAnswer(
	range: Exclude<ParsedRange, { kind: "invalid" }>,
	object: R2Object,
	options: AnswerOptions,
	body: ReadableStream | null,
): Promise<Response> {
	const headers = objectHeaders(object, options);
	if (range.kind === "none") {
		headers.set("content-length", String(object.size));
		return new Response(body, { status: 200, headers, encodeBody: "manual" });
	}
	if (range.kind === "unsatisfiable" || !isSatisfiable(range.range, object.size)) {
		await body?.cancel();
		throw rangeNotSatisfiable(object.size);
	}
	const served = servedRange(range.range, object.size);
	headers.set("content-range", contentRange(served, object.size));
	headers.set("content-length", String(served.length));
	return new Response(body, { status: 206, headers, encodeBody: "manual" });
}

/** `HEAD /{key}`: `head()`, with conditionals and Range evaluated on its metadata. */
export async function headObject(c: GatewayContext): Promise<Response> {
	const { request } = c;
	const conditions = parseConditionals(request.headers, c.etagsAsQuoted);
	const range = requestedRange(request);
	const object = await c.bucket.head(c.key);
	if (object === null) throw noSuchKey();
	const options = answerOptions(request.headers);
	const failed = evaluate(conditions, object, true);
	if (failed !== undefined) return conditionFailed(failed, object, options);
	return readAnswer(range, object, options, null);
}

/**
 * `GET /{key}`: one `get()` with `onlyIf` and `range`; 200, 206, 304, 412 or 416 from its result.
 *
 * The range goes to R2 as a `Range` header rather than an R2Range: R2 then serves a satisfiable
 * range and the whole object otherwise, never an error, so the size a 416 must name comes from
 * the same call (an R2Range past the end makes Miniflare fail with an internal error).
 */
export async function getObject(c: GatewayContext): Promise<Response> {
	const { request } = c;
	const conditions = parseConditionals(request.headers, c.etagsAsQuoted);
	const range = requestedRange(request);
	const object = await c.bucket.get(c.key, {
		onlyIf: toOnlyIf(conditions),
		range: range.kind === "range" ? new Headers({ range: request.headers.get("range") ?? "" }) : undefined,
		ssecKey: c.ssecKey,
	});
	if (object === null) throw noSuchKey();
	const options = answerOptions(request.headers);
	if (!("body" in object)) return conditionFailed(failureStatus(conditions, object), object, options);
	return readAnswer(range, object, options, object.body);
}

/**
 * `PUT /{key}`: streams the body into `put()` with metadata, checksums, storage class and
 * conditions from the headers; a body without Content-Length goes through `putChunked`.
 * Answers 200 with the object as JSON, or 412 with nothing stored.
 */
export async function putObject(c: GatewayContext): Promise<Response> {
	const { request } = c;
	const conditions = parseConditionals(request.headers, c.etagsAsQuoted);
	const checksums = requestedChecksums(request.headers);
	const options: R2PutOptions = writeMetadataFromHeaders(request.headers);
	if (checksums.length > 1) {
		throw badRequest("Send one checksum per PUT: R2 verifies one algorithm per object.");
	}
	let object: R2Object | null;
	if (request.body !== null && request.headers.get("content-length") === null) {
		if (hasConditionals(conditions)) {
			throw missingContentLength("A conditional PUT must send Content-Length.");
		}
		object = await putChunked(c.bucket, c.key, request.body, options, checksums);
	} else {
		withChecksums(options, checksums);
		options.onlyIf = toOnlyIf(conditions);
		object = await c.bucket.put(c.key, request.body ?? "", options);
	}
	if (object === null) throw preconditionFailed();
	return jsonAnswer(objectToJson(object), { headers: { etag: object.httpEtag } });
}

/** `DELETE /{key}`: `delete(key)`; 204 whether or not the key existed, as R2 answers. */
export async function deleteObject(c: GatewayContext): Promise<Response> {
	await c.bucket.delete(c.key);
	return new Response(null, { status: 204 });
}
