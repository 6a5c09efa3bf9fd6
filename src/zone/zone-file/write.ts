/**
 * A zone's DNS records as a zone file, laid out as Cloudflare's export writes one
 * (`GET /zones/{zone_id}/dns_records/export`; the layout read from exports published by
 * Cloudflare's users, e.g. github.com/cloudflare/python-cloudflare/issues/162): a `;;` header
 * naming the domain and the time of export, the zone's SOA and NS records, then one `;; <type>
 * Records` section per type, a record per line as `name.<TAB>ttl<TAB>IN<TAB>type<TAB>data`, names
 * absolute, and each record's comment and tags after it (`attributes.ts`), `cf-proxied` on every
 * proxiable record. A TXT value longer than one character-string is split into strings of 255
 * octets (RFC 1035 §3.3); octets outside printable ASCII are written `\DDD` (RFC 1035 §5.1).
 *
 * Pure; `parse.ts` reads what this writes.
 */
import { absolute } from "../record-data/names";
import { dataType, hasData } from "../record-data/types";
import { writeAttributes } from "./attributes";

/** The fields of a stored record the export writes. */
export interface ExportedRecord {
	name: string;
	type: string;
	content: string;
	ttl: number;
	priority?: number | undefined;
	proxiable: boolean;
	proxied: boolean;
	comment?: string | null | undefined;
	tags: readonly string[];
	settings: { flatten_cname?: boolean | undefined };
}

/** The zone the file is for. */
export interface ExportedZone {
	name: string;
	nameServers: readonly string[];
}

/** The zone file of `records` in `zone`, exported at `now` (ms since the epoch). */
export function writeZoneFile(zone: ExportedZone, records: readonly ExportedRecord[], now: number): string {
	const stamp = new Date(now).toISOString().replace("T", " ").slice(0, 19);
	const lines = [
		";;",
		`;; Domain:     ${zone.name}.`,
		`;; Exported:   ${stamp}`,
		";;",
		";; Exported by edgezone, a local emulator of a Cloudflare zone.",
		";; The SOA and NS records are edgezone's own, not those of a",
		";; production DNS server: edit them before using this file elsewhere.",
		";;",
		";; SOA Record",
		[
			`${zone.name}.`,
			"3600",
			"IN",
			"SOA",
			`${zone.nameServers[0] ?? "ns1.edgezone.localhost"}. dns.${zone.name}. ${Math.floor(now / 1000)} 10000 2400 604800 3600`,
		].join("\t"),
		"",
		";; NS Records",
		...zone.nameServers.map((ns) => [`${zone.name}.`, "86400", "IN", "NS", `${ns}.`].join("\t")),
		"",
	];
	const types = [...new Set(records.map((r) => r.type))].sort();
	for (const type of types) {
		lines.push(`;; ${type} Records`);
		const ofType = records
			.filter((r) => r.type === type)
			.sort((a, b) => compare(a.name, b.name) || compare(a.content, b.content));
		for (const record of ofType) lines.push(recordLine(record));
		lines.push("");
	}
	return lines.join("\n");
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function recordLine(r: ExportedRecord): string {
	const line = [`${r.name}.`, String(r.ttl), "IN", r.type, dataOf(r)].join("\t");
	const attributes = writeAttributes({
		comment: r.comment ?? undefined,
		tags: r.tags,
		proxied: r.proxiable ? r.proxied : undefined,
		flattenCname: r.settings.flatten_cname === true,
	});
	return attributes === "" ? line : `${line} ; ${attributes}`;
}

function dataOf(r: ExportedRecord): string {
	if (hasData(r.type)) {
		// Stored as the API's content; written in the type's presentation form (names absolute, a priority in front).
		const codec = dataType(r.type);
		const data = codec.parse(r.content, r.priority);
		return data === undefined ? r.content : (codec.presentation?.(data, r.priority) ?? codec.content(data));
	}
	switch (r.type) {
		case "CNAME":
		case "NS":
		case "PTR":
			return `${r.content}.`;
		case "MX":
			return `${r.priority ?? 0} ${absolute(r.content)}`;
		case "TXT":
			return characterStrings(r.content);
		default:
			// A, AAAA and OPENPGPKEY, whose content is already in zone file form.
			return r.content;
	}
}

/** `text` as quoted character-strings of at most 255 octets each, none ending inside a character. */
function characterStrings(text: string): string {
	const octets = new TextEncoder().encode(text);
	const strings: string[] = [];
	for (let at = 0, end = 0; at < octets.length || strings.length === 0; at = end) {
		end = Math.min(at + 255, octets.length);
		// 0b10xxxxxx continues a UTF-8 character: end the string before the character instead.
		while (end < octets.length && end > at + 1 && ((octets[end] ?? 0) & 0xc0) === 0x80) end--;
		let s = "";
		for (const octet of octets.subarray(at, end)) {
			if (octet === 0x22 || octet === 0x5c) s += `\\${String.fromCharCode(octet)}`;
			else if (octet >= 0x20 && octet < 0x7f) s += String.fromCharCode(octet);
			else s += `\\${String(octet).padStart(3, "0")}`;
		}
		strings.push(`"${s}"`);
	}
	return strings.join(" ");
}
