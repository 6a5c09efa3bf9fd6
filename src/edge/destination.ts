/**
 * Where a request that passed the zone's rules goes, in Cloudflare's order: the first destination
 * that takes the request answers it. On Cloudflare a Worker on a matching route runs before the
 * request leaves for its origin (developers.cloudflare.com/workers/configuration/routing/routes/),
 * an R2 custom domain serves its bucket in place of an origin (developers.cloudflare.com/r2/
 * buckets/public-buckets/#custom-domains), and every other request of a proxied hostname goes to
 * its origin (developers.cloudflare.com/dns/proxy-status/). Then edgezone's own destinations.
 *
 * 1. The Worker of the most specific Workers route matching the URL, when that route names a
 *    script (`workers-route/`), reached through its service binding.
 * 2. A bucket served publicly on an R2 custom domain (`r2-domain/`). Its r2.dev URL is no zone's,
 *    answered before any zone's phases (`pipeline.ts`).
 * 3. The origin of a proxied record (`origin/`): the host is a proxied A, AAAA or CNAME record
 *    of its zone, its own or its wildcard's (`origin/records.ts`); or it is an active custom
 *    hostname (Cloudflare for SaaS), whose origin is its `custom_origin_server`, else the zone's
 *    fallback origin, each a record of the zone, reached with the customer's `Host`
 *    (developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/start/
 *    advanced-settings/custom-origin/). An origin name with no A, AAAA or CNAME record in the zone
 *    answers 530 error 1016 (developers.cloudflare.com/support/troubleshooting/http-status-codes/
 *    cloudflare-1xxx-errors/error-1016/). With neither a custom origin nor a fallback origin set,
 *    Cloudflare answers 1016 too ("fallback origin not set", same page); edgezone keeps its bucket
 *    gateway there, as for a name with no record (below), so custom hostnames made before any
 *    origin keep the answers they had.
 * 4. The bucket's S3 dialect, for SigV4/SigV2-signed requests and plain S3 clients (`s3/auth/detect.ts`).
 * 5. The bucket gateway's own dialect.
 * Gaps: an Origin Rule's `sni` and a custom hostname's `custom_origin_sni` are not applied: the
 * runtime's fetch sends the URL's host as the TLS server name and offers no way to set another
 * (the `Host` the origin should see goes in `X-Forwarded-Host`, `origin/headers.ts`).
 * A name with a DNS-only record, or with no record (the zone's apex before any record, `localhost`,
 * an IP), would not reach Cloudflare's edge at all: DNS would send the visitor to the record's
 * address, or nowhere. edgezone keeps its bucket gateway there (4 and 5), so the gateway and the
 * S3 dialect keep their addresses; proxy a record to put an origin behind its name.
 */
import type { EdgeRecord } from "../zone/dns-records";
import { gateway } from "./gateway/app";
import { countryOfCf, type Geo } from "./geo";
import { originAddress } from "./origin/address";
import { hasLooped, originRequestHeaders } from "./origin/headers";
import { failed, type OriginFacts, proxy } from "./origin/proxy";
import { addressRecordOf, recordIndex, resolveRecord } from "./origin/records";
import type { OriginRoute } from "./origin/route";
import { managedRequest } from "./phases/managed-transforms";
import { r2DomainAnswer } from "./r2-domain/public-answer";
import { s3 } from "./s3/app";
import { workersRoute } from "./workers-route/route";
import type { RoutedZone } from "./zone-routing";
import { derived, type ZoneView } from "./zone-view";

/** What the destinations know of a request that passed the zone's rules. */
export interface Routed {
	/** The request as the log tap passes it on. */
	request: Request;
	/** The visitor's URL. */
	url: URL;
	/** The URL as the origin is sent it (after URL normalization, `request-path.ts`). */
	originUrl: URL;
	zone: RoutedZone;
	/** The zone's configuration at its current version, with what was derived from it. */
	view: ZoneView;
	/** The script of the Workers route matching the visitor's URL (`workerScript`), read once by the pipeline. */
	workerScript: string | undefined;
	/** The record whose origin takes the host's requests (`originRecord`), read once by the pipeline. */
	originRecord: EdgeRecord | "unresolved" | undefined;
	/** The merged Origin Rules' `route` parameters; empty when none matched. */
	route: OriginRoute;
	speaksS3: boolean;
	rayId: string;
	/** The `CF-Ray` header value. */
	cfRay: string;
	/**
	 * The location the emulator's trusted geo headers set (`geo.ts`), present exactly when the edge
	 * read them (then none is passed on to an origin); undefined: `request.cf`'s, read only by a
	 * destination that needs it (a read parses the whole object).
	 */
	geo: Geo | undefined;
	/** When the edge received the request, in ms since the epoch. */
	receivedAt: number;
}

/** An answer, and what it tells of the origin when one was asked (for the log). */
export interface Destined {
	response: Response;
	origin?: OriginFacts;
}

/**
 * A destination: its answer, or undefined (at once, or once it has looked) when the request is
 * not its to answer.
 */
type Destination = (routed: Routed, env: Env) => Promise<Destined | undefined> | undefined;

/** The Worker of a matching Workers route (1 in the header). */
const workerOfRoute: Destination = (routed, env) =>
	routed.workerScript === undefined
		? undefined
		: workersRoute(routed.request, routed.originUrl, env, {
				script: routed.workerScript,
				geo: routed.geo,
				cfRay: routed.cfRay,
				scheme: routed.url.protocol.slice(0, -1),
				rayId: routed.rayId,
			});

/** A bucket's R2 custom domain (2 in the header). */
const r2CustomDomain: Destination = (routed, env) => {
	const answer = r2DomainAnswer(routed.request, routed.originUrl, env, routed.receivedAt);
	// A host that serves no bucket is known at once (the isolate's copy of the hosts): no promise.
	if (answer === undefined) return undefined;
	return Promise.resolve(answer).then((response) => (response === undefined ? undefined : { response }));
};

/**
 * The record whose origin answers the requests of `host` (3 in the header): its own proxied
 * record, or an active custom hostname's origin; "unresolved" for a custom hostname whose origin
 * names no record; undefined when no origin takes the host's requests.
 */
export function originRecord(zone: RoutedZone, view: ZoneView, host: string): EdgeRecord | "unresolved" | undefined {
	const records = derived(view, recordIndex);
	if (zone.customHostname !== undefined) {
		const { customOrigins, fallbackOrigin } = view.config.saasOrigins;
		const server = customOrigins[zone.customHostname]?.server ?? fallbackOrigin;
		// No origin set at all: the zone's bucket gateway, as for a name with no record (the header).
		if (server === undefined) return undefined;
		return addressRecordOf(server, records) ?? "unresolved";
	}
	const record = addressRecordOf(host, records);
	return record?.proxied === true ? record : undefined;
}

/** The origin of a proxied record or an active custom hostname (3 in the header). */
const proxiedOrigin: Destination = (routed, env) => {
	const record = routed.originRecord;
	if (record === undefined) return undefined;
	if (record === "unresolved") return Promise.resolve(failed("unresolved", routed.rayId, "", 0));
	return toOrigin(routed, env, record);
};

/** The visitor's country (ISO 3166-1 alpha-2), undefined when unknown: the geo headers', else `request.cf`'s. */
function visitorCountry({ geo, request }: Routed): string | undefined {
	return geo === undefined ? countryOfCf(request.cf) : geo.country;
}

/**
 * Sends a request to the origin of `record`, or of the Origin Rule's `origin.host`. Not an async
 * function: one returning the proxy's promise would resolve its own a microtask turn later.
 */
function toOrigin(routed: Routed, env: Env, record: EdgeRecord): Promise<Destined> {
	const { request, route, rayId, zone } = routed;
	const cdnLoop = request.headers.get("cdn-loop");
	if (hasLooped(cdnLoop)) return Promise.resolve(failed("loop", rayId, "", 0));
	// An Origin Rule's `origin.host` is resolved "like a DNS-only record": through the zone's records, or the world's DNS.
	const override = route.origin?.host?.toLowerCase();
	const records = derived(routed.view, recordIndex);
	const overrideRecord = override === undefined ? undefined : addressRecordOf(override, records);
	const host =
		override === undefined
			? resolveRecord(record, zone.name, records)
			: overrideRecord === undefined
				? override
				: resolveRecord(overrideRecord, zone.name, records);
	if (host === undefined) return Promise.resolve(failed("unresolved", rayId, "", 0));
	const address = originAddress(routed.originUrl, host, route.origin?.port, env.DEFAULT_ORIGIN_URL ?? "");
	if (address.kind === "unreachable") return Promise.resolve(failed("timeout", rayId, address.ip, 0));
	const managed = managedRequest(routed.view, routed.geo, request);
	const headers = originRequestHeaders(request.headers, {
		clientIp: request.headers.get("cf-connecting-ip") ?? "",
		scheme: routed.url.protocol.slice(0, -1),
		cfRay: routed.cfRay,
		// The visitor's country is read only when the zone sends it: `request.cf` is costly to read.
		// With the visitor location headers on, their country, which IP Geolocation would send too.
		ipCountry:
			managed?.location !== undefined
				? (managed.location.country ?? "XX")
				: routed.view.config.ipGeolocation
					? (visitorCountry(routed) ?? "XX")
					: null,
		host: route.host_header ?? routed.url.host,
		cdnLoop,
		geoHeadersRead: routed.geo !== undefined,
		managed,
	});
	return proxy(request, address, headers, env, rayId);
}

/** The bucket's S3 dialect (4). */
const s3Dialect: Destination = (routed, env) =>
	routed.speaksS3
		? s3(routed.request, routed.originUrl, env, routed.rayId).then((response) => ({ response }))
		: undefined;

/** The bucket gateway (5): every request left. */
const bucketGateway: Destination = (routed, env) =>
	gateway(routed.request, routed.originUrl, env).then((response) => ({ response }));

/** The destinations in Cloudflare's order (the header); each added destination is one entry. */
const DESTINATIONS: readonly Destination[] = [workerOfRoute, r2CustomDomain, proxiedOrigin, s3Dialect, bucketGateway];

/**
 * The answer of the first destination that takes `routed` (the bucket gateway takes every one),
 * from the `from`-th on. Not an async function: a destination that declines at once is not
 * awaited, and the taker's promise is handed on with one continuation, for one that may still
 * decline once it has looked.
 */
export function destination(routed: Routed, env: Env, from = 0): Promise<Destined> {
	for (let index = from; index < DESTINATIONS.length; index++) {
		const taken = (DESTINATIONS[index] as Destination)(routed, env);
		if (taken !== undefined) return taken.then((answer) => answer ?? destination(routed, env, index + 1));
	}
	return Promise.reject(new Error("no destination took the request; the bucket gateway takes every one"));
}
