/**
 * Object keys from request paths (docs/gateway.md, "Keys"): decoded once, checked against R2's
 * key limit before any binding call.
 */
import { MAX_KEY_BYTES } from "../../wire/limits";
import { badRequest, invalidObjectName } from "./errors";

const encoder = new TextEncoder();

/**
 * The object key a request names: its URL path without the leading `/`, percent-decoded
 * exactly once, so `/a%2Fb` and `/a/b` both name `a/b` and `/100%25` names `100%`.
 *
 * @throws GatewayError 400 for a malformed escape; 400 (10020) for a key over MAX_KEY_BYTES.
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

/** @throws GatewayError 400 (10020) when `key` is over MAX_KEY_BYTES of UTF-8. */
export function assertKey(key: string): void {
	if (encoder.encode(key).byteLength > MAX_KEY_BYTES) {
		throw invalidObjectName();
	}
}
