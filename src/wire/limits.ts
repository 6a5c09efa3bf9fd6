/**
 * R2's limits and fixed vocabularies, as the binding enforces them, in one place for the gateway
 * and RemoteBucket (developers.cloudflare.com/r2/platform/limits/, workerd `r2-bucket.c++`).
 */

/** The longest object key, in bytes of UTF-8. */
export const MAX_KEY_BYTES = 1024;

/**
 * The most custom metadata an object takes, counted as `metadataSize` counts (Miniflare
 * `R2Limits.MAX_METADATA_SIZE`; developers.cloudflare.com/r2/platform/limits/ says 8,192 bytes).
 */
export const MAX_METADATA_SIZE = 8192;

/**
 * The size of custom metadata as the binding counts it (Miniflare `Validator.metadataSize`): every
 * name and value in UTF-16 code units, doubled for a string holding a character past U+00FF.
 */
export function metadataSize(metadata: Record<string, string>): number {
	const length = (text: string) => (/[\u0100-\uffff]/.test(text) ? text.length * 2 : text.length);
	return Object.entries(metadata).reduce((size, [name, value]) => size + length(name) + length(value), 0);
}

/** The most keys a list page holds and a bulk delete takes (workers-api-reference, `list` and `delete`). */
export const MAX_KEYS = 1000;

/** The first part number of a multipart upload (r2/objects/multipart-objects). */
export const MIN_PART_NUMBER = 1;

/** The last part number of a multipart upload: at most 10000 parts. */
export const MAX_PART_NUMBER = 10000;

/** Whether `n` is a part number R2 accepts: an integer from 1 to 10000. */
export function isPartNumber(n: number): boolean {
	return Number.isInteger(n) && n >= MIN_PART_NUMBER && n <= MAX_PART_NUMBER;
}

/** The values `R2ListOptions.include` takes: which metadata a list entry carries. */
export const INCLUDE_VALUES = ["httpMetadata", "customMetadata"] as const;

/** One `include` value. */
export type IncludeValue = (typeof INCLUDE_VALUES)[number];

/** Whether `name` is an `include` value R2 knows. */
export function isIncludeValue(name: string): name is IncludeValue {
	return (INCLUDE_VALUES as readonly string[]).includes(name);
}
