/**
 * The rules a bucket created at run time must follow, with no Workers API in them (pure).
 *
 * - Names: R2's, 3-63 characters of lower-case letters, digits and hyphens, starting and ending
 *   with a letter or digit (https://developers.cloudflare.com/r2/buckets/create-buckets/,
 *   "Bucket-Level Operations"; https://developers.cloudflare.com/r2/api/error-codes/, 10005).
 *   Stricter than S3's, which also allows dots: a declared bucket may still have one.
 * - A count cap: R2's 1,000 buckets per account (https://developers.cloudflare.com/r2/platform/limits/),
 *   declared and created together; past it 10009 TooManyBuckets.
 * - A location hint, one of R2's (`apac`, `eeur`, `enam`, `weur`, `wnam`, `oc`;
 *   https://developers.cloudflare.com/r2/reference/data-location/), kept and answered, never acted on:
 *   every bucket lives where edgezone runs.
 * - A default storage class, `Standard` or `InfrequentAccess`
 *   (https://developers.cloudflare.com/r2/buckets/storage-classes/).
 */

/** R2's rule for a new bucket's name. */
const CREATED_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;

/** The most buckets (declared and created) edgezone serves: R2's per-account limit. */
export const MAX_BUCKETS = 1000;

/** R2's location hints, lower case as requests send them. */
export const LOCATION_HINTS = ["apac", "eeur", "enam", "weur", "wnam", "oc"] as const;

/** A location hint. */
export type LocationHint = (typeof LOCATION_HINTS)[number];

/** A bucket's default storage class. */
export const BUCKET_STORAGE_CLASSES = ["Standard", "InfrequentAccess"] as const;

/** A bucket's default storage class. */
export type BucketStorageClass = (typeof BUCKET_STORAGE_CLASSES)[number];

/** Why a name cannot be a new bucket's, or undefined when it can. */
export function createdNameProblem(name: string): string | undefined {
	if (name.length < 3 || name.length > 63) return "The bucket name must be between 3 and 63 characters long.";
	if (!CREATED_NAME.test(name)) {
		return "The bucket name may contain only lowercase letters (a-z), numbers (0-9) and hyphens (-), and must begin and end with a letter or number.";
	}
	return undefined;
}

/**
 * The location hint an S3 CreateBucket's `LocationConstraint` asks: null for R2's `auto` (which an
 * empty constraint and `us-east-1` alias, https://developers.cloudflare.com/r2/api/s3/api/), a
 * hint for one of R2's hints, undefined for anything else.
 */
export function locationOfConstraint(constraint: string): LocationHint | null | undefined {
	const value = constraint.trim().toLowerCase();
	if (value === "" || value === "auto" || value === "us-east-1") return null;
	return (LOCATION_HINTS as readonly string[]).includes(value) ? (value as LocationHint) : undefined;
}

/** R2's error codes of the bucket operations (https://developers.cloudflare.com/r2/api/error-codes/). */
export const BUCKET_CODES = {
	/** 400 InvalidBucketName. */
	invalidName: 10005,
	/** 404 NoSuchBucket. */
	noSuchBucket: 10006,
	/** 409 BucketNotEmpty. */
	notEmpty: 10008,
	/** 400 TooManyBuckets. */
	tooMany: 10009,
	/** 409 BucketConflict, "Bucket name already exists". */
	conflict: 10073,
	/** Chosen (the real code is not public): 400, a CORS or lifecycle configuration refused. */
	invalidConfiguration: 10040,
	/** Chosen (edgezone's, not R2's): 409, a bucket declared in wrangler.toml, which only wrangler.toml removes. */
	declared: 9409,
} as const;
