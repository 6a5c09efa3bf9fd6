/**
 * A zone file's record as the DNS records API would be sent it: the data of each type edgezone
 * stores read into `content` (and MX `priority`) or `data`, the comment's attributes into
 * `comment`, `tags`, `proxied` and `settings` (`attributes.ts`). The zone's own SOA and apex NS
 * records are skipped, as Cloudflare serves its own; a type the API does not take (HINFO, say) is
 * named as not imported.
 *
 * Data forms (RFC 1035 §3.3 and §5.1): A and AAAA one address; CNAME, NS and PTR one name; MX a
 * preference and a name (or `.`, RFC 7505); TXT one or more character-strings, kept as their
 * concatenation (as SPF reads a record of several, RFC 7208 §3.3); OPENPGPKEY Base64; the types
 * made of components their RFC presentation forms, read by their modules (`record-data/`) into
 * `data`. A name in the data without a final dot is relative to the origin in effect.
 */
import { proxiable } from "../dns-record-checks";
import { quoted, type RecordData, recordOf } from "../record-data/components";
import { dataType, hasData } from "../record-data/types";
import { readAttributes } from "./attributes";
import { absoluteName, type ParsedRecord } from "./parse";

/** What a record of the file becomes. */
export type Imported =
	/** A body for the records API (create), checked there as any other. */
	| { kind: "record"; body: ImportedBody }
	/** The zone's SOA or apex NS: Cloudflare's own, left out without a message. */
	| { kind: "skipped" }
	/** Not imported, and why: a message to answer after the record's name. */
	| { kind: "refused"; message: string };

/** The fields of a created record, as `POST /dns_records` takes them. */
interface ImportedBody {
	name: string;
	type: string;
	content?: string;
	priority?: number;
	data?: RecordData;
	ttl: number;
	proxied: boolean;
	comment?: string;
	tags: string[];
	settings: { flatten_cname?: boolean };
}

/**
 * `record` (of zone `zone`) as a body to create, with `proxied` for a proxiable record whose
 * comment has no `cf-proxied` ("the value in the cf-proxied tag will take precedence", the import
 * and export page).
 */
export function importedRecord(record: ParsedRecord, zone: string, proxied: boolean): Imported {
	if (record.type === "SOA" || (record.type === "NS" && record.name === zone)) return { kind: "skipped" };
	if (record.name !== zone && !record.name.endsWith(`.${zone}`)) {
		return { kind: "refused", message: `not inside the zone ${zone}` };
	}
	const data = dataOf(record);
	if (typeof data === "string") return { kind: "refused", message: data };
	const attributes = readAttributes(record.comment);
	if (typeof attributes === "string") return { kind: "refused", message: attributes };
	const canProxy = proxiable(record.type);
	return {
		kind: "record",
		body: {
			name: record.name,
			type: record.type,
			...data,
			ttl: record.ttl,
			proxied: attributes.proxied ?? (canProxy && proxied),
			...(attributes.comment === undefined ? {} : { comment: attributes.comment }),
			tags: attributes.tags,
			settings: attributes.flattenCname ? { flatten_cname: true } : {},
		},
	};
}

type Data = Pick<ImportedBody, "content" | "priority" | "data">;

/** The record's data as the API's fields, or why it cannot be read. */
function dataOf(record: ParsedRecord): Data | string {
	const texts = record.rdata.map((t) => t.text);
	const count = (n: number, form: string) =>
		texts.length === n ? undefined : `${recordOf(record.type)}'s data is ${form}, not "${texts.join(" ")}"`;
	const name = (i: number) => {
		const token = record.rdata[i];
		return token === undefined ? "" : absoluteName(token, record.origin);
	};
	if (hasData(record.type)) {
		const codec = dataType(record.type);
		const data = codec.parse(presentation(record, codec.nameWords ?? []), undefined);
		return data === undefined
			? `${recordOf(record.type)}'s data is ${codec.example}, not "${texts.join(" ")}"`
			: { data };
	}
	switch (record.type) {
		case "A":
		case "AAAA":
		case "OPENPGPKEY":
			// OPENPGPKEY's Base64 may be split over blanks (RFC 7929 §2.3, RFC 4034's convention).
			return texts.length === 0 ? `${recordOf(record.type)} needs data` : { content: texts.join("") };
		case "CNAME":
		case "NS":
		case "PTR":
			return count(1, "one name") ?? { content: name(0) };
		case "MX": {
			const problem = count(2, "a preference and a name");
			if (problem !== undefined) return problem;
			if (!/^[0-9]{1,5}$/.test(texts[0] ?? "")) return `an MX record's preference is a number, not "${texts[0]}"`;
			return { priority: Number(texts[0]), content: texts[1] === "." ? "." : name(1) };
		}
		case "TXT":
			return texts.length === 0 ? "a TXT record needs at least one string" : { content: texts.join("") };
		default:
			return `${record.type} is not a record type the DNS records API takes`;
	}
}

/**
 * A record's data as one text its type reads (`record-data/`): quoted strings quoted again, the
 * names at `nameWords` made absolute (the root `.` as it is), and a SvcParam's quoted value joined
 * to its `key=` (`alpn="h3,h2"`, RFC 9460 §2.1), which the lexer reads as two tokens.
 */
function presentation(record: ParsedRecord, nameWords: readonly number[]): string {
	const words: string[] = [];
	for (const [i, token] of record.rdata.entries()) {
		const word = nameWords.includes(i)
			? token.text === "."
				? "."
				: absoluteName(token, record.origin)
			: token.quoted
				? quoted(token.text)
				: token.text;
		const previous = record.rdata[i - 1];
		if (token.quoted && previous !== undefined && !previous.quoted && previous.raw.endsWith("=") && words.length > 0)
			words[words.length - 1] += word;
		else words.push(word);
	}
	return words.join(" ");
}
