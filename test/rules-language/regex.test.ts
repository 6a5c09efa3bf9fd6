import { describe, expect, it } from "vitest";
import { toByteString } from "../../src/rules-language/bytes.ts";
import { translateRegex } from "../../src/rules-language/regex.ts";

function matches(pattern: string, subject: string): boolean {
	const result = translateRegex(pattern);
	if (!result.ok) throw new Error(result.error);
	return result.regex.test(toByteString(subject));
}

/** Rust regex (unicode off, bytes) semantics, row by row: pattern, subject, is_match. */
const MATCHES: [string, string, boolean][] = [
	["abc", "xabcx", true],
	["^abc$", "xabc", false],
	["(?i)ABC", "abc", true],
	["(?i:A)b", "aB", false],
	["(?i:A)b", "Ab", true],
	["a(?i)b|c", "C", true],
	["(?-i:a)", "A", false],
	["(?i)é", "É", false],
	["é", "café", true],
	// Above 0xFF, `\\x{…}` is a scalar matched as its UTF-8 bytes, as a literal `é` is (engine-checked).
	["^\\x{100}$", "Ā", true],
	["^\\x{e9}$", "é", false],
	["^.{4}$", "café", false],
	["^.{5}$", "café", true],
	["a.b", "a\nb", false],
	["(?s)a.b", "a\nb", true],
	["a.b", "a\rb", true],
	["^b", "a\nb", false],
	["(?m)^b", "a\nb", true],
	["(?m)a$", "a\nb", true],
	["(?m)a$", "a\rb", false],
	["a$", "a\n", false],
	["\\Aab", "ab", true],
	["\\Ab", "ab", false],
	["b\\z", "ab", true],
	["a\\z", "ab", false],
	["(?P<word>ab)+", "abab", true],
	["(?<word>ab)c", "abc", true],
	["\\d+", "x42", true],
	["^\\d$", "٣", false],
	["^\\w+$", "abc_1", true],
	["^\\w$", "é", false],
	["\\s", "\u00a0", false],
	["\\s", "\t", true],
	["\\S", " ", false],
	["\\bfoo\\b", "a foo b", true],
	["\\bfoo\\b", "afoo", false],
	["[[:alpha:]]+", "abc", true],
	["^[[:digit:]]+$", "123", true],
	["^[[:^digit:]]+$", "abc", true],
	["^[[:upper:][:digit:]]+$", "A1", true],
	["^[^a]$", "é", false],
	["^[^a]{2}$", "é", true],
	["[]a]", "]", true],
	["[a-]", "-", true],
	["(?i)[a-c]", "B", true],
	["[\\d]", "5", true],
	["\\x41", "A", true],
	["\\x{41}", "A", true],
	["\\xC3\\xA9", "é", true],
	["\\.", "a", false],
	["\\.", ".", true],
	["a{2}", "aa", true],
	["a{2,}", "a", false],
	["^a{1,2}$", "aaa", false],
	["a*?b", "aab", true],
	["(?U)a+", "a", true],
	["a**", "aaa", true],
	["(?x) a b # comment", "ab", true],
	["\\t", "\t", true],
	["a|b|", "zzz", true],
	["(?:ab)+$", "abab", true],
];

describe("regex translation", () => {
	it.each(MATCHES)("%j on %j is %s", (pattern, subject, expected) => {
		expect(matches(pattern, subject)).toBe(expected);
	});
});

/** Refusals, with regex-syntax's Display (or our text where the engine would accept). */
const REFUSED: [string, string, string][] = [
	["(?=x)", "^^^", "look-around, including look-ahead and look-behind, is not supported"],
	["(?!x)", "^^^", "look-around, including look-ahead and look-behind, is not supported"],
	["(?<=x)", "^^^^", "look-around, including look-ahead and look-behind, is not supported"],
	["(?<!x)", "^^^^", "look-around, including look-ahead and look-behind, is not supported"],
	["(a)\\1", "   ^^", "backreferences are not supported"],
	["(a", "^", "unclosed group"],
	["a)", " ^", "unopened group"],
	["+a", "^", "repetition operator missing expression"],
	["[a", "^", "unclosed character class"],
	["\\q", "^^", "unrecognized escape sequence"],
	["a\\", " ^", "incomplete escape sequence, reached end of pattern prematurely"],
	["a{,2}", "  ^", "repetition quantifier expects a valid decimal"],
	["a{2", " ^^", "unclosed counted repetition"],
	["(?z)", "  ^", "unrecognized flag"],
	["(?i-)", "   ^", "dangling flag negation operator"],
	["\\pL", "^^^", "Unicode not allowed here"],
	["[\\x{100}]", " ^^^^^^^", "Unicode not allowed here"],
	["[a&&b]", "  ^^", "character class set operations are not supported by this emulator"],
	["[a[b]]", "  ^", "nested character classes are not supported by this emulator"],
	["(?u)a", "  ^", "the u flag is not supported by this emulator"],
	["[é]", " ^", "non-ASCII characters in a class are not supported by this emulator"],
	["\\b{start}", "^^^", "word boundary assertions like \\b{start} are not supported by this emulator"],
];

describe("regex refusals", () => {
	it.each(REFUSED)("%j is refused", (pattern, carets, message) => {
		expect(translateRegex(pattern)).toEqual({
			ok: false,
			error: `regex parse error:\n    ${pattern}\n    ${carets}\nerror: ${message}`,
		});
	});
});

/** The compiled matcher on byte strings (one char 0x00–0xFF per byte), as `bytes.ts` builds them. */
function matchesBytes(pattern: string, subject: string): boolean {
	const result = translateRegex(pattern);
	if (!result.ok) throw new Error(result.error);
	return result.regex.test(subject);
}

/** Bytes 0x80–0xFF are bytes, not Latin-1 letters: no Unicode class, case fold or line end applies to them. */
const BYTES: [string, string, boolean][] = [
	["^\\xE9$", "\xe9", true],
	["^\\xE9$", "\xc9", false],
	["(?i)^\\xE9$", "\xc9", false],
	["(?i)^[\\xE0-\\xFE]$", "\xc0", false],
	["^.$", "\xff", true],
	["^.$", "\x85", true],
	["^[^a]$", "\x80", true],
	["^\\w$", "\xe9", false],
	["^\\W$", "\xe9", true],
	["^\\s$", "\xa0", false],
	["^\\s$", "\x85", false],
	["\\bx", "\xe9x", true],
	["(?m)^b", "a\x85b", false],
	["(?m)^b", "a\nb", true],
	["^[\\x80-\\xFF]+$", "\x80\xff", true],
	["^é$", "\xc3\xa9", true],
	["^é$", "\xe9", false],
	["^\\x{100}$", "\xc4\x80", true],
	["(?s)^.$", "\n", true],
	["[[:^ascii:]]", "\x7f", false],
	["[[:^ascii:]]", "\x80", true],
];

describe("the compiled matcher on bytes", () => {
	it.each(BYTES)("%j on %j is %s", (pattern, subject, expected) => {
		expect(matchesBytes(pattern, subject)).toBe(expected);
	});
});

/**
 * Patterns anchored at the start with a literal: the matcher refuses a subject without that
 * prefix before the engine runs, and must answer exactly as the engine does.
 * Rows: pattern, subject, is_match (the anchored ones first, then look-alikes without a prefix).
 */
const PREFIXED: [string, string, boolean][] = [
	["^/api/v1/(users|orders)/[0-9]+$", "/api/v1/users/42", true],
	["^/api/v1/(users|orders)/[0-9]+$", "/bench/1k.bin", false],
	["^/api/v1/(users|orders)/[0-9]+$", "/api/v1/", false],
	["\\A/x", "/xy", true],
	["^abc", "xabc", false],
	["(?m)^abc", "x\nabc", true],
	["^(?i)abc", "ABC", true],
	["^(abc)", "abc", true],
	["^a|^b", "b", true],
	["abc", "xabc", true],
	["^a\\.b", "a.bc", true],
	["^a\\.b", "axb", false],
];

describe("the anchored literal prefix checked before the engine", () => {
	it.each(PREFIXED)("%j on %j is %s", (pattern, subject, expected) => {
		expect(matches(pattern, subject)).toBe(expected);
	});
});

/** Patterns a backtracking engine takes exponential time on answer on 64 KiB subjects. */
const PATHOLOGICAL: [string, string, boolean][] = [
	["^(a+)+$", `${"a".repeat(65536)}!`, false],
	["^(a|aa)+$", `${"a".repeat(65536)}!`, false],
	["^(x*)*y$", "x".repeat(65536), false],
	["^(x*)*y$", `${"x".repeat(65536)}y`, true],
	["(a*)*b", "a".repeat(65536), false],
	["^(\\w+\\s?)*$", `${"word ".repeat(13107)}!`, false],
];

describe("linear-time matching", () => {
	it.each(PATHOLOGICAL)("%j on a 64 KiB subject is %s", (pattern, subject, expected) => {
		expect(matchesBytes(pattern, subject)).toBe(expected);
	});
});

describe("counted repetitions beyond RE2's own limit of 1000", () => {
	it.each([
		["^a{2500}$", 2500, true],
		["^a{2500}$", 2499, false],
		["^(?:a{10}){200}$", 2000, true],
		["^(?:a{10}){200}$", 2010, false],
		["^a{1000,2001}$", 2001, true],
		["^a{1000,2001}$", 2002, false],
		["^a{1000,2001}$", 999, false],
		["^(?:a{0,50}){40}$", 2000, true],
		["^(?:a{0,50}){40}$", 2001, false],
		["^a{1500,}$", 1499, false],
		["^a{1500,}$", 5000, true],
	])("%j on %i bytes is %s", (pattern, n, expected) => {
		expect(matchesBytes(pattern, "a".repeat(n))).toBe(expected);
	});
});

describe("the compiled-size limit (10 MiB, as regex-automata counts a 64-bit build)", () => {
	it.each([
		"a{1000}{1000}",
		".{4079,65535}{100}",
		"a{4294967295}",
		"(?:[a-z]{100}){10000}",
		// 327,676 byte states of 32 bytes, plus the unanchored prefix and the match state.
		"a{327676}",
		// Anchored at the start only: the reverse NFA (for the lazy DFA) has the unanchored prefix.
		"^a{327675}",
		"^a{327677}$",
	])("refuses %j with the engine's text", (pattern) => {
		expect(translateRegex(pattern)).toEqual({
			ok: false,
			error: "Compiled regex exceeds size limit of 10485760 bytes.",
		});
	});

	it("accepts what fits", () => {
		expect(translateRegex("^a{327674}").ok).toBe(true);
	});
});
