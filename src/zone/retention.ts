/**
 * The zone's Logpull retention flag and window (docs `logs/logpull/enabling-log-retention`,
 * https://developers.cloudflare.com/logs/logpull/enabling-log-retention/).
 *
 * Emulates: "By default, your HTTP request logs are not retained"; while the flag is on, every
 * edge request is logged and kept for the retention window (Cloudflare's "7 days", the var
 * LOGPULL_RETENTION_HOURS, default 168), whether or not a log-push job reads the log; "after
 * retention is turned off, previously saved logs will be available until the retention period
 * expires": each entry records whether it was logged while the flag was on (`edge_log.retained`).
 * The window runs on real time (`Date.now()`), not on the zone's emulator clock (`clock.ts`):
 * entries carry the real time they were logged and received.
 */

/** Cloudflare's retention: 7 days, in hours. */
const DEFAULT_RETENTION_HOURS = 168;

/** The retention window in hours from LOGPULL_RETENTION_HOURS (a positive number), else 168. */
function retentionHours(env: Env): number {
	const hours = Number(env.LOGPULL_RETENTION_HOURS);
	return Number.isFinite(hours) && hours > 0 ? hours : DEFAULT_RETENTION_HOURS;
}

/** The retention window in ms. */
export function retentionMs(env: Env): number {
	return retentionHours(env) * 3_600_000;
}

/** The one-row `logpull_retention` table. Every method runs inside the caller's transaction. */
export class LogpullRetention {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Whether retention is on. */
	flag(): boolean {
		return this.#sql.exec<{ flag: number }>("SELECT flag FROM logpull_retention WHERE id = 1").one().flag === 1;
	}

	/** Turns retention on or off; answers the new flag. */
	set(flag: boolean): boolean {
		this.#sql.exec("UPDATE logpull_retention SET flag = ? WHERE id = 1", flag ? 1 : 0);
		return flag;
	}
}
