/**
 * The isolate's copy of every zone's id and name, and of which zone holds each custom hostname,
 * which the edge routes requests by.
 *
 * Read from the one `ZoneRegistry` at most every ZONE_NAMES_TTL_MS per isolate, so the
 * registry is not on every request's path. The API forgets the copy in its own isolate when
 * a zone or a custom hostname is created or deleted, so locally (one isolate) a change is seen
 * by the very next request; a deployed edge's other isolates see it within ZONE_NAMES_TTL_MS.
 */
import { zoneRegistry } from "../common/durable-objects";
import type { MaybePromise } from "../common/maybe-promise";
import type { ZoneName } from "../zone/registry";
import { VersionedCache } from "./versioned-cache";

/** How long an isolate keeps the zone names, in ms. */
export const ZONE_NAMES_TTL_MS = 10_000;

/** What the edge routes requests by. */
export interface Routes {
	names: ZoneName[];
	/** Custom hostname -> id of the zone holding it. */
	customHostnames: Map<string, string>;
}

/** The one entry: the names are the whole Worker's, not a zone's. */
const KEY = "routes";
const cache = new VersionedCache<Routes>(ZONE_NAMES_TTL_MS);

/** The names and custom hostnames, at once from the isolate's copy while it is fresh at `now` (ms since the epoch). */
export function routes(env: Env, now: number): MaybePromise<Routes> {
	return cache.read(KEY, now, async () => {
		const loaded = await zoneRegistry(env).edgeRoutes();
		const customHostnames = new Map(loaded.customHostnames.map((route) => [route.hostname, route.zone_id]));
		// The registry keeps no version of its list: every read takes it whole.
		return { version: 0, value: { names: loaded.zones, customHostnames } };
	});
}

/** Every zone's id and name, from the isolate's copy while it is fresh at `now` (ms since the epoch). */
export async function zoneNames(env: Env, now: number): Promise<ZoneName[]> {
	return (await routes(env, now)).names;
}

/** Which zone holds each custom hostname (active or not), from the same copy. */
export async function customHostnameZones(env: Env, now: number): Promise<ReadonlyMap<string, string>> {
	return (await routes(env, now)).customHostnames;
}

/**
 * Expires the isolate's copy: the next request reads the registry again. Call after a zone or a
 * custom hostname is created or deleted.
 */
export function forgetZoneNames(): void {
	cache.expire(KEY);
}

const DOT = ".".charCodeAt(0);

/**
 * The zone that holds `name` (lower case, no trailing dot): the zone whose name is `name` or its
 * nearest parent domain, the longest such name winning (`cdn.eu.shop.test` -> `eu.shop.test`
 * over `shop.test`), as DNS delegates a subtree to the zone below the cut (RFC 1034 §4.2); or
 * undefined when no zone's name holds it. Linear in the number of zones.
 */
export function holdingZone(name: string, zones: readonly ZoneName[]): ZoneName | undefined {
	let best: ZoneName | undefined;
	for (const zone of zones) {
		// The dot is read where it must stand rather than joined to the name: no string made per zone per request.
		const holds =
			name === zone.name || (name.endsWith(zone.name) && name.charCodeAt(name.length - zone.name.length - 1) === DOT);
		if (holds && zone.name.length > (best?.name.length ?? 0)) best = zone;
	}
	return best;
}
