/**
 * Log-push destinations: `destination_conf` strings and the R2 buckets they name.
 *
 * Follows https://developers.cloudflare.com/logs/logpush/logpush-job/api-configuration/:
 * `r2://<bucket>/<path>?account-id=..&access-key-id=..&secret-access-key=..` and
 * `s3://<bucket>/<path>?region=<region>[&sse=AES256]`; `{DATE}` in the path becomes `YYYYMMDD`.
 * Locally every destination bucket is a bound R2 bucket: the vars entry `LOGPUSH_BUCKETS` maps
 * destination bucket names to R2 bindings (by default `edgezone-logs` -> `LOGS`). Credentials in
 * the query are accepted and not used.
 * Other schemes (gs, azure, https, ...) are refused: nothing local could receive them.
 * Edgezone's own rule, as every zone writes into the same local buckets: a zone's destinations
 * (jobs and ownership challenges) lie under its own id, `r2://edgezone-logs/<zone_id>/...`
 * (`zonePathRefusal`). On Cloudflare each destination is a bucket of the customer's, reached with
 * its credentials (r2) or proven by the ownership challenge (s3); locally neither tells zones apart.
 */
import { z } from "zod";
import { ConfigError, jsonVar } from "../common/config";

/** A parsed destination; `fingerprint` names bucket and path without the query (ownership challenge docs). */
export interface Destination {
	scheme: "r2" | "s3";
	bucket: string;
	binding: string;
	/** The path inside the bucket, no leading or trailing slash, `{DATE}` kept. */
	path: string;
	fingerprint: string;
}

/** Outcome of parsing a `destination_conf`. */
export type ParsedDestination = { ok: true; destination: Destination } | { ok: false; message: string };

const SHAPE = /^(r2|s3):\/\/([^/?#]+)(\/[^?#]*)?(?:\?([^#]*))?$/;
// S3 bucket naming rules (which R2 follows): 3-63 of lower-case letters, digits, dots and hyphens.
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PATH = /^[A-Za-z0-9!_.*'()\-/]*$/;
const QUERY_KEYS = { r2: ["account-id", "access-key-id", "secret-access-key"], s3: ["region", "sse"] } as const;

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
	return { ok: true, destination: { scheme, bucket, binding, path, fingerprint: `${scheme}://${bucket}/${path}` } };
}

/**
 * Why `destination` is not one the zone `zoneId` may write, or undefined when it may: its path
 * must be the zone's id or start with `<zone_id>/` (edgezone's rule for its shared buckets,
 * above), so that no zone's jobs or challenges land among another zone's objects. `{DATE}` in
 * the first segment is not under the prefix (it expands after the id).
 */
export function zonePathRefusal(destination: Destination, zoneId: string): string | undefined {
	const { path, scheme, bucket } = destination;
	if (path === zoneId || path.startsWith(`${zoneId}/`)) return undefined;
	return `the path of a destination must start with the zone's id: edgezone's log buckets are shared by every zone, and a zone writes under its own id only (${scheme}://${bucket}/${zoneId}/<path>)`;
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
