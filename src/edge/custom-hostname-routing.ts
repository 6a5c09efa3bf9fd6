/**
 * Which zone serves a request by its custom hostname (Cloudflare for SaaS): the zone holding an
 * active custom hostname equal to the request's host, or else a wildcard custom hostname `*.x`
 * when the host is one label under `x` (what a `*.x` certificate covers, RFC 6125 §6.4.3). The
 * edge asks only for hosts that no zone holds by name: a zone's own names are its own
 * (`zone-routing.ts` says why, after Cloudflare's hostname priority).
 *
 * Which zone holds each custom hostname comes from the registry with the zone names
 * (`zone-names.ts`, at most every ZONE_NAMES_TTL_MS). Whether it is active, which depends on the
 * zone's clock and simulated DNS, is asked of that zone only, by configuration version, at most
 * every CONFIG_CHECK_INTERVAL_MS per isolate, and at once after the API wrote custom hostnames or
 * the DNS in this isolate (`forgetActiveHostnames`). So no single object sits on every request's
 * path, and a host that names no custom hostname costs two map lookups.
 */
import { zoneState } from "../common/durable-objects";
import { CONFIG_CHECK_INTERVAL_MS } from "./config-checks";
import { VersionedCache } from "./versioned-cache";

/** Per zone id: its active custom hostnames at a configuration version. */
const activeHostnames = new VersionedCache<ReadonlySet<string>>(CONFIG_CHECK_INTERVAL_MS);

/** The custom hostnames `host` may be, most specific first: itself, then `*.` its parent. */
function candidates(host: string): string[] {
	const dot = host.indexOf(".");
	return dot < 0 ? [host] : [host, `*.${host.slice(dot + 1)}`];
}

/** Whether `hostname` is an active custom hostname of `zoneId` as of `now` (ms, real time). */
async function isActive(env: Env, zoneId: string, hostname: string, now: number): Promise<boolean> {
	const active = await activeHostnames.get(zoneId, now, async (held) => {
		const changed = await zoneState(env, zoneId).edgeHostnamesIfChanged(held?.version ?? -1);
		if (changed === null && held !== undefined) return held;
		return { version: changed?.version ?? -1, value: new Set(changed?.active ?? []) };
	});
	return active.has(hostname);
}

/**
 * The active custom hostname `host` is (itself or the `*.` wildcard covering it) and the id of the
 * zone holding it, or undefined.
 * @param routes custom hostname -> zone id, from `customHostnameZones`.
 */
export async function customHostnameRoute(
	env: Env,
	host: string,
	routes: ReadonlyMap<string, string>,
	now: number,
): Promise<{ zoneId: string; hostname: string } | undefined> {
	if (routes.size === 0) return undefined;
	for (const hostname of candidates(host)) {
		const zoneId = routes.get(hostname);
		if (zoneId !== undefined && (await isActive(env, zoneId, hostname, now))) return { zoneId, hostname };
	}
	return undefined;
}

/** The id of the zone whose active custom hostname `host` is, or undefined (`customHostnameRoute`). */
export async function customHostnameZone(
	env: Env,
	host: string,
	routes: ReadonlyMap<string, string>,
	now: number,
): Promise<string | undefined> {
	return (await customHostnameRoute(env, host, routes, now))?.zoneId;
}

/** Makes the next request of this isolate ask `zoneId` again: call after writing its hostnames or DNS. */
export function forgetActiveHostnames(zoneId: string): void {
	activeHostnames.expire(zoneId);
}
