import { describe, expect, it } from "vitest";
import { compileWildcard, wildcardMatches } from "../../src/rules-language/wildcard.ts";

function matches(pattern: string, input: string, strict = false): boolean {
	const w = compileWildcard(pattern, strict);
	if (typeof w === "string") throw new Error(w);
	return wildcardMatches(w, input);
}

const ROWS: [string, string, boolean, boolean][] = [
	// pattern, input, wildcard, strict wildcard
	["*", "", true, true],
	["", "", true, true],
	["", "a", false, false],
	["a*", "abc", true, true],
	["*c", "abc", true, true],
	["a*c", "ac", true, true],
	["a*c", "abcbc", true, true],
	["a*c", "abcb", false, false],
	["A*C", "abc", true, false],
	["*.example.com", "www.example.com", true, true],
	["*.example.com", "example.com", false, false],
	["/a/*", "/a/b/c", true, true],
	["a?c", "abc", false, false],
	["a?c", "a?c", true, true],
	["a\\*c", "a*c", true, true],
	["a\\*c", "abc", false, false],
	["a\\\\c", "a\\c", true, true],
	["*a*b*", "xxaxxbxx", true, true],
	["*a*b", "xxaxxbxx", false, false],
	["a*a*a*a*a*a*a*b", "a".repeat(2000), false, false],
];

describe("wildcard matching", () => {
	it.each(ROWS)("%j on %j: wildcard %s, strict %s", (pattern, input, loose, strict) => {
		expect(matches(pattern, input)).toBe(loose);
		expect(matches(pattern, input, true)).toBe(strict);
	});
});

describe("wildcard errors", () => {
	it.each([
		["a\\b", "invalid wildcard: wildcard syntax error at position 1: invalid escape sequence"],
		["a\\?", "invalid wildcard: wildcard syntax error at position 1: invalid escape sequence"],
		[
			"ab\\",
			"invalid wildcard: wildcard syntax error at position 2: incomplete escape sequence at the end of the wildcard",
		],
		["a**", "wildcard contains a double star"],
		["**\\q", "invalid wildcard: wildcard syntax error at position 2: invalid escape sequence"],
	])("%j gives %j", (pattern, message) => {
		expect(compileWildcard(pattern, false)).toBe(message);
	});

	it("allows an escaped star next to a star", () => {
		expect(typeof compileWildcard("\\**", false)).toBe("object");
	});
});
