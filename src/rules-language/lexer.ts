/**
 * The lexer: tokens of the Rules language, read on demand by the parser.
 *
 * Emulates: wirefilter's lexing functions (engine/src/lex.rs, scheme.rs `Identifier::lex_with`,
 * rhs_types/{bytes,int,ip,list}.rs), including where each error points. The grammar is typed
 * (how `12:13` or `{80 443}` reads depends on the field on the left), so there is no token
 * stream: the parser calls the reader the left side's type asks for.
 * Every reader takes a position and returns the value and the position after it, or throws a
 * {@link LexError} whose span is the one the engine reports (often "the rest of the input").
 * Gaps: none known.
 */
import { I64_MAX, I64_MIN, parseRustInt, toByteString } from "./bytes.ts";
import { LexError } from "./errors.ts";
import { IP_SYNTAX_ERROR, type IpRange, isIpFailure, parseIp, parseIpRangeItem } from "./ip.ts";
import type { IpValue } from "./types.ts";

/** The text being lexed and where it ends (the engine lexes the `trim`med input). */
export interface Src {
	readonly text: string;
	readonly end: number;
}

/** Throws the error `reason` spanning [start, end). */
export function fail(reason: string, start: number, end: number): never {
	throw new LexError(reason, start, end);
}

/** True when the text at `pos` starts with `literal`. */
export function at(s: Src, pos: number, literal: string): boolean {
	return pos + literal.length <= s.end && s.text.startsWith(literal, pos);
}

/** Skips spaces, CR and LF only: a tab is not a separator (wirefilter `SPACE_CHARS`). */
export function skipSpace(s: Src, pos: number): number {
	let p = pos;
	while (p < s.end) {
		const c = s.text.charCodeAt(p);
		if (c !== 32 && c !== 13 && c !== 10) break;
		p++;
	}
	return p;
}

/** `expect`: the literal, or `expected literal "…"` over the rest of the input. */
export function expect(s: Src, pos: number, literal: string): number {
	if (!at(s, pos, literal)) fail(`expected literal ${JSON.stringify(literal)}`, pos, s.end);
	return pos + literal.length;
}

/** Length in UTF-16 units of the character (code point) at `pos`. */
function charLength(s: Src, pos: number): number {
	const c = s.text.charCodeAt(pos);
	return c >= 0xd800 && c <= 0xdbff && pos + 1 < s.end ? 2 : 1;
}

/** `take`: exactly `count` characters, or `expected N characters, but found M`. */
function take(s: Src, pos: number, count: number): [string, number] {
	let p = pos;
	for (let i = 0; i < count; i++) {
		if (p >= s.end) fail(`expected ${count} characters, but found ${i}`, pos, s.end);
		p += charLength(s, p);
	}
	return [s.text.slice(pos, p), p];
}

/** `take_while`: one or more characters matching `test`, or `expected {name}`. */
function takeWhile(s: Src, pos: number, name: string, test: (c: string) => boolean): [string, number] {
	let p = pos;
	while (p < s.end && test(s.text[p] ?? "")) p++;
	if (p === pos) fail(`expected ${name}`, pos, s.end);
	return [s.text.slice(pos, p), p];
}

const IDENT_CHAR = (c: string) => /^[A-Za-z0-9_]$/.test(c);
const HEX_DIGIT = (c: string) => /^[0-9A-Fa-f]$/.test(c);
const IP_CHAR = (c: string) => /^[0-9a-fA-F:./]$/.test(c);

/** A dotted identifier (`http.request.uri.path`): `[A-Za-z0-9_]+` parts joined by `.`. */
export function lexIdentifier(s: Src, pos: number): [string, number] {
	let p = pos;
	for (;;) {
		p = takeWhile(s, p, "identifier character", IDENT_CHAR)[1];
		if (!at(s, p, ".")) break;
		p++;
	}
	return [s.text.slice(pos, p), p];
}

function fixedByte(s: Src, pos: number, digits: number, radix: number): [number, number] {
	const [text, p] = take(s, pos, digits);
	const parsed = parseRustInt(text, radix, 0n, 255n);
	if (!parsed.ok) fail(`${parsed.error} while parsing with radix ${radix}`, pos, p);
	return [Number(parsed.value), p];
}

/** A quoted string's body, from just after the opening `"`: escapes `\" \\ \xHH \OOO` only. */
function lexQuotedBody(s: Src, pos: number): [string, number] {
	let out = "";
	let p = pos;
	for (;;) {
		if (p >= s.end) fail("could not find an ending quote", pos, s.end);
		const c = s.text[p] ?? "";
		if (c === '"') return [out, p + 1];
		if (c !== "\\") {
			const len = charLength(s, p);
			out += toByteString(s.text.slice(p, p + len));
			p += len;
			continue;
		}
		p++;
		if (p >= s.end) fail("could not find an ending quote", pos, s.end);
		const e = s.text[p] ?? "";
		if (e === '"' || e === "\\") {
			out += e;
			p++;
		} else if (e === "x") {
			const [b, q] = fixedByte(s, p + 1, 2, 16);
			out += String.fromCharCode(b);
			p = q;
		} else if (e >= "0" && e <= "7") {
			const [b, q] = fixedByte(s, p, 3, 8);
			out += String.fromCharCode(b);
			p = q;
		} else {
			fail('expected ", xHH or OOO after \\', p, p + charLength(s, p));
		}
	}
}

/** A raw string's body, from just after the `r`: `#…#"…"#…#`, no escapes, up to 255 `#`. */
function lexRawBody(s: Src, pos: number): [string, number] {
	let hashes = 0;
	while (at(s, pos + hashes, "#")) hashes++;
	if (hashes > 255) fail("invalid raw string hash count, there can't be more than 255 #s", pos, s.end);
	if (!at(s, pos + hashes, '"')) fail('expected " or #', pos + hashes, s.end);
	const start = pos + hashes + 1;
	const close = `"${"#".repeat(hashes)}`;
	const found = s.text.indexOf(close, start);
	if (found === -1 || found + close.length > s.end) fail("could not find an ending quote", pos, s.end);
	return [toByteString(s.text.slice(start, found)), found + close.length];
}

/** How a bytes literal was written; wildcards refuse the hex form. */
export type BytesFormat = "quoted" | "raw" | "hex";

/** A quoted or raw string (`lex_quoted_or_raw_string`). */
export function lexQuotedOrRaw(s: Src, pos: number): [string, number, BytesFormat] {
	if (pos >= s.end) fail("unrecognised input", pos, s.end);
	const c = s.text[pos];
	if (c === '"') return [...lexQuotedBody(s, pos + 1), "quoted"];
	if (c === "r") return [...lexRawBody(s, pos + 1), "raw"];
	return fail('expected " or r', pos, s.end);
}

function lexSeparator(s: Src, pos: number): number {
	const [sep, p] = take(s, pos, 1);
	if (sep !== ":" && sep !== "-" && sep !== ".") fail("expected byte separator", pos, p);
	return p;
}

/** A bytes literal: quoted, raw, or hex bytes `6F:72-67.00` (at least two bytes). */
export function lexBytes(s: Src, pos: number): [string, number, BytesFormat] {
	if (pos >= s.end) fail("unrecognised input", pos, s.end);
	const c = s.text[pos];
	if (c === '"' || c === "r") return lexQuotedOrRaw(s, pos);
	let [b, p] = fixedByte(s, pos, 2, 16);
	let out = String.fromCharCode(b);
	p = lexSeparator(s, p);
	for (;;) {
		[b, p] = fixedByte(s, p, 2, 16);
		out += String.fromCharCode(b);
		try {
			p = lexSeparator(s, p);
		} catch {
			return [out, p, "hex"];
		}
	}
}

function parseNumber(s: Src, start: number, end: number, radix: number): number {
	const parsed = parseRustInt(s.text.slice(start, end), radix, I64_MIN, I64_MAX);
	if (!parsed.ok) fail(`${parsed.error} while parsing with radix ${radix}`, start, end);
	// Int values are JS numbers: exact up to 2^53, as the edge supplies them.
	return Number(parsed.value);
}

/** An integer: `0x…` hex, a leading `0` octal, else decimal with an optional `-`. */
export function lexInt(s: Src, pos: number): [number, number] {
	if (at(s, pos, "0x")) {
		const [, p] = takeWhile(s, pos + 2, "digit", HEX_DIGIT);
		return [parseNumber(s, pos + 2, p, 16), p];
	}
	if (at(s, pos, "0")) {
		const [, p] = takeWhile(s, pos, "digit", HEX_DIGIT);
		return [parseNumber(s, pos, p, 8), p];
	}
	const digitsAt = at(s, pos, "-") ? pos + 1 : pos;
	const [, p] = takeWhile(s, digitsAt, "digit", HEX_DIGIT);
	return [parseNumber(s, pos, p, 10), p];
}

/** An integer or an inclusive range `a..b` (set items only). */
export function lexIntRange(s: Src, pos: number): [[number, number], number] {
	const [first, p] = lexInt(s, pos);
	if (!at(s, p, "..")) return [[first, first], p];
	const [last, q] = lexInt(s, p + 2);
	if (last < first) fail("incompatible range bounds", pos, q);
	return [[first, last], q];
}

/** A single IP address (equality and ordering): no CIDR, no range. */
export function lexIpAddr(s: Src, pos: number): [IpValue, number] {
	const [chunk, p] = takeWhile(s, pos, "IP address character", IP_CHAR);
	const ip = parseIp(chunk);
	if (ip === undefined) fail(IP_SYNTAX_ERROR, pos, p);
	return [ip, p];
}

/** A set item of an IP field: address, CIDR (host bits zero) or range `a..b`. */
export function lexIpRange(s: Src, pos: number): [IpRange, number] {
	const [chunk, p] = takeWhile(s, pos, "IP address character", IP_CHAR);
	const item = parseIpRangeItem(chunk);
	if (isIpFailure(item)) fail(item.reason, pos + item.start, pos + item.end);
	return [item, p];
}

/** A named list `$name`: `[a-z0-9_.]+`, not starting or ending with `.`. */
export function lexListName(s: Src, pos: number): [string, number] {
	const start = expect(s, pos, "$");
	let p = start;
	while (p < s.end && /^[a-z0-9_.]$/.test(s.text[p] ?? "")) p++;
	const name = s.text.slice(start, p);
	if (name === "") {
		const c = p < s.end ? s.text.slice(p, p + charLength(s, p)) : "";
		fail(`invalid list name ${JSON.stringify(c)}`, start, s.end);
	}
	if (name.startsWith(".") || name.endsWith(".")) fail(`invalid list name ${JSON.stringify(name)}`, start, s.end);
	return [name, p];
}

/** Matches the first of `words` that prefixes the text at `pos` (the engine's `lex_enum!`). */
export function lexWord<T extends string>(
	s: Src,
	pos: number,
	words: readonly (readonly [string, T])[],
): [T, number] | undefined {
	for (const [word, value] of words) if (at(s, pos, word)) return [value, pos + word.length];
	return undefined;
}
