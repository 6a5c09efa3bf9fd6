/**
 * Which log-push jobs read the edge's entries, and how long a job's batch may wait: pure, read by
 * the zone's delivery (`zone/delivery.ts`, `zone/log-delivery.ts`) and by the edge, whose isolate
 * buffer holds entries for a fraction of that wait (`edge/log-buffer.ts` `holdMs`).
 *
 * Cloudflare's defaults when a limit is 0 (docs api-configuration,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/api-configuration/: "30s / 100k
 * records"); locally the var LOGPUSH_MIN_INTERVAL_SECONDS caps the wait (`npm run dev` sets 2 s),
 * an edgezone choice so a developer does not wait 30 s for a delivery.
 */

/** A batch waits at most this long when the job's `max_upload_interval_seconds` is 0, in seconds. */
export const DEFAULT_INTERVAL_S = 30;
/** A batch holds at most this many entries when the job's `max_upload_records` is 0. */
export const DEFAULT_RECORDS = 100_000;

/** What these rules read of a job (`zone/logpush.ts` `LogpushJob`). */
interface JobLimits {
	enabled: boolean;
	dataset: string;
	max_upload_interval_seconds: number;
}

/** The enabled jobs that read the edge's entries: those of the `http_requests` dataset. */
export function readingJobs<J extends Pick<JobLimits, "enabled" | "dataset">>(jobs: readonly J[]): J[] {
	return jobs.filter((job) => job.enabled && job.dataset === "http_requests");
}

/** The wait before a job's batch is due, in ms: its interval, capped by LOGPUSH_MIN_INTERVAL_SECONDS. */
export function intervalMs(job: Pick<JobLimits, "max_upload_interval_seconds">, env: Env): number {
	const seconds = job.max_upload_interval_seconds > 0 ? job.max_upload_interval_seconds : DEFAULT_INTERVAL_S;
	const cap = Number(env.LOGPUSH_MIN_INTERVAL_SECONDS);
	return 1000 * (Number.isFinite(cap) && cap > 0 ? Math.min(seconds, cap) : seconds);
}
