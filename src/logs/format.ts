/**
 * Log entries in a job's `output_options` (docs `logs/logpush/logpush-job/log-output-options`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/log-output-options/): pure text, no I/O.
 *
 * Emulates:
 * - `field_names`: those fields, in that order; a field the edge had nothing for gets its
 *   documented absent value (`absent.ts`);
 * - `output_type`: `ndjson` renders each field `"Name":<JSON value>`; `csv` renders values
 *   alone, strings in double quotes (a quote inside doubled, RFC 4180 §2), numbers and booleans
 *   bare, arrays and objects as their JSON in a quoted string;
 * - `timestamp_format`: `unixnano` (an integer: edgezone's clock has millisecond resolution, so
 *   the last six digits are 0), `unix` (integer seconds), `rfc3339` (seconds), `rfc3339ms`,
 *   `rfc3339ns`, all UTC;
 * - framing: `batch_prefix` + records joined by `record_delimiter` + `batch_suffix`, each record
 *   `record_prefix` + fields joined by `field_delimiter` (or the template) + `record_suffix`;
 * - `record_template`: the docs' subset of Go text/template: text, `{{ .Field }}`,
 *   `{{ "constant" }}` (or a raw `` `constant` ``), comments (`{{/*` … `*` + `/}}`), and Go's `{{-`/`-}}`
 *   whitespace trimming; a field used but not in `field_names` renders `null`; the field
 *   delimiter is then not used;
 * - `sample_rate`: a record is kept when a hash of its RayID falls under the rate, so a retried
 *   batch samples the same records;
 * - `CVE-2021-44228`: every `${` of the generated text becomes `x{`.
 */
import { absentValue } from "./absent";
import { type LogEntry, type LogValue, TIMESTAMP_FIELDS } from "./entry";
import type { OutputOptions } from "./output-options";

/** One piece of a parsed `record_template`. */
type TemplatePart = { kind: "text"; text: string } | { kind: "field"; name: string };

/** Outcome of parsing a `record_template`. */
export type ParsedTemplate = { ok: true; parts: TemplatePart[] } | { ok: false; message: string };

// An action: `{{`, optional trim marker, the inside (quoted constants may hold `}}`), `}}`.
const ACTION = /\{\{(-\s)?((?:`[^`]*`|"(?:[^"\\]|\\.)*"|[\s\S])*?)(\s-)?\}\}/g;

/** Parses a `record_template` (the docs' subset of Go text/template); the failure says why. */
export function parseTemplate(template: string): ParsedTemplate {
	const parts: TemplatePart[] = [];
	let last = 0;
	let trimNext = false;
	for (const match of template.matchAll(ACTION)) {
		const [whole, trimLeft, inner = "", trimRight] = match;
		let text = template.slice(last, match.index);
		if (trimNext) text = text.trimStart();
		if (trimLeft) text = text.trimEnd();
		if (text !== "") parts.push({ kind: "text", text });
		last = match.index + whole.length;
		trimNext = trimRight !== undefined;
		const action = inner.trim();
		if (action.startsWith("/*") && action.endsWith("*/")) continue;
		const field = /^\.([A-Za-z][A-Za-z0-9_]*)$/.exec(action);
		if (field?.[1] !== undefined) {
			parts.push({ kind: "field", name: field[1] });
			continue;
		}
		const constant = constantOf(action);
		if (constant === undefined)
			return {
				ok: false,
				message: `record_template: "{{${inner}}}" is not one of {{ .Field }}, {{ "constant" }} or {{/* comment */}}`,
			};
		parts.push({ kind: "text", text: constant });
	}
	let rest = template.slice(last);
	if (trimNext) rest = rest.trimStart();
	if (rest.includes("{{")) return { ok: false, message: "record_template: an action is not closed with }}" };
	if (rest !== "") parts.push({ kind: "text", text: rest });
	return { ok: true, parts };
}

/** A Go string constant: "interpreted" (JSON-compatible escapes) or `raw`. */
function constantOf(action: string): string | undefined {
	if (action.length >= 2 && action.startsWith("`") && action.endsWith("`") && !action.slice(1, -1).includes("`"))
		return action.slice(1, -1);
	if (action.length >= 2 && action.startsWith('"') && action.endsWith('"')) {
		try {
			const value: unknown = JSON.parse(action);
			return typeof value === "string" ? value : undefined;
		} catch {
			return undefined;
		}
	}
	return undefined;
}

/** `ms` since the epoch in a `timestamp_format`: a bare number, or a quoted string for the rfc3339 forms. */
export function formatTimestamp(ms: number, format: OutputOptions["timestamp_format"]): string {
	switch (format) {
		case "unixnano":
			return ms === 0 ? "0" : `${Math.trunc(ms)}000000`;
		case "unix":
			return String(Math.floor(ms / 1000));
		case "rfc3339":
			return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
		case "rfc3339ms":
			return new Date(ms).toISOString();
		case "rfc3339ns":
			return new Date(ms).toISOString().replace(/Z$/, "000000Z");
	}
}

/** One value as the output type writes it. */
function render(name: string, value: LogValue, options: OutputOptions): string {
	if (TIMESTAMP_FIELDS.has(name) && typeof value === "number") {
		const text = formatTimestamp(value, options.timestamp_format);
		if (!options.timestamp_format.startsWith("rfc3339")) return text;
		return options.output_type === "csv" ? csvString(text) : JSON.stringify(text);
	}
	if (options.output_type === "ndjson") return JSON.stringify(value);
	if (typeof value === "number" || typeof value === "boolean") return String(value);
	return csvString(typeof value === "string" ? value : JSON.stringify(value));
}

function csvString(text: string): string {
	return `"${text.replaceAll('"', '""')}"`;
}

/** A job's output options, prepared once per batch. */
export interface Formatter {
	options: OutputOptions;
	template: TemplatePart[] | undefined;
	fields: ReadonlySet<string>;
}

/**
 * Prepares `options` for formatting. A template that does not parse (refused at write, so only
 * an old row could hold one) is treated as no template.
 */
export function formatter(options: OutputOptions): Formatter {
	const parsed = options.record_template === "" ? undefined : parseTemplate(options.record_template);
	return { options, template: parsed?.ok ? parsed.parts : undefined, fields: new Set(options.field_names) };
}

const fieldOf = (entry: LogEntry, name: string): LogValue => entry[name] ?? absentValue(name);

/** One record: prefix, fields (or template), suffix. */
export function formatRecord(entry: LogEntry, f: Formatter): string {
	const { options } = f;
	let body: string;
	if (f.template !== undefined) {
		body = f.template
			.map((part) => {
				if (part.kind === "text") return part.text;
				return f.fields.has(part.name) ? render(part.name, fieldOf(entry, part.name), options) : "null";
			})
			.join("");
	} else if (options.output_type === "ndjson") {
		body = options.field_names
			.map((name) => `${JSON.stringify(name)}:${render(name, fieldOf(entry, name), options)}`)
			.join(options.field_delimiter);
	} else {
		body = options.field_names.map((name) => render(name, fieldOf(entry, name), options)).join(options.field_delimiter);
	}
	return options.record_prefix + body + options.record_suffix;
}

/** Whether a record is kept at `rate` (0, 1]: FNV-1a of its RayID, as a fraction of 2^32, under the rate. */
export function sampled(rayId: string, rate: number): boolean {
	if (rate >= 1) return true;
	let hash = 0x811c9dc5;
	for (let i = 0; i < rayId.length; i++) {
		hash ^= rayId.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash / 2 ** 32 < rate;
}

/** Records already formatted, framed as one batch (one delivered object), redacted when asked. */
export function frameBatch(records: readonly string[], options: OutputOptions): string {
	const text = options.batch_prefix + records.join(options.record_delimiter) + options.batch_suffix;
	return options["CVE-2021-44228"] ? text.replaceAll("${", "x{") : text;
}
