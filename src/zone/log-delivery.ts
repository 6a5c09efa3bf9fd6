/**
 * The zone's log scheduler: when the pending log is appended to, delivered from and trimmed, on
 * the zone's one alarm (`alarm.ts`). The `Zone` builds it beside its stores and delegates to it in
 * one line each: `appendLog`, `flushLogs`, `logStatus`, `alarm`, and after a write that may
 * change a due time (a job created, changed or deleted; the Logpull retention flag).
 *
 * - An append, the hot path, costs one INSERT: what reads the log (each enabled `http_requests`
 *   job's interval and back-off end, and the retention flag) is kept between appends (`#readers`)
 *   and read again after any write the edge depends on and after every delivery run (which
 *   changes back-offs). It brings the alarm forward to when its entries fall due, which costs no
 *   storage access while the alarm is already set earlier, as it is with traffic.
 * - A delivery run (the alarm, or the emulator's flush) delivers each job's due batches
 *   (`delivery.ts`), trims what every job delivered and retention does not keep, and sets the
 *   alarm to exactly the earliest due time (`#nextWake`). One run at a time: a flush waits for a
 *   run under way, then runs itself, so no entry is delivered twice.
 */
import type { LogEntry, LogRow } from "../logs/entry";
import { intervalMs, readingJobs } from "../logs/job-limits";
import { earliest, ZoneAlarm } from "./alarm";
import { type DeliveryStores, deliverJob, dueAt, type JobDelivery } from "./delivery";
import { type EdgeLogStore, logRows } from "./edge-log";
import type { LogpushStore } from "./logpush";
import { type LogpullRetention, retentionMs } from "./retention";

/** The pending log as each enabled job sees it (the emulator's log status route). */
export interface LogStatus {
	/** Entries in the pending log, and the oldest one's time (ISO 8601). */
	entries: number;
	oldest: string | null;
	/** Per enabled job: entries it has not delivered, the oldest one's time, and its back-off. */
	jobs: { job_id: number; pending: number; oldest: string | null; failures: number; retry_at: string | null }[];
}

/** What an append knows of the pending log's readers: each enabled job's interval and back-off end (ms), and the retention flag. */
type Readers = { jobs: { intervalMs: number; retryAt: number }[]; retained: boolean };

/** Entries one delivery run deletes at most per step: a trim that hits it runs again at once. */
const TRIM_STEP = 10_000;

/** Appends, delivery and the alarm of one zone's pending log. */
export class LogScheduler {
	readonly #storage: DurableObjectStorage;
	readonly #env: Env;
	readonly #log: EdgeLogStore;
	readonly #jobs: LogpushStore;
	readonly #retention: LogpullRetention;
	/** The stores a delivery run uses, with the transaction that wraps them (`delivery.ts`). */
	readonly #stores: DeliveryStores;
	/** The zone's one alarm and the time it is known to be set to (saves a storage read per append). */
	readonly #alarm: ZoneAlarm;
	/** The delivery under way, so the alarm and a flush never deliver the same entries twice. */
	#delivering: Promise<JobDelivery[]> | undefined;
	/** What reads the pending log, kept between appends; undefined until read, and after `forgetReaders`. */
	#readers: Readers | undefined;

	constructor(
		storage: DurableObjectStorage,
		env: Env,
		stores: { log: EdgeLogStore; jobs: LogpushStore; retention: LogpullRetention },
	) {
		this.#storage = storage;
		this.#env = env;
		this.#log = stores.log;
		this.#jobs = stores.jobs;
		this.#retention = stores.retention;
		this.#alarm = new ZoneAlarm(storage);
		this.#stores = {
			env,
			transaction: (op) => storage.transactionSync(op),
			log: stores.log,
			jobs: stores.jobs,
		};
	}

	/**
	 * Appends the edge's entries when an enabled `http_requests` job will read them or Logpull
	 * retention is on (else drops them and trims the log), and brings the alarm forward to when
	 * they fall due: each job's interval after the oldest of them was received (not before the
	 * job's back-off ends), and their leaving the retention window. A job's record and byte limits
	 * are checked when the alarm runs, so a batch that reaches one is delivered at the next wake,
	 * at most the job's interval later.
	 * @returns how many entries were kept.
	 */
	async append(entries: readonly (LogEntry | LogRow)[]): Promise<number> {
		const now = Date.now();
		this.#readers ??= this.#readReaders();
		const { jobs, retained } = this.#readers;
		if (jobs.length === 0 && !retained) {
			this.#storage.transactionSync(() => this.#log.trim([], now, now - retentionMs(this.#env), TRIM_STEP));
			return 0;
		}
		if (entries.length === 0) return 0;
		const rows = logRows(entries, now);
		this.#storage.transactionSync(() => this.#log.append(rows, retained));
		let received = Number.POSITIVE_INFINITY;
		let logged = Number.POSITIVE_INFINITY;
		for (const [receivedAt, , , loggedAt] of rows) {
			received = Math.min(received, receivedAt);
			logged = Math.min(logged, loggedAt);
		}
		const due = jobs.map((job) => Math.max(job.retryAt, received + job.intervalMs));
		if (retained) due.push(logged + retentionMs(this.#env));
		await this.#alarm.bringForward(earliest(due));
		return entries.length;
	}

	/** Delivers everything pending at once, for every enabled job, back-off or not. */
	flush(): Promise<JobDelivery[]> {
		return this.#deliver(true);
	}

	/** The alarm fired: delivers what is due, trims, and sets the next alarm. */
	async alarmFired(): Promise<void> {
		// A running alarm is no longer set: appends meanwhile must not count on it.
		this.#alarm.fired();
		await this.#deliver(false);
	}

	/** The pending log's size, and where each enabled job stands in it; read in one transaction. */
	status(): LogStatus {
		return this.#storage.transactionSync(() => {
			const size = this.#log.size();
			const now = Date.now();
			const jobs = readingJobs(this.#jobs.list()).map((job) => {
				const cursor = this.#log.cursor(job.id, now);
				const pending = this.#log.pending(cursor);
				return {
					job_id: job.id,
					pending: pending.count,
					oldest: iso(pending.oldest),
					failures: cursor.failures,
					retry_at: cursor.retry_at > 0 ? iso(cursor.retry_at) : null,
				};
			});
			return { entries: size.count, oldest: iso(size.oldest), jobs };
		});
	}

	/**
	 * After a write that may change a due time (jobs, the retention flag): brings the alarm forward
	 * to the earliest of `#nextWake` and `also` (ms since the epoch, a trim wanted at once).
	 */
	async schedule(also: number | undefined): Promise<void> {
		await this.#alarm.bringForward(earliest([this.#nextWake(Date.now()), also]));
	}

	/** A write the edge depends on may have changed what reads the log: the next append reads it again. */
	forgetReaders(): void {
		this.#readers = undefined;
	}

	/** Deletes the alarm (the zone is being deleted), through `ZoneAlarm` so what it knows of it stays true. */
	async cancelAlarm(): Promise<void> {
		await this.#alarm.set(undefined);
	}

	/** One delivery run at a time: a flush waits for a run under way, then runs itself. */
	async #deliver(force: boolean): Promise<JobDelivery[]> {
		while (this.#delivering !== undefined) {
			const running = this.#delivering;
			await running.catch(() => []);
			if (!force) return [];
		}
		const run = this.#deliverNow(force);
		this.#delivering = run;
		try {
			return await run;
		} finally {
			this.#delivering = undefined;
		}
	}

	async #deliverNow(force: boolean): Promise<JobDelivery[]> {
		const now = Date.now();
		const deliveries: JobDelivery[] = [];
		for (const job of readingJobs(this.#jobs.list())) deliveries.push(await deliverJob(this.#stores, job, now, force));
		// Jobs may have changed, and entries arrived, while objects were written: trim by the jobs
		// enabled now, then set the alarm to what is due next, at once while a bounded trim step
		// left more to delete. Back-offs changed: the appends' knowledge of them is read again.
		const trimmedAt = Date.now();
		const more = this.#storage.transactionSync(() => {
			const ids = readingJobs(this.#jobs.list()).map((job) => job.id);
			return this.#log.trim(ids, trimmedAt, trimmedAt - retentionMs(this.#env), TRIM_STEP) === TRIM_STEP;
		});
		this.#readers = undefined;
		await this.#alarm.set(more ? trimmedAt : this.#nextWake(trimmedAt));
		return deliveries;
	}

	/** What an append needs to know of the pending log's readers (`#readers`), in one transaction. */
	#readReaders(): Readers {
		return this.#storage.transactionSync(() => {
			const retry = this.#log.retryTimes();
			return {
				jobs: readingJobs(this.#jobs.list()).map((job) => ({
					intervalMs: intervalMs(job, this.#env),
					retryAt: retry.get(job.id) ?? 0,
				})),
				retained: this.#retention.flag(),
			};
		});
	}

	/**
	 * The one place that says when the zone's alarm must next run (`alarm.ts`): the earliest of
	 * each enabled job's next batch (`dueAt`: its interval, limits and back-off, over the entries
	 * that are its own) and the moment the oldest retained entry every job delivered leaves the
	 * Logpull window; undefined when nothing is due. Read in one transaction.
	 * @param now ms since the epoch.
	 */
	#nextWake(now: number): number | undefined {
		return this.#storage.transactionSync(() => {
			const jobs = readingJobs(this.#jobs.list());
			const due = jobs.map((job) => {
				const cursor = this.#log.cursor(job.id, now);
				return dueAt(job, cursor, this.#log.pending(cursor), this.#env, now);
			});
			const oldest = this.#log.oldestRetainedDelivered(
				jobs.map((job) => job.id),
				now,
			);
			if (oldest !== null) due.push(oldest + retentionMs(this.#env));
			return earliest(due);
		});
	}
}

/** An ISO 8601 time, or null. */
function iso(ms: number | null): string | null {
	return ms === null ? null : new Date(ms).toISOString();
}
