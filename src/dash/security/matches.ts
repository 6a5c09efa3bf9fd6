/**
 * The recent requests each firewall rule or WAF custom rule matched, read from the zone's edge
 * log through Logpull (`GET /zones/{zone_id}/logs/received`, ndjson, `src/api/logpull.ts`).
 * Pure: the Logpull query of a window, and the records grouped by rule.
 *
 * A record names every rule that matched in `FirewallMatchesRuleIDs`, with the action of each at
 * the same index of `FirewallMatchesActions` (`src/edge/log-entry.ts`); `SecurityAction` is what
 * the edge finally did.
 */

/** The fields the Security page asks Logpull for. */
export const MATCH_FIELDS = [
	"RayID",
	"ClientRequestPath",
	"ClientIP",
	"EdgeStartTimestamp",
	"FirewallMatchesRuleIDs",
	"FirewallMatchesActions",
	"SecurityAction",
] as const;

/** How far back the page looks: one hour, Logpull's longest window. */
export const MATCH_WINDOW_MS = 3_600_000;

/** Records read at most per page view, so a busy zone's hour stays a bounded read. */
export const MATCH_READ_LIMIT = 5000;

/** Matches shown per rule, newest first. */
export const MATCHES_SHOWN = 5;

/** One request a rule matched. */
export interface RuleMatch {
	rayId: string;
	path: string;
	clientIp: string;
	/** When the edge started on it, RFC 3339 (the query asks `timestamps=rfc3339`). */
	time: string;
	/** The rule's action on it, in the logs' spelling (block, jschallenge, log, ...). */
	action: string;
	/** What the edge did in the end (SecurityAction), "" when nothing. */
	securityAction: string;
}

/** The matches of one rule in the window: how many, and the newest few. */
export interface RuleMatches {
	count: number;
	recent: RuleMatch[];
}

/**
 * The Logpull path of the window ending at `now` (ms): `[now - MATCH_WINDOW_MS, now + 1ms)` so
 * the request just made is in it, in RFC 3339 with milliseconds.
 */
export function matchesQuery(zoneId: string, now: number): string {
	const query = new URLSearchParams({
		start: new Date(now - MATCH_WINDOW_MS + 1).toISOString(),
		end: new Date(now).toISOString(),
		fields: MATCH_FIELDS.join(","),
		timestamps: "rfc3339",
		count: String(MATCH_READ_LIMIT),
	});
	return `/zones/${encodeURIComponent(zoneId)}/logs/received?${query}`;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
const strings = (value: unknown) => (Array.isArray(value) ? value.map(text) : []);

/**
 * Groups the ndjson records of `body` by the rule ids they matched: each rule's count and its
 * newest `MATCHES_SHOWN` matches. Records arrive oldest first; lines that are not JSON objects
 * are skipped (Logpull writes none).
 */
export function matchesByRule(body: string): Map<string, RuleMatches> {
	const byRule = new Map<string, RuleMatches>();
	for (const line of body.split("\n")) {
		if (line.trim() === "") continue;
		let record: Record<string, unknown>;
		try {
			const parsed: unknown = JSON.parse(line);
			if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) continue;
			record = parsed as Record<string, unknown>;
		} catch {
			continue;
		}
		const ids = strings(record.FirewallMatchesRuleIDs);
		const actions = strings(record.FirewallMatchesActions);
		for (const [index, id] of ids.entries()) {
			const entry = byRule.get(id) ?? { count: 0, recent: [] };
			entry.count++;
			entry.recent.unshift({
				rayId: text(record.RayID),
				path: text(record.ClientRequestPath),
				clientIp: text(record.ClientIP),
				time: text(record.EdgeStartTimestamp),
				action: actions[index] ?? "",
				securityAction: text(record.SecurityAction),
			});
			if (entry.recent.length > MATCHES_SHOWN) entry.recent.pop();
			byRule.set(id, entry);
		}
	}
	return byRule;
}
