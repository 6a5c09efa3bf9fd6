/**
 * Typed API errors and the one place that turns any error into the envelope.
 *
 * Auth and routing answers are the real API's, word for word, as public reports quote them
 * (auth: cloudflare-python#2678, cloudflare-typescript#161, jeessy2/ddns-go#916,
 * hieunc229/mailflare#1; routing: timothymiller/cloudflare-ddns#152, Jazee6/cloudflare-ai-web#52).
 */
import type { Failure, Result } from "../zone/failure";
import { failure, type ResponseInfo } from "./envelope";

/** An error that already knows its HTTP status and its envelope entries. */
export class ApiError extends Error {
	constructor(
		readonly status: 400 | 401 | 403 | 404 | 405 | 409 | 413 | 500,
		readonly errors: ResponseInfo[],
		/** Leave `result` and `messages` out, as the real API does for 9106 and 10000. */
		readonly bare = false,
	) {
		super(errors.map((e) => `${e.message} (${e.code})`).join(", "));
	}

	/** The error as an envelope response. */
	toResponse(): Response {
		return failure(this.status, this.errors, this.bare);
	}
}

/** 400 9106: no credentials at all. */
export const missingCredentials = () =>
	new ApiError(400, [{ code: 9106, message: "Missing X-Auth-Key, X-Auth-Email or Authorization headers" }], true);

/** 400 6003 with an `error_chain` naming each malformed header (6102, 6103, 6111). */
export const invalidHeaders = (chain: { code: number; message: string }[]) =>
	new ApiError(400, [{ code: 6003, message: "Invalid request headers", error_chain: chain }]);

/** 403 9103: a well-formed key/email pair that matches no credential. */
export const unknownKey = () => new ApiError(403, [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }]);

/** 403 9109: a well-formed bearer token that matches no credential. */
export const invalidToken = () => new ApiError(403, [{ code: 9109, message: "Invalid access token" }]);

/**
 * 401 1000 "Invalid API Token": what `GET /user/tokens/verify` answers for a token it does not
 * know (the real API's code and message as third-party clients quote them, e.g.
 * putyourlightson/craft-cloudflare#88). No public source shows its status; edgezone answers 401,
 * the status of a credential that is not valid.
 */
export const invalidApiToken = () => new ApiError(401, [{ code: 1000, message: "Invalid API Token" }]);

/** 403 10000: the credential may not reach this zone (or create zones). */
export const forbidden = () => new ApiError(403, [{ code: 10000, message: "Authentication error" }], true);

/** 400 7000: no route has this path. */
export const noRoute = () => new ApiError(400, [{ code: 7000, message: "No route for that URI" }]);

/** 405 7001: the path exists but not for this method (trailing period as observed). */
export const methodNotAllowed = (method: string) =>
	new ApiError(405, [{ code: 7001, message: `Method ${method} not available for that URI.` }]);

/** 400 7003: an object identifier in the path is malformed (newer edge format: full path, no 7000). */
export const badIdentifier = (path: string) =>
	new ApiError(400, [
		{ code: 7003, message: `Could not route to ${path}, perhaps your object identifier is invalid?` },
	]);

/** 400 for a body that is not JSON at all. */
export const malformedJson = (code: number) =>
	new ApiError(400, [{ code, message: "invalid JSON: malformed request body" }]);

/**
 * 413 for a body over `limit` bytes: the status Cloudflare's edge answers for a request body
 * over its limit (workers/platform/limits), here in the API's envelope with the module's code.
 */
export const bodyTooLarge = (code: number, limit: number) =>
	new ApiError(413, [{ code, message: `request body is larger than ${limit} bytes` }]);

/** 400 for a body nested deeper than `limit` arrays and objects. */
export const nestedTooDeep = (code: number, limit: number) =>
	new ApiError(400, [{ code, message: `invalid JSON: nested deeper than ${limit} levels` }]);

/** Turns zone failures into an ApiError: 404 if any is a missing object, else 409 if any is a name taken, else 400. */
export function fromFailures(failures: Failure[]): ApiError {
	const status = failures.some((f) => f.kind === "not_found")
		? 404
		: failures.some((f) => f.kind === "conflict")
			? 409
			: 400;
	return new ApiError(
		status,
		failures.map(({ code, message, pointer, meta }) => ({
			code,
			message,
			...(pointer === undefined ? {} : { source: { pointer } }),
			...(meta === undefined ? {} : { meta }),
		})),
	);
}

/** The value of a successful Result, or throws its failures as an ApiError. */
export function unwrap<T>(result: Result<T>): T {
	if (!result.ok) throw fromFailures(result.failures);
	return result.value;
}

/** Hono's `onError`: typed errors answer themselves; anything else is a logged 500 in the envelope. */
export function toErrorResponse(error: unknown): Response {
	if (error instanceof ApiError) return error.toResponse();
	console.error("edgezone API: unexpected error", error);
	return failure(500, [{ code: 10001, message: "Internal server error" }]);
}
