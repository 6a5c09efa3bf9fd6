/**
 * Delivery of the pending log by the zone's log-push jobs (docs `logs/logpush/logpush-job/api-configuration`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/api-configuration/):
 * run by the zone's log scheduler (`log-delivery.ts`) when its alarm fires, and at once by the
 * emulator's flush route.
 *
 * For each enabled `http_requests` job, from its own cursor over the entries logged after it
 * started (`edge-log.ts`): a batch is due (`dueAt`) when it holds
 * `max_upload_records` entries (0: Cloudflare's internal default, 100,000), when its entries'
 * stored size reaches `max_upload_bytes` (0: no limit), or when its oldest entry waited
 * `max_upload_interval_seconds` (0: Cloudflare's default, 30 s), each limit "whichever is hit
 * first" (docs api-configuration). Locally the var LOGPUSH_MIN_INTERVAL_SECONDS caps the wait
 * (`npm run dev` sets 2 s). A due batch is filtered (`filter`), sampled (`sample_rate`),
 * formatted (`output_options`), split into objects of at most `max_upload_bytes` uncompressed,
 * gzipped (CompressionStream) and put under the destination path with `{DATE}` expanded
 * (`logs/delivered-objects.ts` names the objects). One object holds at most OBJECT_RECORDS entries, a
 * bound on the Durable Object's memory.
 * Success moves the job's cursor past the object's entries and sets `last_complete` (the newest
 * entry's time), clearing `last_error` and `error_message` (SDK `LogpushJob` docs: "On
 * successful execution of a job the error_message and last_error are set to null"). A failure
 * (bucket not bound, keys of the destination that may no longer write it, `accessRefusal`: the
 * token was removed or narrowed since the job was made, a put that throws) sets `last_error` and `error_message`, leaves the
 * cursor, and retries with exponential back-off (BACKOFF_MS doubling, at most MAX_BACKOFF_MS):
 * nothing is lost. An entry is trimmed once every enabled job has delivered it, unless Logpull
 * retention keeps it for its window (`retention.ts`, `EdgeLogStore.trim`).
 */
import { toHex } from "../common/encoding";
import { objectKey, splitRecords } from "../logs/delivered-objects";
import type { LogEntry } from "../logs/entry";
import { parseFilter, passes } from "../logs/filter";
import { formatRecord, formatter, frameBatch, sampled } from "../logs/format";
import { DEFAULT_RECORDS, intervalMs } from "../logs/job-limits";
import { accessRefusal, bucketMap, destinationBucket, expandPath, parseDestination } from "./destinations";
import type { Cursor, EdgeLogStore, PendingRow } from "./edge-log";
import type { LogpushJob, LogpushStore } from "./logpush";

/** Entries of one object at most (Durable Object memory; Cloudflare's own default batch is 100,000). */
const OBJECT_RECORDS = 10_000;
/** First retry after a failure, then doubling up to MAX_BACKOFF_MS. */
export const BACKOFF_MS = 1_000;
const MAX_BACKOFF_MS = 5 * 60_000;

/** What one run delivered for one job. */
export interface JobDelivery {
	job_id: number;
	/** Entries the job moved past (delivered, or left out by its filter or sample). */
	entries: number;
	/** Records written. */
	records: number;
	/** Keys of the objects written, in the destination bucket. */
	objects: string[];
	/** The failure of this run, if one happened. */
	error?: string;
}

/** The zone's stores a delivery reads and writes, the transaction that wraps each step, and the env. */
export interface DeliveryStores {
	env: Env;
	/** Runs `op` in one SQLite transaction. */
	transaction<T>(op: () => T): T;
	log: EdgeLogStore;
	jobs: LogpushStore;
}

/** The back-off after `failures` failures in a row, in ms. */
function backoffMs(failures: number): number {
	return Math.min(MAX_BACKOFF_MS, BACKOFF_MS * 2 ** Math.max(0, failures - 1));
}

/**
 * When a job's batch is due, ms since the epoch, or undefined while nothing is pending for it: at
 * once when `max_upload_records` entries wait or their stored size reaches `max_upload_bytes`,
 * else when the oldest has waited the job's interval; never before the job's back-off ends.
 * @param pending the job's entries after its cursor (`EdgeLogStore.pending`).
 * @param now ms since the epoch.
 */
export function dueAt(
	job: LogpushJob,
	cursor: Cursor,
	pending: { count: number; bytes: number; oldest: number | null },
	env: Env,
	now: number,
): number | undefined {
	if (pending.count === 0 || pending.oldest === null) return undefined;
	const full =
		pending.count >= (job.max_upload_records > 0 ? job.max_upload_records : DEFAULT_RECORDS) ||
		(job.max_upload_bytes > 0 && pending.bytes >= job.max_upload_bytes);
	return Math.max(cursor.retry_at, full ? now : pending.oldest + intervalMs(job, env));
}

/**
 * Delivers what is due (everything pending when `force`, back-off or not) for one job. Its next
 * due time is read afterwards, with every other user of the zone's alarm (`log-delivery.ts`, `alarm.ts`).
 * @param now ms since the epoch.
 */
export async function deliverJob(
	stores: DeliveryStores,
	job: LogpushJob,
	now: number,
	force: boolean,
): Promise<JobDelivery> {
	const delivery: JobDelivery = { job_id: job.id, entries: 0, records: 0, objects: [] };
	const maxRecords = Math.min(job.max_upload_records > 0 ? job.max_upload_records : DEFAULT_RECORDS, OBJECT_RECORDS);
	for (;;) {
		const { cursor, pending } = stores.transaction(() => {
			const cursor = stores.log.cursor(job.id, now);
			const pending = stores.log.pending(cursor);
			if (pending.count === 0) stores.log.passAll(job.id);
			return { cursor, pending };
		});
		const due = dueAt(job, cursor, pending, stores.env, now);
		if (due === undefined || (!force && due > now)) return delivery;
		const rows = stores.transaction(() => stores.log.after(cursor, maxRecords));
		const failure = await deliverRows(stores, job, rows, delivery);
		if (failure !== undefined) {
			delivery.error = failure;
			stores.transaction(() => {
				stores.jobs.setStatus(job.id, {
					last_error: new Date(now).toISOString(),
					error_message: failure,
				});
				stores.log.failed(job.id, now, backoffMs);
			});
			return delivery;
		}
	}
}

/** Formats, splits, compresses and writes `rows`; moves the cursor after each object. Answers a failure message. */
async function deliverRows(
	stores: DeliveryStores,
	job: LogpushJob,
	rows: readonly PendingRow[],
	delivery: JobDelivery,
): Promise<string | undefined> {
	const parsed = parseDestination(job.destination_conf, safeBucketMap(stores.env));
	if (!parsed.ok) return `destination_conf: ${parsed.message}`;
	let bucket: R2Bucket;
	try {
		const refusal = await accessRefusal(stores.env, parsed.destination);
		if (refusal !== undefined) return refusal;
		bucket = destinationBucket(stores.env, parsed.destination);
	} catch (error) {
		return String(error instanceof Error ? error.message : error);
	}
	const filter = parseFilter(job.filter ?? "");
	const where = filter.ok ? filter.where : undefined;
	const f = formatter(job.output_options);
	const records = rows.map((row) => {
		const entry = JSON.parse(row.entry) as LogEntry;
		if (!passes(entry, where) || !sampled(row.ray_id, job.output_options.sample_rate)) return undefined;
		return formatRecord(entry, f);
	});
	let start = 0;
	for (const chunk of splitRecords(records, job.max_upload_bytes)) {
		const covered = rows.slice(start, chunk.end);
		const first = covered[0];
		const last = covered.at(-1);
		if (first === undefined || last === undefined) continue;
		if (chunk.records.length > 0) {
			const key = objectKey(
				expandPath(parsed.destination.path, new Date(first.received_at)),
				first.received_at,
				last.received_at,
				toHex(crypto.getRandomValues(new Uint8Array(4))),
			);
			try {
				const body = await gzip(frameBatch(chunk.records, job.output_options));
				await bucket.put(key, body, { httpMetadata: { contentType: "application/gzip" } });
			} catch (error) {
				return `writing ${key} failed: ${error instanceof Error ? error.message : String(error)}`;
			}
			delivery.objects.push(key);
			delivery.records += chunk.records.length;
		}
		stores.transaction(() => {
			stores.log.delivered(job.id, last.seq);
			stores.jobs.setStatus(job.id, {
				last_complete: new Date(Math.max(last.received_at, 0)).toISOString(),
				last_error: null,
				error_message: null,
			});
		});
		delivery.entries += covered.length;
		start = chunk.end;
	}
	return undefined;
}

/** The bucket map, or none when the var itself is broken (the failure then names the bucket). */
function safeBucketMap(env: Env): Record<string, string> {
	try {
		return bucketMap(env);
	} catch {
		return {};
	}
}

/** `text` gzipped with the runtime's CompressionStream. */
async function gzip(text: string): Promise<Uint8Array> {
	const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}
