/**
 * The S3 access keys of the API tokens of `API_CREDENTIALS`, as R2 derives them from a token
 * (`api-tokens.ts`): Access Key ID the token's id, Secret Access Key the hex SHA-256 of its
 * value; the R2 permission each has, and what each permission allows
 * (https://developers.cloudflare.com/r2/api/tokens/, "Permissions"). Shared by the S3 dialect
 * (`src/edge/s3/`), which authenticates S3 clients with these keys, and the log-push API, which
 * checks the keys a destination carries as an S3 client's would be checked.
 *
 * Which R2 permission a token has is edgezone's mapping of the access it already has on the API
 * (src/api/auth.ts): a token reaching every zone (`"zones": "*"`) is the account's, so it is an
 * Admin token; one limited to listed zones gets Object permissions; `"access": "read"` makes
 * either read-only. A token limited to `permissions` names none of R2's groups, so it has no R2
 * permission. The zones a token lists also scope its keys in the log-push buckets, which hold
 * every zone's logs (`keyPrefixes`).
 *
 * The API validates the secret in full; this module reads the token entries' `token`, `id`,
 * `zones`, `access` and `permissions`, and ignores everything else. The keys are derived once per
 * value of the secret, which stays the same for the isolate's life.
 */
import { z } from "zod";
import { apiTokenId, s3SecretOf } from "./api-tokens";
import { ConfigError, jsonVar } from "./config";

/** R2's four permissions (r2/api/tokens), and none. */
export type R2Permission = "admin-read-write" | "admin-read" | "object-read-write" | "object-read" | "none";

/**
 * What an S3 operation needs: listing the account's buckets, reading, writing, viewing a bucket's
 * configuration (an Admin permission), or creating, deleting and configuring buckets (Admin
 * Read & Write).
 */
export type S3Access = "list-buckets" | "read" | "write" | "read-bucket-config" | "manage-buckets";

/** An access key: its secret, the permission of its token and the zones it reaches. */
export interface AccessKey {
	id: string;
	/** The Secret Access Key, as the client signs with it. */
	secret: string;
	permission: R2Permission;
	/** The zones the token reaches: every zone, or the listed zone ids. */
	zones: "*" | readonly string[];
	/**
	 * For temporary credentials (src/edge/s3/temporary-credentials.ts): the one bucket they are
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

/** Whether `permission` allows `access`. */
export const allows = (permission: R2Permission, access: S3Access): boolean => ALLOWED[permission].includes(access);

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
 * (README, "API v4"), so such a token reaches only its own zones' keys there (edgezone's rule; R2
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
});
const ENTRIES = z.array(z.union([TOKEN_ENTRY, z.looseObject({})]));

/** The R2 permission of a token entry (edgezone's mapping; see the module's comment). */
function permissionOf(entry: z.output<typeof TOKEN_ENTRY>): R2Permission {
	if (entry.permissions !== undefined) return "none";
	const scope = entry.zones === "*" ? "admin" : "object";
	return `${scope}-${entry.access === "write" ? "read-write" : "read"}`;
}

let cache: { raw: string; keys: Promise<Map<string, AccessKey>> } | undefined;

async function deriveKeys(entries: z.output<typeof ENTRIES>): Promise<Map<string, AccessKey>> {
	const keys = new Map<string, AccessKey>();
	for (const candidate of entries) {
		const entry = TOKEN_ENTRY.safeParse(candidate);
		if (!entry.success) continue;
		const id = await apiTokenId(entry.data.token, entry.data.id);
		if (keys.has(id)) throw new ConfigError("API_CREDENTIALS", `two tokens have the id ${id}`);
		keys.set(id, {
			id,
			secret: await s3SecretOf(entry.data.token),
			permission: permissionOf(entry.data),
			zones: entry.data.zones,
		});
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
