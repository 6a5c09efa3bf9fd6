/**
 * When the edge last asked a zone whether its configuration changed, per isolate.
 *
 * The edge keeps each zone's compiled rules by configuration version, and asks the zone's
 * Durable Object for a newer version at most every CONFIG_CHECK_INTERVAL_MS, so a request does
 * not wait on that call every time. The API forgets the check of a zone in its own isolate after
 * every write to it, so locally (one isolate) a rule applies to the very next request; a deployed
 * edge's other isolates apply it within CONFIG_CHECK_INTERVAL_MS.
 */

/** How long an isolate trusts the configuration version it last read for a zone, in ms. */
export const CONFIG_CHECK_INTERVAL_MS = 1_000;

const checkedAt = new Map<string, number>();

/** Whether the edge should ask the zone for a newer configuration at `now` (ms since the epoch). */
export function configCheckDue(zoneId: string, now: number): boolean {
	const last = checkedAt.get(zoneId);
	return last === undefined || now - last >= CONFIG_CHECK_INTERVAL_MS || now < last;
}

/** Records that the edge read the zone's configuration version at `now`. */
export function configChecked(zoneId: string, now: number): void {
	checkedAt.set(zoneId, now);
}

/** Makes the next request of this isolate ask the zone again: call after a write to the zone. */
export function forgetConfigCheck(zoneId: string): void {
	checkedAt.delete(zoneId);
}
