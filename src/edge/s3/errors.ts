/**
 * S3's errors: the code, the status and the message S3 answers, as an XML `<Error>` document
 * with the request's id (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html,
 * "List of error codes"). R2's S3 API answers the same codes
 * (https://developers.cloudflare.com/r2/api/error-codes/).
 *
 * The gateway's errors (thrown by the helpers the dialect shares with it: ranges, conditionals,
 * metadata headers, checksums) and the binding's errors carry R2's error names, which are S3's
 * codes; `s3ErrorOf` turns either into an S3Error with the same code and status.
 */
import { R2_ERRORS } from "../../wire/error-codes";
import { fromBindingError } from "../gateway/errors";
import { type XmlContent, xmlDocument } from "./xml";

/** S3's status and default message of each code this dialect answers. */
const S3_CODES = {
	AccessDenied: { status: 403, message: "Access Denied" },
	AuthorizationHeaderMalformed: { status: 400, message: "The authorization header is malformed." },
	AuthorizationQueryParametersError: { status: 400, message: "Error parsing the X-Amz-Credential parameter." },
	InvalidAccessKeyId: {
		status: 403,
		message: "The AWS Access Key Id you provided does not exist in our records.",
	},
	SignatureDoesNotMatch: {
		status: 403,
		message:
			"The request signature we calculated does not match the signature you provided. Check your key and signing method.",
	},
	RequestTimeTooSkewed: {
		status: 403,
		message: "The difference between the request time and the current time is too large.",
	},
	InvalidToken: { status: 400, message: "The provided token is malformed or otherwise invalid." },
	ExpiredToken: { status: 400, message: "The provided token has expired." },
	XAmzContentSHA256Mismatch: {
		status: 400,
		message: "The provided 'x-amz-content-sha256' header does not match what was computed.",
	},
	InvalidArgument: { status: 400, message: "Invalid Argument" },
	IncompleteBody: {
		status: 400,
		message: "You did not provide the number of bytes specified by the Content-Length HTTP header.",
	},
	MalformedTrailerError: {
		status: 400,
		message: "The request contained trailing data that was not well-formed or did not conform to our published schema.",
	},
	MalformedXML: {
		status: 400,
		message: "The XML you provided was not well-formed or did not validate against our published schema.",
	},
	InvalidURI: { status: 400, message: "Couldn't parse the specified URI." },
	InvalidBucketName: { status: 400, message: "The specified bucket is not valid." },
	NoSuchBucket: { status: 404, message: "The specified bucket does not exist." },
	BucketAlreadyOwnedByYou: {
		status: 409,
		message: "Your previous request to create the named bucket succeeded and you already own it.",
	},
	BucketNotEmpty: { status: 409, message: "The bucket you tried to delete is not empty." },
	TooManyBuckets: { status: 400, message: "You have attempted to create more buckets than allowed." },
	InvalidLocationConstraint: { status: 400, message: "The specified location constraint is not valid." },
	NoSuchCORSConfiguration: { status: 404, message: "The CORS configuration does not exist." },
	NoSuchTagSet: { status: 404, message: "The TagSet does not exist." },
	NoSuchLifecycleConfiguration: { status: 404, message: "The lifecycle configuration does not exist." },
	ObjectLockConfigurationNotFoundError: {
		status: 404,
		message: "Object Lock configuration does not exist for this bucket.",
	},
	ReplicationConfigurationNotFoundError: { status: 404, message: "The replication configuration was not found." },
	InvalidEncryptionAlgorithmError: {
		status: 400,
		message: "The encryption request that you specified is not valid. The valid value is AES256.",
	},
	NotImplemented: { status: 501, message: "A header you provided implies functionality that is not implemented." },
	MethodNotAllowed: { status: 405, message: "The specified method is not allowed against this resource." },
	InvalidPartOrder: { status: 400, message: "The list of parts was not in ascending order." },
	InvalidPartNumber: { status: 416, message: "The requested partnumber is not satisfiable" },
	InvalidStorageClass: { status: 400, message: "The storage class you specified is not valid." },
} as const;

type S3Code = keyof typeof S3_CODES | keyof typeof R2_ERRORS;

/** An S3 error: code, status, message, and the elements S3 adds to some (`Key`, `BucketName`, ...). */
export class S3Error extends Error {
	readonly status: number;

	/**
	 * @param code S3's code; its status comes from S3's table (R2's for the codes both share).
	 * @param message sent as is; the table's default when absent.
	 * @param details further elements of the `<Error>` document.
	 * @param headers headers of the answer (Content-Range of a 416).
	 */
	constructor(
		readonly code: S3Code,
		message?: string,
		readonly details: Record<string, string> = {},
		readonly headers: Headers = new Headers(),
	) {
		const row = code in S3_CODES ? S3_CODES[code as keyof typeof S3_CODES] : R2_ERRORS[code as keyof typeof R2_ERRORS];
		super(message ?? row.message);
		this.name = "S3Error";
		this.status = row.status;
	}
}

/** 501 naming the operation (or the part of one) that this dialect does not do. */
export const notImplemented = (what: string) =>
	new S3Error("NotImplemented", `${what} is not implemented by this endpoint.`);

/** 403 for a caller whose permission does not cover the operation. */
export const accessDenied = (message?: string) => new S3Error("AccessDenied", message);

/**
 * The S3Error of anything thrown while answering: an S3Error as it is; the gateway's and the
 * binding's errors under their R2 name, which is S3's code (the gateway's 401 and 405 become
 * S3's 403 and 405); undefined for anything else (the caller answers 500 InternalError).
 */
export function s3ErrorOf(error: unknown): S3Error | undefined {
	if (error instanceof S3Error) return error;
	const known = fromBindingError(error);
	if (known === undefined) return undefined;
	if (known.kind === "Unauthorized") return accessDenied();
	// The gateway's 412 carries the object as JSON and its headers; S3's carries neither.
	const headers = known.kind === "PreconditionFailed" ? new Headers() : known.headers;
	const code = known.s3Code !== undefined && known.s3Code in S3_CODES ? (known.s3Code as S3Code) : known.kind;
	return new S3Error(code, known.message, {}, headers);
}

/**
 * The XML answer of an error, with `x-amz-request-id`. An answer to HEAD has no body (RFC 9110
 * §9.3.2): S3 clients read its status alone.
 *
 * Never compressed: a client that asked for `Accept-Encoding: gzip` itself (rclone does) reads the
 * body as sent, and a compressed `<Error>` reads as garbage ("XML syntax error … U+001F"), so the
 * client never learns why. `Content-Encoding: identity` stops wrangler dev, which otherwise
 * compresses an `application/xml` answer for a client that accepts gzip (workers-sdk,
 * packages/miniflare/src/workers/core/entry.worker.ts, `ensureAcceptableEncoding`: it leaves an
 * answer whose Content-Encoding is neither gzip nor br as it is), and the runtime, which
 * compresses only for gzip or br; `Cache-Control: no-transform` stops Cloudflare's edge
 * (https://developers.cloudflare.com/speed/optimization/content/compression/).
 */
export function s3ErrorAnswer(error: S3Error, method: string, requestId: string): Response {
	const headers = new Headers(error.headers);
	headers.set("x-amz-request-id", requestId);
	if (method === "HEAD") return new Response(null, { status: error.status, headers });
	headers.set("content-type", "application/xml");
	headers.set("content-encoding", "identity");
	headers.set("cache-control", "no-transform");
	const content: XmlContent = { Code: error.code, Message: error.message, ...error.details, RequestId: requestId };
	return new Response(xmlDocument("Error", content), { status: error.status, headers });
}
