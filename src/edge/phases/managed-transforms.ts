/**
 * The zone's Managed Transforms at the edge (developers.cloudflare.com/rules/transform/
 * managed-transforms/reference/; which are on: `zone/managed-transforms.ts`). Cloudflare runs them
 * between the request phases and `http_request_late_transform`, and between `http_custom_errors`
 * and `http_response_headers_transform` (developers.cloudflare.com/ruleset-engine/reference/
 * phases-list/), so a response header rule sees, and may change, what they did.
 *
 * Toward the origin (applied where the origin's headers are made, `origin/headers.ts`):
 * - `add_visitor_location_headers`: `cf-ipcity`, `cf-ipcountry`, `cf-ipcontinent`,
 *   `cf-iplongitude`, `cf-iplatitude`, `cf-region`, `cf-region-code`, `cf-metro-code`,
 *   `cf-postal-code`, `cf-timezone`, each the visitor's value of the field the docs name
 *   (`ip.src.city`, ..., `ip.src.timezone.name`), and
 *   sent only when known; non-ASCII characters as their UTF-8 bytes, `\u00XX` each ("São Paulo" is
 *   `S\u00c3\u00a3o Paulo`, the docs' example). Headers of these names the visitor sent are not
 *   passed on (edgezone's choice, as for `CF-IPCountry`).
 * - `add_true_client_ip_headers`: `true-client-ip`, the visitor's IP.
 * - `remove_visitor_ip_headers`: no `cf-connecting-ip` and no `true-client-ip`; `x-forwarded-for`
 *   keeps only the last proxy's address when the request came through another proxy, which is the
 *   address that connected to the edge, so in every case it holds that one address.
 * On the answer (a response phase, `order.ts`): `remove_x-powered-by_header` removes
 * `x-powered-by`; `add_security_headers` adds `x-content-type-options: nosniff`,
 * `x-xss-protection: 1; mode=block`, `x-frame-options: SAMEORIGIN`, `referrer-policy:
 * same-origin` and `expect-ct: max-age=86400, enforce`, appended beside any the answer has (the
 * docs say "adds", the word of a header rule's `add`).
 *
 * Gaps: the transforms toward the origin reach a proxied origin, not a Worker of a Workers route
 * nor the bucket.
 */
import type { EdgeConfig } from "../../zone/edge-config";
import { type Geo, geoOfCf } from "../geo";
import { derived, type ZoneView } from "../zone-view";
import type { PhaseState } from "./state";

/** What the zone's Managed Transforms ask of one request toward the origin; undefined when none is on. */
export interface ManagedRequest {
	/** The visitor's location, for `add_visitor_location_headers`; undefined when that one is off. */
	readonly location: Geo | undefined;
	readonly trueClientIp: boolean;
	readonly removeVisitorIp: boolean;
}

/** The transforms that are on, as the edge applies them: derived once per configuration version. */
interface Switches {
	readonly visitorLocation: boolean;
	readonly trueClientIp: boolean;
	readonly removeVisitorIp: boolean;
	readonly removeXPoweredBy: boolean;
	readonly securityHeaders: boolean;
	readonly anyOnResponse: boolean;
}

function switchesOf({ managedTransforms }: EdgeConfig): Switches {
	const on = new Set(managedTransforms);
	const removeXPoweredBy = on.has("remove_x-powered-by_header");
	const securityHeaders = on.has("add_security_headers");
	return {
		visitorLocation: on.has("add_visitor_location_headers"),
		trueClientIp: on.has("add_true_client_ip_headers"),
		removeVisitorIp: on.has("remove_visitor_ip_headers"),
		removeXPoweredBy,
		securityHeaders,
		anyOnResponse: removeXPoweredBy || securityHeaders,
	};
}

/**
 * What the zone's Managed Transforms ask of `request` toward the origin, or undefined when none
 * is on. The visitor's location is `geo` (the trusted geo headers', `geo.ts`), else `request.cf`'s,
 * read only when `add_visitor_location_headers` is on.
 */
export function managedRequest(view: ZoneView, geo: Geo | undefined, request: Request): ManagedRequest | undefined {
	const on = derived(view, switchesOf);
	if (!on.visitorLocation && !on.trueClientIp && !on.removeVisitorIp) return undefined;
	return {
		location: on.visitorLocation ? (geo ?? geoOfCf(request.cf)) : undefined,
		trueClientIp: on.trueClientIp,
		removeVisitorIp: on.removeVisitorIp,
	};
}

/**
 * The location headers' names and the `Geo` value each holds, in the docs' order, but for
 * `cf-ipcountry`, which the origin's headers set as IP Geolocation does (`origin/headers.ts`).
 */
export const LOCATION_HEADERS: readonly (readonly [string, Exclude<keyof Geo, "asn" | "inEuropeanUnion">])[] = [
	["cf-ipcity", "city"],
	["cf-ipcontinent", "continent"],
	["cf-iplongitude", "longitude"],
	["cf-iplatitude", "latitude"],
	["cf-region", "region"],
	["cf-region-code", "regionCode"],
	["cf-metro-code", "metroCode"],
	["cf-postal-code", "postalCode"],
	["cf-timezone", "timezone"],
];

const UTF8 = new TextEncoder();

/** `text` with every character outside printable ASCII as its UTF-8 bytes, `\u00XX` each (module header). */
export function asciiHeaderValue(text: string): string {
	if (/^[\x20-\x7e]*$/.test(text)) return text;
	let out = "";
	for (const char of text) {
		const code = char.codePointAt(0) ?? 0;
		if (code >= 0x20 && code <= 0x7e) out += char;
		else for (const byte of UTF8.encode(char)) out += `\\u00${byte.toString(16).padStart(2, "0")}`;
	}
	return out;
}

const SECURITY_HEADERS: readonly (readonly [string, string])[] = [
	["x-content-type-options", "nosniff"],
	["x-xss-protection", "1; mode=block"],
	["x-frame-options", "SAMEORIGIN"],
	["referrer-policy", "same-origin"],
	["expect-ct", "max-age=86400, enforce"],
];

/** The response's Managed Transforms (module header), on the answer's own headers. */
export function managedResponseHeaders(state: PhaseState, response: Response): Response {
	const on = derived(state.view, switchesOf);
	if (!on.anyOnResponse) return response;
	if (on.removeXPoweredBy) response.headers.delete("x-powered-by");
	if (on.securityHeaders) for (const [name, value] of SECURITY_HEADERS) response.headers.append(name, value);
	return response;
}
