/**
 * One `http_requests` log entry as edgezone keeps it between the edge and a destination.
 *
 * Keys are the dataset's field names (docs `logs/logpush/logpush-job/datasets/zone/http_requests`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/datasets/zone/http_requests/); only fields with a local value are stored, the rest are filled
 * with their documented "absent" value when a job formats the entry (`absent.ts`). Timestamps
 * (`EdgeStartTimestamp`, `EdgeEndTimestamp`) are stored as milliseconds since the epoch and
 * written in the job's `timestamp_format` (`format.ts`).
 */

/** A field's value: JSON, with objects only for the custom fields (name -> value, or values for `ResponseFields`). */
export type LogValue =
	| string
	| number
	| boolean
	| readonly string[]
	| readonly number[]
	| Readonly<Record<string, string>>
	| Readonly<Record<string, readonly string[]>>;

/** One entry: field name -> value. */
export type LogEntry = Readonly<Record<string, LogValue>>;

/**
 * An entry as the edge hands it to the zone's pending log: serialized once, in the isolate, with
 * the columns the log keeps beside it (when the request was received, its Ray ID, and when the
 * edge logged it: Logpull's "received" time). A batch of rows crosses the RPC as strings and
 * numbers, and the zone stores the JSON as it comes.
 */
export type LogRow = readonly [receivedAt: number, rayId: string, json: string, loggedAt: number];

/**
 * The row of `entry`: `EdgeStartTimestamp` (`loggedAt` when it has none), `RayID`, its JSON, and
 * `loggedAt` (ms since the epoch).
 */
export function logRow(entry: LogEntry, loggedAt: number): LogRow {
	const at = entry.EdgeStartTimestamp;
	return [typeof at === "number" ? at : loggedAt, String(entry.RayID ?? ""), JSON.stringify(entry), loggedAt];
}

/** Fields stored as ms since the epoch and written in the job's `timestamp_format`. */
export const TIMESTAMP_FIELDS: ReadonlySet<string> = new Set(["EdgeStartTimestamp", "EdgeEndTimestamp"]);

/** The custom-field outputs (docs custom-fields, `custom-field-objects.ts`): objects of configured headers and cookies, and every value of `preserve_duplicates` headers. */
export const CUSTOM_FIELD_OUTPUTS = ["RequestHeaders", "ResponseHeaders", "Cookies", "ResponseFields"] as const;
