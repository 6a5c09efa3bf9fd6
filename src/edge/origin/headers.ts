/**
 * The headers between the edge and the origin (pure), as Cloudflare's proxy sets them
 * (developers.cloudflare.com/fundamentals/reference/http-headers/):
 *
 * Toward the origin, "Cloudflare passes all HTTP request headers to your origin web server and
 * adds additional headers": `CF-Connecting-IP` (the visitor's IP), `X-Forwarded-For` (that IP, or
 * appended to the one the visitor sent), `X-Forwarded-Proto` (the visitor's scheme), `CF-Ray`,
 * `CF-Visitor` (`{"scheme":"https"}`), `CF-IPCountry` (ISO 3166-1 alpha-2, `XX` when unknown;
 * while the zone's "IP Geolocation" setting is on, as it is by default: `zone/zone-settings.ts`)
 * and `CDN-Loop: cloudflare`, appended to what the request carried (RFC 8586 §2). With the
 * setting off, a `CF-IPCountry` the visitor sent is removed too (edgezone's choice: an origin
 * that reads the header never gets one the edge did not set).
 * Hop-by-hop headers are removed (RFC 9110 §7.6.1: `Connection` and the headers it names,
 * `Keep-Alive`, `Proxy-Connection`, `TE`, `Transfer-Encoding`, `Upgrade`), except `Upgrade:
 * websocket` with its `Connection: upgrade`, which the runtime's fetch needs to pass a WebSocket
 * through. The emulator's own `X-Edgezone-Geo-*` headers (`geo.ts`), where the deployment trusts
 * them, are read by the edge and not passed on.
 *
 * From the origin: `X-Accel-Buffering`, `X-Accel-Charset`, `X-Accel-Limit-Rate` and
 * `X-Accel-Redirect` are removed (same page); the runtime frames the answer itself.
 *
 * Gaps: workerd's fetch sends the URL's host as `Host` whatever the Worker asks, so the origin
 * sees the address it is reached at, and the `Host` Cloudflare would send (the visitor's, or an
 * Origin Rule's `host_header`) in `X-Forwarded-Host`; workerd drops `CF-Connecting-IP` from a
 * Worker's fetch, so the origin reads the visitor's IP in `X-Forwarded-For`; `Accept-Encoding`
 * is passed as the visitor sent it (Cloudflare asks origins for `br, gzip`); workerd adds its own
 * `CF-Worker` header.
 *
 * The zone's Managed Transforms toward the origin, when one is on, change these headers as
 * `phases/managed-transforms.ts` says: the visitor's location headers, `True-Client-IP`, or the
 * visitor's IP headers removed.
 */
import { GEO_HEADER_PREFIX } from "../geo";
import { asciiHeaderValue, LOCATION_HEADERS, type ManagedRequest } from "../phases/managed-transforms";

/** What the edge knows of the request to add toward the origin. */
export interface ForwardFacts {
	/** The visitor's IP (`CF-Connecting-IP` as received), "" when unknown. */
	clientIp: string;
	/** "http" or "https". */
	scheme: string;
	/** The `CF-Ray` header value. */
	cfRay: string;
	/** `CF-IPCountry`'s value (ISO 3166-1 alpha-2, `XX` when unknown); null when the zone's IP Geolocation is off. */
	ipCountry: string | null;
	/** The `Host` Cloudflare would send. */
	host: string;
	/** The request's `CDN-Loop`, null when it has none (read once: `hasLooped` reads it too). */
	cdnLoop: string | null;
	/** Whether the edge read the request's emulator geo headers (`geo.ts`, where trusted): then none is passed on. */
	geoHeadersRead: boolean;
	/** What the zone's Managed Transforms ask; absent when none is on. */
	managed?: ManagedRequest | undefined;
}

const LOCATION_NAMES: ReadonlySet<string> = new Set(LOCATION_HEADERS.map(([name]) => name));

const HOP_BY_HOP: ReadonlySet<string> = new Set([
	"connection",
	"keep-alive",
	"proxy-connection",
	"te",
	"transfer-encoding",
	"upgrade",
	"trailer",
]);

/**
 * The request headers sent to the origin. Every header read or written crosses from JavaScript to
 * the runtime, and looking up or removing a name the request does not have costs as much as one it
 * has, so one pass over the request's names decides what to read and remove: a request without
 * hop-by-hop headers pays for none of their removals (BENCHMARKS.md, "Proxied origins").
 */
export function originRequestHeaders(incoming: Headers, facts: ForwardFacts): Headers {
	const headers = new Headers(incoming);
	let websocket = false;
	let forwardedFor: string | null = null;
	const managed = facts.managed;
	const location = managed?.location;
	for (const name of incoming.keys()) {
		if (HOP_BY_HOP.has(name)) {
			headers.delete(name);
			if (name === "upgrade") websocket = incoming.get(name)?.toLowerCase() === "websocket";
			else if (name === "connection") {
				for (const token of (incoming.get(name) ?? "").split(",")) {
					const named = token.trim().toLowerCase();
					if (named !== "") headers.delete(named);
				}
			}
		} else if (name === "x-forwarded-for") forwardedFor = incoming.get(name);
		else if (facts.geoHeadersRead && name.startsWith(GEO_HEADER_PREFIX)) headers.delete(name);
		else if (name === "cf-ipcountry" && facts.ipCountry === null) headers.delete(name);
		else if (location !== undefined && LOCATION_NAMES.has(name)) headers.delete(name);
	}
	if (websocket) {
		headers.set("upgrade", "websocket");
		headers.set("connection", "Upgrade");
	}
	if (managed?.removeVisitorIp === true) {
		headers.delete("cf-connecting-ip");
		headers.delete("true-client-ip");
		// The last proxy's address is the one that connected: a visitor's own list is dropped.
		if (facts.clientIp !== "") headers.set("x-forwarded-for", facts.clientIp);
	} else if (facts.clientIp !== "") {
		headers.set("cf-connecting-ip", facts.clientIp);
		headers.set("x-forwarded-for", forwardedFor === null ? facts.clientIp : `${forwardedFor}, ${facts.clientIp}`);
		if (managed?.trueClientIp === true) headers.set("true-client-ip", facts.clientIp);
	}
	headers.set("x-forwarded-proto", facts.scheme);
	headers.set("x-forwarded-host", facts.host);
	headers.set("cf-ray", facts.cfRay);
	// The scheme is "http" or "https": nothing in it needs JSON's escaping.
	headers.set("cf-visitor", `{"scheme":"${facts.scheme}"}`);
	if (facts.ipCountry !== null) headers.set("cf-ipcountry", facts.ipCountry);
	if (location !== undefined) {
		for (const [name, field] of LOCATION_HEADERS) {
			const value = location[field];
			if (value !== undefined) headers.set(name, asciiHeaderValue(value));
		}
	}
	headers.set("cdn-loop", facts.cdnLoop === null ? "cloudflare" : `${facts.cdnLoop}, cloudflare`);
	return headers;
}

/**
 * Whether the request already passed Cloudflare's edge: its `CDN-Loop` (the header's value, null
 * when absent) names `cloudflare` (RFC 8586 §2).
 */
export function hasLooped(cdnLoop: string | null): boolean {
	if (cdnLoop === null) return false;
	return cdnLoop.split(",").some((entry) => entry.split(";")[0]?.trim().toLowerCase() === "cloudflare");
}

/** The origin's response headers the visitor does not get (the file header). */
const ORIGIN_ONLY = ["x-accel-buffering", "x-accel-charset", "x-accel-limit-rate", "x-accel-redirect"];

/** Removes from an answer's (mutable) headers what the visitor does not get of the origin's. */
export function dropOriginOnlyHeaders(headers: Headers): void {
	for (const name of ORIGIN_ONLY) headers.delete(name);
}
