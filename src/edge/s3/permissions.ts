/**
 * What each of R2's permissions allows (https://developers.cloudflare.com/r2/api/tokens/,
 * "Permissions"): Admin Read & Write lists, reads and writes everything; Admin Read only lists
 * buckets and reads; Object Read & Write reads and writes objects; Object Read only reads them.
 * Listing the account's buckets and viewing a bucket's configuration need an Admin permission;
 * creating and deleting buckets and editing their configuration, Admin Read & Write.
 *
 * The keys a caller reaches in a bucket: all of them, except in a log-push bucket
 * (`LOGPUSH_BUCKETS`) for a token limited to listed zones. Those buckets hold every zone's logs
 * and ownership challenges, each zone's under `<zone_id>/` (docs/logs.md), so such a token reaches
 * only the keys under its own zones' ids there (edgezone's rule; R2 scopes Object permissions to
 * buckets, and these buckets are edgezone's shared stand-ins for each zone's destination).
 */
import { bucketMap } from "../../zone/destinations";
import type { AccessKey, R2Permission } from "./credentials";
import { accessDenied } from "./errors";

/**
 * What an operation needs: listing the account's buckets, reading, writing, viewing a bucket's
 * configuration (an Admin permission), or creating, deleting and configuring buckets (Admin
 * Read & Write).
 */
export type S3Access = "list-buckets" | "read" | "write" | "read-bucket-config" | "manage-buckets";

const ALLOWED: Record<R2Permission, readonly S3Access[]> = {
	"admin-read-write": ["list-buckets", "read", "write", "read-bucket-config", "manage-buckets"],
	"admin-read": ["list-buckets", "read", "read-bucket-config"],
	"object-read-write": ["read", "write"],
	"object-read": ["read"],
	none: [],
};

/** @throws S3Error 403 AccessDenied when `permission` does not allow `access`. */
export function authorize(permission: R2Permission, access: S3Access): void {
	if (!ALLOWED[permission].includes(access)) throw accessDenied();
}

/** The keys of one bucket a caller reaches: every key, or those starting with one of `prefixes`. */
export interface KeyScope {
	/** undefined for every key. */
	prefixes: readonly string[] | undefined;
}

/**
 * The keys of the bucket `bucketName` that `key` reaches.
 * @throws ConfigError when `LOGPUSH_BUCKETS` is not valid.
 */
export function keyScope(key: AccessKey, bucketName: string, env: Env): KeyScope {
	if (key.zones === "*" || !Object.hasOwn(bucketMap(env), bucketName)) return { prefixes: undefined };
	return { prefixes: key.zones.map((zone) => `${zone}/`) };
}

/**
 * Checks that a key, or every key under a listing prefix, is in `scope`.
 * @param key an object key, or a list's prefix (every key it lists must be in scope).
 * @throws S3Error 403 AccessDenied otherwise.
 */
export function authorizeKey(scope: KeyScope, key: string): void {
	if (scope.prefixes !== undefined && !scope.prefixes.some((prefix) => key.startsWith(prefix))) {
		throw accessDenied();
	}
}
