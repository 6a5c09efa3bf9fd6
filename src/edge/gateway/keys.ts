/**
 * Object keys from request paths (docs/gateway.md, "Keys"): decoded once, checked against R2's
 * key limit before any binding call.
 *
 * A key's `/` is the path's `/`, never `%2F`: the zone's rules read the path as sent, normalized
 * (`src/common/url-normalization.ts`), and normalization never decodes a reserved `%2F`
 * (https://developers.cloudflare.com/rules/normalization/how-it-works/), so a rule on
 * `/private/*` would not see `/private%2Freport.txt` while `%2F` named the key
 * `private/report.txt`. For the same reason the `?key=` alias is shown to the rules as the path
 * of the key it names (`aliasPath`).
 */
import { pathOfKey } from "../../common/url-normalization";
import { MAX_KEY_BYTES } from "../../wire/limits";
import { badRequest, invalidObjectName } from "./errors";

const encoder = new TextEncoder();

/** The query parameter that names a key on `/`, which every operation on one object takes. */
export const KEY_PARAM = "key";

/** An encoded slash, either case. */
const ENCODED_SLASH = /%2f/i;

/**
 * The object key a request names: its URL path without the leading `/`, percent-decoded
 * exactly once, so `/100%25` names `100%`. On the path `/`, a `key` query parameter names the
 * key instead: the one spelling of keys that no path holds, those with `.` or `..` segments
 * (URL parsing removes them, WHATWG URL "single-dot and double-dot segments") and those under
 * `client/v4/` (the API's path).
 *
 * @throws GatewayError 400 for a malformed escape, an encoded slash (`%2F`) in the path, or a
 * `key` parameter beside a key path; 400 (10020) for a key over MAX_KEY_BYTES.
 */
export function keyFromUrl(url: URL): string {
	const named = url.searchParams.get(KEY_PARAM);
	if (named !== null && url.pathname !== "/") {
		throw badRequest(`Name the key in the path or in ?key= on /, not both; got ${url.pathname} and key=${named}.`);
	}
	if (named === null && ENCODED_SLASH.test(url.pathname)) {
		throw badRequest(
			`The path ${url.pathname} has an encoded slash (%2F): send a key's / as /, or the key in ?key= on / (docs/gateway.md, "Keys").`,
		);
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

/**
 * The path the zone's rules see for a request naming its key in `?key=` on `/`: the path of that
 * key's object (`pathOfKey`), as if a URL rewrite had run before the rules, so a rule on a path
 * applies to the object the request reaches; undefined for any other request. The `raw.` fields
 * keep the URL as sent, as they do after Cloudflare's URL rewrites
 * (https://developers.cloudflare.com/rules/transform/url-rewrite/).
 */
export function aliasPath(url: URL): string | undefined {
	if (url.pathname !== "/") return undefined;
	const named = url.searchParams.get(KEY_PARAM);
	return named === null ? undefined : pathOfKey(named);
}
