/**
 * Who sent an S3 request, in S3's order of checks: the signature's claim is read (a malformed one
 * is a 400), its Access Key ID looked up (403 InvalidAccessKeyId), the signature recomputed with
 * the key's secret and compared (403 SignatureDoesNotMatch), then the time: a header-signed
 * request more than 15 minutes from the server's clock is 403 RequestTimeTooSkewed, a presigned
 * URL past its X-Amz-Expires (or signed more than 15 minutes ahead) 403 AccessDenied
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-auth-using-authorization-header.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html).
 *
 * A signature holds only if it covers every `x-amz-*` header the request carries
 * (`signed-headers.ts`: 403 AccessDenied naming them, checked once the signature matches), and
 * one that covers `Accept-Encoding` is checked against the values a proxy may have rewritten
 * (`accept-encoding.ts`).
 *
 * Edgezone's choice: the time is checked after the signature, so a request nobody signed learns
 * nothing but that its signature is wrong; a client whose clock is off still gets
 * RequestTimeTooSkewed with the server's time, which AWS SDKs use to correct their clock.
 * Signatures are compared in constant time (src/common/secrets.ts).
 *
 * A request with a session token (`X-Amz-Security-Token`) is signed with temporary credentials
 * (`temporary-credentials.ts`): the token is checked where the key is looked up (400
 * InvalidToken), and its expiry after the time, 400 ExpiredToken as S3 answers it
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html), for a request received
 * or signed after it.
 */
import { fixedSecret, sameSecret } from "../../../common/secrets";
import { S3Error } from "../errors";
import { acceptEncodingCandidates } from "./accept-encoding";
import { type SignatureClaim, signatureClaim } from "./authorization";
import { type AccessKey, accessKey } from "./credentials";
import { requireSignedHeaders } from "./signed-headers";
import { canonicalUris, type SignatureSeed, signatureOf } from "./sigv4";
import { sessionTokenOf, temporaryKey } from "./temporary-credentials";

/** The skew S3 allows between a request's time and the server's, in ms (15 minutes). */
const MAX_SKEW_MS = 15 * 60 * 1000;

/** An authenticated caller: its access key, and the payload hash its signature covers. */
export interface S3Caller {
	key: AccessKey;
	/** 64 hex (checked against the body as it streams), `UNSIGNED-PAYLOAD` or `STREAMING-…`. */
	payloadHash: string;
	/** The request's verified signature and scope: what the chunk signatures of a `STREAMING-…` body chain from. */
	seed: SignatureSeed;
}

/**
 * Whether the claimed signature is the one `secret` gives, compared in constant time: once per
 * canonical URI the path may have been signed as (two for a path with `%2F`, `sigv4.ts`), and,
 * when it covers `Accept-Encoding`, once per value that header may have had when signed.
 */
function signatureHolds(request: Request, url: URL, claim: SignatureClaim, secret: string): boolean {
	const claimed = fixedSecret(claim.signature);
	const values = claim.input.signedHeaders.includes("accept-encoding")
		? acceptEncodingCandidates(request.headers.get("accept-encoding"), request.cf?.clientAcceptEncoding)
		: [undefined];
	return canonicalUris(url).some((uri) =>
		values.some((value) => {
			const computed = fixedSecret(signatureOf(request, url, claim.input, secret, value, uri));
			return computed !== undefined && sameSecret(claimed, computed);
		}),
	);
}

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * Authenticates an S3 request.
 * @param now the server's time, ms since the epoch.
 * @throws S3Error 400 for a malformed signature, 403 InvalidAccessKeyId, SignatureDoesNotMatch,
 * RequestTimeTooSkewed or AccessDenied (expired), 500 when API_CREDENTIALS is not valid.
 */
export async function authenticate(request: Request, url: URL, env: Env, now: number): Promise<S3Caller> {
	const claim = signatureClaim(request, url);
	const sessionToken = sessionTokenOf(request, url, claim.input.signedHeaders);
	const key =
		sessionToken === undefined
			? await accessKey(env, claim.accessKeyId)
			: await temporaryKey(env, claim.accessKeyId, sessionToken);
	if (key === undefined) throw new S3Error("InvalidAccessKeyId", undefined, { AWSAccessKeyId: claim.accessKeyId });
	if (!signatureHolds(request, url, claim, key.secret)) {
		throw new S3Error("SignatureDoesNotMatch", undefined, { AWSAccessKeyId: claim.accessKeyId });
	}
	requireSignedHeaders(
		request.headers,
		claim.input.signedHeaders,
		claim.expiresIn === undefined ? undefined : url.searchParams,
	);
	if (claim.expiresIn === undefined) {
		if (Math.abs(now - claim.signedAt) > MAX_SKEW_MS) {
			throw new S3Error("RequestTimeTooSkewed", undefined, {
				RequestTime: claim.input.amzDate,
				ServerTime: isoSeconds(now),
				MaxAllowedSkewMilliseconds: String(MAX_SKEW_MS),
			});
		}
	} else if (claim.signedAt - now > MAX_SKEW_MS) {
		throw new S3Error("AccessDenied", "Request is not valid yet");
	} else if (now > claim.signedAt + claim.expiresIn * 1000) {
		throw new S3Error("AccessDenied", "Request has expired", {
			"X-Amz-Expires": String(claim.expiresIn),
			Expires: isoSeconds(claim.signedAt + claim.expiresIn * 1000),
			ServerTime: isoSeconds(now),
		});
	}
	const expiresAt = key.temporary?.expiresAt;
	if (expiresAt !== undefined && Math.max(now, claim.signedAt) >= expiresAt) throw new S3Error("ExpiredToken");
	return {
		key,
		payloadHash: claim.input.payloadHash,
		seed: { signature: claim.signature, amzDate: claim.input.amzDate, scope: claim.input.scope },
	};
}
