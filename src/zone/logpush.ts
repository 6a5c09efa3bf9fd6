/**
 * Log-push jobs of one zone and their destination ownership challenges.
 *
 * Follows the Logpush API
 * (https://developers.cloudflare.com/api/resources/logpush/subresources/jobs/, docs
 * `logs/logpush/logpush-job/api-configuration`): integer job ids, `enabled` false by default,
 * `dataset` and `kind` fixed after create, a job object with every field of the SDK's
 * `LogpushJob` (cloudflare-typescript `src/resources/logpush/jobs.ts`); `s3://` destinations
 * need a valid ownership challenge on create and whenever the destination changes, `r2://` ones
 * do not (docs https://developers.cloudflare.com/logs/logpush/logpush-job/enable-destinations/r2/,
 * its create example).
 * Tokens are random strings kept here for 7 days (the real API signs a JWT with the same
 * claims; a stored token gives the same yes/no answer without a signing key).
 * Delivery (`delivery.ts`) records its outcome in `last_complete`, `last_error` and
 * `error_message` (`setStatus`); `filter` is kept only when set.
 */
import { toBase64Url } from "../common/encoding";
import { type OutputOptions, withOutputDefaults } from "../logs/output-options";
import type { Destination } from "./destinations";
import { expandPath } from "./destinations";
import { CODES, invalid, notFound } from "./failure";

/** The settings of a job a client chooses (everything but id and delivery status). */
export interface JobSettings {
	dataset: "http_requests";
	destination_conf: string;
	enabled: boolean;
	name: string | null;
	kind: "";
	frequency: "high" | "low";
	max_upload_bytes: number;
	max_upload_records: number;
	max_upload_interval_seconds: number;
	output_options: OutputOptions;
	/** The job's filter, a JSON string (`logs/filter.ts`); absent when the job has none. */
	filter?: string;
}

/**
 * Defaults of a new job besides its destination and `output_options`: disabled (docs "Manage
 * Logpush with cURL", https://developers.cloudflare.com/logs/logpush/examples/example-logpush-curl/,
 * and its Python example's `enabled == False` after create), no name, kind "", frequency high, and
 * the `max_upload_*` batch limits off (0).
 */
export const JOB_DEFAULTS = {
	dataset: "http_requests",
	enabled: false,
	name: null,
	kind: "",
	frequency: "high",
	max_upload_bytes: 0,
	max_upload_records: 0,
	max_upload_interval_seconds: 0,
} as const satisfies Omit<JobSettings, "destination_conf" | "output_options">;

/** A new job's settings: `given` over JOB_DEFAULTS and the default `output_options`. */
export function newJobSettings(given: Partial<JobSettings> & Pick<JobSettings, "destination_conf">): JobSettings {
	return { ...JOB_DEFAULTS, output_options: withOutputDefaults({}), ...given };
}

/** A job as stored and returned. */
export interface LogpushJob extends JobSettings {
	id: number;
	last_complete: string | null;
	last_error: string | null;
	error_message: string | null;
}

/** A create or update request: settings, the parsed destination when it is set, and the challenge token. */
export interface JobWrite<S> {
	settings: S;
	destination?: Destination;
	ownership_challenge?: string;
}

/** The answer of `POST .../logpush/ownership` before the file is written. */
export interface Challenge {
	token: string;
	filename: string;
}

/** Ownership tokens stay valid this long (docs: "an expiry of 7 days"). */
const CHALLENGE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Log-push jobs on the zone's SQLite storage. Every method runs inside the caller's transaction. */
export class LogpushStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** All jobs, by id. */
	list(): LogpushJob[] {
		return this.#sql
			.exec<{ id: number; job: string }>("SELECT id, job FROM logpush_jobs ORDER BY id")
			.toArray()
			.map(toJob);
	}

	/** One job; 404 when unknown. */
	get(id: number): LogpushJob {
		const row = this.#sql
			.exec<{ id: number; job: string }>("SELECT id, job FROM logpush_jobs WHERE id = ?", id)
			.toArray()[0];
		if (row === undefined) notFound(CODES.logpushJobNotFound, "job not found");
		return toJob(row);
	}

	/** Creates a job; an `s3://` destination needs a valid ownership challenge. */
	create(write: JobWrite<JobSettings>, now: Date): LogpushJob {
		this.#checkOwnership(write, now);
		const status = { last_complete: null, last_error: null, error_message: null };
		const id = this.#sql
			.exec<{ id: number }>(
				"INSERT INTO logpush_jobs (job) VALUES (?) RETURNING id",
				JSON.stringify({ ...write.settings, ...status }),
			)
			.one().id;
		return this.get(id);
	}

	/** Changes the given settings of a job; `dataset` and `kind` cannot change; a new `s3://` destination needs a challenge. */
	update(id: number, write: JobWrite<Partial<JobSettings>>, now: Date): LogpushJob {
		const { id: _id, ...current } = this.get(id);
		for (const field of ["dataset", "kind"] as const) {
			const value = write.settings[field];
			if (value !== undefined && value !== current[field]) {
				invalid(
					CODES.logpushInvalid,
					`the ${field} of a job cannot be changed (it is "${current[field]}")`,
					`/${field}`,
				);
			}
		}
		if (write.settings.destination_conf !== undefined && write.settings.destination_conf !== current.destination_conf) {
			this.#checkOwnership(write, now);
		}
		this.#sql.exec(
			"UPDATE logpush_jobs SET job = ? WHERE id = ?",
			JSON.stringify({ ...current, ...write.settings }),
			id,
		);
		return this.get(id);
	}

	/** Sets the delivery status fields of a job (not a setting: the config version stays). */
	setStatus(id: number, status: Partial<Pick<LogpushJob, "last_complete" | "last_error" | "error_message">>): void {
		const { id: _id, ...current } = this.get(id);
		this.#sql.exec("UPDATE logpush_jobs SET job = ? WHERE id = ?", JSON.stringify({ ...current, ...status }), id);
	}

	/** Deletes a job; 404 when unknown. */
	delete(id: number): { id: number } {
		this.get(id);
		this.#sql.exec("DELETE FROM logpush_jobs WHERE id = ?", id);
		return { id };
	}

	/** Issues a new ownership token for a destination; the caller writes it to `filename`. */
	challenge(destination: Destination, now: Date): Challenge {
		this.#sql.exec("DELETE FROM ownership_challenges WHERE expires_at <= ?", now.getTime());
		const token = randomToken();
		this.#sql.exec(
			"INSERT INTO ownership_challenges (token, fingerprint, expires_at) VALUES (?, ?, ?)",
			token,
			destination.fingerprint,
			now.getTime() + CHALLENGE_TTL_MS,
		);
		const dir = expandPath(destination.path, now);
		return { token, filename: dir === "" ? "ownership-challenge.txt" : `${dir}/ownership-challenge.txt` };
	}

	/** Whether `token` is an unexpired challenge issued for this destination. */
	isValidChallenge(destination: Destination, token: string, now: Date): boolean {
		return (
			this.#sql
				.exec(
					"SELECT 1 FROM ownership_challenges WHERE token = ? AND fingerprint = ? AND expires_at > ?",
					token,
					destination.fingerprint,
					now.getTime(),
				)
				.toArray().length > 0
		);
	}

	#checkOwnership(write: JobWrite<Partial<JobSettings>>, now: Date): void {
		const { destination, ownership_challenge: token } = write;
		if (destination?.scheme !== "s3") return;
		if (token === undefined) {
			invalid(
				CODES.logpushInvalid,
				"ownership_challenge is required for s3:// destinations; request one with POST .../logpush/ownership",
				"/ownership_challenge",
			);
		}
		if (!this.isValidChallenge(destination, token, now)) {
			invalid(
				CODES.logpushInvalid,
				"ownership_challenge is not valid for this destination (wrong, expired, or issued for another destination)",
				"/ownership_challenge",
			);
		}
	}
}

function toJob(row: { id: number; job: string }): LogpushJob {
	return { id: row.id, ...(JSON.parse(row.job) as Omit<LogpushJob, "id">) };
}

/** 32 random bytes, base64url: within the token pattern `^[a-zA-Z0-9/\+\.\-_]*$` (API reference, Logpush jobs, `ownership_challenge`). */
function randomToken(): string {
	return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}
