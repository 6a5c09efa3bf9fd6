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
