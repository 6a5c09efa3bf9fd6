/**
 * The isolate's buffer of log entries per zone, handed to the zone's pending log (SQLite) in
 * batches, one RPC each, so logging costs a request no round trip of its own:
 * - on the zone's config check (`zone-view.ts`): the edge asks each zone it serves whether its
 *   configuration changed, at most once a second, and that call carries the entries waiting
 *   (`Zone.edgeCheckIn`). A zone with traffic pays no RPC for its logs at all; the request that
 *   makes the check waits for the append of what it carries (about a second's entries);
 * - else once the first entry of a batch has waited its hold (`holdMs`), longer than the check's
 *   interval, so a quiet zone's entries still arrive (`Zone.appendLog`);
 * - at once when FLUSH_AT entries wait, and when Logpull or the emulator's flush route reads.
 *
 * A timer runs in the context of the request that started the batch (its `ctx.waitUntil` keeps
 * it alive): workerd binds I/O to the request that makes it, so no request awaits another's RPC.
 * The buffer holds plain data only: each entry serialized once, as it is queued (`logRow`), so
 * the RPC carries strings and the zone stores them as they come. Entries wait here at most their
 * hold plus one RPC: an isolate that dies in that window loses them (the pending log itself
 * survives restarts); on Cloudflare, `waitUntil` keeps a flush alive up to 30 s after the response.
 */

import { zoneState } from "../common/durable-objects";
import { type LogEntry, type LogRow, logRow } from "../logs/entry";
import { CONFIG_CHECK_INTERVAL_MS } from "./config-checks";

/**
 * The shortest hold, in ms: twice the config check's interval, so that with traffic the check
 * carries the entries before the timer does. An append RPC of its own costs the Zone a few million
 * instructions (callgrind, with `wrangler dev`'s trace of the invocation; BENCHMARKS.md "Edge
 * logs"), a request about a twentieth of that.
 */
export const HOLD_MIN_MS = 2 * CONFIG_CHECK_INTERVAL_MS;
/** The longest hold, in ms: what an isolate that dies may lose, and how stale a Logpull read of another isolate's entries may be. */
export const HOLD_MAX_MS = 5_000;
/** A batch this large is flushed at once. */
const FLUSH_AT = 500;
/** Entries kept for a zone whose appends keep failing; older ones are dropped past it (and reported). */
const MAX_WAITING = 20_000;

/**
 * How long the first entry of a batch waits for others, in ms: a sixth of the shortest delivery
 * interval of the jobs that read it (`intervalsMs`), so batching adds little to the wait a job
 * has anyway: 5 s at Cloudflare's default interval of 30 s, 2 s under `npm run dev`'s 2 s
 * (LOGPUSH_MIN_INTERVAL_SECONDS); within HOLD_MIN_MS and HOLD_MAX_MS. HOLD_MAX_MS when no job
 * reads it (only Logpull, whose reads and the emulator's flush take this isolate's entries first).
 */
export function holdMs(intervalsMs: readonly number[]): number {
	if (intervalsMs.length === 0) return HOLD_MAX_MS;
	return Math.min(HOLD_MAX_MS, Math.max(HOLD_MIN_MS, Math.min(...intervalsMs) / 6));
}

interface Waiting {
	entries: LogRow[];
	/** Whether a timer will flush the current batch. */
	scheduled: boolean;
	/** The current batch's number: each take starts a new one, and an older batch's timer does nothing. */
	batch: number;
}

const waiting = new Map<string, Waiting>();

/**
 * Queues `entry` for the zone's pending log; a timer's flush is kept alive by `ctx.waitUntil`.
 * @param hold how long a batch this entry starts waits for others, in ms (`holdMs`).
 */
export function bufferEntry(env: Env, ctx: ExecutionContext, zoneId: string, entry: LogEntry, hold: number): void {
	let zone = waiting.get(zoneId);
	if (zone === undefined) {
		zone = { entries: [], scheduled: false, batch: 0 };
		waiting.set(zoneId, zone);
	}
	zone.entries.push(logRow(entry, Date.now()));
	if (zone.entries.length >= FLUSH_AT) {
		ctx.waitUntil(flushZone(env, zoneId));
	} else if (!zone.scheduled) {
		zone.scheduled = true;
		const batch = zone.batch;
		ctx.waitUntil(
			scheduler.wait(hold).then(() => (waiting.get(zoneId)?.batch === batch ? flushZone(env, zoneId) : undefined)),
		);
	}
}

/** Takes every entry waiting for `zoneId` (the caller appends them, or puts them back on failure). */
export function takeWaiting(zoneId: string): LogRow[] {
	const zone = waiting.get(zoneId);
	if (zone === undefined || zone.entries.length === 0) return [];
	const entries = zone.entries;
	zone.entries = [];
	zone.batch++;
	zone.scheduled = false;
	return entries;
}

/** Puts back entries whose append failed, before any queued since: the next flush or check takes them. */
export function putBack(zoneId: string, entries: readonly LogRow[], error: unknown): void {
	const zone = waiting.get(zoneId);
	if (zone === undefined || entries.length === 0) return;
	console.error(
		`edgezone logs: appending ${entries.length} entries of zone ${zoneId} failed; kept for the next flush`,
		error,
	);
	zone.entries = [...entries, ...zone.entries];
	const over = zone.entries.length - MAX_WAITING;
	if (over > 0) {
		console.error(`edgezone logs: dropped ${over} entries of zone ${zoneId} (more than ${MAX_WAITING} waiting)`);
		zone.entries.splice(0, over);
	}
}

/** Appends what waits for `zoneId` to its pending log now; on failure the entries wait for the next flush. */
export async function flushZone(env: Env, zoneId: string): Promise<void> {
	const entries = takeWaiting(zoneId);
	if (entries.length === 0) return;
	try {
		await zoneState(env, zoneId).appendLog(entries);
	} catch (error) {
		putBack(zoneId, entries, error);
	}
}

/** How many entries wait in this isolate for `zoneId`. */
export function waitingCount(zoneId: string): number {
	return waiting.get(zoneId)?.entries.length ?? 0;
}
