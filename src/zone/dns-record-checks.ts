/**
 * The rules of one DNS record that need no other record: its full name in the zone, whether its
 * content fits its type, whether it may be proxied; and the list's filters and order. Pure: the
 * store (`dns-records.ts`) runs these inside its transaction, the tests call them directly.
 *
 * Sources: Cloudflare's TypeScript SDK (github.com/cloudflare/cloudflare-typescript,
 * `src/resources/dns/records.ts`), the OpenAPI schema (github.com/cloudflare/api-schemas,
 * `dns-records_*`) and developers.cloudflare.com/dns/manage-dns-records/ (each named below).
 */
import { base64Of, type DataProblem, missingProblem, type RecordData } from "./record-data/components";
import { isHostName, nameProblem, storedHost } from "./record-data/names";
import { dataType, hasData } from "./record-data/types";

/** The record types edgezone stores: every type the API takes (TS SDK `RecordListParams.type`, OpenAPI `dns-records_type`). */
export const RECORD_TYPES = [
	"A",
	"AAAA",
	"CAA",
	"CERT",
	"CNAME",
	"DNSKEY",
	"DS",
	"HTTPS",
	"LOC",
	"MX",
	"NAPTR",
	"NS",
	"OPENPGPKEY",
	"PTR",
	"SMIMEA",
	"SRV",
	"SSHFP",
	"SVCB",
	"TLSA",
	"TXT",
	"URI",
] as const;

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
	field: DataProblem["field"] | "content" | "proxied";
	/** The components missing, each its own error (`record-data/components.ts`, `REQUIRED`). */
	missing?: readonly string[];
}

/**
 * Codes of the record checks. Observed in real answers: 9004 (proxying a TXT, "This record type
 * cannot be proxied.", stephenou/fruitionsite#104), 9005 (A content, python-cloudflare's README),
 * 9006 (AAAA content, Tachi107/cloudflare-ddns#12), 9100 (`PRIORITY_TYPES`). The rest are edgezone's choice; the
 * components' own are their types' (`record-data/`).
 */
const CHECK_CODES = { notProxiable: 9004, badIpv4: 9005, badIpv6: 9006, noPriority: 9100, invalid: 1004 } as const;

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
	/** A record's components, for the types made of them (`record-data/types.ts`); its content is derived from them. */
	data?: RecordData | undefined;
}

/**
 * The types whose record carries its own `priority` beside its content: "Required for MX and URI
 * records" (TS SDK `URIRecord.priority`), answered "priority is a required field." with code 9100
 * when left out (github.com/cloudflare/cloudflare-php/issues/136).
 */
const PRIORITY_TYPES: ReadonlySet<string> = new Set(["MX", "URI"]);

/**
 * The first problem of a record (name already full, `fullName`), or undefined. The order is the
 * fields': name, data or content, priority, proxied.
 */
export function recordProblem(record: CheckedRecord): RecordProblem | undefined {
	const name = nameProblem(record.name);
	if (name !== undefined) return { code: CHECK_CODES.invalid, message: name, field: "name" };
	const content = hasData(record.type) ? componentsProblem(record) : contentProblem(record);
	if (content !== undefined) return content;
	if (PRIORITY_TYPES.has(record.type) && (record.priority ?? record.data?.priority) === undefined)
		return { code: CHECK_CODES.noPriority, message: "priority is a required field.", field: "priority" };
	if (record.proxied && !proxiable(record.type)) {
		return { code: CHECK_CODES.notProxiable, message: "This record type cannot be proxied.", field: "proxied" };
	}
	return undefined;
}

/**
 * Why a record made of components has none, or bad ones: each field its type reads that `data`
 * lacks (`REQUIRED`, the content of these types being "Formatted ... content. See 'data' to set
 * ... properties.", TS SDK), then the type's own checks.
 */
function componentsProblem({ type, data = {}, name }: CheckedRecord): RecordProblem | undefined {
	if (!hasData(type)) return undefined;
	const codec = dataType(type);
	const required = codec.fields.filter((field) => codec.defaults?.[field] === undefined);
	return missingProblem(required.filter((field) => data[field] === undefined)) ?? codec.problem(data, name);
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
			const target = storedHost(content);
			if (target === name) return problem(CHECK_CODES.invalid, "Content for CNAME record must not match its name.");
			return hostProblem(target, "CNAME");
		}
		case "MX":
			// A null MX, "." (RFC 7505 §3): the domain accepts no mail; Cloudflare stores it with priority 0
			// (a real answer in github.com/caddyserver/caddy/issues/7301).
			return storedHost(content) === "." ? undefined : hostProblem(storedHost(content), type);
		case "NS":
		case "PTR":
			return hostProblem(storedHost(content), type);
		case "TXT":
			return content.length === 0 ? problem(CHECK_CODES.invalid, "Content for TXT record is required.") : undefined;
		case "OPENPGPKEY":
			// RFC 7929 §2.3: the key is presented in Base64.
			return base64Of(content) === undefined
				? problem(CHECK_CODES.invalid, "Content for OPENPGPKEY record must be a Base64 OpenPGP key.")
				: undefined;
		default:
			return undefined;
	}
}

function hostProblem(host: string, type: string): RecordProblem | undefined {
	return isHostName(host)
		? undefined
		: { code: CHECK_CODES.invalid, message: `Content for ${type} record must be a valid hostname.`, field: "content" };
}

/**
 * The components a client gives a record of a type made of them: its `data`, the fields left out
 * that the type fills (`defaults`), and the record's `priority` for a type that keeps one when
 * `data` has none (the SDK's `URIRecord` sends it beside); undefined for the other types. A
 * `content` alone gives none: these types' content is derived.
 */
export function givenData(type: RecordType, priority?: number, data?: RecordData): RecordData | undefined {
	if (!hasData(type)) return undefined;
	if (data === undefined) return undefined;
	const codec = dataType(type);
	const filled = { ...codec.defaults, ...data };
	return codec.priority !== undefined && filled.priority === undefined && priority !== undefined
		? { ...filled, priority }
		: filled;
}

/**
 * The content as stored: host names of CNAME, MX, NS and PTR lower-cased without a trailing dot,
 * AAAA lower-cased; a type made of components derived from its (checked) data; A and TXT as given.
 */
export function storedContent(type: RecordType, content: string, data?: RecordData): string {
	if (hasData(type) && data !== undefined) return dataType(type).content(data);
	if (type === "CNAME" || type === "MX" || type === "NS" || type === "PTR") return storedHost(content);
	if (type === "OPENPGPKEY") return base64Of(content) ?? content;
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
	/** One of `RECORD_TYPES`, every type the SDK names. */
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
	/** null or undefined: no comment. */
	comment?: string | null | undefined;
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
		...(q.comment.present ? [(r: ListedRecord) => (r.comment ?? undefined) !== undefined] : []),
		...(q.comment.absent ? [(r: ListedRecord) => (r.comment ?? undefined) === undefined] : []),
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
