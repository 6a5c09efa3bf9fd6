/**
 * The S3 access keys of the API tokens of `API_CREDENTIALS`, as R2 derives them from a token
 * (`api-tokens.ts`): Access Key ID the token's id, Secret Access Key the hex SHA-256 of its
 * value; the R2 permission each has, and what each permission allows
 * (https://developers.cloudflare.com/r2/api/tokens/, "Permissions"). Shared by the S3 dialect
 * (`src/edge/s3/`), which authenticates S3 clients with these keys, and the log-push API, which
 * checks the keys a destination carries as an S3 client's would be checked.
 *
 * Which R2 permission a token has (`r2GrantOf`):
 * - A token listing `permissions` has the one R2's permission groups name: "Workers R2 Storage
 *   Edit" (Admin Read & Write), "Workers R2 Storage Read" (Admin Read only), "Workers R2 Storage
 *   Bucket Item Edit" (Object Read & Write), "Workers R2 Storage Bucket Item Read" (Object Read
 *   only); "Edit" is the dashboard's name of the API's "Write" (src/api/permissions.ts). None of
 *   them: no R2 permission. R2's dashboard gives a token one of its four permissions, so an entry
 *   naming two is refused.
 * - Otherwise it is edgezone's mapping of the access the token has on the API (src/api/auth.ts):
 *   a token reaching every zone (`"zones": "*"`) is the account's, so it is an Admin token; one
 *   limited to listed zones gets Object permissions.
 * - `"access": "read"` makes either read-only.
 * - `"buckets": [...]` scopes an Object permission to those buckets, as R2's dashboard scopes one
 *   (r2/api/tokens: "you can scope your token to a set of buckets"); an Admin permission reaches
 *   every bucket, so an entry scoping one is refused.
 * The zones a token lists also scope its keys in the log-push buckets, which hold every zone's
 * logs (`keyPrefixes`), and keep it from every bucket-level access (`grantsAccess`: configuring,
 * sweeping, creating or deleting a bucket, reading its configuration, listing the buckets).
 *
 * The API validates the secret in full, these rules included (`r2GrantOf`); this module reads the
 * token entries' `token`, `id`, `zones`, `access`, `permissions` and `buckets`, and ignores
 * everything else. The keys are derived once per value of the secret, which stays the same for
 * the isolate's life.
 */
import { z } from "zod";
import { apiTokenId, s3SecretOf } from "./api-tokens";
import { ConfigError, jsonVar } from "./config";

/** R2's four permissions (r2/api/tokens), and none. */
export type R2Permission = "admin-read-write" | "admin-read" | "object-read-write" | "object-read" | "none";

/** R2's names of its permissions (r2/api/tokens, "Permissions"). */
export const R2_PERMISSION_NAMES: Record<R2Permission, string> = {
	"admin-read-write": "Admin Read & Write",
	"admin-read": "Admin Read only",
	"object-read-write": "Object Read & Write",
	"object-read": "Object Read only",
	none: "none",
};

/**
 * What an S3 operation needs: listing the account's buckets, reading, writing, viewing a bucket's
 * configuration (an Admin permission), or creating, deleting and configuring buckets (Admin
 * Read & Write).
 */
export type S3Access = "list-buckets" | "read" | "write" | "read-bucket-config" | "manage-buckets";

/** What R2 grants a token: its permission, and the buckets an Object permission is scoped to. */
export interface R2Grant {
	permission: R2Permission;
	/** The only buckets the key reaches; undefined for every bucket. */
	buckets?: readonly string[];
}

/** An access key: its secret, the permission of its token, the buckets and the zones it reaches. */
export interface AccessKey extends R2Grant {
	id: string;
	/** The Secret Access Key, as the client signs with it. */
	secret: string;
	/** The zones the token reaches: every zone, or the listed zone ids. */
	zones: "*" | readonly string[];
	/**
	 * For temporary credentials (src/edge/s3/auth/temporary-credentials.ts): the one bucket they are
	 * for, the keys they reach in it, and when they expire (ms since the epoch).
	 */
	temporary?: { bucket: string; prefixes: readonly string[]; objects: readonly string[]; expiresAt: number };
}

/**
 * What each permission allows (r2/api/tokens, "Permissions"): Admin Read & Write lists, reads and
 * writes everything; Admin Read only lists buckets and reads; Object Read & Write reads and writes
 * objects; Object Read only reads them. Listing the account's buckets and viewing a bucket's
 * configuration need an Admin permission; managing buckets, Admin Read & Write.
 */
const ALLOWED: Record<R2Permission, readonly S3Access[]> = {
	"admin-read-write": ["list-buckets", "read", "write", "read-bucket-config", "manage-buckets"],
	"admin-read": ["list-buckets", "read", "read-bucket-config"],
	"object-read-write": ["read", "write"],
	"object-read": ["read"],
	none: [],
};

/**
 * The accesses that act on a whole bucket, or on the account's list of buckets: those only an
 * Admin permission allows (r2/api/tokens, "Permissions": Admin Read & Write "the ability to
 * create, list and delete buckets, and edit bucket configurations"; Admin Read only "to list
 * buckets and view bucket configuration").
 */
const BUCKET_LEVEL: readonly S3Access[] = ["list-buckets", "read-bucket-config", "manage-buckets"];

/**
 * Whether a holder of R2's `permission`, a token of `zones`, may do `access`: the one check of
 * every S3 operation (src/edge/s3/auth/permissions.ts), of every API route acting on a bucket
 * (src/api/permissions.ts, the emulator's lifecycle sweep) and of a log-push destination's keys
 * (src/zone/destinations.ts).
 *
 * The permission must allow the access (`ALLOWED`), and a bucket-level access needs a token of
 * the whole account (`zones: "*"`). Edgezone's rule, whatever R2 group a token of listed zones
 * names: every zone shares the buckets (the log-push buckets hold each zone's logs under its id),
 * and a bucket's configuration applies to every key in it, so a zone's token that changed a
 * lifecycle rule, or swept the bucket with it, would expire other zones' objects and abort their
 * uploads. Reading a bucket's configuration is refused to it too, for the same reason the other
 * zones' objects are: the rules name other zones' prefixes and say when their objects go, which
 * is theirs to know; and listing the buckets is the account's view, not a zone's. Such a token
 * keeps the object accesses of its permission, in its zones' prefixes of the log-push buckets
 * (`keyPrefixes`). On Cloudflare a zone's destination is a bucket of its own account, so no
 * tenant shares one; this rule keeps that true of edgezone's shared buckets.
 */
export function grantsAccess(
	holder: { permission: R2Permission; zones: "*" | readonly string[] },
	access: S3Access,
): boolean {
	if (!ALLOWED[holder.permission].includes(access)) return false;
	return holder.zones === "*" || !BUCKET_LEVEL.includes(access);
}

/** Whether `key` reaches the bucket `bucketName` (a key whose Object permission is scoped to buckets). */
export const reachesBucket = (key: R2Grant, bucketName: string): boolean =>
	key.buckets === undefined || key.buckets.includes(bucketName);

/**
 * The permission allowing what both `a` and `b` allow: a key's permission kept within its
 * parent's (temporary credentials never reach beyond the key they come from).
 */
export function narrower(a: R2Permission, b: R2Permission): R2Permission {
	const both = ALLOWED[a].filter((access) => ALLOWED[b].includes(access));
	const found = (Object.keys(ALLOWED) as R2Permission[]).find(
		(p) => ALLOWED[p].length === both.length && both.every((access) => ALLOWED[p].includes(access)),
	);
	return found ?? "none";
}

/**
 * The key prefixes `key` is confined to in a bucket: undefined for every key, or the prefixes
 * `<zone_id>/` of its zones in a log-push bucket when the token is limited to listed zones.
 * Those buckets hold every zone's logs and ownership challenges, each zone's under `<zone_id>/`
 * (docs/api.md), so such a token reaches only its own zones' keys there (edgezone's rule; R2
 * scopes Object permissions to buckets, and these buckets are edgezone's shared stand-ins for each
 * zone's destination).
 * @param isLogpushBucket whether the bucket is one of `LOGPUSH_BUCKETS`.
 */
export function keyPrefixes(key: AccessKey, isLogpushBucket: boolean): readonly string[] | undefined {
	if (key.zones === "*" || !isLogpushBucket) return undefined;
	return key.zones.map((zone) => `${zone}/`);
}

const TOKEN_ENTRY = z.looseObject({
	token: z.string(),
	id: z.string().optional(),
	zones: z.union([z.literal("*"), z.array(z.string())]),
	access: z.enum(["read", "write"]).default("write"),
	permissions: z.array(z.string()).optional(),
	buckets: z.array(z.string()).optional(),
});
const ENTRIES = z.array(z.union([TOKEN_ENTRY, z.looseObject({})]));

/**
 * R2's permission groups, by the names API tokens give them (developers.cloudflare.com/
 * fundamentals/api/reference/permissions/, "Workers R2 Storage" and "Workers R2 Storage Bucket
 * Item"), and the permission each is in R2's dashboard (r2/api/tokens, "Permissions").
 */
const R2_PERMISSION_GROUPS = {
	"Workers R2 Storage Edit": "admin-read-write",
	"Workers R2 Storage Read": "admin-read",
	"Workers R2 Storage Bucket Item Edit": "object-read-write",
	"Workers R2 Storage Bucket Item Read": "object-read",
} as const satisfies Record<string, R2Permission>;

/** The fields of a token entry of `API_CREDENTIALS` that decide its R2 grant. */
interface TokenAccess {
	zones: "*" | readonly string[];
	access: "read" | "write";
	permissions?: readonly string[];
	buckets?: readonly string[];
}

/**
 * The R2 grant of a token entry (the rules are in this module's comment).
 * @returns the grant, or a sentence saying why the entry is not valid: two of R2's permission
 * groups, or `buckets` on a permission that is not an Object one.
 */
export function r2GrantOf(entry: TokenAccess): R2Grant | string {
	let permission: R2Permission;
	if (entry.permissions === undefined) {
		permission = entry.zones === "*" ? "admin-read-write" : "object-read-write";
	} else {
		const groups = entry.permissions.filter((name) => Object.hasOwn(R2_PERMISSION_GROUPS, name));
		if (groups.length > 1) {
			return `an R2 token has one of R2's permissions; this one lists ${groups.map((g) => `"${g}"`).join(" and ")}`;
		}
		const group = groups[0] as keyof typeof R2_PERMISSION_GROUPS | undefined;
		permission = group === undefined ? "none" : R2_PERMISSION_GROUPS[group];
	}
	if (entry.access === "read") permission = narrower(permission, "admin-read");
	if (entry.buckets === undefined) return { permission };
	if (!permission.startsWith("object-")) {
		const name = R2_PERMISSION_NAMES[permission];
		return `"buckets" scopes an Object permission, and this token's R2 permission is ${name}, which reaches every bucket or none`;
	}
	return { permission, buckets: entry.buckets };
}

let cache: { raw: string; keys: Promise<Map<string, AccessKey>> } | undefined;

async function deriveKeys(entries: z.output<typeof ENTRIES>): Promise<Map<string, AccessKey>> {
	const keys = new Map<string, AccessKey>();
	for (const candidate of entries) {
		const entry = TOKEN_ENTRY.safeParse(candidate);
		if (!entry.success) continue;
		const id = await apiTokenId(entry.data.token, entry.data.id);
		if (keys.has(id)) throw new ConfigError("API_CREDENTIALS", `two tokens have the id ${id}`);
		const grant = r2GrantOf(entry.data);
		if (typeof grant === "string") throw new ConfigError("API_CREDENTIALS", `the token ${id}: ${grant}`);
		keys.set(id, { id, secret: await s3SecretOf(entry.data.token), ...grant, zones: entry.data.zones });
	}
	return keys;
}

/**
 * Every access key of the tokens of `API_CREDENTIALS` (`raw`), by Access Key ID.
 * @throws ConfigError when `raw` is unset or not valid.
 */
export async function s3AccessKeys(raw: string | undefined): Promise<ReadonlyMap<string, AccessKey>> {
	if (raw === undefined || raw === "") throw new ConfigError("API_CREDENTIALS", "it is not set");
	if (cache?.raw !== raw) cache = { raw, keys: deriveKeys(jsonVar("API_CREDENTIALS (S3 keys)", raw, ENTRIES)) };
	try {
		return await cache.keys;
	} catch (error) {
		cache = undefined;
		throw error;
	}
}

/**
 * The access key of an Access Key ID among the tokens of `API_CREDENTIALS` (`raw`), or undefined
 * when no token has that id.
 * @throws ConfigError when `raw` is unset or not valid.
 */
export async function s3AccessKey(raw: string | undefined, id: string): Promise<AccessKey | undefined> {
	return (await s3AccessKeys(raw)).get(id);
}
