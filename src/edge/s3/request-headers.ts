/**
 * The request headers R2's S3 API refuses, checked once the operation is known and before it
 * runs, so that a client asking for what R2 does not do is told so and nothing is stored, rather
 * than having the header dropped in silence (an object tagged, locked or KMS-encrypted on AWS,
 * stored plain here). R2 lists each as not implemented
 * (https://developers.cloudflare.com/r2/api/s3/api/); its answers, codes and order are R2's as
 * Miniflare's S3 endpoint records them (workers-sdk,
 * packages/miniflare/src/workers/r2/s3/operations.worker.ts, `screenHeaders`):
 * - 501 NotImplemented, "Header '<name>' with value '<value>' not implemented", for
 *   `x-amz-expected-bucket-owner` (every operation on a bucket or object but
 *   AbortMultipartUpload), the tagging, grant, website-redirect, object-lock and SSE-KMS headers
 *   of the writes that make an object (PutObject, CopyObject, CreateMultipartUpload), and a few
 *   more per operation (`REFUSED`);
 * - `x-amz-server-side-encryption`: AES256 (what R2 does at rest anyway) is taken by those
 *   writes, any other value refused; UploadPart refuses the header;
 * - `x-amz-acl`: a canned ACL is taken and means nothing (R2 has no object ACLs), any other value
 *   refused.
 * SSE-C (`x-amz-server-side-encryption-customer-*`), which R2 implements, is read by the
 * operations that take it (`ssec/customer-key.ts`).
 */
import { S3Error } from "./errors";

/** The headers refused on every write that makes an object from a request. */
const OBJECT_WRITE = [
	"x-amz-tagging",
	"x-amz-grant-full-control",
	"x-amz-grant-read",
	"x-amz-grant-read-acp",
	"x-amz-grant-write",
	"x-amz-grant-write-acp",
	"x-amz-website-redirect-location",
	"x-amz-object-lock-mode",
	"x-amz-object-lock-retain-until-date",
	"x-amz-object-lock-legal-hold",
	"x-amz-server-side-encryption-aws-kms-key-id",
	"x-amz-server-side-encryption-context",
	"x-amz-server-side-encryption-bucket-key-enabled",
];

const MFA_AND_LOCK_BYPASS = ["x-amz-mfa", "x-amz-bypass-governance-retention"];
const SOURCE_OWNER = "x-amz-source-expected-bucket-owner";

/** Refused on every operation on a bucket or an object but AbortMultipartUpload. */
const BUCKET_OWNER = "x-amz-expected-bucket-owner";

/** The headers each operation refuses besides `x-amz-expected-bucket-owner`. */
const REFUSED: Readonly<Record<string, readonly string[]>> = {
	PutObject: OBJECT_WRITE,
	CreateMultipartUpload: OBJECT_WRITE,
	CopyObject: [...OBJECT_WRITE, SOURCE_OWNER, "x-amz-tagging-directive"],
	UploadPart: ["x-amz-server-side-encryption"],
	UploadPartCopy: [SOURCE_OWNER],
	DeleteObject: MFA_AND_LOCK_BYPASS,
	DeleteObjects: MFA_AND_LOCK_BYPASS,
};

/** The operations that make an object, where `x-amz-server-side-encryption` and `x-amz-acl` are read. */
const MAKES_OBJECT = new Set(["PutObject", "CopyObject", "CreateMultipartUpload"]);

/** S3's canned ACLs (https://docs.aws.amazon.com/AmazonS3/latest/userguide/acl-overview.html#canned-acl). */
const CANNED_ACLS = new Set([
	"private",
	"public-read",
	"public-read-write",
	"authenticated-read",
	"aws-exec-read",
	"bucket-owner-read",
	"bucket-owner-full-control",
]);

const notImplementedHeader = (name: string, value: string, why = "") =>
	new S3Error("NotImplemented", `Header '${name}' with value '${value}' not implemented${why}`);

/**
 * Checks the headers of a request for `operation` (S3's name) against what R2 takes.
 * @throws S3Error 501 NotImplemented for a header R2 refuses.
 */
export function screenHeaders(headers: Headers, operation: string): void {
	if (operation === "ListBuckets") return;
	if (operation !== "AbortMultipartUpload") refuseIfSent(headers, BUCKET_OWNER);
	for (const name of REFUSED[operation] ?? []) refuseIfSent(headers, name);
	if (MAKES_OBJECT.has(operation)) {
		const sse = headers.get("x-amz-server-side-encryption");
		if (sse !== null && sse !== "AES256") throw notImplementedHeader("x-amz-server-side-encryption", sse);
		const acl = headers.get("x-amz-acl");
		if (acl !== null && !CANNED_ACLS.has(acl)) throw notImplementedHeader("x-amz-acl", acl);
	}
}

/** @throws S3Error 501 NotImplemented when the request carries the header `name`. */
function refuseIfSent(headers: Headers, name: string): void {
	const value = headers.get(name);
	if (value !== null) throw notImplementedHeader(name, value);
}
