/**
 * The rules of one DNS record that need no other record: its full name in the zone, whether its
 * content fits its type, whether it may be proxied; and the list's filters and order. Pure: the
 * store (`dns-records.ts`) runs these inside its transaction, the tests call them directly.
 *
 * Sources: Cloudflare's TypeScript SDK (github.com/cloudflare/cloudflare-typescript,
 * `src/resources/dns/records.ts`), the OpenAPI schema (github.com/cloudflare/api-schemas,
 * `dns-records_*`) and developers.cloudflare.com/dns/manage-dns-records/ (each named below).
 */
import { DNS_LABEL } from "./custom-hostnames/names";

/** The record types edgezone stores: the ones a site behind the zone needs, and its delegations. */
export const RECORD_TYPES = ["A", "AAAA", "CAA", "CNAME", "MX", "NS", "PTR", "SRV", "TXT"] as const;

/** A record type edgezone stores. */
export type RecordType = (typeof RECORD_TYPES)[number];

/**
 * "Only A, AAAA, and CNAME DNS records that serve HTTP or HTTPS traffic can be proxied. Other
 * record types cannot be proxied." (developers.cloudflare.com/dns/proxy-status/limitations/).
 */
export function proxiable(type: string): boolean {
	return type === "A" || type === "AAAA" || type === "CNAME";
}

/** A problem with a record: Cloudflare's code where one is observed, the message, the field. */
export interface RecordProblem {
	code: number;
	message: string;
	field:
		| "name"
		| "content"
		| "proxied"
		| "priority"
		| "data"
		| "data/flags"
		| "data/tag"
		| "data/value"
		| "data/priority"
		| "data/weight"
		| "data/port"
		| "data/target";
}

/**
 * The components of a CAA record, as the API writes them (TS SDK `CAARecord.Data`: `flags`, `tag`
 * "e.g.: issue, issuewild, iodef", `value`; RFC 8659 §4.1).
 */
export interface CaaData {
	flags: number;
	tag: string;
	value: string;
}

/**
 * The components of an SRV record (TS SDK `SRVRecord.Data`: `priority`, `weight`, `port`,
 * `target`; RFC 2782). The API shows its content as `weight port target`, the priority apart
 * (`"content": "5 5222 xmpp.example.com"` with `"priority": 0`, a real answer quoted in
 * github.com/caddyserver/caddy/issues/6975).
 */
export interface SrvData {
	priority: number;
	weight: number;
	port: number;
	target: string;
}

/** A record's `data` as a client sends it: any of the components of a CAA or an SRV record. */
export type RecordData = Partial<CaaData> & Partial<SrvData>;

/** The property tags a CAA record may hold here: the three RFC 8659 §4 defines, the SDK's examples. */
const CAA_TAGS = ["issue", "issuewild", "iodef"] as const;

/**
 * Codes of the record checks. Observed in real answers: 9004 (proxying a TXT, "This record type
 * cannot be proxied.", stephenou/fruitionsite#104), 9005 (A content, python-cloudflare's README),
 * 9006 (AAAA content, Tachi107/cloudflare-ddns#12), 9053 ("Invalid CAA flag. Must be an integer",
 * in the 1004 chain, gist.github.com/graemer957/a73d706a8c0f0739744fedd5227e3f59). The rest are
 * edgezone's choice.
 */
const CHECK_CODES = { notProxiable: 9004, badIpv4: 9005, badIpv6: 9006, badCaaFlags: 9053, invalid: 1004 } as const;

/**
 * The full name of a record given as `raw` in the zone `zone`: lower case (RFC 4343), no trailing
 * dot; `@` is the apex ("DNS record name (or @ for the zone apex)", OpenAPI `dns-records_name`); a
 * name that does not end in the zone's name is read as relative to it (`www` is `www.<zone>`), as
 * the dashboard and the API's clients use it (not confirmed from a Cloudflare page).
 */
export function fullName(raw: string, zone: string): string {
	const name = raw.toLowerCase().replace(/\.$/, "");
	if (name === "@" || name === "") return zone;
	return name === zone || name.endsWith(`.${zone}`) ? name : `${name}.${zone}`;
}

/** Why `name` (a full name) is not a record name, or undefined: RFC 1035 labels, underscores, a leftmost `*`. */
function nameProblem(name: string): string | undefined {
	// 253: the longest name RFC 1035 §3.1's 255 octets of wire format allow in text.
	if (name.length > 253) return "DNS record name must be at most 253 characters";
	for (const [i, label] of name.split(".").entries()) {
		if (label === "*" && i === 0) continue;
		if (!DNS_LABEL.test(label)) {
			return `DNS record name is invalid: label "${label}" must be 1 to 63 letters, digits, underscores or inner hyphens`;
		}
	}
	return undefined;
}

/** An IPv4 address in dotted-quad form, no leading zeros (RFC 791 text form as `inet_pton` reads it). */
export function isIpv4(text: string): boolean {
	const parts = text.split(".");
	return parts.length === 4 && parts.every((p) => /^(?:0|[1-9][0-9]{0,2})$/.test(p) && Number(p) <= 255);
}

/** An IPv6 address in any RFC 4291 §2.2 text form, as the URL parser reads a bracketed host. */
export function isIpv6(text: string): boolean {
	if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(":")) return false;
	try {
		new URL(`http://[${text}]/`);
		return true;
	} catch {
		return false;
	}
}

/** The fields of a record that the checks read. */
export interface CheckedRecord {
	name: string;
	type: RecordType;
	content: string;
	proxied: boolean;
	priority?: number | undefined;
	/** A CAA or SRV record's components; its content is derived from them (`storedContent`). */
	data?: RecordData | undefined;
}

/**
 * The first problem of a record (name already full, `fullName`), or undefined. The order is the
 * fields': name, content, priority, proxied.
 */
export function recordProblem(record: CheckedRecord): RecordProblem | undefined {
	const name = nameProblem(record.name);
	if (name !== undefined) return { code: CHECK_CODES.invalid, message: name, field: "name" };
	if (record.type === "CAA") {
		const data = caaProblem(record.data);
		if (data !== undefined) return data;
	}
	if (record.type === "SRV") {
		const data = srvProblem(record.data, record.name);
		if (data !== undefined) return data;
	}
	const content = contentProblem(record);
	if (content !== undefined) return content;
	if (record.type === "MX" && record.priority === undefined) {
		return { code: CHECK_CODES.invalid, message: "priority is required for an MX record", field: "priority" };
	}
	if (record.proxied && !proxiable(record.type)) {
		return { code: CHECK_CODES.notProxiable, message: "This record type cannot be proxied.", field: "proxied" };
	}
	return undefined;
}

function contentProblem({ type, content, name }: CheckedRecord): RecordProblem | undefined {
	const problem = (code: number, message: string): RecordProblem => ({ code, message, field: "content" });
	switch (type) {
		case "A":
			return isIpv4(content)
				? undefined
				: problem(CHECK_CODES.badIpv4, "Content for A record is invalid. Must be a valid IPv4 address");
		case "AAAA":
			return isIpv6(content)
				? undefined
				: problem(CHECK_CODES.badIpv6, "Content for AAAA record must be a valid IPv6 address.");
		case "CNAME": {
			// TS SDK `CNAMERecord.content`: "A valid hostname. Must not match the record's name."
			const target = content.toLowerCase().replace(/\.$/, "");
			if (target === name) return problem(CHECK_CODES.invalid, "Content for CNAME record must not match its name.");
			return hostProblem(target, "CNAME");
		}
		case "MX":
		case "NS":
		case "PTR":
			return hostProblem(content.toLowerCase().replace(/\.$/, ""), type);
		case "TXT":
			return content.length === 0 ? problem(CHECK_CODES.invalid, "Content for TXT record is required.") : undefined;
		case "CAA":
		case "SRV":
			return undefined; // Derived from `data`, checked before.
	}
}

/**
 * Why a CAA record's `data` is not one, or undefined: flags an integer of 0 to 255 (one octet, RFC
 * 8659 §4.1); a tag edgezone knows (CAA_TAGS); a value of 1 to 255 printable ASCII characters (one
 * character-string, RFC 1035 §3.3; RFC 8659 §4.1.1 keeps values to ASCII). Messages other than
 * 9053's are edgezone's.
 */
function caaProblem(data: RecordData | undefined): RecordProblem | undefined {
	if (data === undefined)
		return {
			code: CHECK_CODES.invalid,
			message: 'A CAA record needs data (flags, tag, value), or content such as 0 issue "letsencrypt.org"',
			field: "data",
		};
	if (data.flags === undefined || !Number.isInteger(data.flags) || data.flags < 0 || data.flags > 255)
		return { code: CHECK_CODES.badCaaFlags, message: "Invalid CAA flag. Must be an integer", field: "data/flags" };
	if (!(CAA_TAGS as readonly string[]).includes(data.tag ?? ""))
		return {
			code: CHECK_CODES.invalid,
			message: `Invalid CAA tag. Must be one of ${CAA_TAGS.join(", ")}`,
			field: "data/tag",
		};
	if (typeof data.value !== "string" || !/^[\x20-\x7e]{1,255}$/.test(data.value))
		return {
			code: CHECK_CODES.invalid,
			message: "Invalid CAA value. Must be 1 to 255 printable ASCII characters",
			field: "data/value",
		};
	return undefined;
}

/**
 * A CAA record's content as Cloudflare shows it: `0 issue "letsencrypt.org"` (flags, tag, the value
 * quoted, as a zone file writes it, RFC 8659 §4.1.1; observed in DNSControl/dnscontrol#1374); a `"`
 * or `\\` in the value is escaped with `\\` (RFC 1035 §5.1).
 */
function caaContent(data: CaaData): string {
	return `${data.flags} ${data.tag} "${data.value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/** The components of a content `caaContent` wrote (a stored CAA record's); undefined for any other text. */
export function caaData(content: string): CaaData | undefined {
	const match = /^(\d{1,3}) (\S+) "((?:[^"\\]|\\.)*)"$/.exec(content);
	if (match === null) return undefined;
	return { flags: Number(match[1]), tag: match[2] ?? "", value: (match[3] ?? "").replace(/\\(.)/g, "$1") };
}

/**
 * Why an SRV record's `data` or name is not one, or undefined: priority, weight and port integers
 * of 0 to 65535 (16 bits each, RFC 2782), a target that is a host name or `.` ("the service is
 * decidedly not available at this domain", RFC 2782), a name `_service._proto.name` (RFC 2782).
 * The messages are edgezone's.
 */
function srvProblem(data: RecordData | undefined, name: string): RecordProblem | undefined {
	if (data === undefined)
		return {
			code: CHECK_CODES.invalid,
			message:
				"An SRV record needs data (priority, weight, port, target), or content such as 5 5060 sip.example.com and a priority",
			field: "data",
		};
	for (const part of ["priority", "weight", "port"] as const) {
		const value = data[part];
		if (value === undefined || !Number.isInteger(value) || value < 0 || value > 65535)
			return {
				code: CHECK_CODES.invalid,
				message: `An SRV record's ${part} is an integer of 0 to 65535`,
				field: `data/${part}`,
			};
	}
	const target = (data.target ?? "").toLowerCase();
	if (target !== "." && hostProblem(target.replace(/\.$/, ""), "SRV") !== undefined)
		return {
			code: CHECK_CODES.invalid,
			message: "An SRV record's target must be a valid hostname, or .",
			field: "data/target",
		};
	const [service, proto] = name.split(".");
	if (!service?.startsWith("_") || !proto?.startsWith("_"))
		return {
			code: CHECK_CODES.invalid,
			message: "An SRV record's name is _service._proto.name, such as _sip._tcp.example.com",
			field: "name",
		};
	return undefined;
}

/** An SRV record's content as the API shows it: `weight port target` (the priority apart). */
function srvContent(data: SrvData): string {
	const target = data.target.toLowerCase();
	return `${data.weight} ${data.port} ${target === "." ? "." : target.replace(/\.$/, "")}`;
}

/**
 * The components of an SRV record from its content: `weight port target` with `priority` apart
 * (as the API shows it), or `priority weight port target` (as a zone file writes it); undefined
 * for any other text.
 */
export function srvData(content: string, priority: number | undefined): SrvData | undefined {
	const parts = content.trim().split(/\s+/);
	const numbers = parts.slice(0, -1).map(Number);
	const target = parts.at(-1) ?? "";
	if (parts.length === 3 && priority !== undefined)
		return { priority, weight: numbers[0] ?? Number.NaN, port: numbers[1] ?? Number.NaN, target };
	if (parts.length === 4)
		return {
			priority: numbers[0] ?? Number.NaN,
			weight: numbers[1] ?? Number.NaN,
			port: numbers[2] ?? Number.NaN,
			target,
		};
	return undefined;
}

function hostProblem(host: string, type: "CNAME" | "MX" | "NS" | "PTR" | "SRV"): RecordProblem | undefined {
	const bad = host.length === 0 || host.includes("*") || nameProblem(host) !== undefined;
	return bad
		? { code: CHECK_CODES.invalid, message: `Content for ${type} record must be a valid hostname.`, field: "content" }
		: undefined;
}

/**
 * The content as stored: host names of CNAME, MX, NS and PTR lower-cased without a trailing dot,
 * AAAA lower-cased; CAA and SRV derived from their data (checked: `recordProblem`); A and TXT as
 * given.
 */
export function storedContent(type: RecordType, content: string, data?: RecordData): string {
	if (type === "CAA" && data !== undefined) return caaContent(data as CaaData);
	if (type === "SRV" && data !== undefined) return srvContent(data as SrvData);
	if (type === "CNAME" || type === "MX" || type === "NS" || type === "PTR")
		return content.toLowerCase().replace(/\.$/, "");
	return type === "AAAA" ? content.toLowerCase() : content;
}

/** A text filter of the list: the SDK's `{exact, contains, startswith, endswith}` (case-insensitive). */
interface TextFilter {
	exact?: string | undefined;
	contains?: string | undefined;
	startswith?: string | undefined;
	endswith?: string | undefined;
}

/**
 * The tag filters of the list (TS SDK `RecordListParams.Tag`, case-insensitive): `present` and
 * `absent` a tag's name; the others `<tag-name>:<tag-value>`, a tag of that name whose value is,
 * contains, starts or ends with the value (a bare name stands for an empty value).
 */
interface TagFilter {
	present?: string | undefined;
	absent?: string | undefined;
	exact?: string | undefined;
	contains?: string | undefined;
	startswith?: string | undefined;
	endswith?: string | undefined;
}

/** The list's filters, order and match mode (OpenAPI `dns-records-for-a-zone-list-dns-records`, TS SDK `RecordListParams`). */
export interface RecordQuery {
	name: TextFilter;
	content: TextFilter;
	/** `comment.*`; `present` / `absent`: only records with / without a comment. */
	comment: TextFilter & { present?: boolean | undefined; absent?: boolean | undefined };
	/** Any type the SDK names; one edgezone does not store matches no record. */
	type?: string | undefined;
	proxied?: boolean | undefined;
	tag: TagFilter;
	/** `all` ANDs the tag filters, `any` ORs them; the result is one filter among the others. */
	tagMatch: "any" | "all";
	/**
	 * "Intended for human users ... its exact behavior is intentionally left unspecified" (TS SDK
	 * `RecordListParams.search`): here, records whose name, content, comment or a tag holds the
	 * text, case-insensitive; "independently of the `match` setting": with the others ANDed.
	 */
	search?: string | undefined;
	/** `all` ANDs the filters, `any` ORs them (default `all`). */
	match: "any" | "all";
	order: "type" | "name" | "content" | "ttl" | "proxied";
	direction: "asc" | "desc";
}

/** The list's query that selects every record, in the default order (type, then name). */
export const EVERY_RECORD: RecordQuery = {
	name: {},
	content: {},
	comment: {},
	tag: {},
	tagMatch: "all",
	match: "all",
	order: "type",
	direction: "asc",
};

/** The fields of a record the list reads. */
export interface ListedRecord {
	id: string;
	name: string;
	type: string;
	content?: string | undefined;
	ttl: number;
	proxied?: boolean | undefined;
	comment?: string | undefined;
	tags: readonly string[];
}

/** A tag as its name and value (`name:value`; undefined for a bare `name`), split at the first colon. */
export function splitTag(tag: string): [string, string | undefined] {
	const colon = tag.indexOf(":");
	return colon === -1 ? [tag, undefined] : [tag.slice(0, colon), tag.slice(colon + 1)];
}

/** A record's tags as `[name, value]`, lower case (tag names are case-insensitive, record-attributes). */
function tagPairs(r: ListedRecord): [string, string][] {
	return r.tags.map((tag) => {
		const [name, value = ""] = splitTag(tag);
		return [name.toLowerCase(), value.toLowerCase()];
	});
}

/** The tag filters as one condition (undefined without any), combined by `tagMatch`. */
function tagCondition(q: RecordQuery): ((r: ListedRecord) => boolean) | undefined {
	const tests: ((pairs: [string, string][]) => boolean)[] = [];
	const named = (given: string) => given.toLowerCase();
	if (q.tag.present !== undefined) tests.push((pairs) => pairs.some(([name]) => name === named(q.tag.present ?? "")));
	if (q.tag.absent !== undefined) tests.push((pairs) => !pairs.some(([name]) => name === named(q.tag.absent ?? "")));
	const valued = (given: string | undefined, test: (value: string, wanted: string) => boolean) => {
		if (given === undefined) return;
		const colon = given.indexOf(":");
		const name = named(colon === -1 ? given : given.slice(0, colon));
		const wanted = colon === -1 ? "" : given.slice(colon + 1).toLowerCase();
		tests.push((pairs) => pairs.some(([n, value]) => n === name && test(value, wanted)));
	};
	valued(q.tag.exact, (value, wanted) => value === wanted);
	valued(q.tag.contains, (value, wanted) => value.includes(wanted));
	valued(q.tag.startswith, (value, wanted) => value.startsWith(wanted));
	valued(q.tag.endswith, (value, wanted) => value.endsWith(wanted));
	if (tests.length === 0) return undefined;
	return (r) => {
		const pairs = tagPairs(r);
		return q.tagMatch === "any" ? tests.some((t) => t(pairs)) : tests.every((t) => t(pairs));
	};
}

/** Whether `r` holds `search` in its name, content, comment or a tag (case-insensitive). */
function searched(r: ListedRecord, search: string): boolean {
	const wanted = search.toLowerCase();
	return [r.name, r.content ?? "", r.comment ?? "", ...r.tags].some((field) => field.toLowerCase().includes(wanted));
}

/** One condition per given filter: each text filter's parts, `type`, `proxied`, the tags' one. */
function conditions(q: RecordQuery): ((r: ListedRecord) => boolean)[] {
	const text = (filter: TextFilter, read: (r: ListedRecord) => string) => {
		const tests: ((r: ListedRecord) => boolean)[] = [];
		const lower = (r: ListedRecord) => read(r).toLowerCase();
		if (filter.exact !== undefined) tests.push((r) => lower(r) === filter.exact?.toLowerCase());
		if (filter.contains !== undefined) tests.push((r) => lower(r).includes(filter.contains?.toLowerCase() ?? ""));
		if (filter.startswith !== undefined) tests.push((r) => lower(r).startsWith(filter.startswith?.toLowerCase() ?? ""));
		if (filter.endswith !== undefined) tests.push((r) => lower(r).endsWith(filter.endswith?.toLowerCase() ?? ""));
		return tests;
	};
	return [
		...text(q.name, (r) => r.name),
		...text(q.content, (r) => r.content ?? ""),
		...text(q.comment, (r) => r.comment ?? ""),
		...(q.comment.present ? [(r: ListedRecord) => r.comment !== undefined] : []),
		...(q.comment.absent ? [(r: ListedRecord) => r.comment === undefined] : []),
		...(q.type === undefined ? [] : [(r: ListedRecord) => r.type === q.type]),
		...(q.proxied === undefined ? [] : [(r: ListedRecord) => (r.proxied ?? false) === q.proxied]),
		...[tagCondition(q)].filter((t) => t !== undefined),
	];
}

/**
 * The records matching `q`, in its order (ties by name, type, content, then id, so pages are
 * stable). No filter given: every record, whatever `match` says; `search` narrows either way.
 */
export function selectRecords<R extends ListedRecord>(records: readonly R[], q: RecordQuery): R[] {
	const tests = conditions(q);
	const matching = records.filter(
		(r) =>
			(tests.length === 0 || (q.match === "any" ? tests.some((t) => t(r)) : tests.every((t) => t(r)))) &&
			(q.search === undefined || searched(r, q.search)),
	);
	const key = (r: ListedRecord): string | number => {
		if (q.order === "ttl") return r.ttl;
		if (q.order === "proxied") return r.proxied ? 1 : 0;
		return q.order === "content" ? (r.content ?? "") : r[q.order];
	};
	const sign = q.direction === "desc" ? -1 : 1;
	const compare = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
	return matching.sort(
		(a, b) =>
			sign * compare(key(a), key(b)) ||
			compare(a.name, b.name) ||
			compare(a.type, b.type) ||
			compare(a.content ?? "", b.content ?? "") ||
			compare(a.id, b.id),
	);
}
