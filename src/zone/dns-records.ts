/**
 * DNS records of one zone (`/zones/{zone_id}/dns_records`, developers.cloudflare.com/api/resources/
 * dns/subresources/records/; TS SDK `client.dns.records.*`): storage and the rules between records,
 * run inside the Zone's transactions. The rules of one record alone are `dns-record-checks.ts`.
 *
 * Emulates: the record object (`id` 32 hex, `name`, `type` (every type the API takes), `content`,
 * `proxiable` read-only, `proxied`, `ttl` (1 = automatic; a proxied record's is always automatic:
 * "all proxied records have a TTL of Auto", developers.cloudflare.com/dns/manage-dns-records/
 * reference/ttl/), MX `priority`, CAA `data` (`{flags, tag, value}`, its `content` derived as
 * `0 issue "letsencrypt.org"`), SRV `data` (`{priority, weight, port, target}`, its `content`
 * derived as `weight port target`, its `priority` beside), and the other types made of components
 * (`record-data/`), `comment` (null without one, as the real API answers: `"comment": null`,
 * github.com/caddyserver/caddy/issues/7301), `tags`, `settings`, `meta`, `created_on`,
 * `modified_on`, `comment_modified_on` / `tags_modified_on` (omitted without a comment or tags, as
 * the TS SDK documents them)); create, get, PATCH (unspecified fields unchanged), PUT (unspecified
 * fields back to their defaults), delete, the list (`dns-record-checks.ts`), and the batch: deletes,
 * patches, puts, posts, "always executed in the following order: Deletes, Patches, Puts, Posts",
 * each list in its order, in one transaction where the first failure leaves nothing changed
 * (developers.cloudflare.com/dns/manage-dns-records/how-to/batch-record-changes/).
 * Rules between records (developers.cloudflare.com/dns/manage-dns-records/troubleshooting/
 * records-with-same-name/): a CNAME cannot share its name with an A, AAAA or CNAME (81053), an A
 * or AAAA cannot share its name with a CNAME (81054); an identical record (name, type, content) is
 * refused (81058 "An identical record already exists.", HTTP 400, jeessy2/ddns-go#1378); an NS
 * record delegates its name ("NS records cannot exist on the same name as any other record type",
 * TS SDK `records.create`; `#checkDelegations`), but for the DS records that sign the delegation,
 * which need an NS record of their name first (github.com/octodns/octodns-cloudflare/issues/102;
 * an import creates a file's DS records after its others); an unknown id is 404 81044 "Record
 * does not exist." (zanjie1999/cloudflare-api-v4-ddns#5).
 * Gaps: a DNSKEY record needs no multi-signer DNSSEC (Cloudflare refuses it without); deleting
 * a delegation's NS records leaves its DS records (what Cloudflare does then is not public); the
 * name and content are kept as given (no Punycode conversion: a non-ASCII name fails the name
 * check); whether a name outside the zone is refused or made relative is not documented:
 * edgezone makes it relative (`fullName`). The edge routes by the records (`edgeRecords`,
 * `edge/origin/records.ts`), and custom hostname and certificate validation read their TXT and
 * CAA records (`dns.ts`). Each write that adds, changes or removes a CAA record notes the time on
 * its name (`dns_caa_changes`): removing a CAA record changes what a CA may issue too, and
 * validation dates itself after the last change (RFC 8659 §3: a CA checks CAA when it issues).
 */
import { randomHexId } from "../common/ids";
import type { CaaRecord } from "./custom-hostnames/authorities";
import {
	fullName,
	givenData,
	type ListedRecord,
	proxiable,
	type RecordQuery,
	type RecordType,
	recordProblem,
	selectRecords,
	storedContent,
} from "./dns-record-checks";
import { CODES, FailureSignal, invalid } from "./failure";
import { CAA } from "./record-data/caa";
import type { RecordData } from "./record-data/components";
import { type DataOf, type DataRecordType, dataType, hasData } from "./record-data/types";

/** The codes of the rules between records (module header); the quota's is edgezone's. */
const RECORD_CODES = {
	notFound: 81044,
	cnameBesideAddress: 81053,
	addressBesideCname: 81054,
	identical: 81058,
	/** Observed: an A record where an NS record is (acme-dns/acme-dns#258). */
	besideDelegation: 81056,
	/** Observed: beneath a delegation (kubernetes-sigs/external-dns#2427). */
	beneathDelegation: 89018,
	/** Chosen: an NS record beside other records of its name or above records beneath it; proxied glue. */
	delegationBesideRecords: 1004,
	/** Chosen: a DS record with no NS record of its name (octodns/octodns-cloudflare#102 has no code). */
	signerWithoutDelegation: 1004,
	/** Chosen: the zone holds MAX_RECORDS already. */
	quota: 81045,
} as const;

/**
 * Records of one zone: 3,500, the figure third-party reports give for Cloudflare's paid plans
 * (olivr/free-domain#223; Cloudflare's plan page is not in the docs); each is a small row, and a
 * list reads them all at once.
 */
export const MAX_RECORDS = 3500;

/** Optional per-record settings, as the TS SDK types them (`ARecord.Settings`, `CNAMERecord.Settings`). */
interface RecordSettings {
	ipv4_only?: boolean;
	ipv6_only?: boolean;
	flatten_cname?: boolean;
}

/** The writable fields of a record, complete (create and PUT, defaults filled by the API). */
export interface RecordInput {
	name: string;
	type: RecordType;
	/** Required but for the types made of components, whose content is derived from `data` (and not read without it). */
	content?: string | undefined;
	ttl: number;
	proxied: boolean;
	/** MX's, and SRV's when its data comes as content. */
	priority?: number | undefined;
	/** The components of a record of a type made of them (`record-data/types.ts`). */
	data?: RecordData | undefined;
	/** "", null or undefined: no comment. */
	comment?: string | null | undefined;
	tags: string[];
	settings: RecordSettings;
}

/** The fields a PATCH changes. */
export type RecordPatch = Partial<RecordInput>;

/** A record as the API answers it (the TS SDK's `RecordResponse` for the stored types): a type made of components with its `data`. */
export type DnsRecord = RecordFields &
	(
		| { [T in DataRecordType]: { type: T; data: DataOf<T> } }[DataRecordType]
		| { [T in Exclude<RecordType, DataRecordType>]: { type: T; data?: undefined } }[Exclude<RecordType, DataRecordType>]
	);

/** The fields every record answers; `type` and the `data` it has are `DnsRecord`'s. */
interface RecordFields {
	id: string;
	name: string;
	content: string;
	priority?: number;
	proxiable: boolean;
	proxied: boolean;
	ttl: number;
	settings: RecordSettings;
	meta: Record<string, never>;
	/** null without one: the real API answers `"comment": null` (github.com/caddyserver/caddy/issues/7301). */
	comment: string | null;
	tags: string[];
	created_on: string;
	modified_on: string;
	comment_modified_on?: string;
	tags_modified_on?: string;
}

/**
 * A record as the edge routes by it (`edge/origin/records.ts`): every record's name and type, the
 * content of A, AAAA and CNAME records only (what a proxied request can go to).
 */
export interface EdgeRecord {
	name: string;
	type: RecordType;
	/** The address or target of an A, AAAA or CNAME record; "" for the other types. */
	content: string;
	proxied: boolean;
}

/** The CAA records of one name, and when CAA last changed there (zone clock ms). */
export interface CaaAnswer {
	name: string;
	/** Empty when the name's last CAA record was removed. */
	records: CaaRecord[];
	changedAt: number;
}

/** One page of the list and how many records match in all. */
export interface RecordPage {
	items: DnsRecord[];
	total: number;
}

/** What a batch does, by list; each entry's index is its place in the request. */
export interface RecordBatch {
	deletes: string[];
	patches: { id: string; patch: RecordPatch }[];
	puts: { id: string; input: RecordInput }[];
	posts: RecordInput[];
}

/** What a batch answers: the records of each list, as they were deleted or as they are now. */
export interface RecordBatchResult {
	deletes: DnsRecord[];
	patches: DnsRecord[];
	puts: DnsRecord[];
	posts: DnsRecord[];
}

/** A record of an import left out: its place in the import, the rule's code, its message after the record's name. */
interface ImportRefusal {
	index: number;
	code: number;
	message: string;
}

/** What an import did: the records it created, in the file's order, and those it left out. */
export interface RecordImport {
	added: DnsRecord[];
	refused: ImportRefusal[];
}

type Row = {
	id: string;
	name: string;
	type: string;
	content: string;
	ttl: number;
	proxied: number;
	priority: number | null;
	comment: string | null;
	tags: string;
	settings: string;
	created_on: string;
	modified_on: string;
	comment_modified_on: string | null;
	tags_modified_on: string | null;
};

/** The `dns_records` table. Every method runs inside the caller's transaction; failures throw FailureSignal. */
export class DnsRecordStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Page `page` of `perPage` records matching `query`, in its order. */
	list(query: RecordQuery, page: number, perPage: number): RecordPage {
		const all = this.#sql.exec<Row>("SELECT * FROM dns_records").toArray().map(toRecord);
		const matching = selectRecords<DnsRecord & ListedRecord>(all, query);
		return { items: matching.slice((page - 1) * perPage, page * perPage), total: matching.length };
	}

	/** Every record as the edge routes by them, in creation order. */
	edgeRecords(): EdgeRecord[] {
		return (
			this.#sql
				.exec<{ name: string; type: string; content: string; proxied: number }>(
					`SELECT name, type, CASE WHEN type IN ('A', 'AAAA', 'CNAME') THEN content ELSE '' END AS content, proxied
				 FROM dns_records ORDER BY created_on, id`,
				)
				.toArray()
				// Written only by this store, from checked values.
				.map((row) => ({
					name: row.name,
					type: row.type as RecordType,
					content: row.content,
					proxied: row.proxied === 1,
				}))
		);
	}

	/** The TXT records of the zone, each with the time it was last written (zone clock ms): the simulated DNS reads them. */
	txtRecords(): { name: string; value: string; setAt: number }[] {
		return this.#sql
			.exec<{ name: string; content: string; modified_on: string }>(
				"SELECT name, content, modified_on FROM dns_records WHERE type = 'TXT'",
			)
			.toArray()
			.map((row) => ({ name: row.name, value: row.content, setAt: Date.parse(row.modified_on) }));
	}

	/**
	 * Every name whose CAA records changed since the zone began, with its CAA records now (as
	 * validation reads them, `dns.ts`): the names with none left still date their removal.
	 */
	caaAnswers(): CaaAnswer[] {
		const records = this.#sql
			.exec<{ name: string; content: string }>("SELECT name, content FROM dns_records WHERE type = 'CAA'")
			.toArray();
		return this.#sql
			.exec<{ name: string; changed_at: number }>("SELECT name, changed_at FROM dns_caa_changes")
			.toArray()
			.map((row) => ({
				name: row.name,
				records: records
					.filter((r) => r.name === row.name)
					.flatMap((r) => {
						const data = CAA.parse(r.content, undefined);
						return data === undefined ? [] : [{ tag: data.tag, value: data.value }];
					}),
				changedAt: row.changed_at,
			}));
	}

	/** One record; 404 81044 when unknown. */
	get(id: string, pointer?: string): DnsRecord {
		const row = this.#sql.exec<Row>("SELECT * FROM dns_records WHERE id = ?", id).toArray()[0];
		if (row === undefined) {
			throw new FailureSignal([
				{
					kind: "not_found",
					code: RECORD_CODES.notFound,
					message: "Record does not exist.",
					...(pointer === undefined ? {} : { pointer }),
				},
			]);
		}
		return toRecord(row);
	}

	/** Creates a record in zone `zone` (its name) at `now` (ms); `pointer` prefixes the fields of a failure. */
	create(input: RecordInput, zone: string, now: number, pointer = ""): DnsRecord {
		const count = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM dns_records").one().n;
		if (count >= MAX_RECORDS) {
			invalid(
				RECORD_CODES.quota,
				`The zone already holds ${MAX_RECORDS} DNS records, edgezone's limit.`,
				pointer || "/",
			);
		}
		const stamp = new Date(now).toISOString();
		const record = this.#checked(randomHexId(), input, zone, pointer, stamp, stamp, undefined);
		this.#caaChanged(undefined, record, now);
		this.#sql.exec(
			`INSERT INTO dns_records (id, name, type, content, ttl, proxied, priority, comment, tags, settings,
				created_on, modified_on, comment_modified_on, tags_modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			...rowValues(record),
		);
		return record;
	}

	/** Changes the given fields of a record (PATCH). */
	edit(id: string, patch: RecordPatch, zone: string, now: number, pointer = ""): DnsRecord {
		const before = this.get(id, pointer === "" ? undefined : `${pointer}/id`);
		const merged: RecordInput = {
			name: patch.name ?? before.name,
			type: patch.type ?? before.type,
			content: patch.content ?? before.content,
			ttl: patch.ttl ?? before.ttl,
			proxied: patch.proxied ?? before.proxied,
			priority: "priority" in patch ? patch.priority : before.priority,
			// A record's components are changed whole; a priority alone changes a URI or SRV record's.
			data:
				patch.data ??
				(patch.priority !== undefined && before.data !== undefined
					? { ...before.data, priority: patch.priority }
					: before.data),
			comment: "comment" in patch ? patch.comment : before.comment,
			tags: patch.tags ?? before.tags,
			settings: patch.settings ?? before.settings,
		};
		return this.#replace(before, merged, zone, now, pointer);
	}

	/** Overwrites a record (PUT): fields not given take their defaults. */
	overwrite(id: string, input: RecordInput, zone: string, now: number, pointer = ""): DnsRecord {
		const before = this.get(id, pointer === "" ? undefined : `${pointer}/id`);
		return this.#replace(before, input, zone, now, pointer);
	}

	/** Deletes a record at `now` (ms); answers it as it was. */
	delete(id: string, now: number, pointer?: string): DnsRecord {
		const record = this.get(id, pointer);
		this.#sql.exec("DELETE FROM dns_records WHERE id = ?", id);
		this.#caaChanged(record, undefined, now);
		return record;
	}

	/** Runs a batch in Cloudflare's order (deletes, patches, puts, posts); the first failure throws, naming its entry. */
	batch(batch: RecordBatch, zone: string, now: number): RecordBatchResult {
		return {
			deletes: batch.deletes.map((id, i) => this.delete(id, now, `/deletes/${i}/id`)),
			patches: batch.patches.map(({ id, patch }, i) => this.edit(id, patch, zone, now, `/patches/${i}`)),
			puts: batch.puts.map(({ id, input }, i) => this.overwrite(id, input, zone, now, `/puts/${i}`)),
			posts: batch.posts.map((input, i) => this.create(input, zone, now, `/posts/${i}`)),
		};
	}

	/**
	 * Creates the records of an import one after another, as `create` would each; a record a rule
	 * refuses (an identical one already there, a CNAME beside an address, the quota) is left out
	 * and answered as a message naming it, as Cloudflare's import answers them (`messages`,
	 * github.com/cloudflare/python-cloudflare/issues/89). A refused record writes nothing.
	 */
	importRecords(inputs: readonly RecordInput[], zone: string, now: number): RecordImport {
		const added: DnsRecord[] = [];
		const refused: ImportRefusal[] = [];
		// A DS record needs the NS records of its name (`#checkNeighbours`), which a zone file, sorted
		// by type as exports are, lists after it.
		const ordered = [...inputs.entries()].sort(([, a], [, b]) => Number(a.type === "DS") - Number(b.type === "DS"));
		for (const [index, input] of ordered) {
			try {
				added.push(this.create(input, zone, now));
			} catch (error) {
				const failure = error instanceof FailureSignal ? error.failures[0] : undefined;
				if (failure === undefined) throw error;
				refused.push({ index, code: failure.code, message: `${fullName(input.name, zone)}: ${failure.message}` });
			}
		}
		return { added, refused };
	}

	#replace(before: DnsRecord, input: RecordInput, zone: string, now: number, pointer: string): DnsRecord {
		const stamp = new Date(now).toISOString();
		const record = this.#checked(before.id, input, zone, pointer, before.created_on, stamp, before);
		this.#caaChanged(before, record, now);
		this.#sql.exec(
			`UPDATE dns_records SET name = ?, type = ?, content = ?, ttl = ?, proxied = ?, priority = ?, comment = ?,
				tags = ?, settings = ?, created_on = ?, modified_on = ?, comment_modified_on = ?, tags_modified_on = ?
				WHERE id = ?`,
			...rowValues(record).slice(1),
			record.id,
		);
		return record;
	}

	/** The record `input` makes, after its own checks and those against the zone's other records. */
	#checked(
		id: string,
		input: RecordInput,
		zone: string,
		pointer: string,
		createdOn: string,
		stamp: string,
		before: DnsRecord | undefined,
	): DnsRecord {
		const name = fullName(input.name, zone);
		if (input.content === undefined && !hasData(input.type))
			invalid(CODES.dnsRecordInvalid, `content is required for a ${input.type} record`, `${pointer}/content`);
		const given = input.content ?? "";
		const data = givenData(input.type, input.priority, input.data);
		const problem = recordProblem({ ...input, name, content: given, data });
		if (problem?.missing !== undefined)
			throw new FailureSignal(
				problem.missing.map((field) => ({
					kind: "invalid",
					code: problem.code,
					message: `${field} is a required data field.`,
					pointer: `${pointer}/data/${field}`,
				})),
			);
		if (problem !== undefined) invalid(problem.code, problem.message, `${pointer}/${problem.field}`);
		const content = storedContent(input.type, given, data);
		this.#checkNeighbours(id, { name, type: input.type, content, proxied: input.proxied }, zone, pointer);
		// Checked: the components as the stored content reads back (a target as stored, the fields of the type only).
		const typed = hasData(input.type) ? dataType(input.type).parse(content, data?.priority) : undefined;
		const priority =
			typed !== undefined && hasData(input.type)
				? dataType(input.type).priority?.(typed)
				: input.type === "MX"
					? input.priority
					: undefined;
		const comment =
			input.comment === undefined || input.comment === null || input.comment === "" ? null : input.comment;
		const commentStamp =
			comment === null ? undefined : comment === before?.comment ? before.comment_modified_on : stamp;
		const sameTags = before !== undefined && JSON.stringify(before.tags) === JSON.stringify(input.tags);
		const tagsStamp = input.tags.length === 0 ? undefined : sameTags ? before?.tags_modified_on : stamp;
		// A record of a type made of components has its checked data; no other has any.
		return {
			id,
			name,
			type: input.type,
			content,
			...(priority === undefined ? {} : { priority }),
			...(typed === undefined ? {} : { data: typed }),
			proxiable: proxiable(input.type),
			proxied: input.proxied,
			ttl: input.proxied ? 1 : input.ttl,
			settings: input.settings,
			meta: {},
			comment,
			tags: input.tags,
			created_on: createdOn,
			modified_on: stamp,
			...(commentStamp === undefined ? {} : { comment_modified_on: commentStamp }),
			...(tagsStamp === undefined ? {} : { tags_modified_on: tagsStamp }),
		} as DnsRecord;
	}

	/** Notes `now` as the time CAA changed at the names of `before` and `after` that are CAA records, when they differ. */
	#caaChanged(before: DnsRecord | undefined, after: DnsRecord | undefined, now: number): void {
		const caa = (r: DnsRecord | undefined) => (r?.type === "CAA" ? `${r.name} ${r.content}` : undefined);
		if (caa(before) === caa(after)) return;
		for (const record of [before, after]) {
			if (record?.type !== "CAA") continue;
			this.#sql.exec(
				`INSERT INTO dns_caa_changes (name, changed_at) VALUES (?, ?)
				 ON CONFLICT (name) DO UPDATE SET changed_at = excluded.changed_at`,
				record.name,
				now,
			);
		}
	}

	/** The rules between records (module header); `id` is the record itself, left out. */
	#checkNeighbours(
		id: string,
		record: { name: string; type: RecordType; content: string; proxied: boolean },
		zone: string,
		pointer: string,
	): void {
		const { name, type, content } = record;
		const others = this.#sql
			.exec<{ type: string; content: string }>(
				"SELECT type, content FROM dns_records WHERE name = ? AND id != ?",
				name,
				id,
			)
			.toArray();
		const at = `${pointer}/name`;
		if (type === "CNAME" && others.some((o) => o.type === "A" || o.type === "AAAA" || o.type === "CNAME")) {
			invalid(RECORD_CODES.cnameBesideAddress, "An A, AAAA, or CNAME record with that host already exists.", at);
		}
		if ((type === "A" || type === "AAAA") && others.some((o) => o.type === "CNAME")) {
			invalid(RECORD_CODES.addressBesideCname, "A CNAME record with that host already exists.", at);
		}
		if (others.some((o) => o.type === type && o.content === content)) {
			invalid(RECORD_CODES.identical, "An identical record already exists.", `${pointer}/content`);
		}
		// A DS record signs a delegation, so it stands only beside the NS records of its name, created
		// first (RFC 4035 §2.4; github.com/octodns/octodns-cloudflare/issues/102); the apex's NS
		// records delegate nothing.
		if (type === "DS" && (name === zone || !others.some((o) => o.type === "NS"))) {
			invalid(
				RECORD_CODES.signerWithoutDelegation,
				"A DS record needs an NS record of the same name: create the delegation first.",
				at,
			);
		}
		// The apex's NS records delegate nothing: they are the zone's own (Cloudflare's, ignored there).
		if (name === zone) return;
		if (type !== "NS" && type !== "DS" && others.some((o) => o.type === "NS")) {
			invalid(RECORD_CODES.besideDelegation, "NS records with that host already exist.", at);
		}
		if (type === "NS" && others.some((o) => o.type !== "NS" && o.type !== "DS")) {
			invalid(
				RECORD_CODES.delegationBesideRecords,
				"Other records with that host already exist: an NS record delegates its name alone.",
				at,
			);
		}
		this.#checkDelegations(id, record, zone, pointer);
	}

	/**
	 * Records beneath a delegation (an NS record's name): only its glue, A and AAAA records of the
	 * name servers it names, and DNS only, as Cloudflare's edge does not answer a delegated name
	 * (89018 "Cannot create a non-glue record that is beneath a
	 * delegated child zone.", github.com/kubernetes-sigs/external-dns/issues/2427); and an NS
	 * record cannot delegate a name with other records beneath it (edgezone's: Cloudflare would
	 * keep them, shadowed, which edgezone does not model).
	 */
	#checkDelegations(
		id: string,
		{ name, type, proxied }: { name: string; type: RecordType; proxied: boolean },
		zone: string,
		pointer: string,
	): void {
		const at = `${pointer}/name`;
		// The NS records of the names above `name`, short of the apex: one query whatever its depth
		// (a name may have 126 labels; the storage binds at most 100 variables to a query).
		const delegations = this.#sql
			.exec<{ content: string }>(
				`SELECT content FROM dns_records WHERE type = 'NS' AND name != ?2 AND length(?1) > length(name) + 1
				 AND substr(?1, length(?1) - length(name)) = '.' || name`,
				name,
				zone,
			)
			.toArray();
		if (delegations.length > 0) {
			const glue = (type === "A" || type === "AAAA") && delegations.some((d) => d.content === name);
			if (!glue) {
				invalid(
					RECORD_CODES.beneathDelegation,
					"Cannot create a non-glue record that is beneath a delegated child zone.",
					at,
				);
			}
			if (proxied) {
				invalid(
					RECORD_CODES.delegationBesideRecords,
					"A glue record of a delegated child zone cannot be proxied.",
					`${pointer}/proxied`,
				);
			}
		}
		if (type !== "NS") return;
		const beneath = this.#sql
			.exec<{ name: string; type: string }>(
				`SELECT name, type FROM dns_records WHERE id != ?1 AND length(name) > length(?2) + 1
				 AND substr(name, length(name) - length(?2)) = '.' || ?2`,
				id,
				name,
			)
			.toArray();
		if (beneath.some((r) => r.type !== "A" && r.type !== "AAAA")) {
			invalid(
				RECORD_CODES.delegationBesideRecords,
				"Records exist beneath this name: delete them before delegating it.",
				at,
			);
		}
	}
}

function rowValues(r: DnsRecord): SqlStorageValue[] {
	return [
		r.id,
		r.name,
		r.type,
		r.content,
		r.ttl,
		r.proxied ? 1 : 0,
		r.priority ?? null,
		r.comment ?? null,
		JSON.stringify(r.tags),
		JSON.stringify(r.settings),
		r.created_on,
		r.modified_on,
		r.comment_modified_on ?? null,
		r.tags_modified_on ?? null,
	];
}

function toRecord(row: Row): DnsRecord {
	// Written only by this store, from checked values: a record made of components reads back its data from its content.
	const type = row.type as RecordType;
	return {
		id: row.id,
		name: row.name,
		type,
		content: row.content,
		...(row.priority === null ? {} : { priority: row.priority }),
		...dataField(type, row.content, row.priority),
		proxiable: proxiable(type),
		proxied: row.proxied === 1,
		ttl: row.ttl,
		settings: JSON.parse(row.settings) as RecordSettings,
		meta: {},
		comment: row.comment,
		tags: JSON.parse(row.tags) as string[],
		created_on: row.created_on,
		modified_on: row.modified_on,
		...(row.comment_modified_on === null ? {} : { comment_modified_on: row.comment_modified_on }),
		...(row.tags_modified_on === null ? {} : { tags_modified_on: row.tags_modified_on }),
	} as DnsRecord;
}

/** The `data` of a stored record of a type made of components, read back from its content and priority. */
function dataField(type: RecordType, content: string, priority: number | null): { data?: RecordData } {
	const data = hasData(type) ? dataType(type).parse(content, priority ?? undefined) : undefined;
	return data === undefined ? {} : { data };
}
