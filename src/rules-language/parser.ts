/**
 * The parser and type checker: expression text to a typed {@link Logical} tree.
 *
 * Emulates: wirefilter's recursive descent (engine/src/ast/{logical_expr,field_expr,index_expr,
 * function_expr,mod,parse}.rs): precedence climbing over `not` > `and` > `xor` > `or` with
 * flattened n-ary nodes, comparisons whose right side is lexed by the left side's type, `[…]`
 * indexes, function calls with per-argument checks, a nesting limit of 128 (parentheses, `not`
 * and calls), and the top-level `Bool` check. `any`/`all` are parsed as one-argument functions, as
 * production still does (the `expected literal ","` of cloudflare-docs#28223). Each error points
 * where the engine's does.
 * Cloudflare's limit of 64 regular expressions per rule (developers.cloudflare.com/ruleset-engine/
 * rules-language/expressions/, "Maximum regular expressions per rule": "Rules that exceed this
 * limit cannot be created or updated") is checked here, on the 65th `matches` literal, with
 * edgezone's own limit on what they compile to together ({@link MAX_REGEX_INSTRUCTIONS}).
 * Gaps: `in $list` checks the list against {@link ParseOptions.lists}; the unknown-list text
 * (`unknown list "name"`) is ours, the real one is not recorded; so are the texts of the
 * regular-expression limits.
 */
import type { Arg, ComparisonOp, Identifier, IndexExpr, IndexStep, Literal, Logical, OrderingOp } from "./ast.ts";
import { fromByteString } from "./bytes.ts";
import { FIELDS } from "./fields.ts";
import { type Expected, FUNCTIONS, type FunctionDef, type Param } from "./functions.ts";
import type { IpRange } from "./ip.ts";
import {
	at,
	expect,
	fail,
	lexBytes,
	lexIdentifier,
	lexInt,
	lexIntRange,
	lexIpAddr,
	lexIpRange,
	lexListName,
	lexQuotedOrRaw,
	lexWord,
	type Src,
	skipSpace,
} from "./lexer.ts";
import { translateRegex } from "./regex.ts";
import { EDGE_PROFILE } from "./regex-hir.ts";
import { ONCE_PER_EXPRESSION, REWRITE_FUNCTIONS } from "./rewrite-functions.ts";
import { BOOL_ARRAY, debugType, displayType, type FieldType, innerType, isArray, isMap, sameType } from "./types.ts";
import { compileWildcard } from "./wildcard.ts";

/** Regular expressions one expression may hold (docs ruleset-engine/rules-language/expressions). */
const MAX_REGEXES = 64;

/**
 * re2js instructions the regular expressions of one expression may compile to, together:
 * edgezone's own limit (Cloudflare publishes none but the engine's 10 MiB per regex). Compiling
 * costs some 1–2.5 µs and keeps some 75 bytes per instruction, so 64 patterns at the engine's
 * limit (`a{300000}` each) would take half a minute and over a gigabyte on one write; this keeps
 * a rule under 100 ms and 1 MB. The longest literal alternation a 4,096-character expression can
 * hold compiles to about 4,000 instructions; only counted repetitions go past it, and a pattern
 * this large could run only on the shortest subjects within a request's budget (`work-budget.ts`).
 * Counted before compiling (`instructionCount` in `regex-hir.ts`, within a few of re2js's own
 * count), so a refused pattern is never compiled.
 */
const MAX_REGEX_INSTRUCTIONS = 8192;

/** The item type of a named list. */
export type ListKind = "ip" | "bytes" | "int";

/** What the parser needs besides the text. */
export interface ParseOptions {
	/** Named lists that exist, with their item type. */
	readonly lists?: ReadonlyMap<string, ListKind>;
	/** Nesting limit; the engine's default is 128. */
	readonly maxDepth?: number;
	/** The field scheme; {@link FIELDS} (Cloudflare's) when absent. */
	readonly fields?: Readonly<Record<string, FieldType>>;
	/**
	 * Whether {@link MAX_REGEXES} and {@link MAX_REGEX_INSTRUCTIONS} apply: true (the default) for
	 * an expression being written; false for one already stored, which was taken under the
	 * limits of its day and runs as it was written.
	 */
	readonly regexLimits?: boolean;
	/** Whether the functions of value expressions (`rewrite-functions.ts`) are known: only in `parseValue`. */
	readonly rewrite?: boolean;
}

const LOGICAL_OPS = [
	["or", "or"],
	["||", "or"],
	["xor", "xor"],
	["^^", "xor"],
	["and", "and"],
	["&&", "and"],
] as const;
const PRECEDENCE = { or: 0, xor: 1, and: 2 } as const;
type LogicalOp = keyof typeof PRECEDENCE;

type CmpWord = OrderingOp | "in" | "bitwiseAnd" | "contains" | "matches" | "wildcard" | "strictWildcard";
// The engine's `ComparisonOp` tries `in`, then the ordering words, then `&`, then the bytes words.
const COMPARISON_OPS: readonly (readonly [string, CmpWord])[] = [
	["in", "in"],
	["eq", "eq"],
	["==", "eq"],
	["ne", "ne"],
	["!=", "ne"],
	["ge", "ge"],
	[">=", "ge"],
	["le", "le"],
	["<=", "le"],
	["gt", "gt"],
	[">", "gt"],
	["lt", "lt"],
	["<", "lt"],
	["&", "bitwiseAnd"],
	["bitwise_and", "bitwiseAnd"],
	["contains", "contains"],
	["~", "matches"],
	["matches", "matches"],
	["wildcard", "wildcard"],
	["strict wildcard", "strictWildcard"],
];

const LIST_TYPES: Record<ListKind, FieldType> = { ip: "Ip", bytes: "Bytes", int: "Int" };

function expectedList(expected: readonly Expected[]): string {
	// The engine keeps expected types in a BTreeSet: exact types first (Bool < Bytes < Int < Ip <
	// Array < Map), then `Array<_>`, then `Map<_>`.
	const rank = (e: Expected) =>
		e === "Array<_>"
			? 10
			: e === "Map<_>"
				? 11
				: typeof e === "string"
					? ["Bool", "Bytes", "Int", "Ip"].indexOf(e)
					: isArray(e)
						? 4
						: 5;
	const names = [...expected]
		.sort((a, b) => rank(a) - rank(b))
		.map((e) => (typeof e === "string" ? e : displayType(e)));
	if (names.length === 1) return names[0] ?? "";
	if (names.length === 2) return `${names[0]} or ${names[1]}`;
	return `{${names.join(", ")}}`;
}

class Parser {
	depth = 0;
	/** `matches` literals read so far, against {@link MAX_REGEXES}. */
	regexes = 0;
	/** Their compiled instructions so far, against {@link MAX_REGEX_INSTRUCTIONS}. */
	instructions = 0;
	/** `regex_replace` and `wildcard_replace` calls read so far: at most one (`rewrite-functions.ts`). */
	replaces = 0;
	readonly maxDepth: number;
	readonly fields: Readonly<Record<string, FieldType>>;

	constructor(
		readonly s: Src,
		readonly options: ParseOptions,
	) {
		this.maxDepth = options.maxDepth ?? 128;
		this.fields = options.fields ?? FIELDS;
	}

	/** `with_increased_nesting`: fails at the limit, else runs `body` one level deeper. */
	nested<T>(spanStart: number, body: () => T): T {
		if (this.depth >= this.maxDepth)
			fail(`maximum nesting depth exceeded (limit: ${this.maxDepth})`, spanStart, this.s.end);
		this.depth++;
		const result = body();
		this.depth--;
		return result;
	}

	combiningOp(pos: number): { op: LogicalOp | undefined; pos: number } {
		const found = lexWord(this.s, skipSpace(this.s, pos), LOGICAL_OPS);
		return found ? { op: found[0], pos: skipSpace(this.s, found[1]) } : { op: undefined, pos };
	}

	logical(pos: number): [Logical, number] {
		const [lhs, p] = this.simple(pos);
		return this.more(lhs, undefined, this.combiningOp(p));
	}

	more(
		first: Logical,
		minOp: LogicalOp | undefined,
		start: { op: LogicalOp | undefined; pos: number },
	): [Logical, number] {
		const prec = (op: LogicalOp | undefined) => (op === undefined ? -1 : PRECEDENCE[op]);
		let lhs = first;
		let look = start;
		while (look.op !== undefined) {
			const op = look.op;
			let [rhs, rhsPos] = this.simple(look.pos);
			for (;;) {
				look = this.combiningOp(rhsPos);
				if (prec(look.op) <= prec(op)) break;
				[rhs, rhsPos] = this.more(rhs, look.op, look);
			}
			const compatible = (lhs.type === "Bool" && rhs.type === "Bool") || (isArray(lhs.type) && isArray(rhs.type));
			if (!compatible)
				fail(`expected value of type ${displayType(lhs.type)}, but got ${displayType(rhs.type)}`, look.pos, this.s.end);
			lhs =
				lhs.kind === "combine" && lhs.op === op && !lhs.grouped
					? { ...lhs, items: [...lhs.items, rhs] }
					: { kind: "combine", op, items: [lhs, rhs], type: lhs.type };
			if (prec(look.op) < prec(minOp)) look = { op: undefined, pos: rhsPos };
		}
		return [lhs, look.pos];
	}

	simple(pos: number): [Logical, number] {
		if (at(this.s, pos, "(")) {
			return this.nested(pos, () => {
				const [expr, p] = this.logical(skipSpace(this.s, pos + 1));
				const end = expect(this.s, skipSpace(this.s, p), ")");
				// A parenthesised combination is not flattened into an outer one of the same operator.
				return [expr.kind === "combine" ? { ...expr, grouped: true } : expr, end];
			});
		}
		const not = lexWord(this.s, pos, [
			["not", "not"],
			["!", "not"],
		]);
		if (not) {
			return this.nested(pos, () => {
				const [arg, p] = this.simple(skipSpace(this.s, not[1]));
				return [{ kind: "not", arg, type: arg.type }, p];
			});
		}
		const [lhs, p] = this.indexExpr(pos);
		return this.comparison(p, lhs);
	}

	identifier(pos: number): [Identifier, number] {
		const [name, p] = lexIdentifier(this.s, pos);
		const type = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
		if (type !== undefined) return [{ kind: "field", name, type }, p];
		const fn = FUNCTIONS.get(name) ?? (this.options.rewrite ? REWRITE_FUNCTIONS.get(name) : undefined);
		if (fn === undefined) fail("unknown identifier", pos, p);
		if (ONCE_PER_EXPRESSION.has(name) && this.replaces++ > 0)
			fail("an expression may hold one regex_replace or wildcard_replace", pos, p);
		return this.nested(skipSpace(this.s, p), () => this.call(p, fn));
	}

	call(pos: number, fn: FunctionDef): [Identifier, number] {
		let p = skipSpace(this.s, expect(this.s, skipSpace(this.s, pos), "("));
		const args: Arg[] = [];
		const params: Param[] = [];
		const countError = (at: number) => fail("invalid number of arguments", at, this.s.end);
		while (p < this.s.end && this.s.text[p] !== ")") {
			if (args.length !== 0) p = expect(this.s, p, ",");
			p = skipSpace(this.s, p);
			const index = args.length;
			const [arg, rest] = this.argument(p);
			if (arg.kind === "index" && arg.expr.eachCount > 0 && index !== 0)
				fail("invalid use of map each access operator", p, rest);
			if (fn.optional !== null && index >= fn.mandatory + fn.optional) countError(p);
			const param: Param =
				arg.kind === "literal"
					? { kind: "Literal", type: arg.type, literal: arg.literal }
					: { kind: "Field", type: arg.type };
			const error = fn.check(index, param, params);
			if (error?.kind === "kind")
				fail(
					`invalid kind of argument #${index}: expected argument of kind ${error.expected}, but got ${error.actual}`,
					p,
					rest,
				);
			if (error?.kind === "type")
				fail(
					`invalid type of argument #${index}: expected value of type ${expectedList(error.expected)}, but got ${displayType(error.actual)}`,
					p,
					rest,
				);
			if (error?.kind === "value")
				fail(`invalid value of argument #${index}: invalid argument: ${JSON.stringify(error.message)}`, p, rest);
			args.push(arg);
			params.push(param);
			p = skipSpace(this.s, rest);
		}
		if (args.length < fn.mandatory) countError(p);
		p = expect(this.s, p, ")");
		const returnType = fn.returnType(params);
		const first = args[0];
		const mapped = first?.kind === "index" && first.expr.eachCount > 0;
		return [{ kind: "call", fn, args, type: mapped ? { array: returnType } : returnType }, p];
	}

	/** `FunctionCallArgExpr::lex_with`: guesses the argument's form from its first characters. */
	argument(pos: number): [Arg, number] {
		const text = this.s.text;
		const c = pos < this.s.end ? (text[pos] ?? "") : "";
		const c2 = pos + 1 < this.s.end ? text[pos + 1] : undefined;
		const c3 = pos + 2 < this.s.end ? text[pos + 2] : undefined;
		const isField = (x: string | undefined) => x !== undefined && (/^[G-Zg-z]$/.test(x) || x === "_");
		const isFieldOrInt = (x: string | undefined) => x !== undefined && /^[A-Za-z0-9_]$/.test(x);
		if (c === '"' || (c === "r" && (c2 === "#" || c2 === '"'))) {
			const [value, p, format] = lexBytes(this.s, pos);
			return [this.literalArg({ type: "Bytes", value, format }), p];
		}
		if (
			c === "(" ||
			lexWord(this.s, pos, [
				["not", "not"],
				["!", "not"],
			]) !== undefined
		) {
			const [expr, p] = this.logical(pos);
			return [{ kind: "logical", expr, type: expr.type }, p];
		}
		if (c !== "") {
			if (isField(c) || (isFieldOrInt(c) && isField(c2)) || (isFieldOrInt(c) && isFieldOrInt(c2) && isField(c3)))
				return this.indexArgument(pos);
			try {
				return this.indexArgument(pos);
			} catch {
				// Not a field or a call: fall back to a literal, as the engine does.
			}
		}
		const attempts: (() => [Literal, number])[] = [
			() => {
				const [value, p] = lexIpAddr(this.s, pos);
				return [{ type: "Ip", value }, p];
			},
			() => {
				const [value, p] = lexInt(this.s, pos);
				return [{ type: "Int", value }, p];
			},
			() => {
				const [value, p, format] = lexBytes(this.s, pos);
				return [{ type: "Bytes", value, format }, p];
			},
		];
		for (const attempt of attempts) {
			try {
				const [literal, p] = attempt();
				return [this.literalArg(literal), p];
			} catch {
				// Try the next literal form.
			}
		}
		return fail("unrecognised input", pos, this.s.end);
	}

	literalArg(literal: Literal): Arg {
		return { kind: "literal", literal, type: literal.type };
	}

	indexArgument(pos: number): [Arg, number] {
		const [expr, p] = this.indexExpr(pos);
		if (lexWord(this.s, skipSpace(this.s, p), COMPARISON_OPS) !== undefined) {
			const [cmp, q] = this.comparison(p, expr);
			return [{ kind: "logical", expr: cmp, type: cmp.type }, q];
		}
		return [{ kind: "index", expr, type: expr.type }, p];
	}

	indexExpr(pos: number): [IndexExpr, number] {
		const [head, start] = this.identifier(pos);
		let type = head.type;
		const steps: IndexStep[] = [];
		let p = start;
		while (at(this.s, p, "[")) {
			let q = skipSpace(this.s, p + 1);
			let step: IndexStep;
			[step, q] = this.fieldIndex(q);
			q = expect(this.s, skipSpace(this.s, q), "]");
			const inner = innerType(type);
			const ok =
				(step.kind === "index" && isArray(type)) ||
				(step.kind === "key" && isMap(type)) ||
				(step.kind === "each" && inner);
			if (!ok || inner === undefined) {
				const index =
					step.kind === "index"
						? `ArrayIndex(${step.index})`
						: step.kind === "key"
							? `MapKey(${JSON.stringify(step.key)})`
							: "MapEach";
				fail(`cannot access index ${index} for type ${debugType(type)}`, p, q);
			}
			type = inner;
			steps.push(step);
			p = q;
		}
		return [{ head, steps, type, eachCount: steps.filter((st) => st.kind === "each").length }, p];
	}

	fieldIndex(pos: number): [IndexStep, number] {
		if (at(this.s, pos, "*")) return [{ kind: "each" }, pos + 1];
		if (at(this.s, pos, '"')) {
			const [bytes, p] = lexBytes(this.s, pos);
			const key = fromByteString(bytes);
			if (key === undefined) fail('expected literal "expected utf8 string"', pos, this.s.end);
			return [{ kind: "key", key }, p];
		}
		let value: number;
		let p: number;
		try {
			[value, p] = lexInt(this.s, pos);
		} catch {
			return fail('expected literal "expected quoted utf8 string or positive integer"', pos, this.s.end);
		}
		if (value < 0 || value > 0xffffffff) fail('expected literal "expected positive integer as index"', pos, this.s.end);
		return [{ kind: "index", index: value }, p];
	}

	/** `ComparisonExpr::lex_with_lhs`. */
	comparison(pos: number, lhs: IndexExpr): [Logical, number] {
		const type = lhs.type;
		const resultType: FieldType = lhs.eachCount > 0 ? BOOL_ARRAY : "Bool";
		if (type === "Bool")
			return [{ kind: "compare", lhs, op: { kind: "isTrue" }, type: lhs.eachCount > 0 ? BOOL_ARRAY : "Bool" }, pos];
		if (innerType(type) === "Bool") {
			if (lhs.eachCount > 0)
				fail(`cannot perform this operation on type ${debugType({ array: BOOL_ARRAY })}`, pos, pos);
			return [{ kind: "compare", lhs, op: { kind: "isTrue" }, type }, pos];
		}
		const opStart = skipSpace(this.s, pos);
		const word = lexWord(this.s, opStart, COMPARISON_OPS);
		if (word === undefined) return fail("expected ComparisonOp", opStart, this.s.end);
		const [op, afterOp] = word;
		const p = skipSpace(this.s, afterOp);
		const unsupported = () => fail(`cannot perform this operation on type ${debugType(type)}`, opStart, afterOp);
		const done = (cmp: ComparisonOp, end: number): [Logical, number] => [
			{ kind: "compare", lhs, op: cmp, type: resultType },
			end,
		];
		if (type !== "Bytes" && type !== "Int" && type !== "Ip") return unsupported();
		switch (op) {
			case "in": {
				if (at(this.s, p, "$")) {
					const [name, end] = lexListName(this.s, p);
					const kind = this.options.lists?.get(name);
					if (kind === undefined) fail(`unknown list ${JSON.stringify(name)}`, opStart, end);
					if (!sameType(LIST_TYPES[kind], type)) unsupported();
					return done({ kind: "inList", name }, end);
				}
				return this.set(p, type, done);
			}
			case "eq":
			case "ne":
			case "lt":
			case "le":
			case "gt":
			case "ge": {
				const [rhs, end] = this.rhsValue(p, type);
				return done({ kind: "ordering", op, rhs }, end);
			}
			case "bitwiseAnd": {
				if (type !== "Int") return unsupported();
				const [rhs, end] = lexInt(this.s, p);
				return done({ kind: "bitwiseAnd", rhs }, end);
			}
			default:
				if (type !== "Bytes") return unsupported();
				return this.bytesOp(p, op, done);
		}
	}

	rhsValue(pos: number, type: "Bytes" | "Int" | "Ip"): [Literal, number] {
		if (type === "Ip") {
			const [value, p] = lexIpAddr(this.s, pos);
			return [{ type, value }, p];
		}
		if (type === "Int") {
			const [value, p] = lexInt(this.s, pos);
			return [{ type, value }, p];
		}
		const [value, p, format] = lexBytes(this.s, pos);
		return [{ type, value, format }, p];
	}

	set(
		pos: number,
		type: "Bytes" | "Int" | "Ip",
		done: (op: ComparisonOp, end: number) => [Logical, number],
	): [Logical, number] {
		let p = expect(this.s, pos, "{");
		const bytes: string[] = [];
		const ints: (readonly [number, number])[] = [];
		const ips: IpRange[] = [];
		for (;;) {
			p = skipSpace(this.s, p);
			if (at(this.s, p, "}")) break;
			if (type === "Bytes") {
				const [value, q] = lexBytes(this.s, p);
				bytes.push(value);
				p = q;
			} else if (type === "Int") {
				const [range, q] = lexIntRange(this.s, p);
				ints.push(range);
				p = q;
			} else {
				const [range, q] = lexIpRange(this.s, p);
				ips.push(range);
				p = q;
			}
		}
		const end = p + 1;
		if (type === "Bytes") return done({ kind: "inBytes", values: bytes }, end);
		if (type === "Int") return done({ kind: "inInts", ranges: ints }, end);
		return done({ kind: "inIps", ranges: ips }, end);
	}

	bytesOp(pos: number, op: CmpWord, done: (op: ComparisonOp, end: number) => [Logical, number]): [Logical, number] {
		if (op === "contains") {
			const [rhs, end] = lexBytes(this.s, pos);
			return done({ kind: "contains", rhs }, end);
		}
		if (op === "matches") return this.regex(pos, done);
		const [pattern, end] = lexQuotedOrRaw(this.s, pos);
		const wildcard = compileWildcard(pattern, op === "strictWildcard");
		if (typeof wildcard === "string") fail(wildcard, pos, this.s.end);
		return done({ kind: "wildcard", wildcard }, end);
	}

	/** `Regex::lex_with`: a quoted literal passes `\x` pairs through, except `\"` outside a class. */
	regex(pos: number, done: (op: ComparisonOp, end: number) => [Logical, number]): [Logical, number] {
		const { text, end: limit } = this.s;
		if (pos >= limit) fail("unrecognised input", pos, limit);
		let pattern = "";
		let spanStart: number;
		let spanEnd: number;
		let end: number;
		if (text[pos] === '"') {
			let p = pos + 1;
			let inClass = false;
			for (;;) {
				if (p >= limit) fail("could not find an ending quote", pos + 1, limit);
				const c = text[p] ?? "";
				if (c === "\\") {
					const next = text[p + 1];
					if (next !== undefined && p + 1 < limit) {
						pattern += inClass || next !== '"' ? `\\${next}` : next;
						p += 2;
					} else p++;
					continue;
				}
				if (c === '"' && !inClass) break;
				if (c === "[" && !inClass) inClass = true;
				else if (c === "]" && inClass) inClass = false;
				pattern += c;
				p++;
			}
			spanStart = pos + 1;
			spanEnd = p;
			end = p + 1;
		} else if (text[pos] === "r") {
			const hashes = /^#*/.exec(text.slice(pos + 1, limit))?.[0].length ?? 0;
			const [, p] = lexQuotedOrRaw(this.s, pos);
			pattern = text.slice(pos + 2 + hashes, p - 1 - hashes);
			// The engine points a raw regex's error at the input after the literal.
			spanStart = p;
			spanEnd = limit;
			end = p;
		} else return fail('expected " or r', pos, limit);
		this.regexes++;
		const limits = this.options.regexLimits ?? true;
		if (limits && this.regexes > MAX_REGEXES)
			fail(`too many regular expressions: an expression may hold at most ${MAX_REGEXES}`, pos, end);
		const left = limits ? MAX_REGEX_INSTRUCTIONS - this.instructions : Number.POSITIVE_INFINITY;
		const translated = translateRegex(pattern, EDGE_PROFILE, left);
		if (!translated.ok && translated.tooLarge !== undefined)
			fail(
				`regular expressions too large: they compile to ${this.instructions + translated.tooLarge} instructions, more than the ${MAX_REGEX_INSTRUCTIONS} edgezone allows one expression`,
				spanStart,
				spanEnd,
			);
		if (!translated.ok) fail(translated.error, spanStart, spanEnd);
		this.instructions += translated.regex.instructions;
		return done({ kind: "matches", regex: translated.regex, source: pattern }, end);
	}
}

/** Parses and type-checks `input` (already within the length limit); throws a LexError. */
export function parseExpression(input: string, options: ParseOptions = {}): Logical {
	const start =
		input.length -
		input.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/, "").length;
	const trimmedEnd = input.replace(
		/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/,
		"",
	).length;
	const s: Src = { text: input, end: Math.max(start, trimmedEnd) };
	const parser = new Parser(s, options);
	const [expr, p] = parser.logical(start);
	if (expr.type !== "Bool") fail(`expected value of type Bool, but got ${displayType(expr.type)}`, p, s.end);
	if (p < s.end) fail("unrecognised input", p, s.end);
	return expr;
}

/**
 * Parses and type-checks a value expression (a rewrite's or redirect's `expression`): one field
 * or function call, with the functions of `rewrite-functions.ts`, whose value must be of type
 * `Bytes` (a string); throws a LexError.
 */
export function parseValue(input: string, options: ParseOptions = {}): IndexExpr {
	const start = input.length - input.replace(/^[\t\n\v\f\r ]+/, "").length;
	const s: Src = { text: input, end: Math.max(start, input.replace(/[\t\n\v\f\r ]+$/, "").length) };
	const parser = new Parser(s, { ...options, rewrite: true });
	const [expr, p] = parser.indexExpr(start);
	if (expr.eachCount > 0 || expr.type !== "Bytes")
		fail(
			`expected value of type Bytes, but got ${displayType(expr.eachCount > 0 ? { array: expr.type } : expr.type)}`,
			start,
			p,
		);
	if (p < s.end) fail("unrecognised input", p, s.end);
	return expr;
}
