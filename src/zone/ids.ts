/** Identifiers and timestamps in the formats of Cloudflare's API. */

/** A random 32 lower-case hex id, the format of zone, ruleset and rule ids (reference §3.2). */
export function randomHexId(): string {
	const bytes = crypto.getRandomValues(new Uint8Array(16));
	return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * An RFC 3339 UTC timestamp with microseconds, as rulesets show (`2021-03-17T15:42:37.917815Z`).
 * JavaScript clocks have millisecond precision, so the last three digits are zero.
 */
export function timestamp(date: Date): string {
	return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
