/**
 * A bucket's object lifecycle configuration through S3
 * (https://developers.cloudflare.com/r2/buckets/object-lifecycles/, "S3 API"):
 * GetBucketLifecycleConfiguration, PutBucketLifecycleConfiguration and DeleteBucketLifecycle
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketLifecycleConfiguration.html).
 * The rules live in the bucket's ledger, which applies them (`src/bucket/bucket-ledger.ts`); what a rule may
 * hold is `lifecycle/rules.ts`. A put replaces every rule, R2's default one included, as on R2.
 */

import { ledgerOf } from "../../bucket/bucket-ledger";
import { xmlDocumentOf } from "./body/xml-body";
import type { S3Context } from "./context";
import { S3Error } from "./errors";
import { setLifecycleRules } from "./lifecycle/cached-rules";
import { LIFECYCLE_LIMITS, lifecycleDocument, parseLifecycle } from "./lifecycle/rules";
import { xmlAnswer } from "./xml";

/**
 * `GET /<bucket>?lifecycle`: the rules in effect, R2's default rule for a bucket never configured.
 * @throws S3Error 404 NoSuchLifecycleConfiguration after DeleteBucketLifecycle.
 */
export async function getBucketLifecycle(c: S3Context): Promise<Response> {
	const rules = await ledgerOf(c).lifecycle();
	if (rules.length === 0) throw new S3Error("NoSuchLifecycleConfiguration", undefined, { BucketName: c.bucket.name });
	return xmlAnswer("LifecycleConfiguration", lifecycleDocument(rules));
}

/**
 * `PUT /<bucket>?lifecycle` with a `<LifecycleConfiguration>`: replaces the rules; a refused
 * document (`parseLifecycle`, and the body's signed hash and Content-MD5 or checksum) changes nothing.
 */
export async function putBucketLifecycle(c: S3Context): Promise<Response> {
	const rules = parseLifecycle(await xmlDocumentOf(c.request, c.caller.payloadHash, LIFECYCLE_LIMITS));
	await setLifecycleRules(c, rules);
	return new Response(null, { status: 200 });
}

/** `DELETE /<bucket>?lifecycle`: removes every rule, R2's default one included; 204. */
export async function deleteBucketLifecycle(c: S3Context): Promise<Response> {
	await setLifecycleRules(c, []);
	return new Response(null, { status: 204 });
}
