/**
 * The lifecycle rules of a bucket as the S3 dialect's object answers read them (for
 * `x-amz-expiration`, `rules.ts`), through one isolate's cache, so that a read does not call the
 * bucket's ledger each time: a bucket's rules are trusted for `TRUST_MS`, and a put or delete of
 * them through this isolate makes the next read ask again (locally, one isolate, at once; a
 * deployed edge's other isolates within `TRUST_MS`). A minute, not the second the zones'
 * configurations get: the header only tells, it decides nothing, and R2 itself says existing
 * objects' `x-amz-expiration` may lag a change of rules ("may experience a delay",
 * https://developers.cloudflare.com/r2/buckets/object-lifecycles/).
 */

import { ledgerOf } from "../../../bucket/bucket-ledger";
import { VersionedCache } from "../../versioned-cache";
import type { S3Context } from "../context";
import { expirationHeader, type LifecycleRule } from "./rules";

/** How long a bucket's rules read from its ledger are answered without asking again, in ms. */
const TRUST_MS = 60_000;

/** Kept per binding: the buckets are wrangler.toml's, a handful. */
const kept = new VersionedCache<readonly LifecycleRule[]>(TRUST_MS);

type InBucket = Pick<S3Context, "env" | "bucket">;

/**
 * The rules in effect for `c`'s bucket.
 * @param now ms since the epoch.
 */
export function lifecycleRules(c: InBucket, now: number): Promise<readonly LifecycleRule[]> {
	return kept.get(c.bucket.binding, now, async () => ({ version: 0, value: await ledgerOf(c).lifecycle() }));
}

/** Replaces the rules of `c`'s bucket in its ledger (none: deleted), and forgets what this isolate kept. */
export async function setLifecycleRules(c: InBucket, rules: readonly LifecycleRule[]): Promise<void> {
	await ledgerOf(c).setLifecycle(c.bucket.binding, rules);
	kept.expire(c.bucket.binding);
}

/**
 * Sets `x-amz-expiration` on a write's answer when one of `c`'s bucket's rules expires the object
 * written (`uploaded` in ms), as S3 answers PutObject, CopyObject and CompleteMultipartUpload.
 */
export async function withExpiration(c: InBucket, headers: Headers, key: string, uploaded: number): Promise<void> {
	const expiration = expirationHeader(await lifecycleRules(c, Date.now()), key, uploaded);
	if (expiration !== undefined) headers.set("x-amz-expiration", expiration);
}
