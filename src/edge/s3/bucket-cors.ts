/**
 * A bucket's CORS configuration (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetBucketCors.html).
 * R2 keeps one per bucket (https://developers.cloudflare.com/r2/buckets/cors/), but the binding
 * has no CORS API: the gateway's CORS, for both dialects, comes from the var `CORS_ORIGINS`
 * (`../gateway/cors.ts`). So GetBucketCors answers the rule the gateway applies, the same for
 * every bucket, and PutBucketCors and DeleteBucketCors answer 501 NotImplemented saying where
 * CORS is set (edgezone's choice: a configuration accepted but never applied would be a lie).
 */
import { corsPolicy } from "../gateway/cors";
import { METHODS } from "../gateway/operations";
import type { S3Context } from "./context";
import { S3Error } from "./errors";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

/** The methods a CORSRule may allow (S3's `AllowedMethod`); the gateway answers them all. */
const CORS_METHODS = new Set(["GET", "PUT", "HEAD", "POST", "DELETE"]);

/**
 * `GET /<bucket>?cors`: one CORSRule with the origins of `CORS_ORIGINS`, the gateway's methods,
 * the request headers a preflight allows, the answer headers exposed, and the preflight's max
 * age; 404 NoSuchCORSConfiguration when `CORS_ORIGINS` allows no origin.
 */
export async function getBucketCors(c: S3Context): Promise<Response> {
	const policy = corsPolicy(c.env);
	if (policy === undefined) throw new S3Error("NoSuchCORSConfiguration", undefined, { BucketName: c.bucket.name });
	return xmlAnswer("CORSConfiguration", {
		"@_xmlns": S3_NAMESPACE,
		CORSRule: {
			AllowedOrigin: policy.origins,
			AllowedMethod: METHODS.filter((method) => CORS_METHODS.has(method)),
			AllowedHeader: policy.allowedHeaders,
			ExposeHeader: policy.exposedHeaders,
			MaxAgeSeconds: policy.maxAgeSeconds,
		},
	});
}

/** Why a bucket's CORS cannot be changed here. */
const corsIsAVar = (operation: string) =>
	new S3Error(
		"NotImplemented",
		`${operation} is not implemented by this endpoint: the gateway's CORS is set by the var CORS_ORIGINS in wrangler.toml (GetBucketCors shows what it applies).`,
	);

/** `PUT /<bucket>?cors`: 501 NotImplemented; nothing changes. */
export async function putBucketCors(_c: S3Context): Promise<Response> {
	throw corsIsAVar("PutBucketCors");
}

/** `DELETE /<bucket>?cors`: 501 NotImplemented; nothing changes. */
export async function deleteBucketCors(_c: S3Context): Promise<Response> {
	throw corsIsAVar("DeleteBucketCors");
}
