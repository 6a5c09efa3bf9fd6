/**
 * The error codes of R2 as the gateway answers them: one row per error, with its HTTP status, its
 * code and its default message (developers.cloudflare.com/r2/api/error-codes/; the shape of
 * Miniflare's `src/workers/r2/errors.worker.ts`).
 *
 * Where R2 has no code for a case (a malformed request, a method the path does not take), the
 * HTTP status is the code (docs/gateway.md, "Errors"). `binding` marks the codes the R2 binding
 * throws that the gateway answers as they are, with the binding's message, so RemoteBucket throws
 * the binding's error; the binding's 10001 is one (complete and abort of an unknown upload, and a
 * complete naming a part number twice).
 */

/** One error: HTTP status, wire code, the message sent when the case has nothing more precise. */
export interface R2ErrorCode {
	status: number;
	code: number;
	message: string;
	/** Set for codes the binding throws (`"<op>: <message> (<code>)"`) that pass through as they are. */
	binding?: true;
}

/** Every error the gateway answers, by R2's (S3) name. */
export const R2_ERRORS = {
	InvalidRequest: { status: 400, code: 400, message: "The request is not valid." },
	InternalError: {
		status: 500,
		code: 10001,
		message: "We encountered an internal error. Please try again.",
		binding: true,
	},
	Unauthorized: { status: 401, code: 10002, message: "The token is not valid." },
	AccessDenied: { status: 403, code: 10003, message: "The token may read but not write." },
	NoSuchBucket: { status: 404, code: 10006, message: "The specified bucket does not exist." },
	NoSuchKey: { status: 404, code: 10007, message: "The specified key does not exist.", binding: true },
	EntityTooSmall: {
		status: 400,
		code: 10011,
		message: "Your proposed upload is smaller than the minimum allowed object size.",
		binding: true,
	},
	MetadataTooLarge: {
		status: 400,
		code: 10012,
		message: "Your metadata headers exceed the maximum allowed metadata size.",
		binding: true,
	},
	InvalidDigest: {
		status: 400,
		code: 10014,
		message: "The checksum you specified is not valid.",
		binding: true,
	},
	InvalidObjectName: { status: 400, code: 10020, message: "The specified object name is not valid.", binding: true },
	InvalidMaxKeys: {
		status: 400,
		code: 10022,
		message: "MaxKeys params must be positive integer <= 1000.",
		binding: true,
	},
	NoSuchUpload: {
		status: 404,
		code: 10024,
		message: "The specified multipart upload does not exist.",
		binding: true,
	},
	InvalidPart: {
		status: 400,
		code: 10025,
		message: "One or more of the specified parts could not be found.",
		binding: true,
	},
	InvalidArgument: { status: 400, code: 10029, message: "Invalid argument.", binding: true },
	PreconditionFailed: {
		status: 412,
		code: 10031,
		message: "At least one of the pre-conditions you specified did not hold.",
		binding: true,
	},
	MissingContentLength: { status: 411, code: 10033, message: "You must provide the Content-Length HTTP header." },
	BadDigest: {
		status: 400,
		code: 10037,
		message: "The checksum you specified did not match what we received.",
		binding: true,
	},
	InvalidRange: { status: 416, code: 10039, message: "The requested range is not satisfiable", binding: true },
	BadUpload: {
		status: 400,
		code: 10048,
		message: "All non-trailing parts must have the same length.",
		binding: true,
	},
	EntityTooLarge: {
		status: 400,
		code: 100100,
		message: "Your proposed upload exceeds the maximum allowed object size.",
		binding: true,
	},
	MethodNotAllowed: { status: 405, code: 405, message: "The method is not allowed here." },
} as const satisfies Record<string, R2ErrorCode>;

/** The name of one error of the table. */
export type R2ErrorName = keyof typeof R2_ERRORS;

const BINDING_CODES = new Map<number, R2ErrorName>(
	(Object.keys(R2_ERRORS) as R2ErrorName[])
		.filter((name) => "binding" in R2_ERRORS[name])
		.map((name) => [R2_ERRORS[name].code, name]),
);

/** The error the binding's `code` stands for, or undefined when the gateway does not pass it through. */
export function bindingError(code: number): R2ErrorName | undefined {
	return BINDING_CODES.get(code);
}

const BINDING_MESSAGE = /^(?<op>\w+): (?<message>[\s\S]*) \((?<code>\d+)\)$/;

/**
 * Splits a binding error's message, `"<op>: <message> (<code>)"` (workerd
 * `R2Result::throwIfError`), into its parts; undefined for any other text.
 */
export function parseBindingMessage(text: string): { op: string; message: string; code: number } | undefined {
	const groups = BINDING_MESSAGE.exec(text)?.groups;
	if (groups === undefined) return undefined;
	return { op: groups.op ?? "", message: groups.message ?? "", code: Number(groups.code) };
}

/** A message in the binding's form, `"<op>: <message> (<code>)"`, the inverse of `parseBindingMessage`. */
export function bindingMessage(op: string, message: string, code: number): string {
	return `${op}: ${message} (${code})`;
}

/** The header that carries an error answer's code, on every error answer. */
export const ERROR_CODE_HEADER = "x-r2-error-code";

/**
 * The header that carries an error answer's message where the answer has no body (HEAD): as an
 * RFC 2047 encoded word when it is not printable ASCII, since header values cannot hold line
 * breaks or arbitrary Unicode (a BadDigest message has both).
 */
export const ERROR_MESSAGE_HEADER = "x-r2-error-message";
