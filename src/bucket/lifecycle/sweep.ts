/**
 * Applies a bucket's lifecycle rules at one moment, through the R2 binding: deletes the objects
 * an enabled expiration rule has made due and aborts the multipart uploads an abort rule has
 * (https://developers.cloudflare.com/r2/buckets/object-lifecycles/). R2 removes them "typically
 * within 24 hours" of being due; the bucket ledger runs this once a day on its alarm, and the
 * emulator route runs it at any moment asked (`bucket-ledger.ts`).
 *
 * Work is linear in the objects under the rules' prefixes (listed once, each prefix covered by a
 * shorter one skipped) times the rules, and in the open uploads the ledger holds; memory holds
 * one page of 1000 keys. Uploads Worker code began on the binding alone are not known to the
 * ledger and are not aborted (docs/gateway.md, "Multipart"). An object written again between the
 * listing and the delete is deleted with its old age: the binding's delete takes no condition.
 */

import { fromBindingError } from "../../edge/gateway/errors";
import { abortOf, expiryOf, firstDue, type LifecycleRule } from "../../edge/s3/lifecycle/rules";
import { MAX_KEYS } from "../../wire/limits";

/** What one sweep did: at what moment (ms since the epoch), and how many objects and uploads went. */
export interface LifecycleSweep {
	at: number;
	objectsExpired: number;
	uploadsAborted: number;
}

/** An open upload as the ledger holds it (`initiated` in ms since the epoch). */
export interface OpenUpload {
	uploadId: string;
	key: string;
	initiated: number;
}

/** What the sweep tells the ledger as it goes. */
export interface SweepRecord {
	objectsDeleted(keys: readonly string[]): void;
	uploadAborted(uploadId: string, key: string, at: number): void;
}

/** The prefixes to list: each of `expiring`'s, less those a shorter one covers. */
function listedPrefixes(expiring: readonly LifecycleRule[]): string[] {
	const prefixes = [...new Set(expiring.map((rule) => rule.prefix))].sort();
	return prefixes.filter((prefix, index) => !prefixes.slice(0, index).some((shorter) => prefix.startsWith(shorter)));
}

/** Deletes every object due at `at`, a page of keys at a time. @returns how many went. */
async function expireObjects(
	bucket: R2Bucket,
	rules: readonly LifecycleRule[],
	at: number,
	record: SweepRecord,
): Promise<number> {
	const expiring = rules.filter((rule) => rule.enabled && rule.expiration);
	let expired = 0;
	for (const prefix of listedPrefixes(expiring)) {
		let cursor: string | undefined;
		do {
			const page = await bucket.list({ prefix, cursor, limit: MAX_KEYS });
			const due = page.objects
				.filter((object) => {
					const expiry = firstDue(expiring, (rule) => expiryOf(rule, object.key, object.uploaded.getTime()));
					return expiry !== undefined && expiry.at <= at;
				})
				.map((object) => object.key);
			if (due.length > 0) {
				await bucket.delete(due);
				record.objectsDeleted(due);
				expired += due.length;
			}
			cursor = page.truncated ? page.cursor : undefined;
		} while (cursor !== undefined);
	}
	return expired;
}

/** Whether an error is the binding's "no such upload" (already completed or aborted). */
const isNoSuchUpload = (error: unknown) => fromBindingError(error)?.kind === "NoSuchUpload";

/** Aborts every open upload due at `at`. @returns how many went. */
async function abortUploads(
	bucket: R2Bucket,
	rules: readonly LifecycleRule[],
	uploads: readonly OpenUpload[],
	at: number,
	record: SweepRecord,
): Promise<number> {
	let aborted = 0;
	for (const upload of uploads) {
		const due = firstDue(rules, (rule) => abortOf(rule, upload.key, upload.initiated));
		if (due === undefined || due.at > at) continue;
		try {
			await bucket.resumeMultipartUpload(upload.key, upload.uploadId).abort();
		} catch (error) {
			// Gone already (R2's own lifecycle, or Worker code): the ledger still closes it.
			if (!isNoSuchUpload(error)) throw error;
		}
		record.uploadAborted(upload.uploadId, upload.key, at);
		aborted += 1;
	}
	return aborted;
}

/**
 * Applies `rules` to `bucket` at `at` (ms since the epoch): objects first, then `uploads`.
 * @throws what the binding throws (the alarm then tries again later).
 */
export async function sweepBucket(
	bucket: R2Bucket,
	rules: readonly LifecycleRule[],
	uploads: readonly OpenUpload[],
	at: number,
	record: SweepRecord,
): Promise<LifecycleSweep> {
	const objectsExpired = await expireObjects(bucket, rules, at, record);
	const uploadsAborted = await abortUploads(bucket, rules, uploads, at, record);
	return { at, objectsExpired, uploadsAborted };
}
