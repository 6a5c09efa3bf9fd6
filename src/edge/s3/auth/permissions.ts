/**
 * What each of R2's permissions allows (https://developers.cloudflare.com/r2/api/tokens/,
 * "Permissions", the table in src/common/s3-keys.ts): Admin Read & Write lists, reads and writes
 * everything; Admin Read only lists buckets and reads; Object Read & Write reads and writes
 * objects; Object Read only reads them. Listing the account's buckets and viewing a bucket's
 * configuration need an Admin permission; creating and deleting buckets and editing their
 * configuration, Admin Read & Write; and each of these bucket-level accesses a token of the whole
 * account, never one of listed zones, whose zones share the buckets (`grantsAccess`,
 * src/common/s3-keys.ts, the one check every S3 operation, the emulator's lifecycle sweep and a
 * log-push destination's keys go through).
 *
 * The buckets a caller reaches: every one, or those its token's Object permission is scoped to
 * (r2/api/tokens: "you can scope your token to a set of buckets"; `reachesBucket`).
 * The keys a caller reaches in a bucket: all of them, except in a log-push bucket
 * (`LOGPUSH_BUCKETS`) for a token limited to listed zones, which reaches only the keys under its
 * own zones' ids there (`keyPrefixes`, src/common/s3-keys.ts). Temporary credentials reach one
 * bucket, and in it only their objects and prefixes when they list any
 * (https://developers.cloudflare.com/r2/api/tokens/, "Temporary access credentials"), within
 * what their parent key reaches; they never list the account's buckets (edgezone's choice: they
 * are for one bucket).
 */
import { type AccessKey, grantsAccess, keyPrefixes, reachesBucket, type S3Access } from "../../../common/s3-keys";
import { bucketMap } from "../../../zone/destinations";
import { accessDenied } from "../errors";

export type { S3Access } from "../../../common/s3-keys";

/**
 * Lets `key` do what an operation needs (`S3_OPERATIONS` names it, `operations.ts`).
 * @throws S3Error 403 AccessDenied when `grantsAccess` refuses it, or for temporary credentials
 * listing the buckets.
 */
export function authorize(key: AccessKey, access: S3Access): void {
	if (!grantsAccess(key, access)) throw accessDenied();
	if (key.temporary !== undefined && access === "list-buckets") throw accessDenied();
}

/** The keys of one bucket a caller reaches. */
export interface KeyScope {
	/** The prefixes of a token's zones in a log-push bucket; undefined for every key. */
	prefixes: readonly string[] | undefined;
	/** Temporary credentials scoped to objects or prefixes: a key must also be one of these. */
	temporary?: { prefixes: readonly string[]; objects: readonly string[] };
}

/**
 * The keys of the bucket `bucketName` that `key` reaches.
 * @throws S3Error 403 AccessDenied for a bucket the key's permission is not scoped to, or
 * temporary credentials of another bucket; ConfigError when `LOGPUSH_BUCKETS` is not valid.
 */
export function keyScope(key: AccessKey, bucketName: string, env: Env): KeyScope {
	if (!reachesBucket(key, bucketName)) throw accessDenied();
	const prefixes = keyPrefixes(key, Object.hasOwn(bucketMap(env), bucketName));
	const temporary = key.temporary;
	if (temporary === undefined) return { prefixes };
	if (temporary.bucket !== bucketName) throw accessDenied();
	if (temporary.prefixes.length === 0 && temporary.objects.length === 0) return { prefixes };
	return { prefixes, temporary: { prefixes: temporary.prefixes, objects: temporary.objects } };
}

/**
 * Checks that a key, or every key under a listing prefix, is in `scope`.
 * @param key an object key, or a list's prefix (every key it lists must be in scope).
 * @param isPrefix whether `key` is a list's prefix: a temporary credential's objects do not
 * cover the keys under it.
 * @throws S3Error 403 AccessDenied otherwise.
 */
export function authorizeKey(scope: KeyScope, key: string, isPrefix = false): void {
	if (scope.prefixes !== undefined && !scope.prefixes.some((prefix) => key.startsWith(prefix))) {
		throw accessDenied();
	}
	const temporary = scope.temporary;
	if (
		temporary !== undefined &&
		!(temporary.prefixes.some((prefix) => key.startsWith(prefix)) || (!isPrefix && temporary.objects.includes(key)))
	) {
		throw accessDenied();
	}
}
