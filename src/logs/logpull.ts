/**
 * The query of Cloudflare's Logpull API, parsed and checked (docs `logs/logpull/requesting-logs`,
 * https://developers.cloudflare.com/logs/logpull/requesting-logs/; cloudflare-typescript
 * `src/resources/logs/received/received.ts` `ReceivedGetParams`, `src/resources/logs/rayid.ts`
 * `RayIDGetParams`):
 * pure, no I/O.
 *
 * Emulates:
 * - `start` (inclusive) and `end` (exclusive): unix seconds, unix nanoseconds (an integer of 16
 *   digits or more), or RFC 3339 (any fraction, any offset); `end` later than `start`, at most
 *   one hour after it (docs: "The maximum time range from start to end cannot exceed 1 hour"),
 *   `start` no further back than the retention window, `end` at least `minEndAgeMs` before now
 *   (Cloudflare: 1 minute; edgezone's var LOGPULL_MIN_END_AGE_SECONDS, docs/logs.md "Logpull"). Both
 *   are required, as the docs' table says (the SDK's types make `start` optional). Times are
 *   compared in the ms the zone stores, rounding a nanosecond bound up: a record received at
 *   ms `m` is in the window exactly when `m` ns-scaled is in [start, end).
 * - `count`: an integer > 0; `sample`: 0.001 to 1.0; `timestamps`: `unixnano` (default), `unix`,
 *   `rfc3339`; `CVE-2021-44228`: `true` / `false`; `fields`: comma-separated names of the
 *   dataset, no whitespace, every one known; absent or empty: the default set below.
 * - any other query argument is refused, as Cloudflare answers "bad query parameter: query
 *   arguments are limited to: ..." (cloudflare/logshare#14).
 * Error texts: "bad query: error parsing time: invalid time range: too long" and "... too early:
 * logs older than 168h0m0s are not available" are Cloudflare's (cloudflare/logshare#23,
 * elastic/integrations#4414); the others are edgezone's, in the same shape.
 */
import { HTTP_REQUESTS_DEFAULT_FIELDS } from "./datasets/http-requests";
import { type OutputOptions, withOutputDefaults } from "./output-options";

/**
 * The fields of a record when `fields` is absent or empty: the docs' example set (the SDK's
 * `logpush_fields` example, the records of Cloudflare's Logpull examples), the same list a job
 * created without `output_options` gets.
 */
export const LOGPULL_DEFAULT_FIELDS: readonly string[] = HTTP_REQUESTS_DEFAULT_FIELDS;

/** Longest `end - start` (docs: 1 hour). */
const MAX_RANGE_MS = 3_600_000;

/** Query arguments of `logs/received` and of `logs/rayids/{ray_id}`. */
const RECEIVED_ARGS = ["start", "end", "fields", "count", "sample", "timestamps", "CVE-2021-44228"] as const;
export const RAYIDS_ARGS = ["fields", "timestamps", "CVE-2021-44228"] as const;

/** What a query asks: the window (ms, [from, to)), count, sample, and how to format each record. */
export interface LogpullQuery {
	from: number;
	to: number;
	/** Records at most; undefined: all. */
	count: number | undefined;
	sample: number;
	output: OutputOptions;
}

/** Outcome of parsing: the value, or the message of a 400. */
export type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };

const fail = (message: string): { ok: false; message: string } => ({ ok: false, message });
const timeError = (detail: string) => fail(`bad query: error parsing time: ${detail}`);

const RFC3339 = /^(\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$/;

/**
 * A Logpull time in ms since the epoch, rounded up (a bound at 1.5 ms admits records from 2 ms
 * on); undefined when it is none of unix seconds, unix nanoseconds or RFC 3339.
 */
export function parseLogpullTime(text: string): number | undefined {
	if (/^\d{1,19}$/.test(text)) {
		const n = BigInt(text);
		// 16 digits or more: nanoseconds (seconds that large are past the year 30 million).
		if (text.length >= 16) return Number((n + 999_999n) / 1_000_000n);
		return Number(n) * 1000;
	}
	const match = RFC3339.exec(text);
	if (match === null) return undefined;
	const [, base = "", fraction = "", zone = ""] = match;
	const seconds = Date.parse(`${base.toUpperCase()}${zone.toUpperCase()}`);
	if (Number.isNaN(seconds)) return undefined;
	const nanos = Number(fraction.padEnd(9, "0"));
	return seconds + Math.ceil(nanos / 1_000_000);
}

/** A duration as Go prints it (`168h0m0s`, `1m0s`), as Cloudflare's messages do. */
export function goDuration(ms: number): string {
	const seconds = Math.round(ms / 1000);
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = seconds % 60;
	return h > 0 ? `${h}h${m}m${s}s` : m > 0 ? `${m}m${s}s` : `${s}s`;
}

/** Refuses arguments outside `allowed`. */
export function checkArgs(args: Record<string, string>, allowed: readonly string[]): Parsed<null> {
	const unknown = Object.keys(args).filter((name) => !allowed.includes(name));
	if (unknown.length > 0)
		return fail(`bad query parameter: query arguments are limited to: ${allowed.join(",")} (got ${unknown.join(",")})`);
	return { ok: true, value: null };
}

/**
 * How to write records: `fields` (sorted, as Cloudflare's examples print them: the docs leave
 * the order unspecified), `timestamps`, `CVE-2021-44228`, as a log-push job's ndjson output.
 * @param known the dataset's field names.
 */
export function parseOutput(args: Record<string, string>, known: ReadonlySet<string>): Parsed<OutputOptions> {
	const fieldsArg = args.fields ?? "";
	let fields: string[] = [...LOGPULL_DEFAULT_FIELDS];
	if (fieldsArg !== "") {
		if (/\s/.test(fieldsArg)) return fail("bad query: fields must be a comma separated list without whitespace");
		const names = fieldsArg.split(",");
		const unknown = names.filter((name) => !known.has(name));
		if (unknown.length > 0) return fail(`bad query: unknown fields: ${unknown.join(",")}`);
		fields = [...new Set(names)].sort();
	}
	const timestamps = args.timestamps ?? "unixnano";
	if (timestamps !== "unixnano" && timestamps !== "unix" && timestamps !== "rfc3339")
		return fail(`bad query: timestamps must be one of unixnano, unix, rfc3339, not "${timestamps}"`);
	const cve = args["CVE-2021-44228"] ?? "false";
	if (cve !== "true" && cve !== "false") return fail(`bad query: CVE-2021-44228 must be true or false, not "${cve}"`);
	return {
		ok: true,
		value: withOutputDefaults({ field_names: fields, timestamp_format: timestamps, "CVE-2021-44228": cve === "true" }),
	};
}

/**
 * Parses and checks the query of `logs/received` at `now` (ms).
 * @param limits the retention window and how long before now `end` must be, both in ms.
 */
export function parseReceived(
	args: Record<string, string>,
	known: ReadonlySet<string>,
	now: number,
	limits: { retentionMs: number; minEndAgeMs: number },
): Parsed<LogpullQuery> {
	const checked = checkArgs(args, RECEIVED_ARGS);
	if (!checked.ok) return checked;
	if (args.start === undefined) return fail("bad query: start is required");
	if (args.end === undefined) return fail("bad query: end is required");
	const from = parseLogpullTime(args.start);
	if (from === undefined)
		return timeError(`start "${args.start}" is neither a unix timestamp (seconds or nanoseconds) nor RFC 3339`);
	const to = parseLogpullTime(args.end);
	if (to === undefined)
		return timeError(`end "${args.end}" is neither a unix timestamp (seconds or nanoseconds) nor RFC 3339`);
	if (to <= from) return timeError("invalid time range: end must be later than start");
	if (to - from > MAX_RANGE_MS) return timeError("invalid time range: too long");
	if (from < now - limits.retentionMs)
		return timeError(
			`invalid time range: too early: logs older than ${goDuration(limits.retentionMs)} are not available`,
		);
	if (to > now - limits.minEndAgeMs)
		return timeError(
			`invalid time range: too late: end must be at least ${goDuration(limits.minEndAgeMs)} earlier than now`,
		);
	let count: number | undefined;
	if (args.count !== undefined) {
		if (!/^\d+$/.test(args.count) || Number(args.count) < 1) return fail("bad query: count must be an integer > 0");
		count = Number(args.count);
	}
	let sample = 1;
	if (args.sample !== undefined) {
		sample = Number(args.sample);
		if (args.sample.trim() === "" || !(sample >= 0.001 && sample <= 1))
			return fail("bad query: sample must be a number from 0.001 to 1.0");
	}
	const output = parseOutput(args, known);
	if (!output.ok) return output;
	return { ok: true, value: { from, to, count, sample, output: output.value } };
}
