/**
 * The `request.cf` a route's Worker sees: what Cloudflare's edge knows of the request
 * (developers.cloudflare.com/workers/runtime-apis/request/, "The cf property": `colo`,
 * `httpProtocol`, `tlsVersion`, `clientTcpRtt`, the location, ...), which locally is the runtime's
 * own `request.cf` (wrangler's placeholder, `geo.ts`), with the location the emulator's geo
 * headers set in place of the placeholder's when the deployment trusts them (`geo.ts`). A request
 * that sends them describes its whole location, so the location properties it does not send are
 * absent, as in the rules and the log. The object travels with the request through the service
 * binding: workerd serializes the `cf` of a Request given to `Fetcher.fetch` and the callee
 * builds `request.cf` from it (github.com/cloudflare/workerd `src/workerd/api/http.c++`,
 * `Request::serializeCfBlobJson`; `src/workerd/api/global-scope.c++`).
 */
import type { Geo } from "../geo";

/** `request.cf`'s location properties and the `Geo` value each comes from (geo.ts, `geoOfCf`). */
const LOCATION = {
	country: (g: Geo) => g.country,
	continent: (g: Geo) => g.continent,
	asn: (g: Geo) => g.asn,
	city: (g: Geo) => g.city,
	region: (g: Geo) => g.region,
	regionCode: (g: Geo) => g.regionCode,
	postalCode: (g: Geo) => g.postalCode,
	metroCode: (g: Geo) => g.metroCode,
	latitude: (g: Geo) => g.latitude,
	longitude: (g: Geo) => g.longitude,
	timezone: (g: Geo) => g.timezone,
	// workers-types: "1" in the EU, omitted otherwise.
	isEUCountry: (g: Geo) => (g.inEuropeanUnion === true ? "1" : undefined),
} as const;

/**
 * The `cf` for the Worker: a copy of `incoming` (the runtime's `request.cf`, possibly undefined)
 * with the location of `geo` when the request set one.
 */
export function workerCf(incoming: unknown, geo: Geo | undefined): Record<string, unknown> {
	const cf: Record<string, unknown> = typeof incoming === "object" && incoming !== null ? { ...incoming } : {};
	if (geo === undefined) return cf;
	for (const [name, of] of Object.entries(LOCATION)) {
		const value = of(geo);
		if (value === undefined) delete cf[name];
		else cf[name] = value;
	}
	return cf;
}
