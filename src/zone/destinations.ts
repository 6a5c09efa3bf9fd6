/**
 * Log-push destinations: `destination_conf` strings and the R2 buckets they name.
 *
 * Follows https://developers.cloudflare.com/logs/logpush/logpush-job/api-configuration/:
 * `r2://<bucket>/<path>?account-id=..&access-key-id=..&secret-access-key=..` and
 * `s3://<bucket>/<path>?region=<region>[&sse=AES256]`; `{DATE}` in the path becomes `YYYYMMDD`.
 * Locally every destination bucket is a bound R2 bucket: the vars entry `LOGPUSH_BUCKETS` maps
 * destination bucket names to R2 bindings (by default `edgezone-logs` -> `LOGS`).
 * Keys in the query (`access-key-id` and `secret-access-key`, of r2:// as the R2 page shows
 * them, https://developers.cloudflare.com/logs/logpush/logpush-job/enable-destinations/r2/, and
 * of s3:// as S3-compatible destinations carry them,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/enable-destinations/s3-compatible-endpoints/)
 * are checked as an S3 client's would be (`accessRefusal`): an S3 Access Key ID of a token of
 * `API_CREDENTIALS` (src/common/s3-keys.ts), its secret, and a permission that writes the bucket
 * at the destination's path. On Cloudflare the keys decide what a destination may write, so here
 * they decide alone (`destinationRefusal`): a token of the whole account's keys write anywhere in
 * the bucket (`r2://edgezone-logs/{DATE}`, as Cloudflare's R2 page writes it), a token of listed
 * zones' only under those zones' ids, as an S3 PutObject with them would. `account-id`, when
 * given, must be the deployment's account (`DEFAULT_ACCOUNT_ID`), which holds the buckets.
 * Other schemes (gs, azure, https, ...) are refused: nothing local could receive them.
 * Edgezone's choice: keys stay optional, and a destination without them is edgezone's own
 * allowance, so it gets edgezone's own rule, as every zone writes into the same local buckets: it
 * lies under its zone's id, `r2://edgezone-logs/<zone_id>/...` (`zonePathRefusal`;
 * docs/api.md). On Cloudflare each destination is a bucket of the customer's, reached with its
 * credentials (r2) or proven by the ownership challenge (s3); locally the challenge does not tell
 * zones apart, the keys do.
 */
import { z } from "zod";
import { ConfigError, jsonVar } from "../common/config";
import { grantsAccess, keyPrefixes, reachesBucket, s3AccessKey } from "../common/s3-keys";
import { fixedSecret, sameSecret } from "../common/secrets";

/** A parsed destination; `fingerprint` names bucket and path without the query (ownership challenge docs). */
export interface Destination {
	scheme: "r2" | "s3";
	bucket: string;
	binding: string;
	/** The path inside the bucket, no leading or trailing slash, `{DATE}` kept. */
	path: string;
	fingerprint: string;
	/** The S3 keys the query carries, if any. */
	keys?: { accessKeyId: string; secretAccessKey: string };
	/** The query's `account-id` (r2:// only), if any. */
	accountId?: string;
}

/** Outcome of parsing a `destination_conf`. */
export type ParsedDestination = { ok: true; destination: Destination } | { ok: false; message: string };

const SHAPE = /^(r2|s3):\/\/([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/;
// S3 bucket naming rules (which R2 follows): 3-63 of lower-case letters, digits, dots and hyphens.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PATH = /^[A-Za-z0-9!_.*'()\-/]*$/;
const QUERY_KEYS = {
	r2: ["account-id", "access-key-id", "secret-access-key"],
	s3: ["region", "sse", "access-key-id", "secret-access-key"],
} as const;

const BUCKET_MAP = z.record(
	z.string().regex(BUCKET),
	z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an R2 binding name is an identifier such as LOGS"),
);

/**
 * The var `LOGPUSH_BUCKETS`: destination bucket name -> R2 binding name, parsed once per value.
 * @throws ConfigError (naming the var) when it is unset, not JSON, or not such an object.
 */
export function bucketMap(env: Env): Record<string, string> {
	return jsonVar("LOGPUSH_BUCKETS", env.LOGPUSH_BUCKETS, BUCKET_MAP);
}

/** Parses a `destination_conf` against the bucket map; the failure message says what is wrong. */
export function parseDestination(conf: string, buckets: Record<string, string>): ParsedDestination {
	const match = SHAPE.exec(conf);
	if (match === null)
		return {
			ok: false,
			message: "destination_conf must be r2://<bucket>/<path> or s3://<bucket>/<path>?region=<region>",
		};
	const [, scheme, bucket = "", rawPath = "", query = ""] = match as unknown as [
		string,
		"r2" | "s3",
		string,
		string?,
		string?,
	];
	if (!BUCKET.test(bucket)) return { ok: false, message: `"${bucket}" is not a valid bucket name` };
	const binding = buckets[bucket];
	if (binding === undefined)
		return {
			ok: false,
			message: `bucket "${bucket}" is not a known destination (known: ${Object.keys(buckets).join(", ") || "none"})`,
		};
	const path = rawPath.replace(/^\/+|\/+$/g, "");
	if (!PATH.test(path.replaceAll("{DATE}", "")))
		return { ok: false, message: `"${path}" is not a valid destination path` };
	const params = new URLSearchParams(query);
	for (const key of params.keys()) {
		if (!(QUERY_KEYS[scheme] as readonly string[]).includes(key))
			return { ok: false, message: `unknown parameter "${key}" for ${scheme}:// destinations` };
	}
	if (scheme === "s3" && !params.get("region"))
		return { ok: false, message: "s3:// destinations need ?region=<region>" };
	if (params.has("sse") && params.get("sse") !== "AES256") return { ok: false, message: "sse must be AES256" };
	const accessKeyId = params.get("access-key-id");
	const secretAccessKey = params.get("secret-access-key");
	if ((accessKeyId === null) !== (secretAccessKey === null))
		return { ok: false, message: "access-key-id and secret-access-key go together: give both or neither" };
	const accountId = params.get("account-id");
	return {
		ok: true,
		destination: {
			scheme,
			bucket,
			binding,
			path,
			fingerprint: `${scheme}://${bucket}/${path}`,
			...(accessKeyId === null || secretAccessKey === null ? {} : { keys: { accessKeyId, secretAccessKey } }),
			...(accountId === null ? {} : { accountId }),
		},
	};
}

/**
 * Why the zone `zoneId` may not write `destination` (a job's or an ownership challenge's), or
 * undefined when it may: the keys it carries decide, as for an S3 client (`accessRefusal`);
 * without keys, its path must be under the zone's id (`zonePathRefusal`).
 * @throws ConfigError when `API_CREDENTIALS` is unset or not valid.
 */
export async function destinationRefusal(
	env: Env,
	destination: Destination,
	zoneId: string,
): Promise<string | undefined> {
	if (destination.keys === undefined) {
		const outside = zonePathRefusal(destination, zoneId);
		if (outside !== undefined) return outside;
	}
	return accessRefusal(env, destination);
}

/**
 * Why a destination without keys is not one the zone `zoneId` may write, or undefined when it
 * may: its path must be the zone's id or start with `<zone_id>/` (edgezone's rule for its shared
 * buckets, above), so that no zone's jobs or challenges land among another zone's objects.
 * `{DATE}` in the first segment is not under the prefix (it expands after the id).
 */
function zonePathRefusal(destination: Destination, zoneId: string): string | undefined {
	const { path, scheme, bucket } = destination;
	if (path === zoneId || path.startsWith(`${zoneId}/`)) return undefined;
	return `the path of a destination without S3 keys must start with the zone's id: edgezone's log buckets are shared by every zone, so a zone writes under its own id (${scheme}://${bucket}/${zoneId}/<path>); with keys, the keys decide where`;
}

/**
 * Why the keys of `destination` may not write it, or undefined when they may (or it has none):
 * checked as R2 checks an S3 client's PutObject (https://developers.cloudflare.com/r2/api/tokens/):
 * the Access Key ID must be a token's (InvalidAccessKeyId), the secret its secret
 * (SignatureDoesNotMatch, compared in constant time), its permission must write objects in the
 * destination's bucket (an Object permission may be scoped to buckets, `reachesBucket`), and its
 * keys reach the destination's path (a token of listed zones reaches only `<zone_id>/` in the
 * log-push buckets, `keyPrefixes`) (AccessDenied). The message begins as Cloudflare's does
 * for a destination it cannot write, "error validating destination: error writing object: "
 * (cloudflare-docs PR #8865); the secret is never echoed.
 * @throws ConfigError when `API_CREDENTIALS` is unset or not valid.
 */
export async function accessRefusal(env: Env, destination: Destination): Promise<string | undefined> {
	const refused = (why: string) => `error validating destination: error writing object: ${why}`;
	const { keys, accountId, scheme, bucket, path } = destination;
	if (accountId !== undefined && accountId !== env.DEFAULT_ACCOUNT_ID) {
		return refused(
			`NoSuchBucket: the account ${accountId} has no bucket ${bucket}; edgezone's buckets are in the account ${env.DEFAULT_ACCOUNT_ID}`,
		);
	}
	if (keys === undefined) return undefined;
	const key = await s3AccessKey(env.API_CREDENTIALS, keys.accessKeyId);
	const presented = fixedSecret(keys.secretAccessKey);
	if (key === undefined) return refused(`InvalidAccessKeyId: no API token has the access key id ${keys.accessKeyId}`);
	const secret = fixedSecret(key.secret);
	if (secret === undefined || !sameSecret(presented, secret)) {
		return refused(`SignatureDoesNotMatch: the secret access key is not the one of ${keys.accessKeyId}`);
	}
	const prefixes = keyPrefixes(key, true);
	const reachesPath = prefixes === undefined || prefixes.some((p) => `${path}/`.startsWith(p));
	if (!grantsAccess(key, "write") || !reachesBucket(key, bucket) || !reachesPath) {
		return refused(`AccessDenied: the access key ${keys.accessKeyId} may not write ${scheme}://${bucket}/${path}`);
	}
	return undefined;
}

/** The path with `{DATE}` expanded to the UTC date `YYYYMMDD`. */
export function expandPath(path: string, now: Date): string {
	return path.replaceAll("{DATE}", now.toISOString().slice(0, 10).replaceAll("-", ""));
}

/**
 * The R2 binding a destination writes to.
 * @throws ConfigError when `LOGPUSH_BUCKETS` maps the bucket to a binding that is not an R2 bucket.
 */
export function destinationBucket(env: Env, destination: Destination): R2Bucket {
	return bucketBinding(env, destination.bucket, destination.binding);
}

/**
 * The R2 binding `binding` that `LOGPUSH_BUCKETS` gives the bucket `bucket`.
 * @throws ConfigError when it is not an R2 bucket.
 */
export function bucketBinding(env: Env, bucket: string, binding: string): R2Bucket {
	const candidate: unknown = (env as unknown as Record<string, unknown>)[binding];
	if (!isBucket(candidate))
		throw new ConfigError("LOGPUSH_BUCKETS", `it maps "${bucket}" to "${binding}", which is not an R2 binding`);
	return candidate;
}

function isBucket(value: unknown): value is R2Bucket {
	return (
		typeof value === "object" && value !== null && "put" in value && "head" in value && typeof value.put === "function"
	);
}
