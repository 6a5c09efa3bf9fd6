/**
 * A zone file's record as the DNS records API would be sent it: the data of each type edgezone
 * stores read into `content` (and MX `priority`, CAA `data`), the comment's attributes into
 * `comment`, `tags`, `proxied` and `settings` (`attributes.ts`). The zone's own SOA and apex NS
 * records are skipped, as Cloudflare serves its own; any other type edgezone does not store is
 * named as not imported.
 *
 * Data forms (RFC 1035 §3.3 and §5.1): A and AAAA one address; CNAME, NS and PTR one name; MX a
 * preference and a name; TXT one or more character-strings, kept as their concatenation (as SPF
 * reads a record of several, RFC 7208 §3.3); CAA flags, tag and value (RFC 8659 §4.1.1); SRV
 * priority, weight, port and target (RFC 2782). A name in the data without a final dot is relative
 * to the origin in effect.
 */
import { proxiable, RECORD_TYPES } from "../dns-record-checks";
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
	data?:
		| { flags: number; tag: string; value: string }
		| { priority: number; weight: number; port: number; target: string };
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
		texts.length === n ? undefined : `a ${record.type} record's data is ${form}, not "${texts.join(" ")}"`;
	const name = (i: number) => {
		const token = record.rdata[i];
		return token === undefined ? "" : absoluteName(token, record.origin);
	};
	switch (record.type) {
		case "A":
		case "AAAA":
			return count(1, "one address") ?? { content: texts[0] ?? "" };
		case "CNAME":
		case "NS":
		case "PTR":
			return count(1, "one name") ?? { content: name(0) };
		case "MX": {
			const problem = count(2, "a preference and a name");
			if (problem !== undefined) return problem;
			if (!/^[0-9]{1,5}$/.test(texts[0] ?? "")) return `an MX record's preference is a number, not "${texts[0]}"`;
			return { priority: Number(texts[0]), content: name(1) };
		}
		case "TXT":
			return texts.length === 0 ? "a TXT record needs at least one string" : { content: texts.join("") };
		case "CAA": {
			const problem = count(3, "flags, a tag and a value");
			if (problem !== undefined) return problem;
			if (!/^[0-9]{1,3}$/.test(texts[0] ?? "")) return `a CAA record's flags are a number, not "${texts[0]}"`;
			return { data: { flags: Number(texts[0]), tag: (texts[1] ?? "").toLowerCase(), value: texts[2] ?? "" } };
		}
		case "SRV": {
			const problem = count(4, "a priority, a weight, a port and a target");
			if (problem !== undefined) return problem;
			const [priority, weight, port] = texts.slice(0, 3).map((t) => (/^[0-9]{1,5}$/.test(t) ? Number(t) : Number.NaN));
			const target = texts[3] === "." ? "." : name(3);
			return {
				data: { priority: priority ?? Number.NaN, weight: weight ?? Number.NaN, port: port ?? Number.NaN, target },
			};
		}
		default:
			return `${record.type} records are not stored by edgezone (${RECORD_TYPES.join(", ")} are)`;
	}
}
