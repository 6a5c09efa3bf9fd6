/**
 * The declared buckets: every `[[r2_buckets]]` of wrangler.toml (but `RUNTIME_BUCKETS`), by its
 * `bucket_name`. A Worker sees its bindings but not their bucket names, so the var `R2_BUCKETS`
 * says them again (bucket_name -> binding), parsed once per value (edgezone's choice). The
 * buckets created at run time join them in `src/runtime-buckets/catalog.ts`, the one list.
 */
import { z } from "zod";
import { ConfigError, jsonVar } from "../../common/config";
import { S3Error } from "./errors";

// S3's bucket naming rules, which R2 follows: 3-63 lower-case letters, digits, dots and hyphens
// (https://developers.cloudflare.com/r2/buckets/create-buckets/, "Bucket level operations").
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

const BUCKETS = z.record(z.string().regex(BUCKET_NAME), z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/));

/** A served bucket: its name, its binding and the binding's name in wrangler.toml. */
export interface NamedBucket {
	name: string;
	bucket: R2Bucket;
	binding: string;
}

/** `R2_BUCKETS`, validated. @throws S3Error 500 InternalError when it is not valid. */
function bucketBindings(env: Env): Record<string, string> {
	try {
		return jsonVar("R2_BUCKETS", env.R2_BUCKETS, BUCKETS);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		throw new S3Error("InternalError", error.message);
	}
}

/**
 * The names of the served buckets, without looking their bindings up.
 * @throws S3Error 500 InternalError when `R2_BUCKETS` is not valid.
 */
export function servedBucketNames(env: Env): string[] {
	return Object.keys(bucketBindings(env));
}

/**
 * Every served bucket, in the order `R2_BUCKETS` lists them.
 * @throws S3Error 500 InternalError when `R2_BUCKETS` is not valid or names a binding that is no R2 bucket.
 */
export function servedBuckets(env: Env): NamedBucket[] {
	return Object.entries(bucketBindings(env)).map(([name, binding]) => {
		const bucket = (env as unknown as Record<string, unknown>)[binding];
		// Every R2 binding has `createMultipartUpload`; no other binding type does.
		if (typeof bucket !== "object" || bucket === null || !("createMultipartUpload" in bucket)) {
			throw new S3Error("InternalError", `R2_BUCKETS names ${binding} for ${name}, which is not an R2 binding.`);
		}
		return { name, bucket: bucket as R2Bucket, binding };
	});
}

/**
 * The served bucket called `name`, or undefined when wrangler.toml declares none of that name.
 * @throws S3Error 400 InvalidBucketName for a name S3 would not take.
 */
export function declaredBucket(env: Env, name: string): NamedBucket | undefined {
	if (!BUCKET_NAME.test(name)) throw new S3Error("InvalidBucketName", undefined, { BucketName: name });
	return servedBuckets(env).find((bucket) => bucket.name === name);
}
