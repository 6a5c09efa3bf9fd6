/**
 * Byte strings and Rust's integer parsing.
 *
 * Emulates: the engine works on `&[u8]`; we hold bytes as JS strings with one char per byte
 * (0–255), the UTF-8 form of the text. `parseRustInt` reproduces `from_str_radix` and the
 * `ParseIntError` texts that end up in error messages (`invalid digit found in string`, …).
 * Gaps: none known for the radixes the language uses (8, 10, 16).
 */

// Anything above U+007F: such text needs its UTF-8 bytes spelled out.
const NON_ASCII = /[\u0080-\uffff]/;

/** The UTF-8 bytes of `text` as a byte string; ASCII text is returned as it is. */
export function toByteString(text: string): string {
	if (!NON_ASCII.test(text)) return text;
	let out = "";
	for (const b of new TextEncoder().encode(text)) out += String.fromCharCode(b);
	return out;
}

/** The text of a byte string read as UTF-8, or undefined when it is not valid UTF-8. */
export function fromByteString(bytes: string): string | undefined {
	if (!NON_ASCII.test(bytes)) return bytes;
	const array = Uint8Array.from(bytes, (c) => c.charCodeAt(0));
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(array);
	} catch {
		return undefined;
	}
}

/** The number of bytes `text` takes in UTF-8 (Rust measures columns and spans in bytes). */
export function utf8Length(text: string): number {
	if (!NON_ASCII.test(text)) return text.length;
	return new TextEncoder().encode(text).length;
}

/** Rust's `ParseIntError` kinds, as their `Display` texts. */
export type ParseIntFailure =
	| "cannot parse integer from empty string"
	| "invalid digit found in string"
	| "number too large to fit in target type"
	| "number too small to fit in target type";

/**
 * Rust's `iN/uN::from_str_radix`: an optional sign (`-` only for signed types; a lone sign is an
 * invalid digit), then digits of `radix`, within [min, max].
 */
export function parseRustInt(
	text: string,
	radix: number,
	min: bigint,
	max: bigint,
): { ok: true; value: bigint } | { ok: false; error: ParseIntFailure } {
	if (text === "") return { ok: false, error: "cannot parse integer from empty string" };
	let digits = text;
	let negative = false;
	if (text[0] === "+" || text[0] === "-") {
		if (text.length === 1) return { ok: false, error: "invalid digit found in string" };
		if (text[0] === "-") {
			if (min === 0n) return { ok: false, error: "invalid digit found in string" };
			negative = true;
		}
		digits = text.slice(1);
	}
	let value = 0n;
	const big = BigInt(radix);
	for (const c of digits) {
		const d = Number.parseInt(c, 36);
		if (Number.isNaN(d) || d >= radix) return { ok: false, error: "invalid digit found in string" };
		value = value * big + BigInt(d);
		// Rust reports overflow as soon as it happens, before a later invalid digit.
		if (!negative && value > max) return { ok: false, error: "number too large to fit in target type" };
		if (negative && -value < min) return { ok: false, error: "number too small to fit in target type" };
	}
	return { ok: true, value: negative ? -value : value };
}

/** i64 bounds. */
export const I64_MIN = -(2n ** 63n);
/** i64 bounds. */
export const I64_MAX = 2n ** 63n - 1n;

/** ASCII lower case of a byte string (the engine's `lower` leaves other bytes alone). */
export function asciiLower(bytes: string): string {
	return bytes.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** ASCII upper case of a byte string. */
export function asciiUpper(bytes: string): string {
	return bytes.replace(/[a-z]+/g, (s) => s.toUpperCase());
}
