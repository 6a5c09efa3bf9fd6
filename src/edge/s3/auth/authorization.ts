/**
 * What an S3 request claims about its signature, read from the `Authorization` header or from
 * the query of a presigned URL, with S3's errors for a malformed one
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-auth-using-authorization-header.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html).
 *
 * Nothing here is trusted yet: `verify.ts` checks the claim.
 */

import { S3Error } from "../errors";
import { SIGV4_ALGORITHM } from "./detect";
import type { Scope, SignatureInput } from "./sigv4";

/** A request's claim: who signed, what the signature covers, the signature, and a presigned URL's lifetime. */
export interface SignatureClaim {
	accessKeyId: string;
	input: SignatureInput;
	/** The signature as sent. */
	signature: string;
	/** When the request was signed, ms since the epoch (from `amzDate`). */
	signedAt: number;
	/** For a presigned URL, X-Amz-Expires in seconds; undefined for the header form. */
	expiresIn?: number;
}

/** The longest a presigned URL lives, 7 days in seconds (sigv4-query-string-auth, "X-Amz-Expires"). */
const MAX_PRESIGNED_SECONDS = 604_800;

/** Regions R2 takes in a credential scope: `auto`, and `us-east-1` and empty as its aliases (r2/api/s3/api). */
const REGIONS = new Set(["auto", "us-east-1", ""]);

const AMZ_DATE = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/;
const SIGNATURE = /^[0-9a-f]{64}$/;
const HEADER_NAMES = /^[a-z0-9-]+(;[a-z0-9-]+)*$/;
const PAYLOAD_HASH = /^([0-9a-f]{64}|UNSIGNED-PAYLOAD|STREAMING-[A-Z0-9-]+)$/;

/** `YYYYMMDDTHHMMSSZ` as ms since the epoch, or undefined when it is not such a date. */
function parseAmzDate(text: string): number | undefined {
	const m = AMZ_DATE.exec(text);
	if (m === null) return undefined;
	const [, y, mo, d, h, mi, s] = m.map(Number) as [number, number, number, number, number, number, number];
	const ms = Date.UTC(y, mo - 1, d, h, mi, s);
	return new Date(ms).getUTCDate() === d ? ms : undefined;
}

/** The parts of `<key id>/<date>/<region>/s3/aws4_request`, or a message saying what is wrong. */
function parseCredential(credential: string, amzDate: string): { accessKeyId: string; scope: Scope } | string {
	const parts = credential.split("/");
	if (parts.length !== 5)
		return `the Credential must be <access key id>/<date>/<region>/s3/aws4_request; got ${credential}`;
	const [accessKeyId = "", date = "", region = "", service = "", terminal = ""] = parts;
	if (date !== amzDate.slice(0, 8))
		return `the date of the Credential, ${date}, is not the date of X-Amz-Date, ${amzDate}`;
	if (!REGIONS.has(region)) return `the region '${region}' is wrong; expecting 'auto'`;
	if (service !== "s3") return `the service '${service}' is wrong; expecting 's3'`;
	if (terminal !== "aws4_request") return `the Credential must end with aws4_request; got ${terminal}`;
	return { accessKeyId, scope: { date, region, service } };
}

/**
 * The claim of the header form: `Authorization: AWS4-HMAC-SHA256 Credential=…, SignedHeaders=…,
 * Signature=…`, with `x-amz-date` and `x-amz-content-sha256`.
 * @throws S3Error 400 AuthorizationHeaderMalformed, 400 InvalidRequest without a payload hash,
 * 403 AccessDenied without a date.
 */
function fromHeader(request: Request, authorization: string): SignatureClaim {
	const fields = new Map<string, string>();
	for (const part of authorization.trim().slice(SIGV4_ALGORITHM.length).split(",")) {
		const at = part.indexOf("=");
		if (at > 0) fields.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
	}
	const credential = fields.get("Credential");
	const signedHeaders = fields.get("SignedHeaders");
	const signature = fields.get("Signature");
	const malformed = (why: string) =>
		new S3Error("AuthorizationHeaderMalformed", `The authorization header is malformed; ${why}.`);
	if (credential === undefined || signedHeaders === undefined || signature === undefined) {
		throw malformed("it must have Credential, SignedHeaders and Signature");
	}
	if (!HEADER_NAMES.test(signedHeaders))
		throw malformed(`SignedHeaders is not a list of header names: ${signedHeaders}`);
	if (!SIGNATURE.test(signature)) throw malformed("the Signature must be 64 lower-case hex digits");
	const amzDate = request.headers.get("x-amz-date");
	const signedAt = amzDate === null ? undefined : parseAmzDate(amzDate);
	if (amzDate === null || signedAt === undefined) {
		throw new S3Error("AccessDenied", "AWS authentication requires a valid Date or x-amz-date header");
	}
	const parsed = parseCredential(credential, amzDate);
	if (typeof parsed === "string") throw malformed(parsed);
	const names = signedHeaders.split(";");
	if (!names.includes("host")) throw malformed("SignedHeaders must include host");
	const payloadHash = request.headers.get("x-amz-content-sha256");
	if (payloadHash === null) {
		throw new S3Error("InvalidRequest", "Missing required header for this request: x-amz-content-sha256");
	}
	if (!PAYLOAD_HASH.test(payloadHash)) {
		throw new S3Error(
			"InvalidArgument",
			"x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-… or a SHA-256 in hex.",
		);
	}
	return {
		accessKeyId: parsed.accessKeyId,
		input: { amzDate, scope: parsed.scope, signedHeaders: names, payloadHash },
		signature,
		signedAt,
	};
}

/**
 * The claim of a presigned URL: `X-Amz-Algorithm`, `-Credential`, `-Date`, `-Expires`,
 * `-SignedHeaders` and `-Signature` in the query; the payload is `UNSIGNED-PAYLOAD`.
 * @throws S3Error 400 AuthorizationQueryParametersError naming what is missing or wrong.
 */
function fromQuery(query: URLSearchParams): SignatureClaim {
	const problem = (why: string) => new S3Error("AuthorizationQueryParametersError", why);
	const get = (name: string) => {
		const values = query.getAll(name);
		if (values.length !== 1) throw problem(`Query-string authentication version 4 requires one ${name} parameter.`);
		return values[0] ?? "";
	};
	if (get("X-Amz-Algorithm") !== SIGV4_ALGORITHM) throw problem(`X-Amz-Algorithm only supports "${SIGV4_ALGORITHM}".`);
	const amzDate = get("X-Amz-Date");
	const signedAt = parseAmzDate(amzDate);
	if (signedAt === undefined) throw problem("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\".");
	const expires = get("X-Amz-Expires");
	const expiresIn = Number(expires);
	if (!/^\d+$/.test(expires)) throw problem("X-Amz-Expires should be a number.");
	if (expiresIn > MAX_PRESIGNED_SECONDS) {
		throw problem(`X-Amz-Expires must be less than a week (in seconds) that is ${MAX_PRESIGNED_SECONDS}.`);
	}
	const parsed = parseCredential(get("X-Amz-Credential"), amzDate);
	if (typeof parsed === "string") throw problem(`Error parsing the X-Amz-Credential parameter; ${parsed}.`);
	const signedHeaders = get("X-Amz-SignedHeaders");
	if (!HEADER_NAMES.test(signedHeaders) || !signedHeaders.split(";").includes("host")) {
		throw problem("X-Amz-SignedHeaders must be a list of header names including host.");
	}
	const signature = get("X-Amz-Signature");
	if (!SIGNATURE.test(signature)) throw problem("X-Amz-Signature must be 64 lower-case hex digits.");
	const payloadHash = query.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD";
	if (!PAYLOAD_HASH.test(payloadHash))
		throw problem("X-Amz-Content-Sha256 must be UNSIGNED-PAYLOAD or a SHA-256 in hex.");
	return {
		accessKeyId: parsed.accessKeyId,
		input: {
			amzDate,
			scope: parsed.scope,
			signedHeaders: signedHeaders.split(";"),
			payloadHash,
			excludedParams: ["X-Amz-Signature"],
		},
		signature,
		signedAt,
		expiresIn,
	};
}

/**
 * The signature claim of an S3 request (one `isS3Request` recognised): the header form when the
 * request has an `Authorization` header, the presigned form otherwise.
 */
export function signatureClaim(request: Request, url: URL): SignatureClaim {
	const authorization = request.headers.get("authorization");
	return authorization !== null ? fromHeader(request, authorization) : fromQuery(url.searchParams);
}
