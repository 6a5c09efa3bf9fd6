/**
 * Where a request comes from: the geo values that the Rules language's `ip.src.*` /
 * `ip.geoip.*` fields and the `http_requests` log's `Client*` fields read.
 *
 * Emulates: the location properties of `request.cf` (workers-types
 * `IncomingRequestCfPropertiesGeographicInformation`; docs `workers/runtime-apis/request`,
 * "The cf property"), mapped onto the fields of docs `ruleset-engine/rules-language/fields`
 * (`ip.src.country`, `ip.src.asnum`, `ip.src.region_code`, ..., `ip.src.timezone.name`).
 *
 * **Not Cloudflare's: emulator-set geo headers.** Locally `request.cf` is wrangler's placeholder
 * (Austin, US, AS395747: Miniflare's `fallbackCf`, which `npm run dev` always uses, see
 * `CLOUDFLARE_CF_FETCH_ENABLED=false` in package.json), so a rule on `ip.src.country` could not
 * be tried locally (workers-sdk issue #3638). When the var `TRUST_GEO_HEADERS` is `"true"`, a
 * request may describe its own location in `X-Edgezone-Geo-*` headers (`GEO_HEADERS` below), the
 * way a local client sets `ip.src` with `CF-Connecting-IP`. Rules for them, edgezone's own:
 * - A request that sends any of them describes its whole location: fields whose header is not
 *   sent are missing, never the placeholder's (a country of FR with Austin's city would be a
 *   location no visitor has).
 * - Each value is checked (`GEO_HEADERS`); a value that fails, or a header of the prefix that
 *   is not one of them (a typo), refuses the request with a 400 naming the header, so a test
 *   never passes on a header that was silently ignored.
 * - Why the var: `CF-Connecting-IP` needs none, since Cloudflare's edge sets that header to the
 *   visitor's address whatever the visitor sent (docs `fundamentals/reference/http-headers`), so a
 *   deployed edgezone reads Cloudflare's value. Nothing strips `X-Edgezone-Geo-*` on the way in,
 *   so a deployed Worker that trusted them would let any visitor forge a country past a zone's
 *   country block. `TRUST_GEO_HEADERS` is `"false"` in wrangler.toml (what `wrangler deploy`
 *   ships) and `"true"` only in `.dev.vars` (local); with it off the headers are ordinary headers.
 *   Detecting the placeholder `request.cf` instead was rejected: wrangler may also serve a real
 *   `cf.json` locally, and a fingerprint of Miniflare's placeholder would break with its version.
 * - The headers stay on the request, as `CF-Connecting-IP` does: the rules' header fields and
 *   the gateway see them as sent.
 *
 * Derived values, edgezone's choice: `ip.src.is_in_european_union` is `request.cf.isEUCountry`
 * ("1" when in the EU, omitted otherwise) where a country is known; for headers, the country's
 * membership of the EU (european-union.europa.eu, "EU countries", 27 members) unless
 * `...-Is-In-European-Union` says otherwise. `ip.src.subdivision_1_iso_code` is the country and
 * `regionCode` joined by "-" (both are documented as the ISO 3166-2 first-level region, "GB-ENG"
 * and "TX"), unless its header is sent.
 * Gaps: `ip.src.subdivision_2_iso_code` has no `request.cf` source; it is only ever set by its
 * header.
 */

/** A request's location, each value missing when unknown. */
export interface Geo {
	/** ISO 3166-1 alpha-2, upper case (or Cloudflare's "T1" for Tor). */
	readonly country?: string;
	/** AF, AN, AS, EU, NA, OC, SA (or "T1"). */
	readonly continent?: string;
	readonly asn?: number;
	readonly city?: string;
	readonly region?: string;
	/** ISO 3166-2 code of the first-level region, without the country: "TX". */
	readonly regionCode?: string;
	readonly postalCode?: string;
	readonly metroCode?: string;
	/** Decimal degrees, as text ("30.27130"). */
	readonly latitude?: string;
	readonly longitude?: string;
	/** ISO 3166-2 codes with the country: "GB-ENG". */
	readonly subdivision1?: string;
	readonly subdivision2?: string;
	/** An IANA time zone name: "America/Chicago" (`request.cf.timezone`; the Rules language's `ip.src.timezone.name`). */
	readonly timezone?: string;
	readonly inEuropeanUnion?: boolean;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The prefix of every emulator geo header, lower case as workerd's `Headers` gives names. */
export const GEO_HEADER_PREFIX = "x-edgezone-geo-";

/** EU member states (european-union.europa.eu, "EU countries"). */
const EUROPEAN_UNION = new Set(
	"AT BE BG CY CZ DE DK EE ES FI FR GR HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK".split(" "),
);

const CONTINENTS = new Set(["AF", "AN", "AS", "EU", "NA", "OC", "SA", "T1"]);

type Parse = (value: string) => Partial<Mutable<Geo>> | string;

/** One pattern-checked text value, upper-cased when `upper`; the error names what is expected. */
function text(key: keyof Geo, pattern: RegExp, expected: string, upper = false): Parse {
	return (value) => (pattern.test(value) ? { [key]: upper ? value.toUpperCase() : value } : expected);
}

/** A decimal number of degrees within ±`limit`, kept as sent (`request.cf` carries text). */
function degrees(key: "latitude" | "longitude", limit: number): Parse {
	return (value) =>
		/^-?\d{1,3}(\.\d{1,10})?$/.test(value) && Math.abs(Number(value)) <= limit
			? { [key]: value }
			: `a decimal number of degrees from -${limit} to ${limit}`;
}

/** Free text (a city, a region), percent-decoded so names beyond Latin-1 can be sent. */
function name(key: "city" | "region"): Parse {
	return (value) => {
		let decoded: string;
		try {
			decoded = decodeURIComponent(value);
		} catch {
			return "text, percent-encoded as UTF-8 beyond ASCII";
		}
		return decoded.length > 0 && decoded.length <= 128 ? { [key]: decoded } : "1 to 128 characters";
	};
}

/**
 * The headers, by lower-case name after the prefix: one per geo field of the Rules language,
 * named after the field (`ip.src.region_code` -> `X-Edgezone-Geo-Region-Code`; `asnum` also as
 * `Asn`), each with its check. A parse returns the values it sets or what was expected.
 */
const GEO_HEADERS: Readonly<Record<string, Parse>> = Object.freeze({
	country: text("country", /^([A-Za-z]{2}|T1)$/, "an ISO 3166-1 alpha-2 code such as FR (or T1)", true),
	continent: (value) =>
		CONTINENTS.has(value.toUpperCase()) ? { continent: value.toUpperCase() } : "one of AF, AN, AS, EU, NA, OC, SA, T1",
	asnum: asn,
	asn,
	city: name("city"),
	region: name("region"),
	"region-code": text(
		"regionCode",
		/^[A-Za-z0-9]{1,3}$/,
		"an ISO 3166-2 region code without the country, such as TX",
		true,
	),
	"postal-code": text(
		"postalCode",
		/^[A-Za-z0-9][A-Za-z0-9 -]{0,11}$/,
		"a postal code of letters, digits, spaces and hyphens (at most 12)",
	),
	"metro-code": text("metroCode", /^\d{1,6}$/, "a metro (DMA) code of digits, such as 635"),
	lat: degrees("latitude", 90),
	lon: degrees("longitude", 180),
	"subdivision-1-iso-code": text(
		"subdivision1",
		/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/,
		"an ISO 3166-2 code such as GB-ENG",
		true,
	),
	"subdivision-2-iso-code": text(
		"subdivision2",
		/^[A-Za-z]{2}-[A-Za-z0-9]{1,3}$/,
		"an ISO 3166-2 code such as GB-WSM",
		true,
	),
	// `ip.src.timezone.name`: an IANA name, "Area/Location" or "UTC" (the tz database's names).
	"timezone-name": text(
		"timezone",
		/^(?:[A-Za-z]+(?:\/[A-Za-z0-9_+-]+){1,2}|UTC)$/,
		"an IANA time zone name such as Europe/Paris",
	),
	"is-in-european-union": (value) =>
		value === "true" || value === "false" ? { inEuropeanUnion: value === "true" } : "true or false",
});

function asn(value: string): Partial<Mutable<Geo>> | string {
	const number = Number(value);
	return /^\d{1,10}$/.test(value) && number <= 0xffff_ffff
		? { asn: number }
		: "an AS number: an integer from 0 to 4294967295";
}

/** What the geo headers of a request say: nothing, a location, or why they are refused. */
export type GeoHeaders = { kind: "none" } | { kind: "geo"; geo: Geo } | { kind: "invalid"; message: string };

/**
 * Reads the `X-Edgezone-Geo-*` headers of a request (the file header's rules), in one pass over
 * its headers. Call it only where `TRUST_GEO_HEADERS` is on (`trustedGeo`).
 */
function geoHeaders(headers: Headers): GeoHeaders {
	const geo: Mutable<Geo> = {};
	let sent = false;
	// Names only, each value read when it is a geo header's: an entry crosses from the runtime as
	// two strings, and this runs on every request (some 30k instructions against 47k with entries, BENCHMARKS.md).
	for (const header of headers.keys()) {
		if (!header.startsWith(GEO_HEADER_PREFIX)) continue;
		sent = true;
		const value = headers.get(header) ?? "";
		const field = header.slice(GEO_HEADER_PREFIX.length);
		const parse = Object.hasOwn(GEO_HEADERS, field) ? GEO_HEADERS[field] : undefined;
		if (parse === undefined) {
			const known = Object.keys(GEO_HEADERS).map(displayName).join(", ");
			return { kind: "invalid", message: `${displayName(field)} is not an edgezone geo header; they are ${known}.` };
		}
		const parsed = parse(value.trim());
		if (typeof parsed === "string") {
			return { kind: "invalid", message: `${displayName(field)} must be ${parsed}; got ${JSON.stringify(value)}.` };
		}
		Object.assign(geo, parsed);
	}
	if (!sent) return { kind: "none" };
	geo.inEuropeanUnion ??= geo.country === undefined ? undefined : EUROPEAN_UNION.has(geo.country);
	geo.subdivision1 ??= subdivision(geo.country, geo.regionCode);
	return { kind: "geo", geo };
}

/**
 * The location a request's geo headers set, when the deployment trusts them
 * (`TRUST_GEO_HEADERS` is "true": the file header says why); `{ kind: "none" }` otherwise, and
 * then the request's headers are not read at all.
 */
export function trustedGeo(request: Request, env: Env): GeoHeaders {
	return env.TRUST_GEO_HEADERS === "true" ? geoHeaders(request.headers) : { kind: "none" };
}

/** The `request.cf` properties read here; any may be absent or of another type. */
interface CfGeo {
	country?: unknown;
	continent?: unknown;
	asn?: unknown;
	city?: unknown;
	region?: unknown;
	regionCode?: unknown;
	postalCode?: unknown;
	metroCode?: unknown;
	latitude?: unknown;
	longitude?: unknown;
	timezone?: unknown;
	isEUCountry?: unknown;
}

/** The location `request.cf` gives (undefined or `{}` when the runtime gives none). */
export function geoOfCf(cf: unknown): Geo {
	const from = (cf ?? {}) as CfGeo;
	const country = stringOf(from.country);
	const regionCode = stringOf(from.regionCode);
	const geo: Mutable<Geo> = {
		country,
		continent: stringOf(from.continent),
		asn: typeof from.asn === "number" && Number.isFinite(from.asn) ? from.asn : undefined,
		city: stringOf(from.city),
		region: stringOf(from.region),
		regionCode,
		postalCode: stringOf(from.postalCode),
		metroCode: stringOf(from.metroCode),
		latitude: stringOf(from.latitude),
		longitude: stringOf(from.longitude),
		subdivision1: subdivision(country, regionCode),
		timezone: stringOf(from.timezone),
		// workers-types: isEUCountry is "1" in the EU and omitted otherwise.
		inEuropeanUnion: country === undefined ? undefined : from.isEUCountry === "1",
	};
	return geo;
}

/**
 * The country `request.cf` gives (ISO 3166-1 alpha-2), undefined when it gives none: `geoOfCf`'s
 * `country` without the rest of the location, for the edge's `CF-IPCountry`.
 */
export function countryOfCf(cf: unknown): string | undefined {
	return stringOf((cf as CfGeo | undefined)?.country);
}

const stringOf = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);

/** "X-Edgezone-Geo-Region-Code" for "region-code". */
function displayName(field: string): string {
	return `X-Edgezone-Geo-${field.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase())}`;
}

function subdivision(country: string | undefined, regionCode: string | undefined): string | undefined {
	return country !== undefined && regionCode !== undefined ? `${country}-${regionCode}` : undefined;
}
