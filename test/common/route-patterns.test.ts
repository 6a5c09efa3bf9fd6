/**
 * Workers route patterns (src/common/route-patterns.ts) against the examples of
 * developers.cloudflare.com/workers/configuration/routing/routes/ ("Matching behavior") and the
 * known issues of developers.cloudflare.com/workers/platform/known-issues/.
 */
import { describe, expect, it } from "vitest";
import {
	byPrecedence,
	isPattern,
	matchesUrl,
	parsePattern,
	patternKey,
	type RoutePattern,
	winningRoute,
} from "../../src/common/route-patterns";

const ZONE = "example.com";

function parsed(pattern: string): RoutePattern {
	const result = parsePattern(pattern, ZONE);
	if (!isPattern(result)) throw new Error(`${pattern}: ${result.message}`);
	return result;
}

const matches = (pattern: string, url: string) => matchesUrl(parsed(pattern), new URL(url));

/** The pattern that wins for `url` among `patterns` (undefined: none matches). */
function winner(patterns: string[], url: string): string | undefined {
	const ranked = patterns.map((p) => ({ parsed: parsed(p) })).sort(byPrecedence);
	return winningRoute(ranked, new URL(url))?.parsed.pattern;
}

describe("route pattern syntax", () => {
	it.each([
		"example.com/*",
		"*.example.com/*",
		"*example.com/*",
		"https://example.com/*",
		"http://shop.example.com/images/*",
		"example.com",
		"example.com/images*",
		"Shop.Example.com/A/b",
	])("takes %s", (pattern) => {
		expect(isPattern(parsePattern(pattern, ZONE))).toBe(true);
	});

	it.each([
		["example.com/*.jpg", "* may only begin its host or end its path"],
		["example.com/?foo=*", "cannot hold a query string"],
		["example.com/a?b", "cannot hold a query string"],
		["ex*ample.com/*", "* may only begin its host or end its path"],
		["**.example.com/*", "* may only begin its host or end its path"],
		["ftp://example.com/*", "scheme is http:// or https://"],
		["example.com:8080/*", "cannot name a port"],
		["exa mple.com/*", "host is not a valid name"],
		["example.com/a b", "path is not valid"],
	])("refuses %s (%s)", (pattern, message) => {
		const result = parsePattern(pattern, ZONE);
		expect(result).toStrictEqual({ kind: "syntax", message: expect.stringContaining(message) });
	});

	it.each(["example.org/*", "*.example.org/*", "notexample.com/*", "*/*", "com/*"])(
		"refuses %s as outside the zone, in the API's words",
		(pattern) => {
			expect(parsePattern(pattern, ZONE)).toStrictEqual({
				kind: "zone",
				message: `Route pattern must include zone name: ${pattern}`,
			});
		},
	);

	it("keys a pattern by its host without case, its path with it", () => {
		expect(patternKey(parsed("Example.COM/A*"))).toBe(patternKey(parsed("example.com/A*")));
		expect(patternKey(parsed("example.com/A*"))).not.toBe(patternKey(parsed("example.com/a*")));
		expect(patternKey(parsed("*.example.com/*"))).not.toBe(patternKey(parsed("*example.com/*")));
		expect(patternKey(parsed("https://example.com/*"))).not.toBe(patternKey(parsed("example.com/*")));
	});
});

describe("which URLs a pattern matches", () => {
	it.each<[string, string, boolean]>([
		// The routes page's examples.
		["*.example.com/*", "https://www.example.com/", true],
		["*.example.com/*", "https://example.com/", false],
		["*example.com/*", "https://example.com/a", true],
		["*example.com/*", "https://www.example.com/a", true],
		["example.com/images/*", "https://example.com/images/cat.png", true],
		["example.com/images/*", "https://example.com/images", false],
		["example.com/images/cat.png", "https://example.com/images/cat.png", true],
		// Only a trailing * matches a URL with a query string.
		["example.com/images/cat.png", "https://example.com/images/cat.png?foo=bar", false],
		["example.com/images/*", "https://example.com/images/cat.png?foo=bar", true],
		// No path: the implied "/".
		["example.com", "https://example.com/", true],
		["example.com", "https://example.com/a", false],
		// A scheme restricts it.
		["https://example.com/*", "http://example.com/a", false],
		["http://example.com/*", "http://example.com/a", true],
		// Host without case, path with it.
		["EXAMPLE.com/a", "https://example.COM/a", true],
		["example.com/A", "https://example.com/a", false],
		// Any port.
		["example.com/*", "http://example.com:8787/a", true],
	])("%s on %s: %s", (pattern, url, expected) => {
		expect(matches(pattern, url)).toBe(expected);
	});
});

describe("the most specific pattern wins", () => {
	it.each<[string[], string, string | undefined]>([
		[["*.example.com/*", "www.example.com/*"], "https://www.example.com/a", "www.example.com/*"],
		[["example.com/*", "example.com/hello/*"], "https://example.com/hello/world", "example.com/hello/*"],
		[["example.com/*", "example.com/hello/*"], "https://example.com/other", "example.com/*"],
		// Known issues: both outcomes.
		[["example.com/images/*", "example.com/images*"], "https://example.com/images/hello", "example.com/images*"],
		[["*.example.com/a", "a.example.com/*"], "https://a.example.com/a", "a.example.com/*"],
		[["a.example.com/*"], "https://b.example.com/a", undefined],
		// Equally specific: the longer pattern.
		[["example.com/*", "https://example.com/*"], "https://example.com/x", "https://example.com/*"],
	])("%j for %s: %s", (patterns, url, expected) => {
		expect(winner(patterns, url)).toBe(expected);
		expect(winner([...patterns].reverse(), url)).toBe(expected);
	});
});
