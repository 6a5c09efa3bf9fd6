/**
 * Custom log fields: the `RequestHeaders`, `ResponseHeaders`, `Cookies` and `ResponseFields`
 * objects of an `http_requests` entry (docs `logs/logpush/logpush-job/custom-fields`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/, and its "Limitations").
 *
 * Emulates, with the documented limits:
 * - only the names of the zone's enabled `log_custom_field` rules (all five lists); the headers of
 *   `request_fields` as the visitor sent them, before any request header rule
 *   (`edge/phases/request-headers.ts`), and those of `transformed_request_fields` as the rules
 *   left them (docs: "Transformed request fields ... after transformations"), both in
 *   `RequestHeaders`;
 * - header names matched case-insensitively (the Fetch `Headers` object does) and logged in
 *   lower case (as configured: the API refuses upper case); cookie names matched exactly;
 * - only the first instance of a repeated header: `set-cookie`, which Fetch keeps apart
 *   (`getSetCookie()`), logs its first line; a cookie named twice in `Cookie` logs its first
 *   value;
 * - a response header configured with `preserve_duplicates` (in `response_fields` or
 *   `raw_response_fields`) also logs every value, as an array under `ResponseFields` (docs:
 *   "all values of the set-cookie headers will be logged ... as an array of string values under
 *   ResponseFields"); edgezone's reading: `ResponseHeaders` keeps its first value as for any
 *   configured header;
 * - the request header `range` never (refused at write, and skipped here too);
 * - at most 40 names (`MAX_CUSTOM_FIELDS`, enforced at write; only the first 40 are read);
 * - 8 KB in all: `CUSTOM_FIELDS_MAX_BYTES` (8,192) bytes of UTF-8 *values* across the
 *   objects, names not counted, spent in the order request headers, cookies, response headers
 *   (the order the docs list them in; edgezone's reading), then `ResponseFields`, each object in
 *   configured order. The value that crosses the limit is cut to the bytes left, at a character boundary; every later value is logged as `""` (present
 *   but truncated, so an absent header still reads differently from a truncated one).
 * Gaps: headers other than `set-cookie` that repeat reach a Worker already joined with ", "
 * (Fetch standard, "combine"), so they are logged joined, and `ResponseFields` holds that one
 * joined value.
 */

import { forEachCookie } from "../common/cookies";

/**
 * Custom log fields per zone, across all rules and lists together: edgezone's cap, as Cloudflare
 * publishes no per-zone figure (`zone/limits.ts`). Refused past it at write
 * (`zone/phases/log-custom-fields.ts`), and only the first 40 read here.
 */
export const MAX_CUSTOM_FIELDS = 40;

/** A header or cookie named in a rule's list; `preserve_duplicates` only in the response lists. */
interface NamedField {
	readonly name: string;
	readonly preserve_duplicates?: boolean | undefined;
}

/**
 * The five lists of a `log_custom_field` rule's `action_parameters`, as the logs read them (the
 * API checks them: `zone/phases/log-custom-fields.ts`).
 */
interface CustomFieldLists {
	readonly request_fields?: readonly NamedField[] | undefined;
	readonly transformed_request_fields?: readonly NamedField[] | undefined;
	readonly response_fields?: readonly NamedField[] | undefined;
	readonly raw_response_fields?: readonly NamedField[] | undefined;
	readonly cookie_fields?: readonly NamedField[] | undefined;
}

/** Bytes of values the three custom-field objects hold together (docs custom-fields, "Limitations": 8 KB). */
export const CUSTOM_FIELDS_MAX_BYTES = 8 * 1024;

/** The configured names, deduplicated, in rule and list order. */
export interface CustomFieldNames {
	/** `request_fields`: headers as the visitor sent them. */
	request: readonly string[];
	/** `transformed_request_fields`: headers as the request header rules left them. */
	transformed: readonly string[];
	response: readonly string[];
	cookies: readonly string[];
	/** The response names configured with `preserve_duplicates`: every value goes to `ResponseFields`. */
	duplicates: readonly string[];
}

/** Name/value pairs picked from one request or response, before the size limit. */
export type Picked = readonly (readonly [string, string])[];

/** Every value of each header picked, for `ResponseFields`. */
export type PickedAll = readonly (readonly [string, readonly string[]])[];

/** The objects of an entry; `ResponseFields` only when a header is configured with `preserve_duplicates`. */
export interface CustomFieldObjects {
	RequestHeaders: Record<string, string>;
	ResponseHeaders: Record<string, string>;
	Cookies: Record<string, string>;
	ResponseFields?: Record<string, string[]>;
}

/** No names at all: a zone without a `log_custom_field` rule. */
export const NO_CUSTOM_FIELDS: CustomFieldNames = {
	request: [],
	transformed: [],
	response: [],
	cookies: [],
	duplicates: [],
};

/**
 * The names of the enabled `log_custom_field` rules (`EdgeConfig.logCustomFields`), at most 40
 * in all (counted rule by rule, then the transformed request headers of every rule), `range`
 * left out of the request headers.
 */
export function customFieldNames(rules: readonly CustomFieldLists[]): CustomFieldNames {
	const request = new Set<string>();
	const transformed = new Set<string>();
	const response = new Set<string>();
	const cookies = new Set<string>();
	const duplicates = new Set<string>();
	let count = 0;
	const add = (into: Set<string>, name: string) => {
		if (count >= MAX_CUSTOM_FIELDS || into.has(name)) return;
		into.add(name);
		count++;
	};
	for (const rule of rules) {
		for (const { name } of rule.request_fields ?? []) {
			if (name.toLowerCase() !== "range") add(request, name.toLowerCase());
		}
		for (const field of [...(rule.response_fields ?? []), ...(rule.raw_response_fields ?? [])]) {
			const name = field.name.toLowerCase();
			add(response, name);
			if (field.preserve_duplicates === true && response.has(name)) duplicates.add(name);
		}
		for (const { name } of rule.cookie_fields ?? []) add(cookies, name);
	}
	// A header one rule logs raw and another transformed is logged once, raw: RequestHeaders has one key per name.
	for (const rule of rules) {
		for (const { name } of rule.transformed_request_fields ?? []) {
			const lower = name.toLowerCase();
			if (lower !== "range" && !request.has(lower)) add(transformed, lower);
		}
	}
	return {
		request: [...request],
		transformed: [...transformed],
		response: [...response],
		cookies: [...cookies],
		duplicates: [...duplicates],
	};
}

/** Whether any name is configured. */
export function hasCustomFields(names: CustomFieldNames): boolean {
	return names.request.length + names.transformed.length + names.response.length + names.cookies.length > 0;
}

/**
 * The named headers present, in the order of `names` (lower case, as `customFieldNames` gives
 * them), from a head's `values` by lower-case name (the first `set-cookie` only: `edge/log-heads.ts`).
 */
export function pickHeaders(values: ReadonlyMap<string, string>, names: readonly string[]): Picked {
	const picked: [string, string][] = [];
	for (const name of names) {
		const value = values.get(name);
		if (value !== undefined) picked.push([name, value]);
	}
	return picked;
}

/** Every value of the named headers present, in the order of `names`, from a head's `every` by lower-case name. */
export function pickEvery(every: ReadonlyMap<string, readonly string[]>, names: readonly string[]): PickedAll {
	const picked: [string, readonly string[]][] = [];
	for (const name of names) {
		const values = every.get(name);
		if (values !== undefined) picked.push([name, values]);
	}
	return picked;
}

/**
 * The first value of each named cookie in a `Cookie` header (RFC 6265 §5.4: `name=value`
 * pairs joined by `; `); names compared exactly (case-sensitive).
 */
export function pickCookies(cookieHeader: string | null, names: readonly string[]): Picked {
	if (cookieHeader === null || names.length === 0) return [];
	const wanted = new Set(names);
	const found = new Map<string, string>();
	forEachCookie(cookieHeader, (name, value) => {
		if (wanted.has(name) && !found.has(name)) found.set(name, value);
	});
	return names.flatMap((name): [string, string][] => {
		const value = found.get(name);
		return value === undefined ? [] : [[name, value]];
	});
}

const encoder = new TextEncoder();

/**
 * The objects, with the 8 KB limit of the file header applied; `ResponseFields` when
 * `picked.every` is given (a header configured with `preserve_duplicates`).
 * @param budget bytes of values allowed in all; CUSTOM_FIELDS_MAX_BYTES unless a test says otherwise.
 */
export function limitCustomFields(
	picked: { request: Picked; cookies: Picked; response: Picked; every?: PickedAll },
	budget = CUSTOM_FIELDS_MAX_BYTES,
): CustomFieldObjects {
	let left = budget;
	const keep = (value: string): string => {
		const kept = cut(value, left);
		left -= utf8Bytes(kept);
		return kept;
	};
	const fill = (pairs: Picked): Record<string, string> => {
		const out: Record<string, string> = {};
		for (const [name, value] of pairs) out[name] = keep(value);
		return out;
	};
	const RequestHeaders = fill(picked.request);
	const Cookies = fill(picked.cookies);
	const ResponseHeaders = fill(picked.response);
	if (picked.every === undefined) return { RequestHeaders, ResponseHeaders, Cookies };
	const ResponseFields: Record<string, string[]> = {};
	for (const [name, values] of picked.every) ResponseFields[name] = values.map(keep);
	return { RequestHeaders, ResponseHeaders, Cookies, ResponseFields };
}

/** The bytes `text` takes in UTF-8, counted without encoding it (a lone surrogate is 3, as TextEncoder writes U+FFFD). */
function utf8Bytes(text: string): number {
	let bytes = text.length;
	for (let i = 0; i < text.length; i++) {
		const unit = text.charCodeAt(i);
		if (unit < 0x80) continue;
		if (unit < 0x800) bytes += 1;
		else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
			const next = text.charCodeAt(i + 1);
			if (next >= 0xdc00 && next <= 0xdfff) {
				// A surrogate pair: 4 bytes for its 2 units.
				bytes += 2;
				i++;
			} else bytes += 2;
		} else bytes += 2;
	}
	return bytes;
}

/** `value` cut to at most `bytes` bytes of UTF-8, never inside a character. */
function cut(value: string, bytes: number): string {
	if (bytes <= 0) return "";
	// A UTF-16 unit is at most 3 UTF-8 bytes: short values need no encoding to know they fit.
	if (value.length * 3 <= bytes) return value;
	const buffer = new Uint8Array(bytes);
	const { read } = encoder.encodeInto(value, buffer);
	return value.slice(0, read);
}
