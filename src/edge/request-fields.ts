/**
 * The Rules-language fields of one request, as the firewall and the custom rules read them
 * (rules-language-and-ca.md §1.3; Cloudflare docs `ruleset-engine/rules-language/fields`).
 *
 * Emulates: the request fields of the standard and dynamic field lists that have a local
 * meaning — URI parts, method, version, headers, cookies, query arguments, the client IP
 * (`CF-Connecting-IP`, which Cloudflare and wrangler dev set), and the geo and bot fields
 * of `request.cf` where present.
 * Gaps: a field with no local source is missing (absent), never invented: `ip.src` without
 * `CF-Connecting-IP`, geo fields without `request.cf`, `cf.threat_score` (Cloudflare
 * no longer computes it). Names keep the case HTTP delivered them in; workerd's `Headers`
 * lower-cases names, as HTTP/2 does.
 */

/** Request fields by name; an absent key is a missing value (§1.8). */
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
}

/** The `request.cf` properties read here; all optional, as Miniflare and Cloudflare fill them differently. */
interface CfProperties {
	httpProtocol?: unknown;
	country?: unknown;
	asn?: unknown;
	continent?: unknown;
	botManagement?: { verifiedBot?: unknown };
}

/**
 * The field values of `request` routed to a zone.
 * @param url the request's URL, parsed once by the caller.
 */
export function requestFields(request: Request, url: URL, context: RequestContext): RequestFields {
	const headers = request.headers;
	const cf = (request.cf ?? {}) as CfProperties;
	const query = url.search.slice(1);
	const args = queryArguments(query);
	const headerMap = headerValues(headers);
	const optional = {
		"http.cookie": headers.get("cookie") ?? undefined,
		"http.user_agent": headers.get("user-agent") ?? undefined,
		"http.referer": headers.get("referer") ?? undefined,
		"http.x_forwarded_for": headers.get("x-forwarded-for") ?? undefined,
		"ip.src": headers.get("cf-connecting-ip") ?? undefined,
		"ip.src.country": stringOf(cf.country),
		"ip.geoip.country": stringOf(cf.country),
		"ip.src.asnum": numberOf(cf.asn),
		"ip.geoip.asnum": numberOf(cf.asn),
		"ip.src.continent": stringOf(cf.continent),
		"cf.client.bot": booleanOf(cf.botManagement?.verifiedBot),
	};
	return {
		"http.host": url.hostname,
		"http.request.method": request.method.toUpperCase(),
		"http.request.version": stringOf(cf.httpProtocol) ?? "HTTP/1.1",
		"http.request.uri": url.pathname + url.search,
		"http.request.uri.path": url.pathname,
		"http.request.uri.path.extension": extensionOf(url.pathname),
		"http.request.uri.query": query,
		"http.request.uri.args": args,
		"http.request.uri.args.names": Object.keys(args),
		"http.request.uri.args.values": Object.values(args).flat(),
		"http.request.full_uri": `${url.protocol}//${url.host}${url.pathname}${url.search}`,
		"http.request.headers": headerMap,
		"http.request.headers.names": Object.keys(headerMap),
		"http.request.headers.values": Object.values(headerMap).flat(),
		"http.request.cookies": cookieValues(headers.get("cookie")),
		"http.request.timestamp.sec": Math.floor(context.receivedAt / 1000),
		"http.request.timestamp.msec": context.receivedAt,
		ssl: url.protocol === "https:",
		"cf.edge.server_port": url.port === "" ? (url.protocol === "https:" ? 443 : 80) : Number(url.port),
		"cf.ray_id": context.rayId,
		"cf.zone.name": context.zoneName,
		...withoutMissing(optional),
	};
}

/** The object without its undefined entries: a missing field is absent, not present as undefined. */
function withoutMissing<T extends object>(values: T): Partial<T> {
	return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}

const stringOf = (value: unknown) => (typeof value === "string" && value !== "" ? value : undefined);
const numberOf = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : undefined);
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
function headerValues(headers: Headers): Record<string, string[]> {
	const values = valueLists();
	for (const [name, value] of headers) append(values, name, value);
	return values;
}

/** Cookie values by name (names URL-decoded, docs http-request-header.mdx), from a `Cookie` header. */
function cookieValues(header: string | null): Record<string, string[]> {
	const cookies = valueLists();
	if (header === null) return cookies;
	for (const part of header.split(";")) {
		const equals = part.indexOf("=");
		if (equals === -1) continue;
		const name = safeDecode(part.slice(0, equals).trim());
		append(cookies, name, part.slice(equals + 1).trim());
	}
	return cookies;
}

function safeDecode(text: string): string {
	try {
		return decodeURIComponent(text);
	} catch {
		return text;
	}
}
