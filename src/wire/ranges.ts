/**
 * Byte ranges on the wire (RFC 9110 §14): the `Range` request header parsed into what
 * `R2Bucket.get` takes, and `Content-Range` written by the gateway and read by RemoteBucket.
 *
 * R2 serves exactly one byte range of the forms `bytes=a-b`, `bytes=a-` and `bytes=-n`; the binding
 * itself never reports a bad range (it falls back to the whole body), so the gateway decides 400
 * and 416 from `parseRange`, as R2's public buckets do (and Miniflare's `serve.worker.ts` with
 * `parseRangeHeader`), and RemoteBucket sends only the ranges it says the gateway serves.
 */

/** The outcome of parsing a `Range` header. */
export type ParsedRange =
	| { kind: "none" }
	| { kind: "invalid"; reason: string }
	| { kind: "unsatisfiable" }
	| { kind: "range"; range: R2Range };

const RANGE = /^bytes=(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * @param header the raw `Range` header value, or null when absent.
 * @returns `none` without a header; `invalid` (answer 400) for a malformed, multiple or inverted
 * range; `unsatisfiable` (answer 416) for `bytes=-0`; otherwise the range as an R2Range in bytes.
 */
export function parseRange(header: string | null): ParsedRange {
	if (header === null) return { kind: "none" };
	const match = RANGE.exec(header.trim());
	if (!match) {
		return {
			kind: "invalid",
			reason: "Range must be one range of the form bytes=first-last, bytes=first- or bytes=-suffix.",
		};
	}
	const [, first, last, suffix] = match;
	if (suffix !== undefined) {
		const length = Number(suffix);
		return length === 0 ? { kind: "unsatisfiable" } : { kind: "range", range: { suffix: length } };
	}
	const offset = Number(first);
	if (last === "" || last === undefined) return { kind: "range", range: { offset } };
	const end = Number(last);
	if (end < offset) return { kind: "invalid", reason: "Range must not end before it starts." };
	return { kind: "range", range: { offset, length: end - offset + 1 } };
}

/**
 * Whether `range` selects at least one byte of an object of `size` bytes (RFC 9110 §14.1.1):
 * a first byte inside the object, or a positive suffix of a non-empty object.
 */
export function isSatisfiable(range: R2Range, size: number): boolean {
	if (size === 0) return false;
	return "suffix" in range ? range.suffix > 0 : (range.offset ?? 0) < size;
}

/** The bytes a satisfiable range selects in an object of `size` bytes, clamped to its end. */
export function servedRange(range: R2Range, size: number): { offset: number; length: number } {
	if ("suffix" in range) {
		const length = Math.min(range.suffix, size);
		return { offset: size - length, length };
	}
	const offset = range.offset ?? 0;
	return { offset, length: Math.min(range.length ?? size - offset, size - offset) };
}

/** The `Content-Range` value for the bytes R2 served, `bytes first-last/size` (RFC 9110 §14.4). */
export function contentRange(served: { offset: number; length: number }, size: number): string {
	return `bytes ${served.offset}-${served.offset + served.length - 1}/${size}`;
}

/** The bytes a 206 answer holds, from its `Content-Range`; the inverse of `contentRange`, undefined for anything else. */
export function parseContentRange(header: string | null): { offset: number; length: number; size: number } | undefined {
	const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header ?? "");
	if (!match) return undefined;
	const [first, last, size] = match.slice(1).map(Number) as [number, number, number];
	return { offset: first, length: last - first + 1, size };
}
