/**
 * The isolate's buffer of log entries per zone, appended to the zone's pending log
 * (`Zone.appendLog`, SQLite) in batches: after FLUSH_AFTER_MS, or at once when FLUSH_AT entries
 * wait. One RPC carries a batch, so logging costs a request no round trip of its own.
 *
 * Each flush runs in the context of the request that started it (its `ctx.waitUntil` keeps it
 * alive): workerd binds I/O to the request that makes it, so no request awaits another's RPC.
 * The buffer holds plain data only: each entry serialized once, as it is queued (`logRow`), so
 * the RPC carries strings and the zone stores them as they come. Entries wait here at most
 * FLUSH_AFTER_MS plus one RPC: an isolate that dies in that window loses them (the pending log
 * itself survives restarts).
 */
import { type LogEntry, type LogRow, logRow } from "../logs/entry";
import { zoneState } from "../zone/addressing";

/**
 * How long an entry waits in the isolate for others to share its RPC, in ms. Under `wrangler dev`
 * one append RPC costs the server about 1-2 ms of CPU (some 2-3 million instructions with the
 * runtime's trace events for it, BENCHMARKS.md): at 20 ms, logging cost 13% more CPU per GET at
 * 200 requests/s; at 200 ms, 4.5%. At 1 s a batch carries five times more entries; nothing reads
 * the pending log that soon (Logpush's shortest interval is 30 s by default, and the emulator's
 * flush route flushes this buffer first).
 */
export const FLUSH_AFTER_MS = 1000;
/** A batch this large is flushed at once. */
export const FLUSH_AT = 500;
/** Entries kept for a zone whose appends keep failing; older ones are dropped past it (and reported). */
const MAX_WAITING = 20_000;

interface Waiting {
	entries: LogRow[];
	/** Whether a flush is scheduled. */
	scheduled: boolean;
}

const waiting = new Map<string, Waiting>();

/** Queues `entry` for the zone's pending log; the flush is kept alive by `ctx.waitUntil`. */
export function bufferEntry(env: Env, ctx: ExecutionContext, zoneId: string, entry: LogEntry): void {
	let zone = waiting.get(zoneId);
	if (zone === undefined) {
		zone = { entries: [], scheduled: false };
		waiting.set(zoneId, zone);
	}
	zone.entries.push(logRow(entry));
	if (zone.entries.length >= FLUSH_AT) {
		ctx.waitUntil(flushZone(env, zoneId));
	} else if (!zone.scheduled) {
		zone.scheduled = true;
		ctx.waitUntil(
			scheduler.wait(FLUSH_AFTER_MS).then(() => {
				const current = waiting.get(zoneId);
				if (current !== undefined) current.scheduled = false;
				return flushZone(env, zoneId);
			}),
		);
	}
}

/** Appends what waits for `zoneId` to its pending log now; on failure the entries wait for the next flush. */
export async function flushZone(env: Env, zoneId: string): Promise<void> {
	const zone = waiting.get(zoneId);
	if (zone === undefined || zone.entries.length === 0) return;
	const entries = zone.entries;
	zone.entries = [];
	try {
		await zoneState(env, zoneId).appendLog(entries);
	} catch (error) {
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
}

/** How many entries wait in this isolate for `zoneId`. */
export function waitingCount(zoneId: string): number {
	return waiting.get(zoneId)?.entries.length ?? 0;
}
