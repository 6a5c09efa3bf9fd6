/**
 * The resource records of a zone file (RFC 1035 §5.1), as Cloudflare's import reads one
 * (developers.cloudflare.com/dns/manage-dns-records/how-to/import-and-export/): the directives
 * `$ORIGIN` (RFC 1035 §5.1), `$TTL` (RFC 2308 §4) and `$GENERATE` (BIND's, bind9.readthedocs.io
 * "The $GENERATE Directive"); `$INCLUDE` is refused with Cloudflare's text, "$INCLUDE directive
 * not allowed". An owner left out is the previous record's, `@` is the origin, and a name without
 * a final dot is relative to the origin. A record's TTL and class come in either order and may be
 * left out: the TTL is then `$TTL`'s, else the last one stated (RFC 1035 §5.1, "Omitted class and
 * TTL values are default to the last explicitly stated values"), else 1, Cloudflare's automatic.
 * TTLs take BIND's units (`1h30m`, `1d`, `2w`). Only class IN is read.
 *
 * Pure: the records' contents are read by type in `records.ts`. `maxRecords` bounds the work: a
 * file (or a `$GENERATE` range) of more records is refused before they are made.
 */
import { type Entry, entries, type Token } from "./lex";

/** One resource record of the file, its names absolute (lower case, no final dot). */
export interface ParsedRecord {
	line: number;
	name: string;
	/** Seconds. */
	ttl: number;
	/** Upper case, as the file names it (`A`, `MX`, `SRV`, ...). */
	type: string;
	/** The record's data, token by token; its names not yet made absolute (`origin` does that). */
	rdata: Token[];
	/** The origin in effect at the record: what its data's relative names are relative to. */
	origin: string;
	comment: string | undefined;
}

/** The file's records, or the first problem with its line. */
export type ParseResult = { ok: true; records: ParsedRecord[] } | { ok: false; line: number; message: string };

/** A TTL: seconds, or BIND's units; at most 2^31 - 1 (RFC 2181 §8). */
export function ttlOf(text: string): number | undefined {
	if (/^[0-9]+$/.test(text)) return bounded(Number(text));
	if (!/^(?:[0-9]+[wdhms])+$/i.test(text)) return undefined;
	const unit: Record<string, number> = { w: 604800, d: 86400, h: 3600, m: 60, s: 1 };
	let seconds = 0;
	for (const [, n, u] of text.matchAll(/([0-9]+)([wdhms])/gi))
		seconds += Number(n) * (unit[(u ?? "s").toLowerCase()] ?? 1);
	return bounded(seconds);
}

const bounded = (seconds: number) => (seconds <= 2 ** 31 - 1 ? seconds : undefined);

const CLASSES = ["IN", "CH", "HS", "CS"];

/**
 * An owner or a data name made absolute: `@` is the origin, a name ending in `.` is absolute
 * (the dot dropped), any other is relative to `origin`. Lower case (RFC 4343).
 */
export function absoluteName(token: Token, origin: string): string {
	const text = token.text.toLowerCase();
	if (text === "@" && !token.quoted) return origin;
	if (text.endsWith(".")) return text.slice(0, -1);
	return origin === "" ? text : `${text}.${origin}`;
}

/** The records of `text` for the zone `zone` (its name, the first origin). */
export function parseZoneFile(text: string, zone: string, maxRecords: number): ParseResult {
	const lexed = entries(text);
	if (!lexed.ok) return { ok: false, ...lexed.problem };
	const records: ParsedRecord[] = [];
	const state = { origin: zone.toLowerCase(), defaultTtl: undefined as number | undefined, lastTtl: 1, owner: "" };
	for (const entry of lexed.entries) {
		const fail = (message: string): ParseResult => ({ ok: false, line: entry.line, message });
		const first = entry.tokens[0]?.text ?? "";
		if (!entry.blankOwner && !entry.tokens[0]?.quoted && first.startsWith("$")) {
			const problem = directive(entry, state, records, maxRecords);
			if (problem !== undefined) return fail(problem);
			continue;
		}
		const record = resourceRecord(entry, state);
		if (typeof record === "string") return fail(record);
		if (records.length >= maxRecords) return fail(`a zone file may hold at most ${maxRecords} records`);
		records.push(record);
	}
	return { ok: true, records };
}

interface ParseState {
	origin: string;
	/** `$TTL`'s. */
	defaultTtl: number | undefined;
	/** The last TTL a record stated. */
	lastTtl: number;
	/** The last owner stated. */
	owner: string;
}

/** Reads one record entry; its problem's message otherwise. */
function resourceRecord(entry: Entry, state: ParseState): ParsedRecord | string {
	const tokens = [...entry.tokens];
	if (!entry.blankOwner) {
		const owner = tokens.shift();
		if (owner === undefined) return "a record needs an owner name";
		state.owner = absoluteName(owner, state.origin);
	} else if (state.owner === "") state.owner = state.origin;
	let ttl: number | undefined;
	let recordClass: string | undefined;
	let type: string | undefined;
	while (type === undefined) {
		const token = tokens.shift();
		if (token === undefined) return "a record needs a type";
		const upper = token.text.toUpperCase();
		const asTtl = token.quoted ? undefined : ttlOf(token.text);
		if (ttl === undefined && asTtl !== undefined) ttl = asTtl;
		else if (recordClass === undefined && CLASSES.includes(upper)) recordClass = upper;
		else if (/^[A-Z][A-Z0-9-]*$/.test(upper) && !token.quoted) type = upper;
		else return `"${token.text}" is not a TTL, a class or a record type`;
	}
	if (recordClass !== undefined && recordClass !== "IN") return `class ${recordClass} is not read: only IN`;
	if (ttl !== undefined) state.lastTtl = ttl;
	return {
		line: entry.line,
		name: state.owner,
		ttl: ttl ?? state.defaultTtl ?? state.lastTtl,
		type,
		rdata: tokens,
		origin: state.origin,
		comment: entry.comment,
	};
}

/** Applies a `$` directive; its problem's message otherwise. */
function directive(entry: Entry, state: ParseState, records: ParsedRecord[], maxRecords: number): string | undefined {
	const [name, ...args] = entry.tokens;
	const word = name?.text.toUpperCase();
	if (word === "$INCLUDE") return "$INCLUDE directive not allowed";
	if (word === "$ORIGIN") {
		const origin = args[0];
		if (origin === undefined || args.length > 1) return "$ORIGIN takes one domain name";
		state.origin = absoluteName(origin, state.origin);
		return undefined;
	}
	if (word === "$TTL") {
		const ttl = args.length === 1 && args[0] !== undefined ? ttlOf(args[0].text) : undefined;
		if (ttl === undefined) return "$TTL takes one TTL, such as 3600 or 1h";
		state.defaultTtl = ttl;
		return undefined;
	}
	if (word === "$GENERATE") return generate(entry, args, state, records, maxRecords);
	return `${name?.text} is not a directive: only $ORIGIN, $TTL and $GENERATE`;
}

/**
 * `$GENERATE range lhs [ttl] [class] type rhs`: one record per value of `range` (`start-stop` or
 * `start-stop/step`), `$` in `lhs` and `rhs` standing for the value, `${offset,width,base}` for it
 * shifted, zero-padded and in base `d`, `o`, `x` or `X` (the BIND 9 manual's "The $GENERATE
 * Directive"; its nibble mode `n` is not read), `\$` for a `$`. Stops at `maxRecords` in all.
 */
function generate(
	entry: Entry,
	args: Token[],
	state: ParseState,
	records: ParsedRecord[],
	maxRecords: number,
): string | undefined {
	const [range, lhs, ...rest] = args;
	const bounds = /^([0-9]+)-([0-9]+)(?:\/([0-9]+))?$/.exec(range?.text ?? "");
	if (bounds === null || lhs === undefined)
		return "$GENERATE takes a range (start-stop[/step]), a name, a type and data";
	const [start, stop, step] = [Number(bounds[1]), Number(bounds[2]), Number(bounds[3] ?? 1)];
	if (stop < start || step < 1) return "$GENERATE's range must go up, by a step of at least 1";
	const count = Math.floor((stop - start) / step) + 1;
	if (records.length + count > maxRecords) return `a zone file may hold at most ${maxRecords} records`;
	for (let value = start; value <= stop; value += step) {
		// Substituted in the tokens as written, then read again: `\$` stays a `$` the reading unescapes.
		const line = [lhs, ...rest].map((t) => substituted(t.raw, value));
		const bad = line.indexOf(undefined);
		if (bad !== -1) return `$GENERATE cannot read "${[lhs, ...rest][bad]?.raw}"`;
		const lexed = entries(line.join(" "));
		const tokens = lexed.ok ? (lexed.entries[0]?.tokens ?? []) : [];
		const record = resourceRecord({ ...entry, blankOwner: false, tokens }, state);
		if (typeof record === "string") return record;
		records.push(record);
	}
	return undefined;
}

/** `raw` with `$` and `${offset,width,base}` replaced by `value`; undefined for a modifier not read. */
function substituted(raw: string, value: number): string | undefined {
	let out = "";
	for (let i = 0; i < raw.length; i++) {
		const c = raw[i];
		if (c === "\\") {
			out += raw.slice(i, i + 2);
			i++;
		} else if (c !== "$") out += c;
		else if (raw[i + 1] !== "{") out += String(value);
		else {
			const end = raw.indexOf("}", i);
			const modifier = /^([+-]?[0-9]+)(?:,([0-9]+)(?:,([doxX]))?)?$/.exec(raw.slice(i + 2, end));
			if (end === -1 || modifier === null) return undefined;
			const shifted = value + Number(modifier[1]);
			if (shifted < 0) return undefined;
			const base = modifier[3] ?? "d";
			const digits = shifted.toString(base === "d" ? 10 : base === "o" ? 8 : 16);
			out += (base === "X" ? digits.toUpperCase() : digits).padStart(Number(modifier[2] ?? 0), "0");
			i = end;
		}
	}
	return out;
}
