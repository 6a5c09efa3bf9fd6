/**
 * `customMetadata` on the wire: one `x-amz-meta-{name}` header per entry, as R2's S3 API spells
 * it, values through RFC 2047 (encoded-words.ts). Header names are case-insensitive, so names
 * arrive lower case.
 */
import { HTTP_TOKEN } from "../common/http-token.ts";
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

/**
 * Writes an object's customMetadata on an answer as `x-amz-meta-{name}` headers, leaving out the
 * entries whose name cannot be a header name (Unicode, spaces: the binding takes any name), and
 * says how many it left out in `x-amz-missing-meta`, as R2's S3 API answers them
 * (https://developers.cloudflare.com/r2/api/s3/extensions/, "Metadata variance"): the object stays
 * readable, and the client can tell its metadata is not whole.
 */
export function answerCustomMetadata(metadata: Record<string, string>, headers: Headers): void {
	let missing = 0;
	for (const [name, value] of Object.entries(metadata)) {
		if (HTTP_TOKEN.test(name)) headers.set(`${META_PREFIX}${name}`, encodeMetadataValue(value));
		else missing++;
	}
	if (missing > 0) headers.set("x-amz-missing-meta", String(missing));
}
