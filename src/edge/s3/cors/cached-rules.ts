/**
 * The CORS rules of a bucket (`rules.ts`) as the edge applies them, through one isolate's cache,
 * so that a browser's request does not call the bucket's ledger each time: a bucket's rules are
 * trusted for a second (the zones' configurations' interval, `../../config-checks.ts`; R2 itself
 * says a change of a bucket's CORS may take up to 30 seconds to apply,
 * https://developers.cloudflare.com/r2/buckets/cors/), and a put or delete of them through this
 * isolate makes the next request ask again. Only a request with an `Origin` asks at all.
 *
 * Which bucket a request's CORS is the bucket's of:
 * - an S3 request's (and the preflight of one, which carries no credential and so is not told
 *   apart from the native dialect's): the bucket its address names, in virtual-host style
 *   (`../virtual-host.ts`) or as the path's first segment, when that is a served bucket;
 * - a native gateway request's: the bucket it names (`x-r2-bucket`, else `BUCKET`); its preflight,
 *   which cannot carry `x-r2-bucket`'s value, `BUCKET`'s unless the path's first segment names
 *   a served bucket (edgezone's rule: a key whose first segment is a bucket's name has that
 *   bucket's preflight);
 * - a request to a bucket served publicly (a custom domain or its r2.dev URL): that bucket's,
 *   and only its rules: a public bucket without rules sends no CORS headers at all.
 */

import { bucketLedger } from "../../../bucket/bucket-ledger";
import { CONFIG_CHECK_INTERVAL_MS } from "../../config-checks";
import { ledgerNameOf } from "../../gateway/buckets";
import { preflightOrigin } from "../../gateway/cors";
import { VersionedCache } from "../../versioned-cache";
import { findBucket } from "../served-bucket";
import { virtualHostBucket } from "../virtual-host";
import type { CorsRule } from "./rules";

/** Kept per binding: the buckets are wrangler.toml's, a handful. */
const kept = new VersionedCache<readonly CorsRule[]>(CONFIG_CHECK_INTERVAL_MS);

/** Rules that allow nothing: what a request is answered with when its bucket's rules cannot be read. */
const NONE_ALLOWED: readonly CorsRule[] = [
	{ allowedOrigins: [], allowedMethods: [], allowedHeaders: [], exposeHeaders: [] },
];

/**
 * The rules of the bucket of `binding`; none when it has no configuration. When its ledger cannot
 * be asked, rules that allow nothing: the request is still answered (the gateway and the S3
 * dialect never throw), and no browser is let in that the bucket's rules might refuse.
 */
async function rulesOf(env: Env, binding: string, now: number): Promise<readonly CorsRule[]> {
	try {
		return await kept.get(binding, now, async () => ({ version: 0, value: await bucketLedger(env, binding).cors() }));
	} catch (error) {
		console.error("cors: the bucket's rules could not be read", error);
		return NONE_ALLOWED;
	}
}

/** Replaces the rules of the bucket of `binding` (none: deleted), and forgets what this isolate kept. */
export async function setCorsRules(env: Env, binding: string, rules: readonly CorsRule[]): Promise<void> {
	await bucketLedger(env, binding).setCors(rules);
	kept.expire(binding);
}

/** The rules in the ledger of the bucket of `binding`, read now (GetBucketCors). */
export function storedCorsRules(env: Env, binding: string): Promise<readonly CorsRule[]> {
	return bucketLedger(env, binding).cors();
}

/** The binding of the served bucket an S3 address names (module comment), or undefined. */
async function addressedBinding(env: Env, url: URL, now: number): Promise<string | undefined> {
	try {
		const virtual = await virtualHostBucket(env, url.hostname, now);
		const name = virtual ?? decodeURIComponent(url.pathname.slice(1).split("/")[0] ?? "");
		return name === "" ? undefined : (await findBucket(env, name)).binding;
	} catch {
		// A name S3 would not take, an escape that does not decode, a bad R2_BUCKETS: no bucket.
		return undefined;
	}
}

/** The CORS rules of the bucket an S3 request (or any preflight) names; none for no bucket, or one without rules. */
export async function s3CorsRules(request: Request, url: URL, env: Env): Promise<readonly CorsRule[]> {
	if (!request.headers.has("origin")) return [];
	const now = Date.now();
	const binding = await addressedBinding(env, url, now);
	return binding === undefined ? [] : rulesOf(env, binding, now);
}

/**
 * The CORS rules of the bucket whose ledger is `binding`, for a request served publicly on its
 * custom domain or r2.dev URL (`../../r2-domain/`); none for a request without an `Origin`.
 */
export function publicCorsRules(request: Request, env: Env, binding: string): Promise<readonly CorsRule[]> {
	if (!request.headers.has("origin")) return Promise.resolve([]);
	return rulesOf(env, binding, Date.now());
}

/** The CORS rules of the bucket a native gateway request names (module comment); none for a bucket without rules. */
export async function gatewayCorsRules(request: Request, url: URL, env: Env): Promise<readonly CorsRule[]> {
	if (!request.headers.has("origin")) return [];
	const now = Date.now();
	let binding: string | undefined;
	if (preflightOrigin(request) !== null) {
		binding = (await addressedBinding(env, url, now)) ?? "BUCKET";
	} else {
		try {
			binding = await ledgerNameOf(request, env);
		} catch {
			// An unknown x-r2-bucket: the gateway's own answer (404) carries the default CORS.
			return [];
		}
	}
	return rulesOf(env, binding, now);
}
