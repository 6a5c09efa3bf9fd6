/**
 * The zone's recent edge log, as the dashboard reads it: through Logpull (`GET /zones/{zone_id}/
 * logs/received`, ndjson; `src/api/logpull.ts`), which serves entries only while the zone's log
 * retention flag is on (`/logs/control/retention/flag`). Used by the Logpush page (recent entries)
 * and the Security page (the requests each rule matched).
 */
import type { Context } from "hono";
import { callApi, callApiText, messagesOf } from "./api-call";
import type { DashEnv } from "./types";

/** How far back the pages look: one hour, Logpull's longest window. */
const RECENT_WINDOW_MS = 3_600_000;

/** The recent records, oldest first; or that retention is off; or the API's errors. */
export type RecentLog =
	| { retention: true; records: Record<string, unknown>[] }
	| { retention: false }
	| { errors: string[] };

/**
 * The Logpull path of the window ending at `now` (ms): `[now - RECENT_WINDOW_MS, now + 1 ms)`, so
 * the request just made is in it; times in RFC 3339 with milliseconds; at most `count` records.
 */
export function recentQuery(zoneId: string, now: number, fields: readonly string[], count: number): string {
	const query = new URLSearchParams({
		start: new Date(now - RECENT_WINDOW_MS + 1).toISOString(),
		end: new Date(now).toISOString(),
		fields: fields.join(","),
		timestamps: "rfc3339",
		count: String(count),
	});
	return `/zones/${encodeURIComponent(zoneId)}/logs/received?${query}`;
}

/** The JSON objects of an ndjson body, in order; lines that are not JSON objects are skipped. */
export function ndjsonRecords(body: string): Record<string, unknown>[] {
	const records: Record<string, unknown>[] = [];
	for (const line of body.split("\n")) {
		if (line.trim() === "") continue;
		try {
			const parsed: unknown = JSON.parse(line);
			if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
				records.push(parsed as Record<string, unknown>);
		} catch {
			// Logpull writes only JSON lines; anything else is not a record.
		}
	}
	return records;
}

/** The zone's last hour of log records with `fields` (at most `count`), as the signed-in credential may read them. */
export async function readRecentLog(c: Context<DashEnv>, fields: readonly string[], count: number): Promise<RecentLog> {
	const credential = c.var.session.credential;
	const zoneId = c.var.zone.id;
	const flag = await callApi<{ flag: boolean }>(c, credential, "GET", `/zones/${zoneId}/logs/control/retention/flag`);
	if (!flag.ok) return { errors: messagesOf(flag.errors) };
	if (!flag.result.flag) return { retention: false };
	const logs = await callApiText(c, credential, recentQuery(zoneId, Date.now(), fields, count));
	if (!logs.ok) return { errors: messagesOf(logs.errors) };
	return { retention: true, records: ndjsonRecords(logs.text) };
}
