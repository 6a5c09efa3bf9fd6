/**
 * The bucket a request names (docs/gateway.md, "Buckets"): the gateway's own (`BUCKET`) unless
 * `x-r2-bucket` names another. The other buckets are the log-push destinations of
 * `LOGPUSH_BUCKETS` (bucket name -> R2 binding), so an ownership challenge and delivered logs can
 * be read with the same tokens as every object, and the buckets created at run time
 * (`src/runtime-buckets/`), each a namespace of `RUNTIME_BUCKETS`.
 */
import { zoneRegistry } from "../../common/durable-objects";
import { createdBucketServed } from "../../runtime-buckets/catalog";
import { withDefaultClass } from "../../runtime-buckets/default-class";
import type { BucketStorageClass } from "../../runtime-buckets/names";
import { BUCKET_HEADER } from "../../wire/buckets";
import { bucketBinding, bucketMap } from "../../zone/destinations";
import { withStorageClasses } from "../s3/storage-class/recorded";
import { noSuchBucket } from "./errors";

/** The request's bucket: its binding, and the name of its ledger (a binding's name in wrangler.toml, or a created bucket's). */
interface RequestBucket {
	bucket: R2Bucket;
	ledger: string;
	/** A created bucket's default storage class. */
	storageClass?: BucketStorageClass;
}

/**
 * The request's bucket as its binding or namespace holds it.
 * @throws GatewayError 404 (10006) for a name that is no bucket of the gateway's; ConfigError for
 * a `LOGPUSH_BUCKETS` that is not valid (answered as a 500).
 */
async function namedBucket(request: Request, env: Env): Promise<RequestBucket> {
	const header = request.headers.get(BUCKET_HEADER);
	if (header === null) return { bucket: env.BUCKET, ledger: "BUCKET" };
	const name = header.trim();
	const binding = bucketMap(env)[name];
	if (binding !== undefined) return { bucket: bucketBinding(env, name, binding), ledger: binding };
	const created = await zoneRegistry(env).createdBucket(name);
	if (created === null) throw noSuchBucket(header);
	const served = createdBucketServed(env, created);
	return { bucket: served.bucket, ledger: served.binding, storageClass: created.storageClass };
}

/**
 * The name of the ledger of the request's bucket (`src/edge/s3/bucket-ledger.ts`).
 * @throws as `namedBucket`.
 */
export async function ledgerNameOf(request: Request, env: Env): Promise<string> {
	return (await namedBucket(request, env)).ledger;
}

/**
 * The R2 bucket the request names, keeping the storage classes it writes as R2 does
 * (`../s3/storage-class/recorded.ts`), and writing a created bucket's default class.
 * @throws as `namedBucket`.
 */
export async function bucketOf(request: Request, env: Env): Promise<R2Bucket> {
	const { bucket, ledger, storageClass } = await namedBucket(request, env);
	return withDefaultClass(withStorageClasses(bucket, env, ledger), storageClass);
}
