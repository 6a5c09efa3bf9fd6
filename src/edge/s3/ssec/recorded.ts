/**
 * The SSE-C records of the bucket ledgers (`store.ts`) as the S3 dialect reads and writes them,
 * through one isolate's caches, so that a read in a bucket where no object was ever stored with a
 * key does not call the ledger's Durable Object:
 * - per bucket, whether any object may have been stored with a key, trusted for `BUCKET_TRUST_MS`
 *   (a minute: the lifecycle rules' trust, `../lifecycle/cached-rules.ts`, for the same reason,
 *   a per-read cost) and asked again as soon as this isolate records a key;
 * - per key, the row last read, as the flexible checksums' rows are kept (`../checksums/ledger-checksums.ts`).
 * A row describes one version of an object, so a kept row never misdescribes an object written
 * since. Locally (one isolate) a key recorded is seen by the next read; on a deployed edge another
 * isolate may not see a bucket's first key for up to a minute, and there R2, which keeps the key
 * itself, refuses a read without it.
 */

import { ledgerOf } from "../../../bucket/bucket-ledger";
import type { StoredSsec } from "../../../bucket/ssec/store";
import { CONFIG_CHECK_INTERVAL_MS } from "../../config-checks";
import { VersionedCache } from "../../versioned-cache";
import type { S3Context } from "../context";
import { type CustomerKey, checkRead, customerKeyOf } from "./customer-key";

/** How long a bucket's "a key was recorded" is answered without asking again, in ms. */
const BUCKET_TRUST_MS = 60_000;

/** How many keys (of every bucket) an isolate keeps rows of. */
const MAX_KEYS = 4096;

const buckets = new VersionedCache<boolean>(BUCKET_TRUST_MS);
const rows = new VersionedCache<StoredSsec | null>(CONFIG_CHECK_INTERVAL_MS, MAX_KEYS);

type InBucket = Pick<S3Context, "env" | "bucket">;

const rowKey = (c: InBucket, key: string) => `${c.bucket.binding}\n${key}`;

/**
 * The SSE-C record of `key` in `c`'s bucket, to check a read of it against; null when there is
 * none, or when the request sent no key and no object of the bucket was recorded with one.
 * @param now ms since the epoch.
 */
async function storedSsec(
	c: InBucket,
	key: string,
	sent: CustomerKey | undefined,
	now: number,
): Promise<StoredSsec | null> {
	const ledger = () => ledgerOf(c);
	if (sent === undefined) {
		const any = await buckets.get(c.bucket.binding, now, async () => ({
			version: 0,
			value: await ledger().hasSsecObjects(),
		}));
		if (!any) return null;
	}
	return rows.get(rowKey(c, key), now, async () => ({ version: 0, value: await ledger().storedSsec(key) }));
}

/** Records that the object of `key` and `version` was just stored in `c`'s bucket with the key of `keyMd5`. */
export async function recordSsec(c: InBucket, key: string, version: string, keyMd5: string): Promise<void> {
	await ledgerOf(c).ssecStored(key, version, keyMd5);
	ssecRecorded(c, key);
}

/** Makes this isolate's next read of `key`, and of `c`'s bucket, ask the ledger: a key was recorded there. */
export function ssecRecorded(c: InBucket, key: string): void {
	rows.expire(rowKey(c, key));
	buckets.expire(c.bucket.binding);
}

/**
 * The key a read hands the binding's `get`: the one sent, for an object recorded with a key (R2
 * decrypts with it); none otherwise, so that a plain object is read as R2 stores it.
 */
const keyForRead = (stored: StoredSsec | null, sent: CustomerKey | undefined): ArrayBuffer | undefined =>
	stored === null ? undefined : sent?.key;

/**
 * Checks a read of the object of `version` (the binding's) against `stored` and the key `sent`:
 * `stored` describes it only when it names that version (`customer-key.ts`, `checkRead`).
 * @returns the MD5 of the object's key to answer, if it was stored with one.
 * @throws S3Error as `checkRead`.
 */
export function checkVersion(
	stored: StoredSsec | null,
	version: string | null,
	sent: CustomerKey | undefined,
): string | undefined {
	return checkRead(stored !== null && stored.version === version ? stored.keyMd5 : undefined, sent);
}

/**
 * Checks a read that involves a key (one sent, or a record of one) against the object's current
 * version (`head`) before any of its bytes are read, so that a refusal does not cancel a body
 * already flowing; `checkedRead` then checks the answer of the read itself, for an object written
 * again in between. A read in a bucket with no record and without a key costs nothing here.
 * @throws S3Error as `checkRead`.
 */
async function checkBeforeRead(
	bucket: R2Bucket,
	key: string,
	stored: StoredSsec | null,
	sent: CustomerKey | undefined,
): Promise<void> {
	if (stored === null && sent === undefined) return;
	const object = await bucket.head(key);
	if (object !== null) checkVersion(stored, object.version, sent);
}

/**
 * Checks the gateway's answer to a read (before its `x-r2-*` headers go: `x-r2-version` says
 * which object it read), as `checkVersion`.
 * @throws S3Error as `checkRead`, with the answer's body cancelled.
 */
export async function checkedRead(answer: Response, { stored, sent }: SsecRead): Promise<string | undefined> {
	if (stored === null && sent === undefined) return undefined;
	try {
		return checkVersion(stored, answer.headers.get("x-r2-version"), sent);
	} catch (error) {
		await answer.body?.cancel();
		throw error;
	}
}

/** What a read knows of SSE-C before it reads: the key sent, the record, and the key to hand the binding's `get`. */
export interface SsecRead {
	sent: CustomerKey | undefined;
	stored: StoredSsec | null;
	ssecKey: ArrayBuffer | undefined;
}

/**
 * Prepares a read of `key` in `c`'s bucket: the SSE-C headers under `prefix` (`x-amz-`, or
 * `x-amz-copy-source-` for a copy's source) read, the record asked, and the read checked
 * against the object's version (`checkBeforeRead`). The read's own answer is then checked with
 * `checkVersion` or `checkedRead`.
 * @throws S3Error those of `customerKeyOf` and `checkRead`.
 */
export async function ssecRead(c: InBucket, key: string, headers: Headers, prefix = "x-amz-"): Promise<SsecRead> {
	const sent = await customerKeyOf(headers, prefix);
	const stored = await storedSsec(c, key, sent, Date.now());
	await checkBeforeRead(c.bucket.bucket, key, stored, sent);
	return { sent, stored, ssecKey: keyForRead(stored, sent) };
}
