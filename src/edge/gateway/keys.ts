import { badRequest, GatewayError } from "./errors";

/** R2's key limit, in bytes of UTF-8 (developers.cloudflare.com/r2/platform/limits/). */
export const MAX_KEY_BYTES = 1024;

const encoder = new TextEncoder();

/**
 * The object key a request names: its URL path without the leading `/`, percent-decoded
 * exactly once, so `/a%2Fb` and `/a/b` both name `a/b` and `/100%25` names `100%`.
 *
 * @throws GatewayError 400 for a malformed escape; 400 (10020) for a key over 1024 bytes.
 */
export function keyFromUrl(url: URL): string {
	let key: string;
	try {
		key = decodeURIComponent(url.pathname.slice(1));
	} catch {
		throw badRequest(`The path ${url.pathname} is not valid percent-encoding.`);
	}
	assertKey(key);
	return key;
}

/** @throws GatewayError 400 (10020) when `key` is over 1024 bytes of UTF-8. */
export function assertKey(key: string): void {
	if (encoder.encode(key).byteLength > MAX_KEY_BYTES) {
		throw new GatewayError(400, 10020, "The specified object name is not valid.");
	}
}
