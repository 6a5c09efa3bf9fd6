/**
 * Conditional requests (RFC 9110 §13.1, evaluated in the order of §13.2.2) over R2 objects.
 *
 * Reads and writes hand R2 a cleaned `Headers` for `onlyIf`, so the binding evaluates the
 * condition atomically with the operation; when a read's condition fails, R2 returns the object's
 * metadata and says nothing more, and `failureStatus` decides 304 or 412 from that metadata, with
 * no second call (edgezone's choice: Miniflare's `serveR2Object` makes a second `get` here).
 *
 * Two differences from handing R2 the raw headers, both deliberate:
 * - an If-Modified-Since or If-Unmodified-Since that is not a valid date is ignored (§13.1.3,
 *   §13.1.4) instead of reaching workerd, and an unquoted ETag is a 400 instead of a thrown error
 *   (workerd's `onlyIf` header parsing refuses it, as §8.8.3's grammar does), except where the S3
 *   dialect asks for S3's reading: S3 compares an unquoted ETag as if it were quoted;
 * - R2 compares If-Unmodified-Since strictly, so a date equal to Last-Modified fails there, while
 *   §13.1.4 says it passes. The date R2 receives is one second later, which makes R2's strict
 *   comparison at whole seconds the RFC's "not after".
 */
import { badRequest } from "./errors";

/** The four conditional headers, parsed. Absent headers are undefined; dates are ms since epoch, whole seconds. */
export interface Conditionals {
	ifMatch?: EntityTagList;
	ifNoneMatch?: EntityTagList;
	ifModifiedSince?: number;
	ifUnmodifiedSince?: number;
}

/** `*`, or a list of entity tags (`"x"` strong, `W/"x"` weak). */
type EntityTagList = "*" | { tag: string; weak: boolean }[];

const ENTITY_TAG = /^(W\/)?"([^"]*)"$/;

function parseEntityTags(name: string, value: string | null, asQuoted: boolean): EntityTagList | undefined {
	if (value === null) return undefined;
	if (value.trim() === "*") return "*";
	return value.split(",").map((part) => {
		const trimmed = part.trim();
		const match = ENTITY_TAG.exec(trimmed);
		if (match) return { tag: match[2] ?? "", weak: match[1] !== undefined };
		if (asQuoted && trimmed !== "" && !trimmed.includes('"')) return { tag: trimmed, weak: false };
		throw badRequest(`${name} must be "*" or a list of quoted entity tags; got ${value}.`);
	});
}

function parseDate(value: string | null): number | undefined {
	if (value === null) return undefined;
	const ms = Date.parse(value);
	return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000) * 1000;
}

/**
 * Reads the conditional headers of a request.
 * @param asQuoted true to read an unquoted entity tag (`abc`) as the quoted one (`"abc"`), as S3
 * does; false to refuse it, as RFC 9110 §8.8.3 and the binding's `onlyIf` headers do.
 * @throws GatewayError 400 when If-Match or If-None-Match is neither `*` nor (quoted) entity tags.
 */
export function parseConditionals(headers: Headers, asQuoted = false): Conditionals {
	return {
		ifMatch: parseEntityTags("If-Match", headers.get("if-match"), asQuoted),
		ifNoneMatch: parseEntityTags("If-None-Match", headers.get("if-none-match"), asQuoted),
		ifModifiedSince: parseDate(headers.get("if-modified-since")),
		ifUnmodifiedSince: parseDate(headers.get("if-unmodified-since")),
	};
}

/** Whether any condition is present. */
export function hasConditionals(c: Conditionals): boolean {
	return (
		c.ifMatch !== undefined ||
		c.ifNoneMatch !== undefined ||
		c.ifModifiedSince !== undefined ||
		c.ifUnmodifiedSince !== undefined
	);
}

function formatTags(tags: EntityTagList): string {
	return tags === "*" ? "*" : tags.map((t) => `${t.weak ? "W/" : ""}"${t.tag}"`).join(", ");
}

/**
 * The `onlyIf` to hand R2 for these conditions, or undefined when there are none.
 * A `Headers` value makes R2 compare dates in whole seconds, as HTTP dates are.
 */
export function toOnlyIf(c: Conditionals): Headers | undefined {
	if (!hasConditionals(c)) return undefined;
	const headers = new Headers();
	if (c.ifMatch !== undefined) headers.set("if-match", formatTags(c.ifMatch));
	if (c.ifNoneMatch !== undefined) headers.set("if-none-match", formatTags(c.ifNoneMatch));
	if (c.ifModifiedSince !== undefined) {
		headers.set("if-modified-since", new Date(c.ifModifiedSince).toUTCString());
	}
	if (c.ifUnmodifiedSince !== undefined) {
		headers.set("if-unmodified-since", new Date(c.ifUnmodifiedSince + 1000).toUTCString());
	}
	return headers;
}

/** §8.8.3.2: strong comparison for If-Match, weak comparison for If-None-Match. */
function matches(tags: EntityTagList, etag: string, weak: boolean): boolean {
	return tags === "*" || tags.some((t) => t.tag === etag && (weak || !t.weak));
}

/**
 * Evaluates the conditions against an object's validators, in the order of §13.2.2.
 *
 * @param object the object's `etag` (unquoted) and `uploaded` time.
 * @param read true for GET and HEAD, where a failed If-None-Match or If-Modified-Since is 304.
 * @returns undefined when every condition holds, else the status to answer: 412 or 304.
 */
export function evaluate(
	c: Conditionals,
	object: { etag: string; uploaded: Date },
	read: boolean,
): 304 | 412 | undefined {
	const lastModified = Math.floor(object.uploaded.getTime() / 1000) * 1000;
	if (c.ifMatch !== undefined) {
		if (!matches(c.ifMatch, object.etag, false)) return 412;
	} else if (c.ifUnmodifiedSince !== undefined && lastModified > c.ifUnmodifiedSince) {
		return 412;
	}
	if (c.ifNoneMatch !== undefined) {
		if (matches(c.ifNoneMatch, object.etag, true)) return read ? 304 : 412;
	} else if (read && c.ifModifiedSince !== undefined && lastModified <= c.ifModifiedSince) {
		return 304;
	}
	return undefined;
}

/**
 * The status for a read R2 refused under `onlyIf`: 412 when If-Match or If-Unmodified-Since is
 * what failed, otherwise 304 (§13.2.2 steps 1-2 come before 3-4).
 */
export function failureStatus(c: Conditionals, object: { etag: string; uploaded: Date }): 304 | 412 {
	return evaluate({ ifMatch: c.ifMatch, ifUnmodifiedSince: c.ifUnmodifiedSince }, object, true) ?? 304;
}
