/**
 * S3's rule that a request's `x-amz-*` headers are all signed: "Any x-amz-* headers that you plan
 * to include in your request must also be added" to the signed headers
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html), for the header
 * form and for a presigned URL alike (https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html).
 * S3 refuses a request that carries one unsigned with 403 AccessDenied "There were headers present
 * in the request which were not signed" and a `HeadersNotSigned` element listing them, comma
 * separated, as seen for `x-amz-copy-source`
 * (https://github.com/badslug/Paw-AWSSignature4DynamicValue/issues/4), `x-amz-meta-s1, x-amz-tagging`
 * (https://github.com/apache/arrow-rs-object-store/issues/484), and for `x-amz-meta-*` sent with a
 * presigned PUT (https://github.com/minio/minio/issues/16917). Without it, the holder of a URL
 * signed for `host` alone could add `x-amz-copy-source` and copy anything its signer may read.
 *
 * What S3 takes unsigned, and so does this module:
 * - `x-amz-content-sha256`: S3 accepts it unsigned, where some S3 clones refuse it
 *   (https://github.com/zengularity/benji/pull/309); the payload hash is the last line of the
 *   canonical request whether the header is signed or not, so it cannot be changed unseen.
 * - `x-amz-user-agent`: the AWS SDK for JavaScript sends it from browsers, where a script may not
 *   set `User-Agent`, and versions of its signer left it unsigned (`ALWAYS_UNSIGNABLE_HEADERS`,
 *   aws/aws-sdk-js-v3, packages/signature-v4/src/constants.ts) while S3 answered them. It asks
 *   for nothing.
 * - for a presigned URL, a header that the URL also carries as a query parameter (the AWS SDKs
 *   hoist `x-amz-*` headers into the query they sign; S3 took such a header,
 *   https://github.com/aws/aws-sdk-js-v3/issues/4694). Edgezone's choice: only with the value
 *   the query signed, so the header asks nothing the signer did not.
 * `X-Amz-Security-Token` has its own check (`temporary-credentials.ts`).
 */
import { S3Error } from "../errors";

/** `x-amz-*` headers S3 takes unsigned (above). */
const TAKEN_UNSIGNED = new Set(["x-amz-content-sha256", "x-amz-user-agent"]);

/**
 * The `x-amz-*` headers of a request that its signature does not cover, lower-case, in the
 * order the Headers object lists them (by name).
 * @param signedHeaders the lower-case names the signature lists.
 * @param query a presigned URL's query, whose `x-amz-*` parameters (any case) cover a header of
 * the same name and value; undefined for the header form.
 */
export function unsignedHeaders(headers: Headers, signedHeaders: readonly string[], query?: URLSearchParams): string[] {
	const signed = new Set(signedHeaders);
	const hoisted = new Map<string, string[]>();
	for (const [name, value] of query ?? []) {
		const lower = name.toLowerCase();
		if (lower.startsWith("x-amz-")) hoisted.set(lower, [...(hoisted.get(lower) ?? []), value]);
	}
	const unsigned: string[] = [];
	for (const [name, value] of headers) {
		if (!name.startsWith("x-amz-") || signed.has(name) || TAKEN_UNSIGNED.has(name)) continue;
		if (hoisted.get(name)?.includes(value)) continue;
		unsigned.push(name);
	}
	return unsigned;
}

/**
 * Refuses a request that carries an `x-amz-*` header its signature does not cover.
 * @throws S3Error 403 AccessDenied with `HeadersNotSigned` naming them (comma and space between).
 */
export function requireSignedHeaders(headers: Headers, signedHeaders: readonly string[], query?: URLSearchParams) {
	const unsigned = unsignedHeaders(headers, signedHeaders, query);
	if (unsigned.length > 0) {
		throw new S3Error("AccessDenied", "There were headers present in the request which were not signed", {
			HeadersNotSigned: unsigned.join(", "),
		});
	}
}
