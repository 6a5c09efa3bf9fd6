/**
 * Workers route patterns: their syntax, which URLs they match, and which of several wins
 * (developers.cloudflare.com/workers/configuration/routing/routes/, "Matching behavior").
 * Pure; the zone checks a pattern with it when a route is written, the edge matches with it.
 *
 * Syntax, as that page gives it: an optional `http://` or `https://` (which restricts the route
 * to that scheme), a host that may begin with `*` (the host and every name ending in the rest) or
 * `*.` (subdomains only), and an optional path (implied `/`) that may end with `*` (any suffix).
 * `*` is the only operator and stands anywhere else in no pattern ("no infix wildcards"); a
 * pattern holds no query string. A pattern must include its zone's name.
 * Matching: the host without regard to case (routes created since 2023-10-15), the path and query
 * exactly: without a trailing `*` a URL with a query string does not match
 * (`example.com/images/cat.png` does not match `/images/cat.png?foo=bar`).
 * Most specific wins: the score of Miniflare's router ("Adapted from internal config service
 * routing table implementation", github.com/cloudflare/workers-sdk
 * `packages/miniflare/src/plugins/shared/routing.ts`): 26 per host label (2 fewer when the first
 * label is `*`) plus one per path segment (2 fewer when the last is `*`), ties to the longer
 * pattern. It gives both outcomes of the routes page's known issues
 * (developers.cloudflare.com/workers/platform/known-issues/): `example.com/images*` wins over
 * `example.com/images/*` for `/images/hello`, `a.example.com/*` over `*.example.com/a`.
 */

/** A pattern, parsed. */
export interface RoutePattern {
	/** The pattern as written. */
	readonly pattern: string;
	/** "http:" or "https:" when the pattern names one. */
	readonly scheme?: "http:" | "https:";
	/** `"exact"`: the host only; `"suffix"`: names ending in `host` (`*`); `"subdomains"`: names ending in `.host` (`*.`). */
	readonly hostMatch: "exact" | "suffix" | "subdomains";
	/** The host without its wildcard, lower case. */
	readonly host: string;
	/** The path (and nothing of a query) without its trailing `*`. */
	readonly path: string;
	/** Whether the path ended with `*`. */
	readonly pathPrefix: boolean;
	/** Higher wins (module header). */
	readonly specificity: number;
}

/** Why a pattern is refused, with the message the API answers. */
export type PatternProblem = { kind: "syntax"; message: string } | { kind: "zone"; message: string };

/** A host's characters once its wildcard is removed: letters, digits, hyphens, dots. */
const HOST = /^[a-z0-9-]+(?:\.[a-z0-9-]+)*$/;

/** The path's characters: anything a URL path may hold but `?`, `#`, spaces and controls. */
const PATH = /^\/[^?#\s\p{Cc}]*$/u;

/**
 * Parses `pattern`, checking it belongs to `zone` (a zone's name, lower case) unless `zone` is
 * undefined (a stored pattern, checked when it was written).
 * @returns the parsed pattern, or the problem (`zone`: the real API's 10022 "Route pattern must
 * include zone name", github.com/cloudflare/wrangler-legacy/issues/920).
 */
export function parsePattern(pattern: string, zone: string | undefined): RoutePattern | PatternProblem {
	const syntax = (message: string): PatternProblem => ({ kind: "syntax", message: `${message}: ${pattern}` });
	let rest = pattern;
	let scheme: RoutePattern["scheme"];
	const schemeMatch = /^(https?):\/\//i.exec(rest);
	if (schemeMatch !== null) {
		scheme = `${schemeMatch[1]?.toLowerCase()}:` as RoutePattern["scheme"];
		rest = rest.slice(schemeMatch[0].length);
	} else if (rest.includes("://")) {
		return syntax("A route pattern's scheme is http:// or https://");
	}
	const slash = rest.indexOf("/");
	let host = (slash === -1 ? rest : rest.slice(0, slash)).toLowerCase();
	let path = slash === -1 ? "/" : rest.slice(slash);
	if (path.includes("?") || host.includes("?")) return syntax("A route pattern cannot hold a query string");
	let hostMatch: RoutePattern["hostMatch"] = "exact";
	if (host.startsWith("*.")) {
		hostMatch = "subdomains";
		host = host.slice(2);
	} else if (host.startsWith("*")) {
		hostMatch = "suffix";
		host = host.slice(1);
	}
	const pathPrefix = path.endsWith("*");
	if (pathPrefix) path = path.slice(0, -1);
	if (host.includes("*") || path.includes("*")) {
		return syntax("A route pattern's * may only begin its host or end its path");
	}
	if (host.includes(":")) return syntax("A route pattern cannot name a port");
	// `*/*` (any host: Workers for Platforms) names no zone at all.
	if (host !== "" && !HOST.test(host)) return syntax("A route pattern's host is not a valid name");
	if (!PATH.test(path)) return syntax("A route pattern's path is not valid");
	if (zone !== undefined && host !== zone && !host.endsWith(`.${zone}`)) {
		return { kind: "zone", message: `Route pattern must include zone name: ${pattern}` };
	}
	return {
		pattern,
		scheme,
		hostMatch,
		host,
		path,
		pathPrefix,
		specificity: specificity(hostMatch, host, path, pathPrefix),
	};
}

/** Whether `parsed` is a pattern, not a problem. */
export function isPattern(parsed: RoutePattern | PatternProblem): parsed is RoutePattern {
	return "specificity" in parsed;
}

/**
 * The key two patterns are the same route by: the host's case does not matter (module header),
 * the path's does.
 */
export function patternKey(parsed: RoutePattern): string {
	const wildcard = { exact: "", suffix: "*", subdomains: "*." }[parsed.hostMatch];
	return `${parsed.scheme === undefined ? "" : `${parsed.scheme}//`}${wildcard}${parsed.host}${parsed.path}${parsed.pathPrefix ? "*" : ""}`;
}

function specificity(hostMatch: RoutePattern["hostMatch"], host: string, path: string, pathPrefix: boolean): number {
	// Labels as Miniflare counts them: `*.a.b` is 3 labels less 2, `*a.b` is 2.
	const labels = host.split(".").length + (hostMatch === "subdomains" ? -1 : 0);
	// `/a/*` is ["", "a", "*"] less 2; `/a*` is ["", "a*"] and no less.
	const segments = `${path}${pathPrefix ? "*" : ""}`.split("/");
	const lastIsStar = segments.at(-1) === "*";
	return labels * 26 + segments.length - (lastIsStar ? 2 : 0);
}

/** Whether `parsed` matches `url` (module header: host without case, path and query exactly). */
export function matchesUrl(parsed: RoutePattern, url: URL): boolean {
	if (parsed.scheme !== undefined && parsed.scheme !== url.protocol) return false;
	const host = url.hostname.toLowerCase();
	const hostOk =
		parsed.hostMatch === "exact"
			? host === parsed.host
			: parsed.hostMatch === "suffix"
				? host.endsWith(parsed.host)
				: host.endsWith(`.${parsed.host}`);
	if (!hostOk) return false;
	const target = url.pathname + url.search;
	return parsed.pathPrefix ? target.startsWith(parsed.path) : target === parsed.path;
}

/**
 * The route that wins for `url` among `routes`, which must be sorted by `byPrecedence`; undefined
 * when none matches.
 */
export function winningRoute<T extends { parsed: RoutePattern }>(routes: readonly T[], url: URL): T | undefined {
	return routes.find((route) => matchesUrl(route.parsed, url));
}

/** Most specific first, ties to the longer pattern (module header). */
export function byPrecedence(a: { parsed: RoutePattern }, b: { parsed: RoutePattern }): number {
	return b.parsed.specificity - a.parsed.specificity || b.parsed.pattern.length - a.parsed.pattern.length;
}
