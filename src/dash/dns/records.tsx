/**
 * The DNS page's parts: the records table (Type, Name, Content, Proxy status, TTL, Comment, as
 * Cloudflare's dashboard lists them: https://developers.cloudflare.com/dns/manage-dns-records/how-to/create-dns-records/),
 * the Add record and Edit record forms, and the API bodies they make. A record made of components
 * (CAA, SRV, HTTPS and the others of `zone/record-data/`) is written as its content as the API
 * shows it (`0 issue "letsencrypt.org"`) or as a zone file does, which the form reads into the
 * API's `data`; Cloudflare's dashboard has a field for each component instead.
 */
import type { FC } from "hono/jsx";
import { RECORD_TYPES } from "../../zone/dns-record-checks";
import type { DnsRecord } from "../../zone/dns-records";
import { dataType, hasData } from "../../zone/record-data/types";
import {
	Checkbox,
	Csrf,
	ErrorSummary,
	type FormErrors,
	FormScope,
	type formValues,
	numberOrText,
	PostForm,
	SelectField,
	TextField,
} from "../components/form";

/** The types the API stores, as the form offers them. */
const TYPES: [string, string][] = RECORD_TYPES.map((t) => [t, t]);

/** The types whose priority the form sends: MX's and URI's, and SRV's beside its `weight port target`. */
const PRIORITIZED = new Set(["MX", "SRV", "URI"]);

/**
 * The TTL choices of Cloudflare's dashboard: Auto (the API's 1) and fixed times from 1 minute to
 * 1 day (the API's 60 to 86400 seconds).
 */
const TTLS: [string, string][] = [
	["1", "Auto"],
	["60", "1 min"],
	["120", "2 min"],
	["300", "5 min"],
	["600", "10 min"],
	["900", "15 min"],
	["1800", "30 min"],
	["3600", "1 hr"],
	["7200", "2 hr"],
	["18000", "5 hr"],
	["43200", "12 hr"],
	["86400", "1 day"],
];

/** A TTL in seconds as the dashboard shows it: "Auto" for 1, a listed choice's label, else seconds. */
function ttlLabel(ttl: number): string {
	return TTLS.find(([value]) => Number(value) === ttl)?.[1] ?? `${ttl} s`;
}

/** The record's name as Cloudflare's dashboard shows it: relative to the zone, the zone's own name at the apex. */
function shownName(name: string, zone: string): string {
	return name.endsWith(`.${zone}`) ? name.slice(0, -(zone.length + 1)) : name;
}

/** A record form as typed (Add record; Edit record leaves type and name alone). */
export interface RecordValues {
	type: string;
	name: string;
	content: string;
	priority: string;
	ttl: string;
	proxied: boolean;
	comment: string;
}

export const EMPTY_RECORD: RecordValues = {
	type: "A",
	name: "",
	content: "",
	priority: "",
	ttl: "1",
	proxied: true,
	comment: "",
};

/** A record form's values as posted; `type` the record's own when editing (the form then posts none). */
export function recordValuesOf(
	form: Awaited<ReturnType<typeof formValues>>,
	type: string = form.one("type"),
): RecordValues {
	return {
		type,
		name: form.one("name").trim(),
		// A TXT record's spaces are its content; an address or hostname pasted with spaces is not.
		content: type === "TXT" ? form.one("content") : form.one("content").trim(),
		priority: form.one("priority").trim(),
		ttl: form.one("ttl"),
		proxied: form.one("proxied") === "true",
		comment: form.one("comment"),
	};
}

/** A record's values in the edit form. */
export function valuesOfRecord(record: DnsRecord): RecordValues {
	return {
		type: record.type,
		name: record.name,
		content: record.content,
		priority: record.priority === undefined ? "" : String(record.priority),
		ttl: String(record.ttl),
		proxied: record.proxied,
		comment: record.comment ?? "",
	};
}

/**
 * The API body of a record form (`POST` to create, `PATCH` to edit, which leaves out type and
 * name): priority only for MX, SRV and URI, an empty priority left out (the API then says MX needs
 * one); a record made of components sent as the `data` its content reads as, or as its content
 * when it reads as none (the API then names each component it lacks).
 */
export function recordBody(values: RecordValues, edit: boolean): Record<string, unknown> {
	const priority = PRIORITIZED.has(values.type) && values.priority !== "" ? numberOrText(values.priority) : undefined;
	const data = hasData(values.type)
		? dataType(values.type).parse(values.content, typeof priority === "number" ? priority : undefined)
		: undefined;
	return {
		...(edit ? {} : { type: values.type, name: values.name }),
		...(data === undefined ? { content: values.content } : { data }),
		ttl: numberOrText(values.ttl),
		proxied: values.proxied,
		comment: values.comment,
		...(priority === undefined ? {} : { priority }),
	};
}

const FIELDS = ["type", "name", "content", "priority", "ttl", "proxied", "comment"];

/**
 * Where a record form field's errors show, by the pointer of the API's error (`/name`, `/proxied`,
 * ...); a record's `/data/...` at Content, which the form writes it as (an SRV or URI record's
 * priority at Priority).
 */
export function recordFieldOf(pointer: string): string | undefined {
	const [, top] = pointer.split("/");
	if (pointer === "/data/priority") return "priority";
	if (top === "data") return "content";
	return top !== undefined && FIELDS.includes(top) ? top : undefined;
}

/** The words naming a record in its row's buttons: type, name and content ("A www 192.0.2.1"). */
const recordWords = (r: DnsRecord, zone: string) => `${r.type} ${shownName(r.name, zone)} ${r.content}`;

const RecordRow: FC<{ record: DnsRecord; zone: string; csrf: string; base: string }> = ({
	record,
	zone,
	csrf,
	base,
}) => {
	const words = recordWords(record, zone);
	const action = `${base}/records/${record.id}`;
	return (
		<tr>
			<td>{record.type}</td>
			<td>{shownName(record.name, zone)}</td>
			<td>
				<code>{record.content}</code>
				{record.priority !== undefined && <span class="hint"> priority {record.priority}</span>}
			</td>
			<td>{record.proxied ? "Proxied" : "DNS only"}</td>
			<td>{ttlLabel(record.ttl)}</td>
			<td>{record.comment ?? ""}</td>
			<td>
				<div class="row-actions">
					{record.proxiable && (
						<PostForm action={`${action}/proxied`} csrf={csrf}>
							<input type="hidden" name="proxied" value={record.proxied ? "false" : "true"} />
							<button
								type="submit"
								class="secondary"
								aria-label={`${record.proxied ? "Set to DNS only" : "Proxy"} ${words}`}
							>
								{record.proxied ? "DNS only" : "Proxy"}
							</button>
						</PostForm>
					)}
					<a href={action} aria-label={`Edit ${words}`}>
						Edit
					</a>
					<PostForm action={`${action}/delete`} csrf={csrf} confirm={`Delete the ${words} record?`}>
						<button type="submit" class="danger" aria-label={`Delete ${words}`}>
							Delete
						</button>
					</PostForm>
				</div>
			</td>
		</tr>
	);
};

/** The zone's records, one row each with its actions; `base` is the DNS page's path, `zone` the zone's name. */
export const RecordsTable: FC<{ records: DnsRecord[]; zone: string; csrf: string; base: string }> = (p) =>
	p.records.length === 0 ? (
		<p>No DNS records in this zone.</p>
	) : (
		<table>
			<thead>
				<tr>
					<th scope="col">Type</th>
					<th scope="col">Name</th>
					<th scope="col">Content</th>
					<th scope="col">Proxy status</th>
					<th scope="col">TTL</th>
					<th scope="col">Comment</th>
					<th scope="col">Actions</th>
				</tr>
			</thead>
			<tbody>
				{p.records.map((r) => (
					<RecordRow record={r} zone={p.zone} csrf={p.csrf} base={p.base} />
				))}
			</tbody>
		</table>
	);

/** The fields both record forms share: content, priority (MX, SRV, URI), TTL, proxied, comment. */
const SharedFields: FC<{ values: RecordValues; mx: boolean }> = ({ values, mx }) => (
	<>
		<TextField
			name="content"
			label="Content"
			value={values.content}
			required
			hint='A: an IPv4 address; AAAA: an IPv6 address; CNAME, MX, NS and PTR: a hostname; TXT: text; CAA: flags, tag and value, as in 0 issue "letsencrypt.org"; SRV: weight, port and target, as in 5 5060 sip.example.com; HTTPS, SVCB, URI, LOC and the key records: their data as a zone file writes it, as in 1 . alpn="h3,h2".'
		/>
		{mx && (
			<TextField name="priority" label="Priority" value={values.priority} hint="MX, SRV and URI only: 0 to 65535." />
		)}
		<SelectField name="ttl" label="TTL" options={TTLS} value={values.ttl} hint="A proxied record's TTL is Auto." />
		<Checkbox name="proxied" label="Proxied (A, AAAA and CNAME only)" checked={values.proxied} />
		<TextField name="comment" label="Comment" value={values.comment} hint="Optional, at most 500 characters." />
	</>
);

/** The Add record form: `values` as typed and the API's `errors` by field. */
export const AddRecordForm: FC<{ action: string; csrf: string; values: RecordValues; errors: FormErrors }> = (p) => (
	<>
		<h3 id="add-record-heading">Add record</h3>
		<ErrorSummary messages={p.errors.form} />
		<form method="post" action={p.action} aria-labelledby="add-record-heading">
			<Csrf token={p.csrf} />
			<FormScope form="record" errors={p.errors}>
				<SelectField name="type" label="Type" options={TYPES} value={p.values.type} />
				<TextField
					name="name"
					label="Name"
					value={p.values.name}
					required
					hint="@ for the zone's apex; a name not ending in the zone's is read under it (www)."
				/>
				<SharedFields values={p.values} mx />
			</FormScope>
			<div class="actions">
				<button type="submit">Save</button>
			</div>
		</form>
	</>
);

/** The Edit record form of `record`: its type and name shown, the other fields editable. */
export const EditRecordForm: FC<{
	action: string;
	csrf: string;
	record: DnsRecord;
	zone: string;
	values: RecordValues;
	errors: FormErrors;
}> = (p) => (
	<>
		<h2 id="edit-record-heading">
			{p.record.type} record {shownName(p.record.name, p.zone)}
		</h2>
		<ErrorSummary messages={p.errors.form} />
		<form method="post" action={p.action} aria-labelledby="edit-record-heading">
			<Csrf token={p.csrf} />
			<FormScope form="edit-record" errors={p.errors}>
				<SharedFields values={p.values} mx={PRIORITIZED.has(p.record.type)} />
			</FormScope>
			<div class="actions">
				<button type="submit">Save</button>
			</div>
		</form>
	</>
);
