/**
 * How the edge reads a zone's DNS records for a name (pure): the name's own records, else those of
 * the wildcard that covers it, then the address a proxied request goes to.
 *
 * Wildcards as DNS synthesises them (RFC 4592 §3.3.1, which Cloudflare's wildcard records follow:
 * "a wildcard record applies to any subdomain that does not already have a DNS record",
 * developers.cloudflare.com/dns/manage-dns-records/reference/wildcard-dns-records/): a name with
 * no records of its own takes those of `*.<closest encloser>`, the closest encloser being its
 * nearest parent that has records; so `*.example.com` covers `a.b.example.com` unless
 * `b.example.com` has records. A CNAME whose target is a name of the zone is followed through the
 * zone's records (Cloudflare resolves a proxied CNAME's target itself, "CNAME flattening",
 * developers.cloudflare.com/dns/cname-flattening/), at most MAX_CNAME_HOPS times.
 * Several A/AAAA records of one name: the first created is the origin (Cloudflare spreads
 * requests over them; edgezone picks one so a run is repeatable).
 */
import type { EdgeRecord } from "../../zone/dns-records";

/** CNAMEs followed inside the zone before the name counts as unresolvable (edgezone's bound). */
const MAX_CNAME_HOPS = 8;

/** A zone's records by name, in the order they were created: one lookup per name a request asks. */
export type RecordIndex = ReadonlyMap<string, readonly EdgeRecord[]>;

/** The index of `records` (built once per configuration version: `derived` in `../zone-view.ts`). */
export function recordIndex(config: { dnsRecords: readonly EdgeRecord[] }): RecordIndex {
	const index = new Map<string, EdgeRecord[]>();
	for (const record of config.dnsRecords) {
		const named = index.get(record.name);
		if (named === undefined) index.set(record.name, [record]);
		else named.push(record);
	}
	return index;
}

/**
 * The records DNS answers for `name` (lower case): its own, else its wildcard's; empty when none.
 * At most one lookup per label of `name`, however many records the zone holds.
 */
export function recordsOf(name: string, records: RecordIndex): readonly EdgeRecord[] {
	const own = records.get(name);
	if (own !== undefined) return own;
	for (let dot = name.indexOf("."); dot >= 0; dot = name.indexOf(".", dot + 1)) {
		const parent = name.slice(dot + 1);
		const wildcard = records.get(`*.${parent}`);
		if (wildcard !== undefined) return wildcard;
		// The closest encloser has records of its own: no wildcard further up applies.
		if (records.has(parent)) return [];
	}
	return [];
}

/** The record a request for `name` goes to: its CNAME, else its first A or AAAA; undefined when none. */
export function addressRecordOf(name: string, records: RecordIndex): EdgeRecord | undefined {
	const own = recordsOf(name, records);
	return own.find((r) => r.type === "CNAME") ?? own.find((r) => r.type === "A" || r.type === "AAAA");
}

/**
 * Where a proxied request for `record` goes: an IP address (A, AAAA, or a CNAME chain ending at
 * one inside the zone), or a hostname outside the zone (a CNAME's target) that the origin's own
 * DNS resolves; undefined when a CNAME chain inside the zone ends at a name with no A, AAAA or
 * CNAME record, or loops (Cloudflare's error 1016, "Origin DNS error").
 */
export function resolveRecord(record: EdgeRecord, zoneName: string, records: RecordIndex): string | undefined {
	let current = record;
	for (let hop = 0; hop <= MAX_CNAME_HOPS; hop++) {
		if (current.type !== "CNAME") return current.content;
		const next = addressRecordOf(current.content, records);
		if (next === undefined) {
			// A target the zone holds no address for does not resolve; one outside the zone is the world's to answer.
			const target = current.content;
			return target === zoneName || target.endsWith(`.${zoneName}`) ? undefined : target;
		}
		current = next;
	}
	return undefined;
}
