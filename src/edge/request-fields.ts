/**
 * The Rules-language fields of one request, as the firewall and the custom rules read them
 * (Cloudflare docs `ruleset-engine/rules-language/fields`,
 * https://developers.cloudflare.com/ruleset-engine/rules-language/fields/).
 *
 * Emulates: the request fields of the standard and dynamic field lists that have a local
 * meaning — URI parts (normalized by the zone's URL normalization, and their `raw.` versions as
 * received: only the path differs, `src/common/url-normalization.ts`), method, version, headers, cookies, query arguments, the client IP
 * (`CF-Connecting-IP`, which Cloudflare and wrangler dev set), the geo fields (`geo.ts`: from
 * `request.cf`, or locally from the emulator's `X-Edgezone-Geo-*` headers) and the bot field of
 * `request.cf` where present.
 * Gaps: a field with no local source is missing (absent), never invented: `ip.src` without
 * `CF-Connecting-IP`, geo fields without a location, `cf.threat_score` (Cloudflare
 * no longer computes it). Names keep the case HTTP delivered them in; workerd's `Headers`
 * lower-cases names, as HTTP/2 does.
 */

import { forEachCookie } from "../common/cookies";
import { type Geo, geoOfCf } from "./geo";

/**
 * Request fields by name; an absent key is a missing value (docs
 * https://developers.cloudflare.com/ruleset-engine/rules-language/values/: "Any comparison ...
 * where <expr> evaluates to a missing value will evaluate to false").
 */
export type RequestFields = {
	readonly "http.host": string;
	readonly "http.request.method": string;
	readonly "http.request.version": string;
	readonly "http.request.uri": string;
	readonly "http.request.uri.path": string;
	readonly "http.request.uri.path.extension": string;
	readonly "http.request.uri.query": string;
	readonly "http.request.uri.args": { readonly [name: string]: readonly string[] };
	readonly "http.request.uri.args.names": readonly string[];
	readonly "http.request.uri.args.values": readonly string[];
	readonly "http.request.full_uri": string;
	readonly "raw.http.request.uri": string;
	readonly "raw.http.request.uri.path": string;
	readonly "raw.http.request.uri.path.extension": string;
	readonly "raw.http.request.uri.query": string;
	readonly "raw.http.request.uri.args": { readonly [name: string]: readonly string[] };
	readonly "raw.http.request.uri.args.names": readonly string[];
	readonly "raw.http.request.uri.args.values": readonly string[];
	readonly "raw.http.request.full_uri": string;
	readonly "http.request.headers": { readonly [name: string]: readonly string[] };
	readonly "http.request.headers.names": readonly string[];
	readonly "http.request.headers.values": readonly string[];
	readonly "http.request.cookies": { readonly [name: string]: readonly string[] };
	readonly "http.cookie"?: string;
	readonly "http.user_agent"?: string;
	readonly "http.referer"?: string;
	readonly "http.x_forwarded_for"?: string;
	readonly "http.request.timestamp.sec": number;
	readonly "http.request.timestamp.msec": number;
	readonly "ip.src"?: string;
	readonly "ip.src.country"?: string;
	readonly "ip.geoip.country"?: string;
	readonly "ip.src.asnum"?: number;
	readonly "ip.geoip.asnum"?: number;
	readonly "ip.src.continent"?: string;
	readonly "ip.geoip.continent"?: string;
	readonly "ip.src.city"?: string;
	readonly "ip.src.region"?: string;
	readonly "ip.src.region_code"?: string;
	readonly "ip.src.postal_code"?: string;
	readonly "ip.src.metro_code"?: string;
	readonly "ip.src.lat"?: string;
	readonly "ip.src.lon"?: string;
	readonly "ip.src.subdivision_1_iso_code"?: string;
	readonly "ip.src.subdivision_2_iso_code"?: string;
	readonly "ip.src.timezone.name"?: string;
	readonly "ip.src.is_in_european_union"?: boolean;
	readonly ssl: boolean;
	readonly "cf.client.bot"?: boolean;
	readonly "cf.edge.server_port": number;
	readonly "cf.ray_id": string;
	readonly "cf.zone.name": string;
};

/** What the edge knows of a request besides the request itself. */
export interface RequestContext {
	/** The Ray ID of the request, without the data-center suffix (16 hex digits). */
	rayId: string;
	/** The name of the zone the request was routed to. */
	zoneName: string;
	/** When the edge received the request, in ms since the epoch. */
	receivedAt: number;
	/** The location the request's trusted geo headers set (`geo.ts`); absent: `request.cf`'s. */
	geo?: Geo;
	/**
	 * The path the `http.request.uri*` fields see, asked when a rule first reads one: the URL's
	 * path after the zone's URL normalization (`request-path.ts`); absent: the URL's path. The
	 * `raw.` fields always see the URL's path.
	 */
	path?: () => string;
	/**
	 * The query (with its `?`, or empty) the `http.request.uri*` fields see: a URL rewrite's
	 * (`edge/phases/url-rewrite.ts`); absent: the URL's. The `raw.` fields always see the URL's.
	 */
	search?: () => string;
}

/** The `request.cf` properties read here; all optional, as Miniflare and Cloudflare fill them differently. */
interface CfProperties {
	httpProtocol?: unknown;
	botManagement?: { verifiedBot?: unknown };
}

/**
 * What field values are computed from: each part of the request read once, when first needed.
 * Reading the request (`request.cf`, which workerd deserializes on access, its headers, the URL's
 * parts) crosses from JavaScript into the runtime and is most of what a field costs, so a field
 * no rule reads must not pay for it.
 */
class Source {
	#cf: CfProperties | undefined;
	#geo: Geo | undefined;
	#headers: Headers | undefined;
	#headerMap: Record<string, string[]> | undefined;
	#args: Record<string, string[]> | undefined;
	#rawArgs: Record<string, string[]> | undefined;
	#pathname: string | undefined;
	#rawPathname: string | undefined;
	#search: string | undefined;
	#rawSearch: string | undefined;
	#protocol: string | undefined;

	constructor(
		readonly request: Request,
		readonly url: URL,
		readonly context: RequestContext,
	) {}

	get cf(): CfProperties {
		this.#cf ??= (this.request.cf ?? {}) as CfProperties;
		return this.#cf;
	}
	get geo(): Geo {
		this.#geo ??= this.context.geo ?? geoOfCf(this.cf);
		return this.#geo;
	}
	get headers(): Headers {
		this.#headers ??= this.request.headers;
		return this.#headers;
	}
	header(name: string): string | undefined {
		return this.headers.get(name) ?? undefined;
	}
	get headerMap(): Record<string, string[]> {
		this.#headerMap ??= headerValues(this.headers);
		return this.#headerMap;
	}
	get args(): Record<string, string[]> {
		this.#args ??= queryArguments(this.query);
		return this.#args;
	}
	get rawArgs(): Record<string, string[]> {
		this.#rawArgs ??= this.rawSearch === this.search ? this.args : queryArguments(this.rawSearch.slice(1));
		return this.#rawArgs;
	}
	/** The path the rules see (`RequestContext.path`). */
	get pathname(): string {
		this.#pathname ??= this.context.path?.() ?? this.rawPathname;
		return this.#pathname;
	}
	/** The URL's path as received. */
	get rawPathname(): string {
		this.#rawPathname ??= this.url.pathname;
		return this.#rawPathname;
	}
	/** The query the rules see (`RequestContext.search`), with its `?`. */
	get search(): string {
		this.#search ??= this.context.search?.() ?? this.rawSearch;
		return this.#search;
	}
	/** The URL's query as received, with its `?`. */
	get rawSearch(): string {
		this.#rawSearch ??= this.url.search;
		return this.#rawSearch;
	}
	get query(): string {
		return this.search.slice(1);
	}
	get protocol(): string {
		this.#protocol ??= this.url.protocol;
		return this.#protocol;
	}
}

type Computed = { readonly [K in keyof RequestFields]-?: (source: Source) => RequestFields[K] | undefined };

/** How each field is computed; undefined is a missing value. */
const COMPUTED: Computed = {
	"http.host": (s) => s.url.hostname,
	"http.request.method": (s) => s.request.method.toUpperCase(),
	"http.request.version": (s) => stringOf(s.cf.httpProtocol) ?? "HTTP/1.1",
	"http.request.uri": (s) => s.pathname + s.search,
	"http.request.uri.path": (s) => s.pathname,
	"http.request.uri.path.extension": (s) => extensionOf(s.pathname),
	"http.request.uri.query": (s) => s.query,
	"http.request.uri.args": (s) => s.args,
	"http.request.uri.args.names": (s) => Object.keys(s.args),
	"http.request.uri.args.values": (s) => Object.values(s.args).flat(),
	"http.request.full_uri": (s) => `${s.protocol}//${s.url.host}${s.pathname}${s.search}`,
	// Raw fields: the URL as received, before normalization (docs fields/reference/raw.http.request.uri.path).
	"raw.http.request.uri": (s) => s.rawPathname + s.rawSearch,
	"raw.http.request.uri.path": (s) => s.rawPathname,
	"raw.http.request.uri.path.extension": (s) => extensionOf(s.rawPathname),
	"raw.http.request.uri.query": (s) => s.rawSearch.slice(1),
	"raw.http.request.uri.args": (s) => s.rawArgs,
	"raw.http.request.uri.args.names": (s) => Object.keys(s.rawArgs),
	"raw.http.request.uri.args.values": (s) => Object.values(s.rawArgs).flat(),
	"raw.http.request.full_uri": (s) => `${s.protocol}//${s.url.host}${s.rawPathname}${s.rawSearch}`,
	"http.request.headers": (s) => s.headerMap,
	"http.request.headers.names": (s) => Object.keys(s.headerMap),
	"http.request.headers.values": (s) => Object.values(s.headerMap).flat(),
	"http.request.cookies": (s) => cookieValues(s.headers.get("cookie")),
	"http.cookie": (s) => s.header("cookie"),
	"http.user_agent": (s) => s.header("user-agent"),
	"http.referer": (s) => s.header("referer"),
	"http.x_forwarded_for": (s) => s.header("x-forwarded-for"),
	"http.request.timestamp.sec": (s) => Math.floor(s.context.receivedAt / 1000),
	"http.request.timestamp.msec": (s) => s.context.receivedAt,
	"ip.src": (s) => s.header("cf-connecting-ip"),
	"ip.src.country": (s) => s.geo.country,
	"ip.geoip.country": (s) => s.geo.country,
	"ip.src.asnum": (s) => s.geo.asn,
	"ip.geoip.asnum": (s) => s.geo.asn,
	"ip.src.continent": (s) => s.geo.continent,
	"ip.geoip.continent": (s) => s.geo.continent,
	"ip.src.city": (s) => s.geo.city,
	"ip.src.region": (s) => s.geo.region,
	"ip.src.region_code": (s) => s.geo.regionCode,
	"ip.src.postal_code": (s) => s.geo.postalCode,
	"ip.src.metro_code": (s) => s.geo.metroCode,
	"ip.src.lat": (s) => s.geo.latitude,
	"ip.src.lon": (s) => s.geo.longitude,
	"ip.src.subdivision_1_iso_code": (s) => s.geo.subdivision1,
	"ip.src.subdivision_2_iso_code": (s) => s.geo.subdivision2,
	"ip.src.timezone.name": (s) => s.geo.timezone,
	"ip.src.is_in_european_union": (s) => s.geo.inEuropeanUnion,
	ssl: (s) => s.protocol === "https:",
	"cf.client.bot": (s) => booleanOf(s.cf.botManagement?.verifiedBot),
	"cf.edge.server_port": (s) => {
		const port = s.url.port;
		return port === "" ? (s.protocol === "https:" ? 443 : 80) : Number(port);
	},
	"cf.ray_id": (s) => s.context.rayId,
	"cf.zone.name": (s) => s.context.zoneName,
};

const ALL_FIELDS: readonly string[] = Object.keys(COMPUTED);

/**
 * The field values of `request` routed to a zone: all of them, or only those named in `names`
 * (what a zone's rules read; a name this module has no source for stays missing). A missing
 * value is an absent key, never a key holding undefined.
 * @param url the request's URL, parsed once by the caller.
 */
export function requestFields(request: Request, url: URL, context: RequestContext): RequestFields;
export function requestFields(
	request: Request,
	url: URL,
	context: RequestContext,
	names: readonly string[],
): Partial<RequestFields>;
export function requestFields(
	request: Request,
	url: URL,
	context: RequestContext,
	names: readonly string[] = ALL_FIELDS,
): Partial<RequestFields> {
	const source = new Source(request, url, context);
	const values: Record<string, unknown> = {};
	for (const name of names) {
		if (!Object.hasOwn(COMPUTED, name)) continue;
		const value = COMPUTED[name as keyof RequestFields](source);
		if (value !== undefined) values[name] = value;
	}
	return values as Partial<RequestFields>;
}

const stringOf = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const booleanOf = (value: unknown) => (typeof value === "boolean" ? value : undefined);

/**
 * The extension of the last path segment, lower case, without the dot; "" when it has none
 * (docs standard-fields: `/foo.JPG` gives `jpg`, `/foo.tar.gz` gives `gz`, `/foo/` gives "").
 */
function extensionOf(path: string): string {
	const segment = path.slice(path.lastIndexOf("/") + 1);
	const dot = segment.lastIndexOf(".");
	return dot === -1 ? "" : segment.slice(dot + 1).toLowerCase();
}

/**
 * An empty map of names to values with no prototype: names come from the client, and one
 * such as `__proto__` or `constructor` must be a name like any other.
 */
function valueLists(): Record<string, string[]> {
	return Object.create(null) as Record<string, string[]>;
}

function append(lists: Record<string, string[]>, name: string, value: string): void {
	const list = lists[name];
	if (list === undefined) lists[name] = [value];
	else list.push(value);
}

/** Query arguments as written (not decoded, docs uri.mdx), each name with its values in order. */
function queryArguments(query: string): Record<string, string[]> {
	const args = valueLists();
	if (query === "") return args;
	for (const pair of query.split("&")) {
		const equals = pair.indexOf("=");
		const name = equals === -1 ? pair : pair.slice(0, equals);
		const value = equals === -1 ? "" : pair.slice(equals + 1);
		append(args, name, value);
	}
	return args;
}

/** Header values by lower-case name; `Set-Cookie`-style repeats stay separate values. */
export function headerValues(headers: Headers): Record<string, string[]> {
	const values = valueLists();
	for (const [name, value] of headers) append(values, name, value);
	return values;
}

/** Cookie values by name (names URL-decoded, docs http-request-header.mdx), from a `Cookie` header. */
function cookieValues(header: string | null): Record<string, string[]> {
	const cookies = valueLists();
	if (header === null) return cookies;
	forEachCookie(header, (name, value) => append(cookies, safeDecode(name), value));
	return cookies;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
