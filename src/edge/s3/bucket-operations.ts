/**
 * The operations on the service and on a bucket itself: ListBuckets (every bucket, declared in
 * `R2_BUCKETS` or created at run time: `src/runtime-buckets/catalog.ts`), HeadBucket and GetBucketLocation (R2's one location, `auto`:
 * https://developers.cloudflare.com/r2/api/s3/api/, "Bucket-level operations").
 *
 * A binding tells no creation date, so ListBuckets answers, for a declared bucket, the one the
 * bucket's ledger recorded when the edge first saw the bucket (`src/bucket/bucket-creation.ts`;
 * clients such as `aws s3 ls` print it), and for a created one the moment it was created; the owner is
 * the deployment's account (`DEFAULT_ACCOUNT_ID`), as R2 names the account. ListBuckets takes
 * R2's extension of ListObjectsV2's parameters, in the query or in `cf-*` headers, which win
 * (https://developers.cloudflare.com/r2/api/s3/extensions/, "ListBuckets"): `prefix`,
 * `start-after`, `continuation-token` (edgezone's: the base64url of the page's last name) and
 * `max-keys` (at most 1000), answering `IsTruncated` and `NextContinuationToken` in the document
 * and in `cf-is-truncated` and `cf-next-continuation-token`.
 *
 * CreateBucket and DeleteBucket create and delete the buckets that live in edgezone's own storage
 * (`src/runtime-buckets/`), as R2 does (https://developers.cloudflare.com/r2/api/s3/api/): a
 * `LocationConstraint` of `auto`, empty or `us-east-1` (R2's aliases of `auto`) or one of R2's
 * location hints; CreateBucket of a name that exists, declared or created, answers S3's 409
 * BucketAlreadyOwnedByYou (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateBucket.html;
 * R2 documents 409 for a name that exists, its code 10073), which clients that create the bucket
 * they write to (rclone) take as "already there". DeleteBucket of a bucket holding objects is 409
 * BucketNotEmpty (10008); a bucket declared in wrangler.toml is a binding, which no request can
 * remove: 501 NotImplemented saying so.
 */

import { XMLParser } from "fast-xml-parser";
import { fromBase64Url, toBase64Url } from "../../common/encoding";
import { allBuckets } from "../../runtime-buckets/catalog";
import { createBucket as create, deleteBucket as remove } from "../../runtime-buckets/manage";
import { locationOfConstraint } from "../../runtime-buckets/names";
import { xmlDocumentOf } from "./body/xml-body";
import type { BucketNameContext, S3Context, ServiceContext } from "./context";
import { S3Error } from "./errors";
import { maxKeys } from "./list";
import { s3ErrorOfFailure } from "./served-bucket";
import { S3_NAMESPACE, type XmlContent, xmlAnswer } from "./xml";

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
	const matching = (await allBuckets(c.env)).filter(
		({ name }) => name.startsWith(prefix) && (after === null || name > after),
	);
	const page = matching.slice(0, limit);
	const truncated = matching.length > page.length;
	const last = page.at(-1)?.name;
	const next = truncated && last !== undefined ? toBase64Url(new TextEncoder().encode(last)) : undefined;
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Buckets: { Bucket: page.map(({ name, creationDate }) => ({ Name: name, CreationDate: creationDate })) },
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

/** The largest CreateBucketConfiguration taken, in bytes: a location and a few elements of S3's schema. */
const CONFIGURATION_LIMITS = { bytes: 4096, elements: 16 };

const parser = new XMLParser({ parseTagValue: false });

/**
 * The location hint of a CreateBucket's `<CreateBucketConfiguration>` (null for `auto`, and for no body).
 * @throws S3Error 400 MalformedXML, InvalidLocationConstraint.
 */
async function locationOf(c: BucketNameContext) {
	const text = await xmlDocumentOf(c.request, c.caller.payloadHash, CONFIGURATION_LIMITS);
	if (text.trim() === "") return null;
	let document: { CreateBucketConfiguration?: { LocationConstraint?: unknown } | string };
	try {
		document = parser.parse(text, true);
	} catch {
		throw new S3Error("MalformedXML");
	}
	const configuration = document.CreateBucketConfiguration;
	if (configuration === undefined) throw new S3Error("MalformedXML");
	const constraint = typeof configuration === "string" ? undefined : configuration.LocationConstraint;
	if (constraint === undefined) return null;
	const location = typeof constraint === "string" ? locationOfConstraint(constraint) : undefined;
	if (location === undefined) {
		throw new S3Error("InvalidLocationConstraint", undefined, { LocationConstraint: String(constraint) });
	}
	return location;
}

/**
 * `PUT /<bucket>`: creates the bucket (module comment), 200 with its `Location` (`/<bucket>`).
 * @throws S3Error 400 InvalidBucketName, InvalidLocationConstraint, TooManyBuckets; 409 BucketAlreadyOwnedByYou.
 */
export async function createBucket(c: BucketNameContext): Promise<Response> {
	const location = await locationOf(c);
	const created = await create(c.env, { name: c.bucketName, location, storageClass: "Standard" });
	if (!created.ok) throw s3ErrorOfFailure(created.failures, c.bucketName);
	return new Response(null, { status: 200, headers: { location: `/${c.bucketName}` } });
}

/**
 * `DELETE /<bucket>`: deletes an empty created bucket, 204.
 * @throws S3Error 409 BucketNotEmpty while it holds an object; 501 NotImplemented for a declared one.
 */
export async function deleteBucket(c: S3Context): Promise<Response> {
	const deleted = await remove(c.env, c.bucket.name);
	if (!deleted.ok) throw s3ErrorOfFailure(deleted.failures, c.bucket.name);
	return new Response(null, { status: 204 });
}
