/**
 * The URL a proxied request is sent to (pure): the origin's address at the visitor's scheme and
 * port, the path and query as the edge passes them on.
 *
 * - Scheme: the visitor's ("Full" SSL mode "makes connections to the origin using the scheme
 *   requested by the visitor", developers.cloudflare.com/ssl/origin-configuration/ssl-modes/full/).
 * - Port: the visitor's, unless an Origin Rule sets `origin.port` ("overrides the resolved
 *   destination port", developers.cloudflare.com/rules/origin-rules/features/).
 * - Addresses that reach nothing: the documentation ranges (RFC 5737: 192.0.2.0/24,
 *   198.51.100.0/24, 203.0.113.0/24; RFC 3849: 2001:db8::/32) and the discard prefix 100::/64
 *   (RFC 6666), which Cloudflare's docs use for "originless" records; Cloudflare answers 522 for a
 *   request sent there (developers.cloudflare.com/support/troubleshooting/http-status-codes/
 *   cloudflare-5xx-errors/error-522/). edgezone answers 522 at once instead of waiting, unless the
 *   emulator's `DEFAULT_ORIGIN_URL` names an origin for them (edgezone's, not Cloudflare's).
 */

/**
 * Where a request goes (`url`, absolute, for the runtime's fetch to parse; `host`, its host name
 * or IP without brackets), or that its address reaches nothing; `ip` for the log either way.
 */
export type OriginAddress =
	| { kind: "url"; url: string; host: string; ip: string }
	| { kind: "unreachable"; ip: string };

/** Whether `address` (an IP literal) is one that reaches nothing (see the header). */
export function isUnreachable(address: string): boolean {
	if (/^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/.test(address)) return true;
	const v6 = address.toLowerCase();
	return /^2001:0?db8:/.test(v6) || /^100::/.test(v6) || /^100:0{1,4}:0{1,4}:0{1,4}:/.test(v6);
}

/** Whether `host` is an IP literal rather than a name. */
export function isIpLiteral(host: string): boolean {
	return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":");
}

/**
 * The origin URL of a request.
 * @param visitor the URL as the edge passes it on (path and query after URL normalization).
 * @param host an IP literal or a hostname, without brackets.
 * @param port the Origin Rule's port, else undefined for the visitor's.
 * @param defaultOrigin the emulator's `DEFAULT_ORIGIN_URL`, "" when unset.
 */
export function originAddress(
	visitor: URL,
	host: string,
	port: number | undefined,
	defaultOrigin: string,
): OriginAddress {
	const ip = isIpLiteral(host) ? host : "";
	if (ip !== "" && isUnreachable(ip)) {
		if (defaultOrigin === "") return { kind: "unreachable", ip };
		const fallback = new URL(defaultOrigin);
		const url = new URL(visitor.pathname + visitor.search, fallback);
		const fallbackHost = fallback.hostname.replace(/^\[|\]$/g, "");
		return { kind: "url", url: url.href, host: fallbackHost, ip: fallbackHost };
	}
	// Written out rather than set on a copy of the visitor's URL: one string, which the fetch parses
	// (and refuses, as an unreachable origin, if a record's name is no host name).
	const authority = host.includes(":") ? `[${host}]` : host;
	const portPart = port !== undefined ? `:${port}` : visitor.port === "" ? "" : `:${visitor.port}`;
	return {
		kind: "url",
		url: `${visitor.protocol}//${authority}${portPart}${visitor.pathname}${visitor.search}`,
		host,
		ip,
	};
}
