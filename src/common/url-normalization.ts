/**
 * Cloudflare's URL normalization of a request's path, and the zone setting that picks it
 * (Rules > Settings > URL normalization; API `/zones/{zone_id}/url_normalization`).
 *
 * Emulates both types of https://developers.cloudflare.com/rules/normalization/how-it-works/:
 * - "rfc3986": unreserved characters (`A-Z a-z 0-9 - . _ ~`) are percent-decoded; the reserved
 *   ones (`: / ? # [ ] @ ! $ & ' ( ) * + , ; =`) are neither encoded nor decoded, so `%2F` stays
 *   `%2F`; every other byte is percent-encoded; percent-encodings are upper-cased; dot segments
 *   are removed (RFC 3986 §5.2.4).
 * - "cloudflare": first `\` becomes `/`, then successive `/` are merged, then the above.
 * The examples of https://developers.cloudflare.com/rules/normalization/examples/ are the tests.
 * Gaps: only the path is normalized, as every documented rule and example concerns the path; the
 * query string is left as sent. A `%` not followed by two hex digits is a literal byte and so
 * encoded (`%25`), which the docs do not show.
 */

/** The normalization type: `cloudflare` or `rfc3986` (SDK `URLNormalizationGetResponse.type`). */
export const NORMALIZATION_TYPES = ["cloudflare", "rfc3986"] as const;
export type NormalizationType = (typeof NORMALIZATION_TYPES)[number];

/**
 * Where URLs are normalized: `incoming` (before the zone's rules; the origin gets the URL as
 * sent), `both` (the origin too) or `none` (SDK `URLNormalizationGetResponse.scope`; the
 * dashboard's "Normalize incoming URLs" and "Normalize URLs to origin",
 * https://developers.cloudflare.com/rules/normalization/settings/).
 */
export const NORMALIZATION_SCOPES = ["incoming", "both", "none"] as const;

/** A zone's URL normalization setting, as the API answers it. */
export interface UrlNormalization {
	type: NormalizationType;
	scope: (typeof NORMALIZATION_SCOPES)[number];
}

/**
 * A zone's setting until it is changed, and after a DELETE: `cloudflare` on incoming URLs.
 * The API's default, which Cloudflare's own Terraform provider restores on delete ("setting to
 * the default value ... is the way they want to handle the DELETE calls",
 * github.com/cloudflare/terraform-provider-cloudflare/pull/1878); the dashboard page
 * rules/normalization/settings/ names RFC 3986 as its default type instead.
 */
export const DEFAULT_URL_NORMALIZATION: UrlNormalization = Object.freeze({ type: "cloudflare", scope: "incoming" });

const HEX = "0123456789ABCDEF";
const encoder = new TextEncoder();

/** RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~". */
function isUnreserved(byte: number): boolean {
	return (
		(byte >= 0x41 && byte <= 0x5a) ||
		(byte >= 0x61 && byte <= 0x7a) ||
		(byte >= 0x30 && byte <= 0x39) ||
		byte === 0x2d ||
		byte === 0x2e ||
		byte === 0x5f ||
		byte === 0x7e
	);
}

/** RFC 3986 §2.2: gen-delims and sub-delims. */
const RESERVED = new Set([...":/?#[]@!$&'()*+,;="].map((c) => c.charCodeAt(0)));

const percent = (byte: number) => `%${HEX[byte >> 4]}${HEX[byte & 15]}`;

function hexValue(code: number): number {
	if (code >= 0x30 && code <= 0x39) return code - 0x30;
	if (code >= 0x41 && code <= 0x46) return code - 0x37;
	if (code >= 0x61 && code <= 0x66) return code - 0x57;
	return -1;
}

/** The percent-encoding part of RFC 3986 normalization (decode unreserved, keep reserved, encode the rest). */
function normalizeEncoding(path: string): string {
	const bytes = encoder.encode(path);
	let out = "";
	for (let i = 0; i < bytes.length; i++) {
		const byte = bytes[i] ?? 0;
		if (byte === 0x25) {
			const high = hexValue(bytes[i + 1] ?? 0);
			const low = hexValue(bytes[i + 2] ?? 0);
			if (high >= 0 && low >= 0) {
				const decoded = high * 16 + low;
				out += isUnreserved(decoded) ? String.fromCharCode(decoded) : percent(decoded);
				i += 2;
				continue;
			}
		}
		out += isUnreserved(byte) || RESERVED.has(byte) ? String.fromCharCode(byte) : percent(byte);
	}
	return out;
}

/**
 * RFC 3986 §5.2.4, "Remove Dot Segments", on a path that begins with `/`: `.` segments go, and
 * each `..` removes the segment before it. One pass over the segments (linear in the path).
 */
export function removeDotSegments(path: string): string {
	const input = path.split("/");
	const output: string[] = [];
	// input[0] is the empty string before the leading "/".
	for (let i = 1; i < input.length; i++) {
		const segment = input[i] ?? "";
		const last = i === input.length - 1;
		if (segment === ".") {
			// "/." at the end leaves "/": an empty last segment.
			if (last) output.push("");
		} else if (segment === "..") {
			output.pop();
			if (last) output.push("");
		} else {
			output.push(segment);
		}
	}
	return `/${output.join("/")}`;
}

/**
 * A request path normalized as Cloudflare's `type` does (file header).
 * @param path the URL's path as received, beginning with `/`.
 */
export function normalizePath(path: string, type: NormalizationType): string {
	const separated = type === "cloudflare" ? path.replaceAll("\\", "/").replace(/\/{2,}/g, "/") : path;
	return removeDotSegments(normalizeEncoding(separated));
}

/**
 * A key as the path of its object, each byte spelt as normalization leaves it: unreserved bytes,
 * sub-delims, `:` and `@` (a path segment's `pchar`, RFC 3986 §3.3) as they are, `/` as the
 * separator, every other byte percent-encoded in upper case. Dot segments stay: they are part of
 * the key.
 */
export function pathOfKey(key: string): string {
	let out = "/";
	for (const byte of encoder.encode(key)) {
		const pchar = isUnreserved(byte) || (RESERVED.has(byte) && !"?#[]".includes(String.fromCharCode(byte)));
		out += pchar ? String.fromCharCode(byte) : percent(byte);
	}
	return out;
}
