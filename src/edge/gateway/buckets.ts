/**
 * The bucket a request names (docs/gateway.md, "Buckets"): the gateway's own (`BUCKET`) unless
 * `x-r2-bucket` names another bound bucket. The other buckets are the log-push destinations of
 * `LOGPUSH_BUCKETS` (bucket name -> R2 binding), so an ownership challenge and delivered logs can
 * be read with the same tokens as every object.
 */
import { BUCKET_HEADER } from "../../wire/buckets";
import { bucketBinding, bucketMap } from "../../zone/destinations";
import { withStorageClasses } from "../s3/storage-class/recorded";
import { noSuchBucket } from "./errors";

/**
 * The name (in wrangler.toml) of the R2 binding of the request's bucket.
 * @throws GatewayError 404 (10006) for a name that is no bound bucket.
 */
export function bindingNameOf(request: Request, env: Env): string {
	const name = request.headers.get(BUCKET_HEADER);
	if (name === null) return "BUCKET";
	const binding = bucketMap(env)[name.trim()];
	if (binding === undefined) throw noSuchBucket(name);
	return binding;
}

/**
 * The R2 binding of the request's bucket, keeping the storage classes it writes as R2 does
 * (`../s3/storage-class/recorded.ts`).
 * @throws GatewayError 404 (10006) for a name that is no bound bucket; ConfigError for a
 * `LOGPUSH_BUCKETS` that is not valid (answered as a 500).
 */
export function bucketOf(request: Request, env: Env): R2Bucket {
	const name = request.headers.get(BUCKET_HEADER);
	if (name === null) return withStorageClasses(env.BUCKET, env, "BUCKET");
	const binding = bucketMap(env)[name.trim()];
	if (binding === undefined) throw noSuchBucket(name);
	return withStorageClasses(bucketBinding(env, name.trim(), binding), env, binding);
}
