/**
 * Which zone serves a request: first the zone holding an active custom hostname that is the
 * request's host (`zone/custom-hostnames/routing.ts`), as Cloudflare for SaaS serves a custom
 * hostname from the SaaS provider's zone, even when the host lies inside another zone's name
 * (the customer's zone then only points its DNS at the SaaS zone; the O2O case, where both
 * zones' rules run, is not emulated). Else the zone whose name is the request's host or a parent
 * domain of it, the longest such name winning, as Cloudflare routes a hostname to the zone that
 * holds it (`shop.example.com` -> `example.com`). Any other host goes to the default zone
 * (`DEFAULT_ZONE_ID`), so `localhost` and bare IPs reach the bucket as they always have.
 * The names come from the isolate's copy (`zone/zone-names.ts`): how fast a new zone is
 * routed is said there.
 */
import { customHostnameZone } from "../zone/custom-hostnames/routing";
import type { ZoneName } from "../zone/registry";
import { customHostnameZones, zoneNames } from "../zone/zone-names";

/**
 * The zone of `host` (lower case, no port): the zone of its active custom hostname, else the
 * zone named `host` or its nearest parent domain; otherwise the default zone, named as the registry or, if it is gone, the vars say.
 * @param now the time of the request, in ms since the epoch.
 */
export async function zoneForHost(env: Env, host: string, now: number): Promise<ZoneName> {
	const names = await zoneNames(env, now);
	const saas = await customHostnameZone(env, host, await customHostnameZones(env, now), now);
	const saasZone = saas === undefined ? undefined : names.find((zone) => zone.id === saas);
	if (saasZone !== undefined) return saasZone;
	let best: ZoneName | undefined;
	for (const zone of names) {
		const holds = host === zone.name || host.endsWith(`.${zone.name}`);
		if (holds && zone.name.length > (best?.name.length ?? 0)) best = zone;
	}
	return (
		best ??
		names.find((zone) => zone.id === env.DEFAULT_ZONE_ID) ?? { id: env.DEFAULT_ZONE_ID, name: env.DEFAULT_ZONE_NAME }
	);
}
