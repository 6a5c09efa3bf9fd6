/**
 * Typed gateway errors and the mapping of R2 binding errors onto HTTP.
 *
 * The binding throws plain `Error`s whose message is `"<op>: <message> (<v4 code>)"`
 * (workerd `R2Result::throwIfError`): the code in the trailing parentheses is the only
 * structured part, so it is parsed out here. Codes and statuses follow R2's error-code
 * table (developers.cloudflare.com/r2/api/error-codes/); where R2 has no code for a case,
 * the HTTP status is the code (docs/gateway.md, "Errors").
 */

/** An error with its HTTP status and wire code; `app.ts` turns it into the JSON error body. */
export class GatewayError extends Error {
	/**
	 * @param status HTTP status of the answer.
	 * @param code R2 v4 error code, or the HTTP status where R2 has none.
	 * @param message Human-readable text, sent as is.
	 * @param object A JSON R2Object to send along (412 answers to reads carry the object).
	 * @param headers Headers of the answer (Content-Range of a 416, the object's headers on a 412).
	 */
	constructor(
		readonly status: number,
		readonly code: number,
		message: string,
		readonly object?: unknown,
		readonly headers: Headers = new Headers(),
	) {
		super(message);
		this.name = "GatewayError";
	}
}

/** 400 for a malformed request: range, query, JSON body or header. */
export const badRequest = (message: string) => new GatewayError(400, 400, message);

export const noSuchKey = () => new GatewayError(404, 10007, "The specified key does not exist.");

export const noSuchUpload = () => new GatewayError(404, 10024, "The specified multipart upload does not exist.");

export const preconditionFailed = (object?: unknown, headers?: Headers) =>
	new GatewayError(412, 10031, "At least one of the pre-conditions you specified did not hold.", object, headers);

export const missingContentLength = (message: string) => new GatewayError(411, 10033, message);

/** HTTP status for each R2 code the binding raises; R2's table, with 10024 as 404 as R2's S3 API answers. */
const STATUS_OF_CODE: Record<number, number> = {
	10007: 404,
	10011: 400,
	10012: 400,
	10014: 400,
	10020: 400,
	10022: 400,
	10024: 404,
	10025: 400,
	10029: 400,
	10031: 412,
	10037: 400,
	10039: 416,
	10048: 400,
	100100: 400,
};

const BINDING_MESSAGE = /^(?<op>\w+): (?<message>[\s\S]*) \((?<code>\d+)\)$/;

/**
 * Turns an error thrown by the R2 binding into a GatewayError, or returns undefined when it is
 * not a binding error with a code this gateway maps (the caller rethrows it as a 500).
 *
 * `TypeError`/`RangeError`s thrown by the binding's own argument checks (bad hash length,
 * several hash algorithms) are the client's fault and become 400s.
 */
export function fromBindingError(error: unknown): GatewayError | undefined {
	if (error instanceof GatewayError) return error;
	if (error instanceof TypeError || error instanceof RangeError) return badRequest(error.message);
	if (!(error instanceof Error)) return undefined;
	const match = BINDING_MESSAGE.exec(error.message);
	if (!match?.groups) return undefined;
	const code = Number(match.groups.code);
	const status = STATUS_OF_CODE[code];
	return status === undefined ? undefined : new GatewayError(status, code, match.groups.message ?? "");
}
