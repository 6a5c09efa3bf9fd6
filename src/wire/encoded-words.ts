/**
 * Custom metadata values in header values: printable ASCII as is, anything else as an RFC 2047
 * encoded word (`=?UTF-8?B?…?=`), as R2 answers (developers.cloudflare.com/r2/api/s3/extensions/).
 */
import { fromBase64, toBase64 } from "../common/encoding.ts";

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ENCODED_WORD = /^=\?utf-8\?([bq])\?([^?]*)\?=$/i;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Bytes as UTF-8 text, or undefined when they are not UTF-8. */
function utf8(bytes: Uint8Array): string | undefined {
	try {
		return strictUtf8.decode(bytes);
	} catch {
		return undefined;
	}
}

/** The bytes of an RFC 2047 Q-encoded word (§4.2): `_` is a space, `=XX` a byte. */
function fromQ(text: string): Uint8Array {
	const binary = text
		.replace(/_/g, " ")
		.replace(/=([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
	return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * A custom metadata value as a header value. Values with leading or trailing spaces, or that look
 * like an encoded word, are encoded too, since HTTP trims header values.
 */
export function encodeMetadataValue(value: string): string {
	if (PRINTABLE_ASCII.test(value) && !value.startsWith("=?") && value === value.trim()) return value;
	return `=?UTF-8?B?${toBase64(new TextEncoder().encode(value))}?=`;
}

/**
 * A header value back to a custom metadata value: RFC 2047 encoded words (B or Q, UTF-8) are
 * decoded, and so are raw UTF-8 bytes, which headers deliver as one character per byte. Anything
 * that does not decode to UTF-8 is left as it is.
 */
export function decodeMetadataValue(value: string): string {
	const word = ENCODED_WORD.exec(value);
	if (word) {
		const [, encoding, text = ""] = word;
		const bytes = encoding?.toLowerCase() === "b" ? fromBase64(text) : fromQ(text);
		return (bytes && utf8(bytes)) ?? value;
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every Latin-1 code unit, one per byte.
	if (/^[\x00-\xff]*$/.test(value) && /[\x80-\xff]/.test(value)) {
		return utf8(Uint8Array.from(value, (c) => c.charCodeAt(0))) ?? value;
	}
	return value;
}
