/**
 * The compiler: a typed tree to closures, and the values they read.
 *
 * Emulates: wirefilter's compiler (engine/src/compiler.rs, `compile_with_compiler` of each AST
 * node): a comparison under `[*]` yields one boolean per element, `and`/`or`/`xor` over such
 * arrays combine element-wise and truncate to the shorter, a function whose first argument is
 * mapped returns an array of its results without the missing ones. Missing values follow
 * cloudflare-docs (developers.cloudflare.com/ruleset-engine/rules-language/values/): every
 * comparison on a missing value is false, `!=` included (the engine's own default makes `!=` true).
 * `any(x)`/`all(x)` of a missing array are false; `all(m["missing"][*] == …)` is true, as
 * wirefilter's tests assert (the mapped comparison is empty).
 * No `eval`/`new Function`: Workers forbid both.
 * Gaps: Int values are JS numbers (exact to 2^53); named bytes lists match exactly (no hostname
 * wildcard semantics).
 */
import type { Arg, ComparisonOp, Identifier, IndexExpr, Literal, Logical } from "./ast.ts";
import { toByteString } from "./bytes.ts";
import type { Impl } from "./functions.ts";
import { compareIp, type IpRange, isIpFailure, parseIp, parseIpRangeItem } from "./ip.ts";
import { debugType, type FieldType, type IpValue, innerType, type Runtime } from "./types.ts";
import { wildcardMatches } from "./wildcard.ts";
import { spend, type WorkBudget } from "./work-budget.ts";

/** A value of a field as the edge supplies it (see index.ts). */
type Value = boolean | number | string | readonly Value[] | { readonly [key: string]: readonly string[] };

/** Field name -> value for one request. */
export type FieldValues = { readonly [field: string]: Value | undefined };

/** Named list name -> items, for `in $name`. */
export type ListValues = ReadonlyMap<string, readonly Value[]>;

/** A field value converted and found missing (or of the wrong shape), as a cache entry. */
const MISSING = Symbol("missing");

/**
 * Field values already converted for one request, by field slot ({@link slotOf}); a hole is a
 * value not converted yet. One per request's `Evaluation` (index.ts), shared by every filter
 * matched against it, so 100 rules reading `http.request.headers` convert it once.
 */
type Converted = (Runtime | typeof MISSING | undefined)[];

/** What closures read while one request is evaluated. */
export interface Ctx {
	readonly values: FieldValues;
	readonly lists: ListValues | undefined;
	/** Field values already converted for this request. */
	readonly cache: Converted;
	/** What this request's comparisons and function calls may still spend (`work-budget.ts`). */
	readonly work: WorkBudget;
}

type ValueFn = (ctx: Ctx) => Runtime | undefined;
type ElementsFn = (ctx: Ctx) => readonly Runtime[] | undefined;
type Compiled = { readonly one: (ctx: Ctx) => boolean } | { readonly vec: (ctx: Ctx) => boolean[] };

/** Converts a supplied value to its runtime form; a value of the wrong shape is missing. */
function convert(raw: Value | undefined, type: FieldType): Runtime | undefined {
	if (raw === undefined) return undefined;
	if (type === "Bool") return typeof raw === "boolean" ? raw : undefined;
	if (type === "Int") return typeof raw === "number" && Number.isInteger(raw) ? raw : undefined;
	if (type === "Bytes") return typeof raw === "string" ? toByteString(raw) : undefined;
	if (type === "Ip") return typeof raw === "string" ? parseIp(raw) : undefined;
	const inner = innerType(type) ?? "Bool";
	if ("array" in type) {
		if (!Array.isArray(raw)) return undefined;
		const out: Runtime[] = [];
		for (const item of raw as readonly Value[]) {
			const v = convert(item, inner);
			if (v === undefined) return undefined;
			out.push(v);
		}
		return out;
	}
	if (typeof raw !== "object" || Array.isArray(raw)) return undefined;
	const map = new Map<string, Runtime>();
	for (const [key, item] of Object.entries(raw as { readonly [key: string]: readonly string[] })) {
		const v = convert(item, inner);
		if (v !== undefined) map.set(key, v);
	}
	return map;
}

/** The slot of each field name and type in a {@link Converted} array, for every filter of the isolate. */
const slots = new Map<string, number>();

/** The slot of field `name` read as `type`: another scheme may give a name another type. */
function slotOf(name: string, type: FieldType): number {
	const key = `${name} ${debugType(type)}`;
	let slot = slots.get(key);
	if (slot === undefined) {
		slot = slots.size;
		slots.set(key, slot);
	}
	return slot;
}

function fieldGetter(name: string, type: FieldType): ValueFn {
	const slot = slotOf(name, type);
	return (ctx) => {
		const cached = ctx.cache[slot];
		if (cached !== undefined) return cached === MISSING ? undefined : cached;
		const v = convert(ctx.values[name], type);
		ctx.cache[slot] = v === undefined ? MISSING : v;
		return v;
	};
}

function isMapValue(v: Runtime | undefined): v is ReadonlyMap<string, Runtime> {
	return v instanceof Map;
}

function literalValue(l: Literal): Runtime {
	return l.value;
}

function compileIdentifier(head: Identifier): ValueFn {
	if (head.kind === "field") return fieldGetter(head.name, head.type);
	return compileCall(head.args, head.fn.compile(head.args.map(toParam)));
}

function toParam(a: Arg) {
	return a.kind === "literal"
		? { kind: "Literal" as const, type: a.type, literal: a.literal }
		: { kind: "Field" as const, type: a.type };
}

function compileArg(arg: Arg): ValueFn {
	if (arg.kind === "literal") {
		const v = literalValue(arg.literal);
		return () => v;
	}
	if (arg.kind === "index") return compileIndexValue(arg.expr);
	const c = compileLogical(arg.expr);
	return "one" in c ? c.one : c.vec;
}

/**
 * The work a function call may do on `v`, charged to the request's budget (`work-budget.ts`):
 * its bytes (a string), or its items' (an array, a map); 1 for a number, a boolean or an address.
 * Every function reads each byte of its arguments a bounded number of times.
 */
function sizeOf(v: Runtime | undefined): number {
	if (typeof v === "string") return v.length + 1;
	if (Array.isArray(v)) {
		let n = 1;
		for (const item of v as readonly Runtime[]) n += sizeOf(item);
		return n;
	}
	if (isMapValue(v)) {
		let n = 1;
		for (const [key, item] of v) n += key.length + sizeOf(item);
		return n;
	}
	return 1;
}

function compileCall(args: readonly Arg[], impl: Impl): ValueFn {
	const first = args[0];
	if (first?.kind === "index" && first.expr.eachCount > 0) {
		const elements = compileElements(first.expr);
		const rest = args.slice(1).map(compileArg);
		return (ctx) => {
			const items = elements(ctx);
			if (items === undefined) return undefined;
			const others = rest.map((f) => f(ctx));
			let size = 0;
			for (const other of others) size += sizeOf(other);
			for (const item of items) spend(ctx.work, sizeOf(item) + size + (impl.cost?.([item, ...others]) ?? 0));
			const out: Runtime[] = [];
			for (const item of items) {
				const r = impl([item, ...others]);
				if (r !== undefined) out.push(r);
			}
			return out;
		};
	}
	const fns = args.map(compileArg);
	return (ctx) => {
		const values: (Runtime | undefined)[] = new Array(fns.length);
		let size = 0;
		for (let i = 0; i < fns.length; i++) {
			values[i] = (fns[i] as ValueFn)(ctx);
			size += sizeOf(values[i]);
		}
		spend(ctx.work, size + (impl.cost?.(values) ?? 0));
		return impl(values);
	};
}

function step(v: Runtime | undefined, s: IndexExpr["steps"][number]): Runtime | undefined {
	if (s.kind === "index") return Array.isArray(v) ? (v as readonly Runtime[])[s.index] : undefined;
	if (s.kind === "key") return isMapValue(v) ? v.get(s.key) : undefined;
	return undefined;
}

/** An index expression without `[*]`: one value or missing. */
function compileIndexValue(expr: IndexExpr): ValueFn {
	const head = compileIdentifier(expr.head);
	const steps = expr.steps;
	if (steps.length === 0) return head;
	return (ctx) => {
		let v = head(ctx);
		for (let i = 0; i < steps.length && v !== undefined; i++) v = step(v, steps[i] as IndexExpr["steps"][number]);
		return v;
	};
}

/** An index expression with `[*]`: every element reached, or missing when the head is. */
function compileElements(expr: IndexExpr): ElementsFn {
	const head = compileIdentifier(expr.head);
	const steps = expr.steps;
	return (ctx) => {
		const v = head(ctx);
		if (v === undefined) return undefined;
		let items: Runtime[] = [v];
		for (const s of steps) {
			const next: Runtime[] = [];
			for (const item of items) {
				if (s.kind === "each") {
					if (Array.isArray(item)) next.push(...(item as readonly Runtime[]));
					else if (isMapValue(item)) next.push(...item.values());
				} else {
					const r = step(item, s);
					if (r !== undefined) next.push(r);
				}
			}
			items = next;
		}
		return items;
	};
}

/**
 * A set of IP ranges split by family at compile time: IPv4 bounds as flat `[lo, hi, …]` uint32
 * numbers, IPv6 bounds as flat bigints, so an IPv4 address (the usual `ip.src`) is matched with
 * number comparisons only (edgezone's choice, for the firewall's speed).
 */
interface IpSet {
	readonly v4: readonly number[];
	readonly v6: readonly bigint[];
}

function ipSet(ranges: readonly IpRange[]): IpSet {
	const v4: number[] = [];
	const v6: bigint[] = [];
	for (const r of ranges) {
		if (r.v6) v6.push(r.lo, r.hi);
		else v4.push(r.lo, r.hi);
	}
	return { v4, v6 };
}

function inIpSet(set: IpSet, ip: IpValue): boolean {
	if (!ip.v6) {
		const n = ip.n;
		const bounds = set.v4;
		for (let i = 0; i < bounds.length; i += 2)
			if (n >= (bounds[i] as number) && n <= (bounds[i + 1] as number)) return true;
		return false;
	}
	const n = ip.n;
	const bounds = set.v6;
	for (let i = 0; i < bounds.length; i += 2)
		if (n >= (bounds[i] as bigint) && n <= (bounds[i + 1] as bigint)) return true;
	return false;
}

const listCache = new WeakMap<readonly Value[], { ips: IpSet; items: Set<string | number> }>();

function listItems(items: readonly Value[]) {
	let compiled = listCache.get(items);
	if (compiled === undefined) {
		const ips: IpRange[] = [];
		const set = new Set<string | number>();
		for (const item of items) {
			if (typeof item === "number") set.add(item);
			else if (typeof item === "string") {
				set.add(toByteString(item));
				const range = parseIpRangeItem(item);
				if (!isIpFailure(range)) ips.push(range);
			}
		}
		compiled = { ips: ipSet(ips), items: set };
		listCache.set(items, compiled);
	}
	return compiled;
}

/** The test a comparison applies to one present value. */
function predicate(op: ComparisonOp): (v: Runtime, ctx: Ctx) => boolean {
	switch (op.kind) {
		case "isTrue":
			return (v) => v === true;
		case "ordering": {
			const rhs = op.rhs.value;
			const cmp =
				typeof rhs === "object"
					? (v: Runtime) => compareIp(v as IpValue, rhs)
					: (v: Runtime) => ((v as string | number) < rhs ? -1 : (v as string | number) > rhs ? 1 : 0);
			switch (op.op) {
				case "eq":
					return (v) => cmp(v) === 0;
				case "ne":
					// Incomparable values (IPv4 against IPv6) are only "not equal".
					return (v) => cmp(v) !== 0;
				case "lt":
					return (v) => cmp(v) === -1;
				case "le":
					return (v) => {
						const c = cmp(v);
						return c === -1 || c === 0;
					};
				case "gt":
					return (v) => cmp(v) === 1;
				default:
					return (v) => {
						const c = cmp(v);
						return c === 1 || c === 0;
					};
			}
		}
		case "bitwiseAnd": {
			const rhs = BigInt(op.rhs);
			return (v) => (BigInt(v as number) & rhs) !== 0n;
		}
		case "contains":
			return (v, ctx) => {
				// A string search can read the subject about once per byte of it (worse for some needles).
				spend(ctx.work, (v as string).length + op.rhs.length);
				return (v as string).includes(op.rhs);
			};
		case "matches":
			return (v, ctx) => {
				// Charged before it runs: a match the budget cannot pay for never starts.
				spend(ctx.work, op.regex.cost(v as string));
				return op.regex.test(v as string);
			};
		case "wildcard":
			return (v, ctx) => {
				// Star backtracking compares each subject byte against the pattern at most once per token.
				spend(ctx.work, ((v as string).length + 1) * (op.wildcard.codes.length + 1));
				return wildcardMatches(op.wildcard, v as string);
			};
		case "inBytes": {
			const set = new Set(op.values);
			return (v) => set.has(v as string);
		}
		case "inInts":
			return (v) => op.ranges.some(([lo, hi]) => (v as number) >= lo && (v as number) <= hi);
		case "inIps": {
			const set = ipSet(op.ranges);
			return (v) => inIpSet(set, v as IpValue);
		}
		case "inList":
			return (v, ctx) => {
				const items = ctx.lists?.get(op.name);
				if (items === undefined) return false;
				const list = listItems(items);
				return typeof v === "object" ? inIpSet(list.ips, v as IpValue) : list.items.has(v as string | number);
			};
	}
}

function combineVec(op: "and" | "or" | "xor", items: readonly ((ctx: Ctx) => boolean[])[]): (ctx: Ctx) => boolean[] {
	const [first, ...rest] = items;
	return (ctx) => {
		const out = first ? first(ctx) : [];
		for (const item of rest) {
			const values = item(ctx);
			for (let i = 0; i < out.length && i < values.length; i++) {
				const l = out[i] === true;
				const r = values[i] === true;
				out[i] = op === "and" ? l && r : op === "or" ? l || r : l !== r;
			}
			if (values.length < out.length) out.length = values.length;
		}
		return out;
	};
}

/** Compiles a logical expression: a boolean for `Bool`, booleans for `Array<Bool>`. */
export function compileLogical(node: Logical): Compiled {
	switch (node.kind) {
		case "not": {
			const arg = compileLogical(node.arg);
			if ("one" in arg) return { one: (ctx) => !arg.one(ctx) };
			return { vec: (ctx) => arg.vec(ctx).map((b) => !b) };
		}
		case "combine": {
			const items = node.items.map(compileLogical);
			const ones = items.flatMap((c) => ("one" in c ? [c.one] : []));
			if (ones.length !== items.length)
				return {
					vec: combineVec(
						node.op,
						items.flatMap((c) => ("vec" in c ? [c.vec] : [])),
					),
				};
			// Indexed loops: no callback or iterator allocated per request and rule.
			if (node.op === "and")
				return {
					one: (ctx) => {
						for (let i = 0; i < ones.length; i++) if (!(ones[i] as (ctx: Ctx) => boolean)(ctx)) return false;
						return true;
					},
				};
			if (node.op === "or")
				return {
					one: (ctx) => {
						for (let i = 0; i < ones.length; i++) if ((ones[i] as (ctx: Ctx) => boolean)(ctx)) return true;
						return false;
					},
				};
			return {
				one: (ctx) => {
					let acc = false;
					for (let i = 0; i < ones.length; i++) acc = acc !== (ones[i] as (ctx: Ctx) => boolean)(ctx);
					return acc;
				},
			};
		}
		case "compare": {
			const test = predicate(node.op);
			if (node.lhs.eachCount > 0) {
				const elements = compileElements(node.lhs);
				return { vec: (ctx) => (elements(ctx) ?? []).map((v) => test(v, ctx)) };
			}
			const value = compileIndexValue(node.lhs);
			if (node.type !== "Bool") {
				// `IsTrue` on an `Array<Bool>` (or `Map<Bool>`): its elements, empty when missing.
				return {
					vec: (ctx) => {
						const v = value(ctx);
						const items = Array.isArray(v) ? (v as readonly Runtime[]) : isMapValue(v) ? [...v.values()] : [];
						return items.map((b) => b === true);
					},
				};
			}
			return {
				one: (ctx) => {
					const v = value(ctx);
					return v !== undefined && test(v, ctx);
				},
			};
		}
	}
}

/**
 * A value expression (a rewrite's `expression`, `parser.ts` `parseValue`): its value, or missing.
 * Calls under it spend the request's work budget as a filter's do.
 */
export function compileValue(expr: IndexExpr): (ctx: Ctx) => Runtime | undefined {
	return compileIndexValue(expr);
}

/** The field names an expression (a filter, or a value expression) reads, in order of first use. */
export function fieldsOf(node: Logical | IndexExpr): string[] {
	const out = new Set<string>();
	const visitIdentifier = (head: Identifier) => {
		if (head.kind === "field") out.add(head.name);
		else for (const a of head.args) visitArg(a);
	};
	const visitArg = (a: Arg) => {
		if (a.kind === "index") visitIdentifier(a.expr.head);
		else if (a.kind === "logical") visitLogical(a.expr);
	};
	const visitLogical = (n: Logical) => {
		if (n.kind === "compare") visitIdentifier(n.lhs.head);
		else if (n.kind === "not") visitLogical(n.arg);
		else for (const i of n.items) visitLogical(i);
	};
	if ("head" in node) visitIdentifier(node.head);
	else visitLogical(node);
	return [...out];
}
