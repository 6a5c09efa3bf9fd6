/**
 * The operations on the service and on a bucket that map onto what the bindings know: ListBuckets
 * (every bucket of `R2_BUCKETS`), HeadBucket and GetBucketLocation (R2's one location, `auto`:
 * https://developers.cloudflare.com/r2/api/s3/api/, "Bucket-level operations").
 *
 * A binding tells no creation date, so ListBuckets answers the one the bucket's ledger recorded
 * when the edge first saw the bucket (`src/bucket/bucket-creation.ts`; clients such as `aws s3 ls` print
 * it), asked of the page's buckets' ledgers at once; the owner is
 * the deployment's account (`DEFAULT_ACCOUNT_ID`), as R2 names the account. ListBuckets takes
 * R2's extension of ListObjectsV2's parameters, in the query or in `cf-*` headers, which win
 * (https://developers.cloudflare.com/r2/api/s3/extensions/, "ListBuckets"): `prefix`,
 * `start-after`, `continuation-token` (edgezone's: the base64url of the page's last name) and
 * `max-keys` (at most 1000), answering `IsTruncated` and `NextContinuationToken` in the document
 * and in `cf-is-truncated` and `cf-next-continuation-token`.
 *
 * CreateBucket and DeleteBucket: a Worker's buckets are its bindings, declared in wrangler.toml,
 * and a binding can neither create nor delete one. So CreateBucket of a declared name answers as
 * S3 answers for a bucket you already own, 409 BucketAlreadyOwnedByYou
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateBucket.html; R2 documents 409 for a
 * name that exists, its code 10073, https://developers.cloudflare.com/r2/api/error-codes/), which
 * clients that create the bucket they write to (rclone) take as "already there". Of any other
 * name, and DeleteBucket of an empty declared bucket, 501 NotImplemented saying where buckets
 * are declared; DeleteBucket of a bucket holding objects, S3's 409 BucketNotEmpty, as R2 answers
 * (error-codes, 10008). Edgezone's choice: nothing here changes a bucket.
 */

import { bucketLedger } from "../../bucket/bucket-ledger";
import { fromBase64Url, toBase64Url } from "../../common/encoding";
import { declaredBucket, servedBuckets } from "./buckets";
import type { BucketNameContext, S3Context, ServiceContext } from "./context";
import { S3Error } from "./errors";
import { maxKeys } from "./list";
import { S3_NAMESPACE, type XmlContent, xmlAnswer } from "./xml";

/** Where a Worker's buckets come from, for the messages of the operations that would change them. */
const DECLARED_IN = "buckets are declared in wrangler.toml ([[r2_buckets]], and their names in R2_BUCKETS)";

/** One of ListBuckets' parameters: its `cf-*` header, else its query parameter; null for neither. */
function listParameter(c: ServiceContext, name: string): string | null {
	return c.request.headers.get(`cf-${name}`) ?? c.url.searchParams.get(name);
}

/**
 * `GET /`: ListAllMyBucketsResult with the served buckets, in name order, one page of them
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListBuckets.html, and R2's extension above).
 * @throws S3Error 400 InvalidMaxKeys; InvalidArgument for a continuation token not given here.
 */
export async function listBuckets(c: ServiceContext): Promise<Response> {
	const prefix = listParameter(c, "prefix") ?? "";
	const startAfter = listParameter(c, "start-after");
	const token = listParameter(c, "continuation-token");
	const { requested, limit } = maxKeys(listParameter(c, "max-keys"));
	const after = token === null ? startAfter : tokenName(token);
	const matching = servedBuckets(c.env)
		.filter(({ name }) => name.startsWith(prefix) && (after === null || name > after))
		.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const page = matching.slice(0, limit);
	const created = await Promise.all(page.map(({ binding }) => bucketLedger(c.env, binding).bucketCreated()));
	const truncated = matching.length > page.length;
	const last = page.at(-1)?.name;
	const next = truncated && last !== undefined ? toBase64Url(new TextEncoder().encode(last)) : undefined;
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Buckets: { Bucket: page.map(({ name }, i) => ({ Name: name, CreationDate: created[i] ?? "" })) },
		Owner: { ID: c.env.DEFAULT_ACCOUNT_ID, DisplayName: c.env.DEFAULT_ACCOUNT_ID },
		IsTruncated: truncated,
		KeyCount: page.length,
		MaxKeys: requested,
	};
	if (prefix !== "") content.Prefix = prefix;
	if (startAfter !== null) content.StartAfter = startAfter;
	if (token !== null) content.ContinuationToken = token;
	if (next !== undefined) content.NextContinuationToken = next;
	const headers = new Headers({ "cf-is-truncated": String(truncated) });
	if (next !== undefined) headers.set("cf-next-continuation-token", next);
	return xmlAnswer("ListAllMyBucketsResult", content, { headers });
}

/** The bucket name a ListBuckets continuation token resumes after. @throws S3Error 400 InvalidArgument. */
function tokenName(token: string): string {
	const bytes = fromBase64Url(token);
	if (bytes === undefined) {
		throw new S3Error("InvalidArgument", "The continuation token provided is incorrect.", {
			ArgumentName: "continuation-token",
		});
	}
	return new TextDecoder().decode(bytes);
}

/** `HEAD /<bucket>`: 200 with the bucket's region when it exists (the caller already looked it up). */
export async function headBucket(_c: S3Context): Promise<Response> {
	return new Response(null, { status: 200, headers: { "x-amz-bucket-region": "auto" } });
}

/** `GET /<bucket>?location`: `<LocationConstraint>auto</LocationConstraint>`. */
export async function getBucketLocation(_c: S3Context): Promise<Response> {
	return xmlAnswer("LocationConstraint", { "@_xmlns": S3_NAMESPACE, "#text": "auto" });
}

/**
 * `PUT /<bucket>`: 409 BucketAlreadyOwnedByYou for a declared bucket, 501 NotImplemented for
 * any other name; 400 InvalidBucketName for a name S3 would not take. Nothing is created.
 */
export async function createBucket(c: BucketNameContext): Promise<Response> {
	const bucket = declaredBucket(c.env, c.bucketName);
	if (bucket !== undefined) {
		throw new S3Error(
			"BucketAlreadyOwnedByYou",
			`Your previous request to create the named bucket succeeded and you already own it: ${bucket.name} is declared in wrangler.toml.`,
			{ BucketName: bucket.name },
		);
	}
	throw bucketNotCreated(c.bucketName);
}

/**
 * The 501 of a request that would create the bucket `name` (CreateBucket, or R2's
 * `cf-create-bucket-if-missing: true` on PutObject and CreateMultipartUpload:
 * https://developers.cloudflare.com/r2/api/s3/extensions/), which only wrangler.toml can.
 */
export function bucketNotCreated(name: string): S3Error {
	return new S3Error(
		"NotImplemented",
		`CreateBucket is not implemented by this endpoint: ${DECLARED_IN}. Declare ${name} there to serve it.`,
		{ BucketName: name },
	);
}

/**
 * `DELETE /<bucket>`: 409 BucketNotEmpty while the bucket holds an object, else 501
 * NotImplemented; the bucket stays either way.
 */
export async function deleteBucket(c: S3Context): Promise<Response> {
	const listed = await c.bucket.bucket.list({ limit: 1 });
	if (listed.objects.length > 0) {
		throw new S3Error(
			"BucketNotEmpty",
			`The bucket you tried to delete is not empty; and even empty, it could not be deleted here: ${DECLARED_IN}.`,
			{ BucketName: c.bucket.name },
		);
	}
	throw new S3Error(
		"NotImplemented",
		`DeleteBucket is not implemented by this endpoint: ${DECLARED_IN}. Remove ${c.bucket.name} there to stop serving it.`,
		{ BucketName: c.bucket.name },
	);
}
