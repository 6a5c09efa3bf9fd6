/**
 * The S3 dialect's side of the bucket catalog (`src/runtime-buckets/`): finding the bucket a
 * request names, declared or created, and R2's bucket failures as S3's errors
 * (https://developers.cloudflare.com/r2/api/error-codes/ gives both names of each).
 */
import { type CatalogBucket, lookupBucket } from "../../runtime-buckets/catalog";
import { BUCKET_CODES } from "../../runtime-buckets/names";
import type { Failure } from "../../zone/failure";
import { declaredBucket } from "./buckets";
import { S3Error } from "./errors";

/**
 * The bucket called `name`, declared or created.
 * @throws S3Error 404 NoSuchBucket naming it, 400 InvalidBucketName for a name S3 would not take.
 */
export async function findBucket(env: Env, name: string): Promise<CatalogBucket> {
	const found = declaredBucket(env, name) ?? (await lookupBucket(env, name));
	if (found === undefined) {
		throw new S3Error(
			"NoSuchBucket",
			"The specified bucket does not exist: create it (CreateBucket), or declare it in wrangler.toml ([[r2_buckets]] and R2_BUCKETS).",
			{ BucketName: name },
		);
	}
	return found;
}

/** S3's error of the first of a bucket operation's `failures`, naming the bucket `name`. */
export function s3ErrorOfFailure(failures: readonly Failure[], name: string): S3Error {
	const failure = failures[0];
	const fields = { BucketName: name };
	switch (failure?.code) {
		case BUCKET_CODES.invalidName:
			return new S3Error("InvalidBucketName", failure.message, fields);
		case BUCKET_CODES.noSuchBucket:
			return new S3Error("NoSuchBucket", undefined, fields);
		case BUCKET_CODES.notEmpty:
			return new S3Error("BucketNotEmpty", undefined, fields);
		case BUCKET_CODES.tooMany:
			return new S3Error("TooManyBuckets", failure.message, fields);
		case BUCKET_CODES.conflict:
			return new S3Error("BucketAlreadyOwnedByYou", undefined, fields);
		case BUCKET_CODES.declared:
			// Not R2's: R2 deletes any empty bucket. 501, as for what this endpoint cannot do.
			return new S3Error("NotImplemented", failure.message, fields);
		default:
			return new S3Error("InternalError");
	}
}
