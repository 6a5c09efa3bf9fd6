/**
 * The zone's pending log and where each log-push job stands in it, on the zone's
 * SQLite storage. Every method runs inside the caller's transaction.
 *
 * Entries are appended in batches by the edge (`edge/log-buffer.ts`) and kept, oldest first,
 * until every enabled `http_requests` job has delivered them; a job's cursor is the `seq` of
 * the last entry it delivered and the time it started (`since`). A job gets exactly the entries
 * logged (by the edge, `stored_at`) from the moment it was created enabled or enabled ("a new
 * job ships logs from when it is enabled"): an entry the edge logged before that, and handed
 * over after it (the isolate holds entries for seconds, `edge/log-buffer.ts`), comes after the
 * cursor's `seq` but is not the job's, so every read of a job's entries also selects by
 * `since`, and the cursor passes over such entries once nothing of the job's follows (`passAll`).
 * Without an enabled job nothing is kept, unless Logpull retention is on (`retention.ts`):
 * appends are refused and the log is emptied, so it stays bounded.
 *
 * Logpull: each entry also records when the edge logged it (`stored_at`, the "received" time
 * Logpull windows select on) and whether it was logged while retention was on (`retained`). An
 * entry may be deleted once every enabled job delivered it AND (it is not retained OR it was
 * received before the retention window). The Zone's alarm trims in bounded steps (`trim`'s limit).
 */
import { type LogEntry, type LogRow, logRow } from "../logs/entry";

/**
 * The rows of `entries`, given as entries or as the edge's serialized rows (`logRow`).
 * @param now ms since the epoch: when entries given as entries were logged.
 */
export function logRows(entries: readonly (LogEntry | LogRow)[], now: number): readonly LogRow[] {
	return entries.map((entry) => (Array.isArray(entry) ? (entry as LogRow) : logRow(entry as LogEntry, now)));
}

/** Rows per INSERT: five bound parameters each, within the 100 a Durable Object's SQL statement takes. */
const ROWS_PER_INSERT = 20;

/** One pending entry as read back. */
export type PendingRow = {
	seq: number;
	received_at: number;
	ray_id: string;
	entry: string;
};

/** A job's place in the pending log. */
export type Cursor = {
	delivered_seq: number;
	/** When the job started (created enabled, or enabled), ms since the epoch: its entries are the ones logged from then on. */
	since: number;
	failures: number;
	/** When a failed job may try again, ms since the epoch (0: at once). */
	retry_at: number;
};

/** The pending log and the jobs' cursors. */
export class EdgeLogStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/**
	 * Appends rows in order (`logRows`); their `EdgeStartTimestamp`, `RayID` and the time they
	 * were logged are kept as columns too. Up to ROWS_PER_INSERT rows go in one statement: each
	 * `exec` costs far more than a row.
	 * @param retained whether Logpull retention is on: Logpull then serves them for the window.
	 */
	append(rows: readonly LogRow[], retained: boolean): void {
		const kept = retained ? 1 : 0;
		for (let start = 0; start < rows.length; start += ROWS_PER_INSERT) {
			const chunk = rows.slice(start, start + ROWS_PER_INSERT);
			this.#sql.exec(
				`INSERT INTO edge_log (received_at, ray_id, entry, stored_at, retained) VALUES ${chunk.map(() => "(?, ?, ?, ?, ?)").join(", ")}`,
				...chunk.flatMap((row) => [...row, kept]),
			);
		}
	}

	/** The `seq` of the newest entry, 0 when there is none (ever: AUTOINCREMENT never reuses one). */
	lastSeq(): number {
		const row = this.#sql.exec<{ seq: number }>("SELECT seq FROM sqlite_sequence WHERE name = 'edge_log'").toArray()[0];
		return row?.seq ?? 0;
	}

	/**
	 * Starts a job at the end of the log: it delivers only entries logged from `now` on.
	 * @param now ms since the epoch.
	 */
	start(jobId: number, now: number): void {
		this.#sql.exec(
			"INSERT OR REPLACE INTO logpush_cursors (job_id, delivered_seq, since, failures, retry_at) VALUES (?, ?, ?, 0, 0)",
			jobId,
			this.lastSeq(),
			now,
		);
	}

	/** Forgets a job's cursor (job deleted or disabled). */
	stop(jobId: number): void {
		this.#sql.exec("DELETE FROM logpush_cursors WHERE job_id = ?", jobId);
	}

	/**
	 * A job's cursor; a job without one (enabled before edgezone kept cursors) starts at the end.
	 * @param now ms since the epoch: the start of a job that had no cursor.
	 */
	cursor(jobId: number, now: number): Cursor {
		const row = this.#sql
			.exec<Cursor>("SELECT delivered_seq, since, failures, retry_at FROM logpush_cursors WHERE job_id = ?", jobId)
			.toArray()[0];
		if (row !== undefined) return row;
		this.start(jobId, now);
		return { delivered_seq: this.lastSeq(), since: now, failures: 0, retry_at: 0 };
	}

	/** When each job that has a cursor may next try, ms since the epoch (0: at once), by job id. */
	retryTimes(): Map<number, number> {
		const rows = this.#sql.exec<{ job_id: number; retry_at: number }>("SELECT job_id, retry_at FROM logpush_cursors");
		return new Map(Array.from(rows, (row) => [row.job_id, row.retry_at]));
	}

	/** Up to `limit` of the job's entries after its cursor, oldest first. */
	after(cursor: Cursor, limit: number): PendingRow[] {
		return this.#sql
			.exec<PendingRow>(
				"SELECT seq, received_at, ray_id, entry FROM edge_log WHERE seq > ? AND stored_at >= ? ORDER BY seq LIMIT ?",
				cursor.delivered_seq,
				cursor.since,
				limit,
			)
			.toArray();
	}

	/** How many of the job's entries follow its cursor, their stored size in bytes, and when the oldest was received. */
	pending(cursor: Cursor): { count: number; bytes: number; oldest: number | null } {
		return this.#sql
			.exec<{ count: number; bytes: number; oldest: number | null }>(
				`SELECT COUNT(*) AS count, COALESCE(SUM(LENGTH(entry)), 0) AS bytes, MIN(received_at) AS oldest
				FROM edge_log WHERE seq > ? AND stored_at >= ?`,
				cursor.delivered_seq,
				cursor.since,
			)
			.one();
	}

	/**
	 * Moves a job's cursor to the end of the log, when nothing after it is the job's (`pending`
	 * is 0): what follows was logged before the job started, and must not hold back the trim.
	 */
	passAll(jobId: number): void {
		this.#sql.exec("UPDATE logpush_cursors SET delivered_seq = ? WHERE job_id = ?", this.lastSeq(), jobId);
	}

	/** Records a delivery up to `seq`: the cursor moves and the back-off ends. */
	delivered(jobId: number, seq: number): void {
		this.#sql.exec(
			"UPDATE logpush_cursors SET delivered_seq = MAX(delivered_seq, ?), failures = 0, retry_at = 0 WHERE job_id = ?",
			seq,
			jobId,
		);
	}

	/** Records a failed delivery: the next try waits `backoff(failures)` ms. */
	failed(jobId: number, now: number, backoff: (failures: number) => number): void {
		const { failures } = this.cursor(jobId, now);
		const next = { failures: failures + 1, retry_at: now + backoff(failures + 1) };
		this.#sql.exec(
			"UPDATE logpush_cursors SET failures = ?, retry_at = ? WHERE job_id = ?",
			next.failures,
			next.retry_at,
			jobId,
		);
	}

	/**
	 * Deletes, oldest first and at most `limit`, the entries every job in `jobIds` (the enabled
	 * ones) has delivered (all of them with no job) that are not retained or were received before
	 * `retainFrom`; and the cursors of other jobs.
	 * @param now ms since the epoch: the start of a job that had no cursor.
	 * @param retainFrom start of the Logpull retention window, ms since the epoch.
	 * @returns how many entries were deleted: `limit` means there may be more to delete.
	 */
	trim(jobIds: readonly number[], now: number, retainFrom: number, limit: number): number {
		// One bound variable however many jobs a zone has: the storage binds at most 100 to a query.
		this.#sql.exec(
			"DELETE FROM logpush_cursors WHERE job_id NOT IN (SELECT value FROM json_each(?))",
			JSON.stringify(jobIds),
		);
		const upTo = this.#deliveredByAll(jobIds, now);
		this.#sql.exec(
			`DELETE FROM edge_log WHERE seq IN (
				SELECT seq FROM edge_log WHERE seq <= ? AND (retained = 0 OR stored_at < ?) ORDER BY seq LIMIT ?
			)`,
			upTo,
			retainFrom,
			limit,
		);
		// changes(), not rowsWritten: the latter counts the partial indexes' writes too.
		return this.#sql.exec<{ n: number }>("SELECT changes() AS n").one().n;
	}

	/**
	 * The `seq` up to which every job in `jobIds` has delivered; with no job, every entry.
	 * @param now ms since the epoch: the start of a job that had no cursor.
	 */
	#deliveredByAll(jobIds: readonly number[], now: number): number {
		return jobIds.length === 0
			? Number.MAX_SAFE_INTEGER
			: Math.min(...jobIds.map((id) => this.cursor(id, now).delivered_seq));
	}

	/**
	 * When the oldest retained entry that every job in `jobIds` has delivered was received (ms since
	 * the epoch), null when none is: the next entry a trim may delete once it leaves the retention
	 * window. The entries a job has not delivered wait for that job, whose own wake comes first.
	 * Walks the retained entries by time (index `edge_log_retained_by_time`) to the first such one.
	 * @param now ms since the epoch: the start of a job that had no cursor.
	 */
	oldestRetainedDelivered(jobIds: readonly number[], now: number): number | null {
		const row = this.#sql
			.exec<{ stored_at: number }>(
				"SELECT stored_at FROM edge_log WHERE retained = 1 AND seq <= ? ORDER BY stored_at LIMIT 1",
				this.#deliveredByAll(jobIds, now),
			)
			.toArray()[0];
		return row?.stored_at ?? null;
	}

	/**
	 * Up to `limit` retained entries after `seq`, oldest first: received in [from, to) (ms since
	 * the epoch), and with RayID `rayId` when given.
	 */
	retainedAfter(
		query: { from: number; to: number; rayId?: string | undefined },
		seq: number,
		limit: number,
	): PendingRow[] {
		const byRay = query.rayId === undefined ? "" : " AND ray_id = ?";
		return this.#sql
			.exec<PendingRow>(
				`SELECT seq, received_at, ray_id, entry FROM edge_log
				WHERE retained = 1 AND stored_at >= ? AND stored_at < ? AND seq > ?${byRay} ORDER BY seq LIMIT ?`,
				query.from,
				query.to,
				seq,
				...(query.rayId === undefined ? [] : [query.rayId]),
				limit,
			)
			.toArray();
	}

	/** How many entries the log holds, and the oldest one's receipt time. */
	size(): { count: number; oldest: number | null } {
		return this.#sql
			.exec<{ count: number; oldest: number | null }>(
				"SELECT COUNT(*) AS count, MIN(received_at) AS oldest FROM edge_log",
			)
			.one();
	}
}
