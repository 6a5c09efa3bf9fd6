/**
 * Which edge requests speak S3: those signed with AWS Signature Version 4, in the
 * `Authorization` header or in the query of a presigned URL
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-auth-using-authorization-header.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), and a browser's
 * form upload (S3's PostObject, https://docs.aws.amazon.com/AmazonS3/latest/API/RESTObjectPOST.html),
 * whose signature travels in the form's fields, so that it is answered as R2 answers it: R2 does
 * not implement PostObject.
 *
 * Edgezone's choice: the signature, not a path prefix or a port, tells the dialects apart, so
 * S3 clients use the same address as everything else and the native dialect keeps every path it
 * has (its requests carry `Authorization: Bearer` or no credential at all).
 */

/** The SigV4 algorithm's name, as the header and the query spell it. */
export const SIGV4_ALGORITHM = "AWS4-HMAC-SHA256";

/**
 * Whether a request is signed with SigV4: `Authorization: AWS4-HMAC-SHA256 …` or `?X-Amz-Algorithm=`.
 * A CORS preflight never is: browsers send it without credentials (Fetch standard, "CORS-preflight
 * fetch"), so the preflight of a presigned URL is answered by the gateway's CORS, as before.
 */
export function isS3Request(request: Request, url: URL): boolean {
	if (request.method === "OPTIONS" && request.headers.has("access-control-request-method")) return false;
	const authorization = request.headers.get("authorization");
	if (authorization !== null) return authorization.trimStart().startsWith(`${SIGV4_ALGORITHM} `);
	return url.searchParams.has("X-Amz-Algorithm") || isFormUpload(request, url);
}

/**
 * Whether a request is an HTML form upload to a bucket (PostObject): a POST of
 * `multipart/form-data` with no query and no `Authorization`. The native dialect has no such
 * operation (its POSTs carry `?uploads`, `?uploadId` or `?delete`, and a token), so no path it
 * answers changes meaning.
 */
export function isFormUpload(request: Request, url: URL): boolean {
	return (
		request.method === "POST" &&
		url.search === "" &&
		!request.headers.has("authorization") &&
		(request.headers.get("content-type") ?? "").trimStart().toLowerCase().startsWith("multipart/form-data")
	);
}

/**
 * Whether a query parameter only says how a request was sent, not what it asks: a presigned
 * URL's `X-Amz-*` (its signature) or the AWS SDKs' `x-id` (the operation's name). An operation
 * that takes a fixed set of parameters lets these through.
 */
export function isTransportParameter(name: string): boolean {
	return name.startsWith("X-Amz-") || name === "x-id";
}
