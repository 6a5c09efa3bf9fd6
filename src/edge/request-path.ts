/**
 * What the zone's rules and its origin (the bucket gateway, or its S3 dialect) see of a request's
 * path, under the zone's URL normalization setting (`src/common/url-normalization.ts`,
 * https://developers.cloudflare.com/rules/normalization/settings/):
 * - the rules see the normalized path unless the scope is `none` ("Normalize incoming URLs");
 *   for the gateway's `?key=` alias, the path of the key's object (`gateway/keys.ts`);
 * - the origin sees the URL as sent, unless the scope is `both` ("Normalize URLs to origin",
 *   off by default: "requests sent to the origin are not modified").
 * The `raw.` fields always see the URL as sent (`request-fields.ts`).
 */
import { normalizePath, type UrlNormalization } from "../common/url-normalization";
import { aliasPath } from "./gateway/keys";

/**
 * Who reads a request's path at its destination: a proxied record's origin (or a Worker, or a
 * public bucket: the path as Cloudflare normalizes it), the bucket's S3 dialect, or the gateway's.
 */
export type PathReader = "origin" | "s3" | "gateway";

/**
 * The path the rules' `http.request.uri*` fields see.
 * @param reader who reads the path at the destination: the gateway's `?key=` alias names an
 *   object on `/`, and S3 reads `%2F` in a key as `/`.
 */
export function rulesPath(url: URL, setting: UrlNormalization, reader: PathReader): string {
	// The alias the gateway will read: that of the URL it is sent (normalized with scope `both`).
	const alias = reader === "gateway" ? aliasPath(originUrl(url, setting)) : undefined;
	if (alias !== undefined) return alias;
	if (setting.scope === "none") return url.pathname;
	// S3 decodes `%2F` in a key to `/` (the gateway's dialect refuses it, `gateway/keys.ts`), so an
	// S3 request's rules see the slash its object's key has: a rule on `/<bucket>/private/` then
	// holds for `/<bucket>/private%2Freport.txt` too.
	const path = reader === "s3" ? url.pathname.replace(/%2f/gi, "/") : url.pathname;
	return normalizePath(path, setting.type);
}

/** The URL the origin is sent: `url` itself, or with its path normalized when the scope is `both`. */
export function originUrl(url: URL, setting: UrlNormalization): URL {
	if (setting.scope !== "both") return url;
	const normalized = new URL(url);
	normalized.pathname = normalizePath(url.pathname, setting.type);
	return normalized;
}
