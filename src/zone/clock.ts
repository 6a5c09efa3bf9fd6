/**
 * The emulator's clock of one zone: real time unless set (an emulator-only route,
 * edgezone's own).
 *
 * Everything in a zone that happens "on the clock" (custom hostname issuance, certificate
 * validity and renewal, the 2024 chain schedule) reads `now()` here instead of `Date.now()`, so a
 * user can replay a date range against edgezone. Set to a moment, the clock runs on from it at
 * real speed (an offset from real time); frozen, it stays at that moment until set again. Both
 * survive restarts: one row of SQLite.
 */

/** What the clock says, as the emulator's clock route answers it. */
export interface ClockReading {
	/** The zone's current time, RFC 3339 with milliseconds. */
	now: string;
	/** Whether the clock is real time (never set, or reset). */
	real: boolean;
	/** Whether the clock stands still at `now`. */
	frozen: boolean;
	/** Clock minus real time, in seconds (0 when real). */
	offset_seconds: number;
}

/** How to set the clock: a moment (or null for real time) and whether it stands still there. */
export interface ClockSetting {
	now: Date | null;
	frozen: boolean;
}

/** The one-row `emulator_clock` table; each method runs inside the caller's transaction. */
export class EmulatorClock {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The zone's current time. */
	now(): Date {
		const { offset_ms, frozen_at } = this.#row();
		return new Date(frozen_at ?? Date.now() + offset_ms);
	}

	/** The clock's state, read at one moment. */
	reading(): ClockReading {
		const { offset_ms, frozen_at } = this.#row();
		const real = Date.now();
		const now = frozen_at ?? real + offset_ms;
		return {
			now: new Date(now).toISOString(),
			real: offset_ms === 0 && frozen_at === null,
			frozen: frozen_at !== null,
			offset_seconds: Math.round((now - real) / 1000),
		};
	}

	/** Sets the clock: to `now` (running on from it unless frozen), or back to real time. */
	set(setting: ClockSetting): ClockReading {
		const real = Date.now();
		const target = setting.now?.getTime() ?? real;
		const frozenAt = setting.frozen ? target : null;
		this.#sql.exec("UPDATE emulator_clock SET offset_ms = ?, frozen_at = ? WHERE id = 1", target - real, frozenAt);
		return this.reading();
	}

	/** Moves the clock forward by `ms`, frozen or not. */
	advance(ms: number): ClockReading {
		this.#sql.exec(
			"UPDATE emulator_clock SET offset_ms = offset_ms + ?, frozen_at = frozen_at + ? WHERE id = 1",
			ms,
			ms,
		);
		return this.reading();
	}

	#row(): { offset_ms: number; frozen_at: number | null } {
		return this.#sql
			.exec<{ offset_ms: number; frozen_at: number | null }>(
				"SELECT offset_ms, frozen_at FROM emulator_clock WHERE id = 1",
			)
			.one();
	}
}
