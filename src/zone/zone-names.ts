/**
 * The isolate's copy of every zone's id and name, which the edge routes requests by.
 *
 * Read from the one `ZoneRegistry` at most every ZONE_NAMES_TTL_MS per isolate, so the
 * registry is not on every request's path. The API forgets the copy in its own isolate when
 * a zone is created or deleted, so locally (one isolate) a change is seen by the very next
 * request; a deployed edge's other isolates see it within ZONE_NAMES_TTL_MS.
 */
import { zoneRegistry } from "./addressing";
import type { ZoneName } from "./registry";

/** How long an isolate keeps the zone names, in ms. */
export const ZONE_NAMES_TTL_MS = 10_000;

let cached: { names: ZoneName[]; loadedAt: number } | undefined;

/** Every zone's id and name, from the isolate's copy while it is fresh at `now` (ms since the epoch). */
export async function zoneNames(env: Env, now: number): Promise<ZoneName[]> {
	if (cached === undefined || now - cached.loadedAt >= ZONE_NAMES_TTL_MS || now < cached.loadedAt) {
		cached = { names: await zoneRegistry(env).zoneNames(), loadedAt: now };
	}
	return cached.names;
}

/** Drops the isolate's copy: the next request reads the registry again. Call after a zone is created or deleted. */
export function forgetZoneNames(): void {
	cached = undefined;
}
