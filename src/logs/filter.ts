/**
 * The `filter` of a log-push job: which entries it delivers (docs
 * `logs/logpush/logpush-job/filters`, https://developers.cloudflare.com/logs/logpush/logpush-job/filters/).
 *
 * Emulates: a JSON string `{"where": X}`, X a condition `{"key", "operator", "value"}` or
 * `{"and": [X, ...]}` / `{"or": [X, ...]}`, nested; the operators `eq`, `!eq`, `lt`, `leq`,
 * `gt`, `geq`, `startsWith`, `endsWith`, `!startsWith`, `!endsWith`, `contains`, `!contains`,
 * `in`, `!in`, on the value types the docs' table allows them for (`contains` also on arrays);
 * numbers may be given as strings (the docs write `"value":"30"`); keys are fields of the
 * dataset; the docs' limits of "approximately 30 operators and 1000 bytes" as 30 conditions
 * and 1,000 bytes. A filter selects the entries it is true for ("a pass-through gate").
 * Timestamps compare in the unit the filter can name: nanoseconds since the epoch.
 * Gaps: Cloudflare's error texts for a bad filter are not public; these are edgezone's.
 */
import { z } from "zod";
import { absentValue } from "./absent";
import { HTTP_REQUESTS_FIELDS } from "./datasets/http-requests";
import { type LogEntry, type LogValue, TIMESTAMP_FIELDS } from "./entry";

/** Documented limits of a filter. */
const FILTER_MAX_BYTES = 1000;
const FILTER_MAX_CONDITIONS = 30;

const OPERATORS = [
	"eq",
	"!eq",
	"lt",
	"leq",
	"gt",
	"geq",
	"startsWith",
	"endsWith",
	"!startsWith",
	"!endsWith",
	"contains",
	"!contains",
	"in",
	"!in",
] as const;

type Scalar = string | number | boolean;

/** One condition of a filter. */
interface Condition {
	key: string;
	operator: (typeof OPERATORS)[number];
	value: Scalar | Scalar[];
}

/** A parsed filter expression. */
export type FilterNode = { and: FilterNode[] } | { or: FilterNode[] } | Condition;

const SCALAR = z.union([z.string(), z.number(), z.boolean()]);
const CONDITION = z.strictObject({
	key: z.string().refine((key) => Object.hasOwn(HTTP_REQUESTS_FIELDS, key), {
		message: "is not a field of the dataset http_requests",
	}),
	operator: z.enum(OPERATORS),
	value: z.union([SCALAR, z.array(SCALAR)]),
});
const NODE: z.ZodType<FilterNode> = z.lazy(() =>
	z.union([z.strictObject({ and: z.array(NODE).min(1) }), z.strictObject({ or: z.array(NODE).min(1) }), CONDITION]),
);
const FILTER = z.strictObject({ where: NODE });

/** Outcome of parsing a job's `filter`. */
export type ParsedFilter = { ok: true; where: FilterNode | undefined } | { ok: false; message: string };

/** Parses a job's `filter` string; `""` is no filter. The failure message says what is wrong. */
export function parseFilter(filter: string): ParsedFilter {
	if (filter === "") return { ok: true, where: undefined };
	if (new TextEncoder().encode(filter).byteLength > FILTER_MAX_BYTES)
		return { ok: false, message: `filter is longer than ${FILTER_MAX_BYTES} bytes` };
	let json: unknown;
	try {
		json = JSON.parse(filter);
	} catch {
		return { ok: false, message: 'filter is not JSON (it is a JSON string: {"where": {...}})' };
	}
	const parsed = FILTER.safeParse(json);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const at = issue?.path.length ? ` at ${issue.path.join(".")}` : "";
		return { ok: false, message: `filter is not valid${at}: ${issue?.message ?? "unknown"}` };
	}
	const count = conditions(parsed.data.where);
	if (count > FILTER_MAX_CONDITIONS)
		return { ok: false, message: `filter has ${count} conditions; at most ${FILTER_MAX_CONDITIONS} are allowed` };
	for (const condition of all(parsed.data.where)) {
		const problem = checkCondition(condition);
		if (problem !== undefined) return { ok: false, message: `filter: ${problem}` };
	}
	return { ok: true, where: parsed.data.where };
}

function all(node: FilterNode): Condition[] {
	if ("and" in node) return node.and.flatMap(all);
	if ("or" in node) return node.or.flatMap(all);
	return [node];
}

function conditions(node: FilterNode): number {
	return all(node).length;
}

type Kind = "string" | "int" | "bool" | "array" | "object";

function kindOf(key: string): Kind {
	const value = TIMESTAMP_FIELDS.has(key) ? 0 : absentValue(key);
	if (Array.isArray(value)) return "array";
	if (typeof value === "object") return "object";
	if (typeof value === "number") return "int";
	if (typeof value === "boolean") return "bool";
	return "string";
}

/** The docs' table: which operators each value type takes. */
const ALLOWED: Record<Kind, readonly string[]> = {
	string: ["eq", "!eq", "startsWith", "endsWith", "!startsWith", "!endsWith", "contains", "!contains", "in", "!in"],
	int: ["eq", "!eq", "lt", "leq", "gt", "geq", "in", "!in"],
	bool: ["eq", "!eq"],
	array: ["contains", "!contains"],
	object: [],
};

function checkCondition({ key, operator, value }: Condition): string | undefined {
	const kind = kindOf(key);
	if (!ALLOWED[kind].includes(operator)) return `operator ${operator} does not apply to ${key} (${kind})`;
	const list = operator === "in" || operator === "!in";
	if (list !== Array.isArray(value))
		return list ? `${operator} takes an array of values` : `${operator} takes one value, not an array`;
	if (kind === "int" && (Array.isArray(value) ? value : [value]).some((v) => !Number.isFinite(Number(v))))
		return `${key} is a number: ${JSON.stringify(value)} is not`;
	return undefined;
}

/** Whether `entry` passes `where` (undefined: no filter). */
export function passes(entry: LogEntry, where: FilterNode | undefined): boolean {
	if (where === undefined) return true;
	if ("and" in where) return where.and.every((node) => passes(entry, node));
	if ("or" in where) return where.or.some((node) => passes(entry, node));
	return test(where, entry[where.key] ?? absentValue(where.key));
}

function test({ key, operator, value }: Condition, actual: LogValue): boolean {
	const have: LogValue = TIMESTAMP_FIELDS.has(key) && typeof actual === "number" ? actual * 1e6 : actual;
	const negated = operator.startsWith("!");
	const op = negated ? operator.slice(1) : operator;
	return negated !== positive(op, have, value);
}

function same(have: LogValue, want: Scalar): boolean {
	if (typeof have === "number") return have === Number(want);
	if (typeof have === "boolean") return have === (want === true || want === "true");
	return have === String(want);
}

function positive(op: string, have: LogValue, want: Scalar | Scalar[]): boolean {
	if (op === "in") return Array.isArray(want) && want.some((w) => same(have, w));
	if (Array.isArray(want)) return false;
	if (Array.isArray(have))
		return op === "contains" && (have as readonly (string | number)[]).some((h) => String(h) === String(want));
	switch (op) {
		case "eq":
			return same(have, want);
		case "lt":
			return Number(have) < Number(want);
		case "leq":
			return Number(have) <= Number(want);
		case "gt":
			return Number(have) > Number(want);
		case "geq":
			return Number(have) >= Number(want);
		case "startsWith":
			return String(have).startsWith(String(want));
		case "endsWith":
			return String(have).endsWith(String(want));
		case "contains":
			return String(have).includes(String(want));
		default:
			return false;
	}
}
