/**
 * The recent requests each firewall rule or WAF custom rule matched, from the zone's edge log as
 * `recent-log.ts` reads it through Logpull. Pure: the records grouped by rule.
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

/** Records read at most per page view, so a busy zone's hour stays a bounded read. */
export const MATCH_READ_LIMIT = 5000;

/** Matches shown per rule, newest first. */
export const MATCHES_SHOWN = 5;

/** One request a rule matched. */
interface RuleMatch {
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

const text = (value: unknown) => (typeof value === "string" ? value : "");
const strings = (value: unknown) => (Array.isArray(value) ? value.map(text) : []);

/**
 * Groups Logpull's records (oldest first, `recent-log.ts`) by the rule ids they matched: each
 * rule's count and its newest `MATCHES_SHOWN` matches.
 */
export function matchesByRule(records: readonly Record<string, unknown>[]): Map<string, RuleMatches> {
	const byRule = new Map<string, RuleMatches>();
	for (const record of records) {
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
