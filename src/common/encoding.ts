/**
 * Byte encodings used on the wire: hex (ids, checksums in JSON), base64 (checksum headers, RFC
 * 2047 words) and base64url without padding (opaque cursors and tokens, RFC 4648 §5).
 *
 * Web-standard APIs only, so the gateway, the Zone and RemoteBucket (in Node or a Worker) share
 * one implementation.
 */

/** The two hex digits of each byte value: a SigV4 check writes two digests a request in hex. */
const HEX_BYTES = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, "0"));

/** Bytes to lower-case hex, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
	let hex = "";
	for (const byte of bytes) hex += HEX_BYTES[byte];
	return hex;
}

/** Hex (either case) to bytes, or undefined when `hex` is not an even number of hex digits. */
export function fromHex(hex: string): Uint8Array<ArrayBuffer> | undefined {
	if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/i.test(hex)) return undefined;
	const bytes = new Uint8Array(hex.length / 2);
	for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
	return bytes;
}

/** Bytes to base64 with padding (RFC 4648 §4). */
export function toBase64(bytes: Uint8Array): string {
	let binary = "";
	for (const byte of bytes) binary += String.fromCharCode(byte);
	return btoa(binary);
}

/** Base64 (RFC 4648 §4, padding optional) to bytes, or undefined when `text` is not base64. */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
	try {
		return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
	} catch {
		return undefined;
	}
}

/** Bytes to base64url without padding (RFC 4648 §5): safe in URLs, paths and query strings. */
export function toBase64Url(bytes: Uint8Array): string {
	return toBase64(bytes).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** Base64url without padding to bytes, or undefined when `text` is not base64url. */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
	if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
	return fromBase64(text.replaceAll("-", "+").replaceAll("_", "/"));
}
