/**
 * `customMetadata` on the wire: one `x-amz-meta-{name}` header per entry, as R2's S3 API spells
 * it, values through RFC 2047 (encoded-words.ts). Header names are case-insensitive, so names
 * arrive lower case.
 */
import { decodeMetadataValue, encodeMetadataValue } from "./encoded-words.ts";

const META_PREFIX = "x-amz-meta-";

/** customMetadata from `x-amz-meta-{name}` headers; names come lower case, as HTTP delivers them. */
export function customMetadataFromHeaders(headers: Headers): Record<string, string> {
	const metadata: Record<string, string> = {};
	for (const [name, value] of headers) {
		if (name.startsWith(META_PREFIX)) metadata[name.slice(META_PREFIX.length)] = decodeMetadataValue(value);
	}
	return metadata;
}

/** Writes customMetadata as `x-amz-meta-{name}` headers, the inverse of `customMetadataFromHeaders`. */
export function customMetadataToHeaders(metadata: Record<string, string>, headers: Headers): void {
	for (const [name, value] of Object.entries(metadata)) {
		headers.set(`${META_PREFIX}${name}`, encodeMetadataValue(value));
	}
}
