/**
 * The operations on the service and on a bucket that map onto what the bindings know: ListBuckets
 * (every bucket of `R2_BUCKETS`), HeadBucket and GetBucketLocation (R2's one location, `auto`:
 * https://developers.cloudflare.com/r2/api/s3/api/, "Bucket-level operations").
 *
 * A binding tells no creation date, so ListBuckets answers the Unix epoch for every bucket
 * (edgezone's choice: clients such as `aws s3 ls` print the date and need one); the owner is
 * the deployment's account (`DEFAULT_ACCOUNT_ID`), as R2 names the account.
 */
import { servedBuckets } from "./buckets";
import type { S3Context, ServiceContext } from "./context";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

const UNKNOWN_CREATION_DATE = new Date(0).toISOString();

/** `GET /`: ListAllMyBucketsResult with every served bucket (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListBuckets.html). */
export async function listBuckets(c: ServiceContext): Promise<Response> {
	const buckets = servedBuckets(c.env).map(({ name }) => ({ Name: name, CreationDate: UNKNOWN_CREATION_DATE }));
	return xmlAnswer("ListAllMyBucketsResult", {
		"@_xmlns": S3_NAMESPACE,
		Buckets: { Bucket: buckets },
		Owner: { ID: c.env.DEFAULT_ACCOUNT_ID, DisplayName: c.env.DEFAULT_ACCOUNT_ID },
	});
}

/** `HEAD /<bucket>`: 200 with the bucket's region when it exists (the caller already looked it up). */
export async function headBucket(_c: S3Context): Promise<Response> {
	return new Response(null, { status: 200, headers: { "x-amz-bucket-region": "auto" } });
}

/** `GET /<bucket>?location`: `<LocationConstraint>auto</LocationConstraint>`. */
export async function getBucketLocation(_c: S3Context): Promise<Response> {
	return xmlAnswer("LocationConstraint", { "@_xmlns": S3_NAMESPACE, "#text": "auto" });
}
