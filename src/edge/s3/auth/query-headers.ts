/**
 * The `x-amz-*` headers a presigned URL carries in its query. A presigned URL is handed to a
 * client that sends nothing but the URL and a body, so the AWS SDKs move ("hoist") the request's
 * `x-amz-*` headers into the query they sign (aws-sdk-js-v3's SignatureV4 `presign`,
 * `moveHeadersToQuery`, for every `x-amz-*` header but those in `unhoistableHeaders`; its S3
 * presigner keeps `x-amz-server-side-encryption*` out), and S3 treats such a parameter as the header
 * it names: user metadata presigned with `getSignedUrl` is stored with the object
 * (https://github.com/aws/aws-sdk-js-v3/issues/4694, an SDK maintainer's test against S3).
 *
 * Once the signature is verified (the whole query is signed: the canonical query string holds
 * every parameter but `X-Amz-Signature`,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html), the operation
 * sees each such parameter as a header and no longer as a query parameter, so the headers R2
 * refuses (`request-headers.ts`) are refused from the query too, and a parameter is never read as a
 * sub-resource or refused as an unknown one. Not turned into headers:
 * - SigV4's own parameters, read where the signature is checked (`authorization.ts`,
 *   `temporary-credentials.ts`), with `X-Amz-Content-Sha256`, the SDKs' payload hash;
 * - the flexible checksum parameters (`x-amz-checksum-*`, `x-amz-sdk-checksum-algorithm`), which S3
 *   ignores in a presigned URL's query: "Amazon S3 presigned URLs don't support using the following
 *   data-integrity checksum algorithms (CRC32, CRC32C, SHA-1, SHA-256)"
 *   (https://docs.aws.amazon.com/AmazonS3/latest/userguide/using-presigned-url.html; an upload whose
 *   hoisted SHA-256 is wrong is stored, https://github.com/aws/aws-sdk-go-v2/issues/2610). They are dropped as
 *   S3 drops them: since its checksums became default (3.729.0,
 *   https://github.com/aws/aws-sdk-js-v3/issues/6810) the JavaScript SDK signs the CRC32 of an empty
 *   body (`AAAAAA==`) into every presigned PutObject URL, which would fail every upload if checked.
 *   The family is left whole (`x-amz-checksum-algorithm` of CreateMultipartUpload, and
 *   `x-amz-checksum-mode`, which the SDK signs into every presigned GET, whose answer stays as it was).
 * - `x-amz-copy-source` and its siblings, refused (501 NotImplemented): S3 ignores them in the
 *   query and stores the PUT's body, an empty object, in place of a copy
 *   (https://github.com/aws/aws-sdk-php/issues/1275); a URL that would copy here and overwrite
 *   with nothing there is refused rather than answered either way.
 *
 * Edgezone's choices: a header the request carries itself (signed, or with the query's value,
 * `signed-headers.ts`) is kept over the query's; a parameter given twice becomes one header with
 * both values, as repeated headers combine (RFC 9110 section 5.3). S3 ignores `x-amz-tagging` in
 * the query too (https://github.com/aws/aws-sdk/issues/782); here it becomes the header, which R2
 * refuses with 501, so a URL meant to tag is told so rather than stored untagged. A request signed
 * in the `Authorization` header is left as sent: the SDKs hoist only when they presign.
 */
import { notImplemented } from "../errors";

/** SigV4's query parameters (and the SDKs' payload hash), lower-case: never headers. */
const SIGNATURE_PARAMETERS = new Set([
	"x-amz-algorithm",
	"x-amz-credential",
	"x-amz-date",
	"x-amz-expires",
	"x-amz-signedheaders",
	"x-amz-signature",
	"x-amz-security-token",
	"x-amz-content-sha256",
]);

/** The checksum parameters S3 ignores in a presigned URL's query (above). */
const isIgnoredChecksum = (name: string) =>
	name.startsWith("x-amz-checksum-") || name === "x-amz-sdk-checksum-algorithm";

/** The request an operation sees, and the URL it reads its parameters from. */
export interface OperationRequest {
	request: Request;
	url: URL;
}

/**
 * The request a presigned URL's operation sees: each signed `x-amz-*` query parameter (any case)
 * a header, unless SigV4's own or a checksum S3 ignores there, and none of them left in the query.
 * The body is the same stream, not read. A request signed in the `Authorization` header, or with no
 * such parameter, is returned as it is.
 * Call only once the signature is verified.
 * @throws S3Error 501 NotImplemented for `x-amz-copy-source*` in the query.
 */
export function withQueryHeaders(request: Request, url: URL): OperationRequest {
	if (request.headers.has("authorization")) return { request, url };
	let headers: Headers | undefined;
	let query: URLSearchParams | undefined;
	for (const [name, value] of url.searchParams) {
		const lower = name.toLowerCase();
		if (!lower.startsWith("x-amz-") || SIGNATURE_PARAMETERS.has(lower)) continue;
		if (lower.startsWith("x-amz-copy-source")) {
			throw notImplemented(`${name} in a presigned URL's query, which S3 ignores there (sign it as a header)`);
		}
		query ??= new URLSearchParams(url.searchParams);
		query.delete(name);
		if (isIgnoredChecksum(lower) || request.headers.has(lower)) continue;
		headers ??= new Headers(request.headers);
		headers.append(lower, value);
	}
	if (query === undefined) return { request, url };
	const operationUrl = new URL(url);
	operationUrl.search = query.toString();
	return { request: headers === undefined ? request : new Request(request, { headers }), url: operationUrl };
}
