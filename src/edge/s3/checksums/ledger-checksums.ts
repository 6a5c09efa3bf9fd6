/**
 * The flexible checksums the bucket ledgers hold (`src/bucket/bucket-ledger.ts`: a CRC, or a trailing SHA,
 * that the binding cannot store), as the S3 dialect reads and writes them, with one isolate's
 * cache of what it read, so that the GetObject of every AWS SDK, which asks for checksums
 * (`x-amz-checksum-mode: ENABLED`), does not call the ledger's Durable Object each time.
 *
 * What is kept: per bucket and key, the row last read (or none), for `TRUST_MS`, and at most
 * `MAX_KEYS` keys (object keys are the visitor's to choose). A write or delete through this
 * isolate makes its next read ask again, so locally (one isolate) a read sees them at once.
 * A row is answered only for the object of its ETag (`object.ts`), so a kept row never describes
 * bytes it was not computed over; what another isolate wrote or deleted meanwhile can be missed
 * for up to `TRUST_MS`, and then the read answers without that checksum, which a client takes as
 * a checksum not asked for (edgezone's choice: the same trust the zones' configurations get).
 */

import {
	type CompletedUpload,
	ledgerOf,
	type ObjectChecksum,
	type RecordedChecksum,
} from "../../../bucket/bucket-ledger";
import { CONFIG_CHECK_INTERVAL_MS } from "../../config-checks";
import { VersionedCache } from "../../versioned-cache";
import type { S3Context } from "../context";

/** How long a row read from a ledger is answered without asking again, in ms. */
const TRUST_MS = CONFIG_CHECK_INTERVAL_MS;

/** How many keys (of every bucket) an isolate keeps rows of. */
const MAX_KEYS = 4096;

const rows = new VersionedCache<RecordedChecksum | null>(TRUST_MS, MAX_KEYS);

/** A bucket of the S3 dialect, and the Worker's env its ledger is reached through. */
type InBucket = Pick<S3Context, "env" | "bucket">;

const cacheKey = (c: InBucket, key: string) => `${c.bucket.binding}\n${key}`;

/**
 * The checksum the ledger of `c`'s bucket holds for `key`, with the ETag (unquoted) of the
 * object it was computed over; null for none.
 * @param now ms since the epoch.
 */
export function recordedChecksum(c: InBucket, key: string, now: number): Promise<RecordedChecksum | null> {
	return rows.get(cacheKey(c, key), now, async () => ({ version: 0, value: await ledgerOf(c).storedChecksum(key) }));
}

/** Records the checksum of the object of `key` just stored in `c`'s bucket with `etag` (unquoted). */
export async function recordChecksum(c: InBucket, key: string, etag: string, checksum: ObjectChecksum): Promise<void> {
	await ledgerOf(c).checksumStored(key, etag, checksum);
	rows.expire(cacheKey(c, key));
}

/**
 * Records in `c`'s bucket's ledger that an upload of `key` completed into the object of
 * `completed.etag` (unquoted), from the parts numbered `completed.partNumbers`, with the
 * checksum made of theirs, if any (`src/bucket/bucket-ledger.ts`, `finished`).
 * @returns the MD5 (base64) of the SSE-C key the upload was created with, if any.
 */
export async function uploadCompleted(
	c: InBucket,
	uploadId: string,
	key: string,
	completed: CompletedUpload,
): Promise<string | undefined> {
	const keyMd5 = await ledgerOf(c).finished(uploadId, key, "completed", Date.now(), completed);
	rows.expire(cacheKey(c, key));
	return keyMd5;
}

/** Forgets the checksums (and part sizes) of `keys`, just deleted from `c`'s bucket. */
export async function forgetObjects(c: InBucket, keys: readonly string[]): Promise<void> {
	await ledgerOf(c).objectsDeleted(keys);
	for (const key of keys) rows.expire(cacheKey(c, key));
}
