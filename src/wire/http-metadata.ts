/**
 * `R2HTTPMetadata` on the wire: the six standard headers workerd's
 * `HttpMetadata::fromRequestHeaders` reads, in both directions, and its JSON form (dates as
 * ISO 8601). The gateway reads writes' headers and writes answers' headers with it; RemoteBucket
 * does the same backwards.
 */

/** The six headers of R2HTTPMetadata (workerd `HttpMetadata::fromRequestHeaders`). */
export const HTTP_METADATA_HEADERS = [
	"content-type",
	"content-language",
	"content-disposition",
	"content-encoding",
	"cache-control",
	"expires",
] as const;

/** The five string fields and their headers, in the binding's order; `cacheExpiry` is `Expires`, a date. */
const STRING_FIELDS = [
	["contentType", "content-type"],
	["contentLanguage", "content-language"],
	["contentDisposition", "content-disposition"],
	["contentEncoding", "content-encoding"],
	["cacheControl", "cache-control"],
] as const;

/**
 * Marks a Content-Type the gateway sent because the object has none: R2's public buckets answer
 * `application/octet-stream` for such objects, and this header says the type is not the object's.
 */
export const DEFAULT_CONTENT_TYPE = "x-r2-content-type-default";

/** The outcome of reading httpMetadata from headers: the metadata, or the `Expires` that is not a date. */
export type ParsedHttpMetadata = { kind: "metadata"; metadata: R2HTTPMetadata } | { kind: "invalid"; expires: string };

/**
 * httpMetadata from headers: the six that `R2HTTPMetadata` holds. On an answer of the gateway, a
 * Content-Type marked with DEFAULT_CONTENT_TYPE is not the object's.
 * @returns `invalid` when `Expires` is not an HTTP date.
 */
export function httpMetadataFromHeaders(headers: Headers): ParsedHttpMetadata {
	const metadata: R2HTTPMetadata = {};
	for (const [field, header] of STRING_FIELDS) {
		const value = headers.get(header);
		if (value !== null && !(field === "contentType" && headers.has(DEFAULT_CONTENT_TYPE))) metadata[field] = value;
	}
	const expires = headers.get("expires");
	if (expires !== null) {
		const ms = Date.parse(expires);
		if (Number.isNaN(ms)) return { kind: "invalid", expires };
		metadata.cacheExpiry = new Date(ms);
	}
	return { kind: "metadata", metadata };
}

/** Writes httpMetadata as the six headers, the inverse of `httpMetadataFromHeaders`. */
export function httpMetadataToHeaders(metadata: R2HTTPMetadata, headers: Headers): void {
	for (const [field, header] of STRING_FIELDS) {
		const value = metadata[field];
		if (value !== undefined) headers.set(header, value);
	}
	if (metadata.cacheExpiry !== undefined) headers.set("expires", metadata.cacheExpiry.toUTCString());
}

/** Copies the six headers from a `Headers` httpMetadata option as they are, as the binding reads them. */
export function copyHttpMetadataHeaders(from: Headers, to: Headers): void {
	for (const name of HTTP_METADATA_HEADERS) {
		const value = from.get(name);
		if (value !== null) to.set(name, value);
	}
}

/** httpMetadata with `cacheExpiry` as ISO 8601. */
export type R2HTTPMetadataJson = Omit<R2HTTPMetadata, "cacheExpiry"> & { cacheExpiry?: string };

/** httpMetadata as JSON. */
export function httpMetadataToJson(metadata: R2HTTPMetadata): R2HTTPMetadataJson {
	const { cacheExpiry, ...rest } = metadata;
	return cacheExpiry === undefined ? rest : { ...rest, cacheExpiry: cacheExpiry.toISOString() };
}

/** httpMetadata from JSON, the inverse of `httpMetadataToJson`. */
export function httpMetadataFromJson(json: R2HTTPMetadataJson): R2HTTPMetadata {
	const { cacheExpiry, ...rest } = json;
	return cacheExpiry === undefined ? rest : { ...rest, cacheExpiry: new Date(cacheExpiry) };
}

/**
 * A request header by which a client asks for bodies exactly as stored (docs/gateway.md, "Raw
 * bodies"): the answer then carries the stored Content-Encoding in STORED_ENCODING_HEADER and no
 * `Content-Encoding`, so nothing between the gateway and the client (Cloudflare's front line,
 * wrangler dev's emulation of it, a fetch that decodes) decodes or re-encodes the bytes.
 */
export const RAW_BODY_HEADER = "x-r2-raw-body";

/** The answer header that carries the stored Content-Encoding to a client that asked for raw bodies. */
export const STORED_ENCODING_HEADER = "x-r2-content-encoding";

/** Asks for bodies as stored (RAW_BODY_HEADER). */
export function askForRawBody(headers: Headers): void {
	headers.set(RAW_BODY_HEADER, "true");
}

/** Whether a request asks for bodies as stored (`x-r2-raw-body: true`). */
export function wantsRawBody(headers: Headers): boolean {
	return headers.get(RAW_BODY_HEADER) === "true";
}
