/**
 * The values a signed `Accept-Encoding` may have had when the client signed it. Cloudflare's edge
 * sets every incoming request's `Accept-Encoding` to `br, gzip` before a Worker sees it and keeps
 * the client's value in `request.cf.clientAcceptEncoding`
 * (https://developers.cloudflare.com/fundamentals/reference/http-headers/, "Accept-Encoding");
 * wrangler dev does the same (workers-sdk, packages/miniflare/src/workers/core/entry.worker.ts).
 * A client that signs the header (rclone signs `gzip`) then fails with SignatureDoesNotMatch
 * behind any such proxy, as S3-compatible servers behind Cloudflare have seen: MinIO
 * (https://github.com/minio/minio/issues/15506), Terraform's S3 backend through a Tunnel
 * (https://github.com/hashicorp/terraform/issues/36412); Backblaze's Worker proxy leaves the
 * header out of what it signs for the same reason
 * (https://github.com/backblaze-b2-samples/cloudflare-b2, index.js).
 *
 * Edgezone's choice: the signature is checked against the received value, the value
 * `request.cf` keeps, then a short fixed list of what clients send (below), first match wins; a
 * request that does not sign `Accept-Encoding` is checked once. The header asks only how the
 * answer is encoded, so a request replayed with another of these values asks nothing more.
 */

/**
 * What clients commonly send, most common for signing clients first: `gzip` (rclone and Go
 * clients that read stored gzip objects as stored), `identity` (minio-java, the AWS SDK for Go v2
 * behind Terraform's S3 backend), `gzip, deflate` (Python's requests), `gzip, deflate, br` and
 * `gzip, deflate, br, zstd` (browsers), `deflate, gzip` (curl --compressed), `br, gzip` (a
 * request that already went through Cloudflare).
 */
const COMMON_VALUES = [
	"gzip",
	"identity",
	"gzip, deflate",
	"gzip, deflate, br",
	"gzip, deflate, br, zstd",
	"deflate, gzip",
	"br, gzip",
];

/**
 * The values of `Accept-Encoding` to check a signature against, in order, without repeats: the
 * received one (empty when absent), the client's as `request.cf.clientAcceptEncoding` keeps it,
 * then COMMON_VALUES. At most 9, so a wrong signature costs at most 9 SHA-256 and HMAC computations.
 * @param received the request's `Accept-Encoding`, null when absent.
 * @param kept `request.cf.clientAcceptEncoding`, used when it is a string.
 */
export function acceptEncodingCandidates(received: string | null, kept: unknown): string[] {
	const first = typeof kept === "string" ? [received ?? "", kept] : [received ?? ""];
	return [...new Set([...first, ...COMMON_VALUES])];
}
