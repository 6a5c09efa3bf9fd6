/**
 * The zone's one alarm. A Durable Object has a single alarm (`ctx.storage.setAlarm`: "each
 * Durable Object is able to schedule a single alarm at a time",
 * https://developers.cloudflare.com/durable-objects/api/alarms/), so everything in the Zone that
 * must happen at a time, with no request to carry it, shares it:
 * - log-push delivery, per enabled `http_requests` job (`delivery.ts` `dueAt`): when its oldest
 *   undelivered entry has waited the job's interval, or at once when a record or byte limit is
 *   reached (an append does not count its entries: the limits are seen at the next wake), and
 *   never before the job's back-off after a failure ends;
 * - Logpull retention (`retention.ts`): when the oldest retained entry every job has delivered
 *   leaves the retention window, to be deleted;
 * - trimming the pending log: at once after a job stops reading it (deleted or disabled), and
 *   while a bounded trim step left more to delete.
 * Nothing else in the Zone needs a wake: the certificate lifecycle, the custom hostnames' states,
 * the CA schedule and the outbox are derived lazily, at read time, from the zone's emulator clock
 * (`certificates/store.ts` `catchUp` over the pure `src/certificates/schedule.ts`,
 * `custom-hostnames/lifecycle.ts`, `outbox.ts`): the emulator's clock can be set back or forward,
 * which no alarm could follow.
 *
 * The alarm is always set to the earliest of those due times. The zone's log scheduler computes
 * them in one place (`LogScheduler.#nextWake`, `log-delivery.ts`) after every write that can
 * change one and at the end of every delivery run; an append, the hot path, works its due times out from the rows it adds. This class keeps the
 * time of the alarm that is set, so an append costs no storage read, and moves the alarm only when
 * a due time comes earlier than it (`bringForward`); a delivery run, which may make every due
 * time later, sets it to exactly what it computed (`set`).
 */

/** The earliest of `times` (ms since the epoch), undefined when none is given. */
export function earliest(times: readonly (number | undefined)[]): number | undefined {
	let first: number | undefined;
	for (const time of times) if (time !== undefined && (first === undefined || time < first)) first = time;
	return first;
}

/** The zone's alarm, with the time it is known to be set to. */
export class ZoneAlarm {
	readonly #storage: DurableObjectStorage;
	/** The alarm's time (ms since the epoch); null: none is set; undefined: not known, read when needed. */
	#known: number | null | undefined;

	constructor(storage: DurableObjectStorage) {
		this.#storage = storage;
	}

	/** Sets the alarm to `at` (ms since the epoch) when none is set or it is set later; else does nothing. */
	async bringForward(at: number | undefined): Promise<void> {
		if (at === undefined) return;
		if (this.#known === undefined) {
			const read = await this.#storage.getAlarm();
			this.#known ??= read;
		}
		if (this.#known !== null && this.#known <= at) return;
		this.#known = at;
		await this.#storage.setAlarm(at);
	}

	/** Sets the alarm to `at` (ms since the epoch), or deletes it when `at` is undefined. */
	async set(at: number | undefined): Promise<void> {
		this.#known = at ?? null;
		if (at === undefined) await this.#storage.deleteAlarm();
		else await this.#storage.setAlarm(at);
	}

	/**
	 * The alarm fired: none is set while it runs ("If getAlarm is called while an alarm is already
	 * running, it returns null unless setAlarm has also been called since", same page); the run
	 * sets the next one, and a run that throws is retried by the runtime.
	 */
	fired(): void {
		this.#known = null;
	}
}
