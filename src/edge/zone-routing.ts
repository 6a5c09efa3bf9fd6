/**
 * Which zone serves a request, by its host:
 *
 * 1. The zone whose name is the host or its nearest parent domain, the longest such name winning,
 *    as Cloudflare routes a hostname to the zone that holds it (`shop.example.com` ->
 *    `example.com`). A zone's own names are its own: no other zone's custom hostname takes them.
 *    - A wildcard custom hostname gives way to a zone holding the host "even if there is no DNS
 *      record for this standalone zone hostname" (developers.cloudflare.com/support/
 *      troubleshooting/http-status-codes/cloudflare-1xxx-errors/error-1016/, "Error 1016 in the
 *      context of SSL for SaaS"; developers.cloudflare.com/ssl/reference/
 *      certificate-and-hostname-priority/#hostname-priority: for a wildcard match, the zone's DNS
 *      comes before a custom hostname).
 *    - An exact custom hostname comes before the zone's DNS there, but for a hostname already on
 *      Cloudflare, TXT or HTTP ownership validation "will not shift the traffic to the SaaS zone.
 *      That will only happen once the DNS target of the custom hostnames changes to point to the
 *      SaaS zone" (developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/
 *      domain-support/hostname-validation/). The simulated DNS holds no CNAME records, so on
 *      edgezone the DNS target of a zone's name never points elsewhere, and the zone keeps it.
 *      Gap: the O2O case (a customer zone pointing its name at a SaaS zone) is not emulated.
 * 2. Else the zone holding an active custom hostname that is the host, or a `*.x` one when the
 *    host is one label under `x` (`custom-hostname-routing.ts`): Cloudflare for SaaS serves a
 *    custom hostname from the SaaS provider's zone.
 * 3. Else the default zone (`DEFAULT_ZONE_ID`), so `localhost` and bare IPs reach the bucket as
 *    they always have.
 * The names come from the isolate's copy (`zone-names.ts`): how fast a new zone is
 * routed is said there.
 */

import { andThen, type MaybePromise } from "../common/maybe-promise";
import type { ZoneName } from "../zone/registry";
import { customHostnameRoute } from "./custom-hostname-routing";
import { holdingZone, type Routes, routes } from "./zone-names";

/** The zone serving a request, and the active custom hostname it was routed by, if any. */
export interface RoutedZone extends ZoneName {
	/** The custom hostname (the host, or the `*.` wildcard covering it) when step 2 routed the request. */
	customHostname?: string;
}

/**
 * The zone of `host` (lower case, no port): the zone whose name is `host` or its nearest parent
 * domain; else the zone of its active custom hostname; otherwise the default zone, named as the
 * registry or, if it is gone, the vars say.
 * @param now the time of the request, in ms since the epoch.
 */
export function zoneForHost(env: Env, host: string, now: number): MaybePromise<RoutedZone> {
	return andThen(routes(env, now), (known) => zoneIn(env, host, known, now));
}

/** `zoneForHost` over the isolate's copy of the names: at once unless a custom hostname's zone must be asked. */
function zoneIn(env: Env, host: string, { names, customHostnames }: Routes, now: number): MaybePromise<RoutedZone> {
	const holder = holdingZone(host, names);
	if (holder !== undefined) return holder;
	const byDefault = () =>
		names.find((zone) => zone.id === env.DEFAULT_ZONE_ID) ?? { id: env.DEFAULT_ZONE_ID, name: env.DEFAULT_ZONE_NAME };
	if (customHostnames.size === 0) return byDefault();
	return customHostnameRoute(env, host, customHostnames, now).then((saas) => {
		const saasZone = saas === undefined ? undefined : names.find((zone) => zone.id === saas.zoneId);
		return saas !== undefined && saasZone !== undefined ? { ...saasZone, customHostname: saas.hostname } : byDefault();
	});
}
