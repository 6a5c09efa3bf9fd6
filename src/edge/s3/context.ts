/** What every S3 handler receives: the request, its parsed URL, the caller, and the bucket and key it names. */

import type { KeyScope } from "./auth/permissions";
import type { S3Caller } from "./auth/verify";
import type { NamedBucket } from "./buckets";

/** The context of an operation on the service (`/`): no bucket. */
export interface ServiceContext {
	request: Request;
	url: URL;
	env: Env;
	caller: S3Caller;
}

/** The context of an operation on a bucket name that need not be served (CreateBucket). */
export interface BucketNameContext extends ServiceContext {
	/** The bucket name the address gives, as sent. */
	bucketName: string;
}

/** The context of an operation on a bucket or one of its objects. */
export interface S3Context extends ServiceContext {
	/** The bucket the path names, looked up after the caller's permission is checked. */
	bucket: NamedBucket;
	/** The object key the path names (checked against `scope`); "" for an operation on the bucket. */
	key: string;
	/** The keys of the bucket the caller reaches; a handler taking keys from elsewhere checks them. */
	scope: KeyScope;
}
