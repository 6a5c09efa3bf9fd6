/**
 * What a log entry reads of a request's or a response's head, gathered in one pass over its
 * headers: the head's size in HTTP/1.1 form (ClientRequestBytes, EdgeResponseBytes) and
 * the values of the few headers the entry and the zone's custom fields read.
 *
 * One `forEach` instead of an iteration for the size and a `get` per header: each of those
 * crosses into the runtime, and together they were about half of what building an entry cost
 * (callgrind, BENCHMARKS.md "Edge logs").
 */

/** A head as its entry sees it. */
export interface Head {
	/** Its header lines in HTTP/1.1 form (`name: value` and CRLF each), in bytes. */
	headerBytes: number;
	/**
	 * The wanted headers present, by lower-case name: a value as `Headers.get` answers it (a
	 * repeated header joined with ", "), but only the first `set-cookie` (docs custom-fields,
	 * https://developers.cloudflare.com/logs/logpush/logpush-job/custom-fields/, "Limitations": only
	 * the first instance of a repeated header is logged).
	 */
	values: ReadonlyMap<string, string>;
	/** Every value of the headers asked for so (`preserve_duplicates`), by lower-case name. */
	every: ReadonlyMap<string, readonly string[]>;
}

/** The size of one header line in HTTP/1.1 form, in bytes: `name: value` and CRLF. */
export function headerLineBytes(name: string, value: string): number {
	return name.length + value.length + 4;
}

/**
 * The size of a head in HTTP/1.1 form, in bytes: its first line (request or status line) with
 * CRLF, its header lines, and the blank line that ends it.
 */
export function headBytes(firstLine: string, head: Head): number {
	return firstLine.length + 2 + head.headerBytes + 2;
}

const NONE: ReadonlySet<string> = new Set();

/**
 * Reads `headers` once: their size, the values of the `wanted` (lower-case) names present, and
 * every value of the `everyOf` names present.
 */
export function scanHead(headers: Headers, wanted: ReadonlySet<string>, everyOf = NONE): Head {
	let headerBytes = 0;
	const values = new Map<string, string>();
	const every = new Map<string, string[]>();
	// Iteration gives names in lower case, and each set-cookie apart (Fetch "sort and combine").
	headers.forEach((value, name) => {
		headerBytes += headerLineBytes(name, value);
		if (wanted.has(name) && !values.has(name)) values.set(name, value);
		if (everyOf.has(name)) every.set(name, [...(every.get(name) ?? []), value]);
	});
	return { headerBytes, values, every };
}
