/**
 * A bucket's CORS configuration through S3: GetBucketCors, PutBucketCors and DeleteBucketCors
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketCors.html and its siblings), which
 * R2 implements (https://developers.cloudflare.com/r2/buckets/cors/; R2's S3 API compatibility
 * table, https://developers.cloudflare.com/r2/api/s3/api/). The binding has no CORS API, so the
 * rules live in the bucket's ledger (`cors/`), and the gateway applies them to both dialects'
 * requests to the bucket, preflights included (`../gateway/cors.ts`). A bucket with no rules has
 * the gateway's default, the var `CORS_ORIGINS`, which GetBucketCors then answers as one rule.
 */
import { corsPolicy } from "../gateway/cors";
import { METHODS } from "../gateway/operations";
import { xmlDocumentOf } from "./body/xml-body";
import type { S3Context } from "./context";
import { setCorsRules, storedCorsRules } from "./cors/cached-rules";
import { CORS_LIMITS, corsDocument, parseCors } from "./cors/rules";
import { S3Error } from "./errors";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

/** The methods a CORSRule may allow (S3's `AllowedMethod`); the gateway answers them all. */
const CORS_METHODS = new Set(["GET", "PUT", "HEAD", "POST", "DELETE"]);

/**
 * `GET /<bucket>?cors`: the bucket's rules; for a bucket with none, one CORSRule with the
 * origins of `CORS_ORIGINS`, the gateway's methods, the request headers a preflight allows, the
 * answer headers exposed, and the preflight's max age; 404 NoSuchCORSConfiguration when the
 * bucket has no rules and `CORS_ORIGINS` allows no origin.
 */
export async function getBucketCors(c: S3Context): Promise<Response> {
	const rules = await storedCorsRules(c.env, c.bucket.binding);
	if (rules.length > 0) return xmlAnswer("CORSConfiguration", corsDocument(rules));
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

/**
 * `PUT /<bucket>?cors` with a `<CORSConfiguration>`: replaces the bucket's rules; a refused
 * document (`parseCors`, its limits, and the body's signed hash and Content-MD5 or checksum)
 * changes nothing. 200.
 */
export async function putBucketCors(c: S3Context): Promise<Response> {
	const rules = parseCors(await xmlDocumentOf(c.request, c.caller.payloadHash, CORS_LIMITS));
	await setCorsRules(c.env, c.bucket.binding, rules);
	return new Response(null, { status: 200 });
}

/** `DELETE /<bucket>?cors`: removes the bucket's rules (the default applies again); 204. */
export async function deleteBucketCors(c: S3Context): Promise<Response> {
	await setCorsRules(c.env, c.bucket.binding, []);
	return new Response(null, { status: 204 });
}
