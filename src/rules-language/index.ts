/**
 * The Rules language (Cloudflare's wirefilter dialect): `compile(expression)` to a {@link Filter}.
 *
 * Emulates: Cloudflare's expression engine as the API validates it and the edge evaluates it:
 * wirefilter's lexer, parser, type checker and errors (github.com/cloudflare/wirefilter), with
 * Cloudflare's fields and filter-phase functions (cloudflare-docs `rules-language/*`,
 * developers.cloudflare.com/ruleset-engine/rules-language/).
 * Gaps (each file's ledger has its own): the 4,096-character limit's error text is ours
 * (`expression is too long: N characters, the limit is 4096`), as the real one is not recorded;
 * a few regex features are refused with our own texts (regex.ts); rewrite-phase functions are
 * unknown identifiers; Cloudflare's limit of 64 regular expressions per rule, and edgezone's on
 * what they compile to, are refused with our own texts (parser.ts); one request's string
 * comparisons and function calls share a budget of work past which they throw instead of running
 * (work-budget.ts), a limit of edgezone's, not Cloudflare's. The module is pure: no Workers APIs;
 * its one runtime dependency is `re2js`, the linear-time engine `matches` runs on.
 */
import { fromByteString } from "./bytes.ts";
import { type Ctx, compileLogical, compileValue, type FieldValues, fieldsOf, type ListValues } from "./compile.ts";
import { type FilterError, LexError, renderError } from "./errors.ts";
import { type Scheme, schemeFields, transformValueFields } from "./fields.ts";
import { type ListKind, parseExpression, parseValue } from "./parser.ts";
import type { FieldType } from "./types.ts";
import { COMPARISON_WORK_PER_REQUEST, ComparisonWorkExceeded, type WorkBudget } from "./work-budget.ts";

export type { FieldValues, ListValues } from "./compile.ts";
export type { FilterError } from "./errors.ts";

export { type Scheme, schemeFields } from "./fields.ts";
export type { FieldType } from "./types.ts";
export { COMPARISON_WORK_PER_REQUEST, ComparisonWorkExceeded, type WorkBudget } from "./work-budget.ts";

/** Cloudflare's limit on an expression's length, in characters (cloudflare-docs max-expression-length). */
export const MAX_EXPRESSION_LENGTH = 4096;

/** A compiled expression. */
export interface Filter {
	/** The expression as given. */
	readonly expression: string;
	/** The fields it reads, in order of first use. */
	readonly fields: readonly string[];
	/**
	 * True when the request matches; runs no eval. `lists` holds the items of the named lists
	 * `in $name` refers to (IP lists: addresses or CIDRs as strings; a list absent here matches
	 * nothing). Throws only {@link ComparisonWorkExceeded}, when its comparisons and calls would
	 * cost more than {@link COMPARISON_WORK_PER_REQUEST} (`work-budget.ts`).
	 */
	matches(values: FieldValues, lists?: ListValues): boolean;
	/**
	 * The same against a request's {@link Evaluation}: every filter matched against it shares
	 * the field values it converted (so a zone's rules convert each field once per request) and
	 * one work budget for its comparisons and calls, whose exhaustion throws
	 * {@link ComparisonWorkExceeded}.
	 */
	matchesIn(evaluation: Evaluation): boolean;
}

declare const evaluationBrand: unique symbol;

/**
 * One request's values, prepared for matching by many filters (`Filter.matchesIn`): each field
 * is converted to its runtime form when a filter first reads it, once for all the filters. The
 * values must not change while it is in use.
 */
export interface Evaluation {
	/** Opaque: what the compiled filters read. */
	readonly [evaluationBrand]: true;
}

/**
 * Prepares `values` (and the items of the named lists `in $name` refers to) for
 * {@link Filter.matchesIn}, with one request's budget of comparison work
 * ({@link COMPARISON_WORK_PER_REQUEST}), or with `budget` when the request's phases share one
 * across the evaluations of their field values (`requestBudget`).
 */
export function evaluation(values: FieldValues, lists?: ListValues, budget?: WorkBudget): Evaluation {
	const ctx: Ctx = { values, lists, cache: [], work: budget ?? requestBudget() };
	return ctx as unknown as Evaluation;
}

/** A fresh budget of one request's comparison work, for `evaluation`s that share it. */
export function requestBudget(): WorkBudget {
	return { left: COMPARISON_WORK_PER_REQUEST };
}

/** Options of {@link compile}. */
export interface CompileOptions {
	/** Named lists that exist (`$name`), with their item type; unknown names are an error. */
	lists?: ReadonlyMap<string, ListKind>;
	/**
	 * The field scheme, name -> type; Cloudflare's {@link FIELDS} when absent. Another scheme lets
	 * the tests compare this parser with an engine build that has different fields.
	 */
	fields?: Readonly<Record<string, FieldType>>;
	/** Whether the limits on an expression's regular expressions apply (`ParseOptions.regexLimits`); true when absent. */
	regexLimits?: boolean;
}

function lengthError(expression: string, length: number): FilterError {
	// Point at the first character past the limit, as the engine points at the failing input.
	const codeUnits = [...expression].slice(0, MAX_EXPRESSION_LENGTH).join("").length;
	const error = new LexError(
		`expression is too long: ${length} characters, the limit is ${MAX_EXPRESSION_LENGTH}`,
		codeUnits,
		expression.length,
	);
	return renderError(expression, error);
}

/** The whole expression `true`, with the engine's whitespace (space, CR, LF) around it. */
const MATCH_ALL = /^[ \r\n]*true[ \r\n]*$/;

/** Parses, type-checks and compiles. Over 4,096 characters, empty, or invalid: `{ ok: false }` with the engine's error. */
export function compile(
	expression: string,
	options: CompileOptions = {},
): { ok: true; filter: Filter } | { ok: false; error: FilterError } {
	const length = [...expression].length;
	if (length > MAX_EXPRESSION_LENGTH) return { ok: false, error: lengthError(expression, length) };
	// The engine has no Bool literal, but Cloudflare's rulesets take the expression `true`: the
	// dashboard writes it for "All incoming requests", and log custom fields require it.
	if (MATCH_ALL.test(expression))
		return { ok: true, filter: { expression, fields: [], matches: () => true, matchesIn: () => true } };
	let root: ReturnType<typeof parseExpression>;
	try {
		root = parseExpression(expression, {
			...(options.lists ? { lists: options.lists } : {}),
			...(options.fields ? { fields: options.fields } : {}),
			...(options.regexLimits === false ? { regexLimits: false } : {}),
		});
	} catch (e) {
		if (e instanceof LexError) return { ok: false, error: renderError(expression, e) };
		throw e;
	}
	const compiled = compileLogical(root);
	const test = "one" in compiled ? compiled.one : () => false;
	const matchesIn = (prepared: Evaluation): boolean => {
		try {
			return test(prepared as unknown as Ctx);
		} catch (error) {
			// The request's comparison work ran out: the caller decides what the request gets.
			if (error instanceof ComparisonWorkExceeded) throw error;
			// The closures are written not to throw; a value of an unexpected shape must not crash the edge.
			return false;
		}
	};
	const filter: Filter = {
		expression,
		fields: fieldsOf(root),
		matches: (values, lists) => matchesIn(evaluation(values, lists)),
		matchesIn,
	};
	return { ok: true, filter };
}

/** A compiled value expression (a rewrite's or redirect's `expression`). */
export interface ValueExpression {
	/** The expression as given. */
	readonly expression: string;
	/** The fields it reads, in order of first use. */
	readonly fields: readonly string[];
	/**
	 * Its value against a request's {@link Evaluation} as text (UTF-8 decoded), or undefined when
	 * it is missing or not UTF-8. Throws only {@link ComparisonWorkExceeded}, sharing the
	 * evaluation's budget with the filters matched against it.
	 */
	valueIn(evaluation: Evaluation): string | undefined;
	/**
	 * The same as a byte string (one char 0–255 per byte of its UTF-8 form), as an HTTP header's
	 * value is written on the wire; undefined when missing.
	 */
	bytesIn(evaluation: Evaluation): string | undefined;
}

/**
 * Parses, type-checks and compiles a value expression: one field or function call of type
 * `Bytes`, with the rewrite functions (`regex_replace`, `wildcard_replace`, `to_string`) besides
 * the filter's. Over 4,096 characters or invalid: `{ ok: false }` with the engine's error.
 * `transform`: a Transform Rule's value expression, which also reads the fields only those take
 * (`ip.src.timezone.name`); a redirect's target does not.
 */
export function compileValueExpression(
	expression: string,
	scheme: Scheme = "request",
	transform = false,
): { ok: true; value: ValueExpression } | { ok: false; error: FilterError } {
	const length = [...expression].length;
	if (length > MAX_EXPRESSION_LENGTH) return { ok: false, error: lengthError(expression, length) };
	let root: ReturnType<typeof parseValue>;
	try {
		root = parseValue(expression, { fields: transform ? transformValueFields(scheme) : schemeFields(scheme) });
	} catch (e) {
		if (e instanceof LexError) return { ok: false, error: renderError(expression, e) };
		throw e;
	}
	const compiled = compileValue(root);
	const bytesIn = (prepared: Evaluation): string | undefined => {
		let value: unknown;
		try {
			value = compiled(prepared as unknown as Ctx);
		} catch (error) {
			if (error instanceof ComparisonWorkExceeded) throw error;
			return undefined;
		}
		return typeof value === "string" ? value : undefined;
	};
	const valueIn = (prepared: Evaluation): string | undefined => {
		const bytes = bytesIn(prepared);
		return bytes === undefined ? undefined : fromByteString(bytes);
	};
	return { ok: true, value: { expression, fields: fieldsOf(root), valueIn, bytesIn } };
}
