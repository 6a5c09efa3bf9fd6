/**
 * Object keys from request paths (docs/gateway.md, "Keys"): decoded once, checked against R2's
 * key limit before any binding call.
 */
import { MAX_KEY_BYTES } from "../../wire/limits";
import { badRequest, invalidObjectName } from "./errors";

const encoder = new TextEncoder();

/** The query parameter that names a key on `/`, which every operation on one object takes. */
export const KEY_PARAM = "key";

/**
 * The object key a request names: its URL path without the leading `/`, percent-decoded
 * exactly once, so `/a%2Fb` and `/a/b` both name `a/b` and `/100%25` names `100%`. On the path
 * `/`, a `key` query parameter names the key instead: the one spelling of the keys `.` and `..`,
 * which URL parsing removes from any path (WHATWG URL, "single-dot and double-dot segments").
 *
 * @throws GatewayError 400 for a malformed escape or a `key` parameter beside a key path;
 * 400 (10020) for a key over MAX_KEY_BYTES.
 */
export function keyFromUrl(url: URL): string {
	const named = url.searchParams.get(KEY_PARAM);
	if (named !== null && url.pathname !== "/") {
		throw badRequest(`Name the key in the path or in ?key= on /, not both; got ${url.pathname} and key=${named}.`);
	}
	let key: string;
	try {
		key = named ?? decodeURIComponent(url.pathname.slice(1));
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
