/**
 * What every record type with components shares: the API's `data` object as a client sends it
 * (one bag of every type's fields: the TS SDK's `data` for `CAARecord`, `SRVRecord`,
 * `HTTPSRecord` and the others, github.com/cloudflare/cloudflare-typescript
 * `src/resources/dns/records.ts`), the problem a check answers, and the checks of one field.
 * Pure.
 */

/**
 * A record's `data` as a client sends it: any type's fields, each type reading its own
 * (`types.ts`). `flags` is a number for CAA and DNSKEY and text for NAPTR; `type` a number for
 * CERT and SSHFP.
 */
export interface RecordData {
	flags?: number | string | undefined;
	tag?: string | undefined;
	value?: string | undefined;
	priority?: number | undefined;
	weight?: number | undefined;
	port?: number | undefined;
	target?: string | undefined;
	order?: number | undefined;
	preference?: number | undefined;
	service?: string | undefined;
	regex?: string | undefined;
	replacement?: string | undefined;
	lat_degrees?: number | undefined;
	lat_minutes?: number | undefined;
	lat_seconds?: number | undefined;
	lat_direction?: string | undefined;
	long_degrees?: number | undefined;
	long_minutes?: number | undefined;
	long_seconds?: number | undefined;
	long_direction?: string | undefined;
	altitude?: number | undefined;
	size?: number | undefined;
	precision_horz?: number | undefined;
	precision_vert?: number | undefined;
	algorithm?: number | undefined;
	type?: number | undefined;
	fingerprint?: string | undefined;
	usage?: number | undefined;
	selector?: number | undefined;
	matching_type?: number | undefined;
	certificate?: string | undefined;
	key_tag?: number | undefined;
	digest_type?: number | undefined;
	digest?: string | undefined;
	protocol?: number | undefined;
	public_key?: string | undefined;
}

/** A field of `data`. */
export type DataField = keyof RecordData;

/** A problem with a record's components: Cloudflare's code where one is observed, the message, the field. */
export interface DataProblem {
	code: number;
	message: string;
	field: "data" | "name" | "priority" | `data/${DataField}`;
	/** The components missing (`REQUIRED`), each its own error in the answer, as Cloudflare's. */
	missing?: readonly DataField[];
}

/** The code of a record that is not valid, where no more precise one is observed (Cloudflare's "DNS Validation Error"). */
export const INVALID = 1004;

/**
 * A component left out: "<field> is a required data field.", one error per field, also when only
 * `content` is sent (observed for SRV, SSHFP, DS and TLSA: kubernetes-sigs/external-dns#6462 and
 * #6616, octodns/octodns-cloudflare#39, cloudflare/salt-cloudflare#14).
 */
const REQUIRED = 9101;

/** The problem of `fields` left out of a record's data, undefined when none is. */
export function missingProblem(fields: readonly DataField[]): DataProblem | undefined {
	const [first] = fields;
	return first === undefined
		? undefined
		: { code: REQUIRED, message: `${first} is a required data field.`, field: `data/${first}`, missing: fields };
}

/** A 1004 problem with `field` of `data`. */
export function dataProblem(field: DataField, message: string): DataProblem {
	return { code: INVALID, message, field: `data/${field}` };
}

/**
 * The first of `fields` that is not an integer of 0 to its bound, as a problem naming the record
 * type (`type`), or undefined.
 */
export function integersProblem(
	type: string,
	data: RecordData,
	fields: readonly (readonly [DataField, number])[],
): DataProblem | undefined {
	for (const [field, max] of fields) {
		const value = data[field];
		if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max)
			return dataProblem(field, `${recordOf(type)}'s ${field} is an integer of 0 to ${max}`);
	}
	return undefined;
}

/** "An SRV record", "A URI record": the article as the type's first letter is spoken. */
export function recordOf(type: string): string {
	return `${/^[AEFHILMNORSX]/.test(type) ? "An" : "A"} ${type} record`;
}

/**
 * Hexadecimal text of whole octets (`fingerprint`, `certificate`, `digest`, RFC 4255 §3.2, RFC
 * 6698 §2.2, RFC 4034 §5.3): blanks allowed between digits, as zone files split long values.
 * Upper case, as Cloudflare stores and answers it ("Cloudflare stores `fingerprint` in uppercase
 * letters", octodns/octodns-cloudflare#39; TLSA's certificate too, kubernetes-sigs/external-dns#6616).
 */
export function hexOf(text: unknown): string | undefined {
	if (typeof text !== "string") return undefined;
	const hex = text.replace(/\s+/g, "");
	return /^(?:[0-9a-fA-F]{2})+$/.test(hex) ? hex.toUpperCase() : undefined;
}

/** Base64 text (RFC 4648 §4; DNSKEY's key, CERT's certificate, RFC 4034 §2.2, RFC 4398 §2.2), blanks between allowed. */
export function base64Of(text: unknown): string | undefined {
	if (typeof text !== "string") return undefined;
	const b64 = text.replace(/\s+/g, "");
	return b64.length > 0 && b64.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(b64) ? b64 : undefined;
}

/** `text` as a quoted character-string (RFC 1035 §5.1): `"` and `\` escaped. */
export function quoted(text: string): string {
	return `"${text.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

/**
 * The words of a content: blank-separated, a quoted string one word (its escapes read); undefined
 * when a quote is not closed.
 */
export function words(content: string): string[] | undefined {
	const out: string[] = [];
	const pattern = /\s*(?:"((?:[^"\\]|\\.)*)"|([^\s"]+))/gy;
	let match: RegExpExecArray | null = pattern.exec(content);
	let end = 0;
	while (match !== null) {
		out.push(match[1] === undefined ? (match[2] ?? "") : match[1].replace(/\\(.)/g, "$1"));
		end = pattern.lastIndex;
		match = pattern.exec(content);
	}
	return content.slice(end).trim() === "" ? out : undefined;
}

/** `text` as a number when it is written as a decimal integer, else NaN (a check then refuses it). */
export function integerOf(text: string | undefined): number {
	return text !== undefined && /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * A record type whose content is made of components: how its `data` is checked, shown as content
 * and read back from one (`D`, its checked components).
 */
export interface DataType<D extends RecordData> {
	/** The fields of `data` this type reads, in content order; each required but those `defaults` fills. */
	readonly fields: readonly DataField[];
	/** The values of the fields a client may leave out. */
	readonly defaults?: Partial<D>;
	/** Data of this type as a zone file writes it, for the import's message on a record it cannot read. */
	readonly example: string;
	/** Why `data` is not a record of this type named `name` (a full name), or undefined. */
	problem(data: RecordData, name: string): DataProblem | undefined;
	/** The content the API shows for `data`, which `problem` passed. */
	content(data: D): string;
	/**
	 * The components of a content this type's `content` wrote, or that a client sent instead of
	 * `data` (`priority`: the record's own, for a type that keeps it beside its content); undefined
	 * when the text is not of this type.
	 */
	parse(content: string, priority: number | undefined): D | undefined;
	/** The record's own `priority` (beside `data`) for a type that has one: SRV's, from its data. */
	priority?(data: D): number;
	/**
	 * The data as a zone file writes it (RFC 1035 §5.1, the type's RFC presentation form): names
	 * absolute with their final dot, a priority kept beside the content in front. `content`'s
	 * text where the two agree.
	 */
	presentation?(data: D, priority: number | undefined): string;
	/** The words of the presentation form that are domain names (relative to the origin in a zone file). */
	readonly nameWords?: readonly number[];
}
