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
 * The path the rules' `http.request.uri*` fields see.
 * @param gatewayDialect whether the request speaks the gateway's dialect (not S3's), whose
 *   `?key=` alias names an object on `/`.
 */
export function rulesPath(url: URL, setting: UrlNormalization, gatewayDialect: boolean): string {
	const alias = gatewayDialect ? aliasPath(url) : undefined;
	if (alias !== undefined) return alias;
	return setting.scope === "none" ? url.pathname : normalizePath(url.pathname, setting.type);
}

/** The URL the origin is sent: `url` itself, or with its path normalized when the scope is `both`. */
export function originUrl(url: URL, setting: UrlNormalization): URL {
	if (setting.scope !== "both") return url;
	const normalized = new URL(url);
	normalized.pathname = normalizePath(url.pathname, setting.type);
	return normalized;
}
