/**
 * Gateway errors as HTTP answers: one constructor per error of the table in
 * src/wire/error-codes.ts, and the mapping of R2 binding errors onto the same table.
 *
 * The binding throws plain `Error`s whose message is `"<op>: <message> (<v4 code>)"`
 * (workerd `R2Result::throwIfError`): the code in the trailing parentheses is the only
 * structured part, so it is parsed out and looked up in the table.
 */
import { bindingError, parseBindingMessage, R2_ERRORS, type R2ErrorName } from "../../wire/error-codes";

/** An error with its HTTP status and wire code; `app.ts` turns it into the JSON error body. */
export class GatewayError extends Error {
	/** HTTP status of the answer. */
	readonly status: number;
	/** R2 v4 error code, or the HTTP status where R2 has none. */
	readonly code: number;

	/**
	 * @param kind the row of the error table this error is.
	 * @param message Human-readable text, sent as is; the table's default when absent.
	 * @param object A JSON R2Object to send along (412 answers to reads carry the object).
	 * @param headers Headers of the answer (Content-Range of a 416, the object's headers on a 412).
	 * @param s3Code the S3 dialect's code for the error, where S3 names the case and R2's table
	 * does not (the S3 dialect answers `kind` otherwise).
	 */
	constructor(
		readonly kind: R2ErrorName,
		message: string = R2_ERRORS[kind].message,
		readonly object?: unknown,
		readonly headers: Headers = new Headers(),
		readonly s3Code?: string,
	) {
		super(message);
		this.name = "GatewayError";
		this.status = R2_ERRORS[kind].status;
		this.code = R2_ERRORS[kind].code;
	}
}

/** 400 for a malformed request: range, query, JSON body or header. */
export const badRequest = (message: string) => new GatewayError("InvalidRequest", message);

/**
 * 400 for a storage class R2 does not have: `InvalidRequest` here (R2 has no code of its own for
 * it), S3's `InvalidStorageClass` in the S3 dialect, as R2's S3 API answers it
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html).
 */
export const invalidStorageClass = (message: string) =>
	new GatewayError("InvalidRequest", message, undefined, new Headers(), "InvalidStorageClass");

/** 500 (10001) for what the gateway did not expect, or a deployment mistake it can name. */
export const internalError = (message?: string) => new GatewayError("InternalError", message);

/** 401 (10002) without a valid token; RFC 6750 §3: it names the scheme it wants. */
export const unauthorized = (message: string) =>
	new GatewayError("Unauthorized", message, undefined, new Headers({ "www-authenticate": 'Bearer realm="edgezone"' }));

/** 403 (10003) for a read-only token writing. */
export const accessDenied = () => new GatewayError("AccessDenied");

/** 404 (10006) for an `x-r2-bucket` that names no bound bucket. */
export const noSuchBucket = (name: string) =>
	new GatewayError("NoSuchBucket", `The specified bucket does not exist: ${name} is not a bucket of this gateway.`);

/** 404 (10007). */
export const noSuchKey = () => new GatewayError("NoSuchKey");

/** 400 (10014) for a checksum header that is not a digest. */
export const invalidDigest = (message: string) => new GatewayError("InvalidDigest", message);

/** 400 (10020) for a key R2 does not take. */
export const invalidObjectName = () => new GatewayError("InvalidObjectName");

/** 400 (10022) for a list `limit` out of range, with the binding's message. */
export const invalidMaxKeys = () => new GatewayError("InvalidMaxKeys");

/** 412 (10031); a read's carries the object as JSON and its headers. */
export const preconditionFailed = (object?: unknown, headers?: Headers) =>
	new GatewayError("PreconditionFailed", undefined, object, headers);

/** 411 (10033) for a body without Content-Length where one is needed. */
export const missingContentLength = (message: string) => new GatewayError("MissingContentLength", message);

/**
 * 400 (10037) for a body whose `label` digest (`MD5`, `SHA-256`…) is `actualHex`, not the
 * `providedHex` sent, where the gateway checks it rather than the binding: in the binding's own
 * words, so the answer is the one a PUT's `put()` gives (Miniflare's R2 `BadDigest`, workers-sdk
 * `packages/miniflare/src/workers/r2/errors.worker.ts`).
 */
export const digestMismatch = (label: string, providedHex: string, actualHex: string) =>
	new GatewayError(
		"BadDigest",
		`The ${label} checksum you specified did not match what we received.\n` +
			`You provided a ${label} checksum with value: ${providedHex}\n` +
			`Actual ${label} was: ${actualHex}`,
	);

/** 416 (10039) naming the object's size in Content-Range, as RFC 9110 §15.5.17 asks. */
export const rangeNotSatisfiable = (size: number) =>
	new GatewayError("InvalidRange", undefined, undefined, new Headers({ "content-range": `bytes */${size}` }));

/** 405 with the methods the path takes in `Allow` (RFC 9110 §15.5.6). */
export const methodNotAllowed = (method: string, allow: string) =>
	new GatewayError("MethodNotAllowed", `Method ${method} is not allowed here.`, undefined, new Headers({ allow }));

/**
 * Turns an error thrown by the R2 binding into a GatewayError, or returns undefined when it is
 * not a binding error with a code this gateway passes through (the caller answers 500).
 *
 * `TypeError`/`RangeError`s thrown by the binding's own argument checks (bad hash length,
 * several hash algorithms) are the client's fault and become 400s.
 */
export function fromBindingError(error: unknown): GatewayError | undefined {
	if (error instanceof GatewayError) return error;
	if (error instanceof TypeError || error instanceof RangeError) return badRequest(error.message);
	if (!(error instanceof Error)) return undefined;
	const parsed = parseBindingMessage(error.message);
	const kind = parsed === undefined ? undefined : bindingError(parsed.code);
	return kind === undefined ? undefined : new GatewayError(kind, parsed?.message);
}
