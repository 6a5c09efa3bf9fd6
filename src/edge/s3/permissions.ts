/**
 * What each of R2's permissions allows (https://developers.cloudflare.com/r2/api/tokens/,
 * "Permissions"): Admin Read & Write lists, reads and writes everything; Admin Read only lists
 * buckets and reads; Object Read & Write reads and writes objects; Object Read only reads them.
 * Listing the account's buckets needs an Admin permission.
 */
import type { R2Permission } from "./credentials";
import { accessDenied } from "./errors";

/** What an operation needs: listing the account's buckets, reading, or writing. */
export type S3Access = "list-buckets" | "read" | "write";

const ALLOWED: Record<R2Permission, readonly S3Access[]> = {
	"admin-read-write": ["list-buckets", "read", "write"],
	"admin-read": ["list-buckets", "read"],
	"object-read-write": ["read", "write"],
	"object-read": ["read"],
	none: [],
};

/** @throws S3Error 403 AccessDenied when `permission` does not allow `access`. */
export function authorize(permission: R2Permission, access: S3Access): void {
	if (!ALLOWED[permission].includes(access)) throw accessDenied();
}
