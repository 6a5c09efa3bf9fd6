/**
 * The S3 credentials of the API tokens of `API_CREDENTIALS`, as R2 derives them from a token
 * (src/common/api-tokens.ts): Access Key ID the token's id, Secret Access Key the hex SHA-256 of
 * its value; and the R2 permission each has
 * (https://developers.cloudflare.com/r2/api/tokens/, "Permissions").
 *
 * Which R2 permission a token has is edgezone's mapping of the access it already has on the API
 * (src/api/auth.ts): a token reaching every zone (`"zones": "*"`) is the account's, so it is an
 * Admin token; one limited to listed zones gets Object permissions; `"access": "read"` makes
 * either read-only. A token limited to `permissions` names none of R2's groups, so it has no R2
 * permission (every operation is AccessDenied). The zones a token lists also scope its keys in
 * the log-push buckets, which hold every zone's logs (`permissions.ts`). Gaps: R2's permission
 * groups in `permissions`, and temporary credentials.
 *
 * The API validates the secret in full; this module reads the token entries' `token`, `id`,
 * `zones`, `access` and `permissions`, and ignores everything else. The keys are derived once per
 * value of the secret, which stays the same for the isolate's life.
 */
import { z } from "zod";
import { apiTokenId, s3SecretOf } from "../../common/api-tokens";
import { ConfigError, jsonVar } from "../../common/config";
import { notConfigured } from "../../startup";
import { S3Error } from "./errors";

/** R2's four permissions (r2/api/tokens), and none. */
export type R2Permission = "admin-read-write" | "admin-read" | "object-read-write" | "object-read" | "none";

/** An access key: its secret and the permission of its token. */
export interface AccessKey {
	id: string;
	/** The Secret Access Key, as the client signs with it. */
	secret: string;
	permission: R2Permission;
	/** The zones the token reaches: every zone, or the listed zone ids. */
	zones: "*" | readonly string[];
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

/** A ConfigError logged and answered as the API answers it: 500, the detail in the log only. */
function misconfigured(error: unknown): unknown {
	if (!(error instanceof ConfigError)) return error;
	console.error(`edgezone S3: ${error.message}`);
	return new S3Error("InternalError", "API credentials are not configured");
}

/**
 * The access key of an Access Key ID, or undefined when no token has that id.
 * @throws S3Error 500 InternalError when `API_CREDENTIALS` is unset or not valid.
 */
export async function accessKey(env: Env, id: string): Promise<AccessKey | undefined> {
	return (await accessKeys(env)).get(id);
}

/**
 * The access key R2 derives from an API token's value (the dashboard shows a signed-in token's),
 * or undefined when no token of `API_CREDENTIALS` has that value. Linear in the tokens.
 * @throws S3Error 500 InternalError when `API_CREDENTIALS` is unset or not valid.
 */
export async function accessKeyOfToken(env: Env, token: string): Promise<AccessKey | undefined> {
	const secret = await s3SecretOf(token);
	for (const key of (await accessKeys(env)).values()) if (key.secret === secret) return key;
	return undefined;
}

/** Every access key, by id, derived once per value of `API_CREDENTIALS`. */
async function accessKeys(env: Env): Promise<Map<string, AccessKey>> {
	const raw = env.API_CREDENTIALS;
	if (raw === undefined || raw === "") throw new S3Error("InternalError", `${notConfigured("API_CREDENTIALS")}.`);
	if (cache?.raw !== raw) {
		try {
			cache = { raw, keys: deriveKeys(jsonVar("API_CREDENTIALS (S3 keys)", raw, ENTRIES)) };
		} catch (error) {
			throw misconfigured(error);
		}
	}
	try {
		return await cache.keys;
	} catch (error) {
		cache = undefined;
		throw misconfigured(error);
	}
}
