/**
 * Functions of the filter phase: `any`, `all`, `lower`, `upper`, `len`, `starts_with`,
 * `ends_with`, `concat`, `url_decode`, `lookup_json_string`, `lookup_json_integer`, `remove_bytes`.
 *
 * Emulates: wirefilter's `FunctionDefinition` contract (engine/src/functions/mod.rs): an argument
 * count `(mandatory, optional)`, a per-argument check giving `kind` (Field/Literal), `type` or
 * `value` errors, a return type, and an implementation that returns a missing value when it
 * cannot answer. `concat`, `any` and `all` follow the engine's own definitions (functions/concat.rs,
 * and any.rs/all.rs before "Represent any and all as logical quantifiers", which is how production
 * still parses them: cloudflare-docs#28223). The others follow cloudflare-docs `functions.mdx`.
 * Gaps: Cloudflare's exact kind rules are not published beyond the docs' notes ("source cannot be
 * a literal"); we require a Field for sources and a Literal for `url_decode` options, JSON keys and
 * `remove_bytes`'s bytes, and accept either kind for `starts_with`/`ends_with`'s second argument.
 * `url_decode`'s refusal of unknown options is our text. Rewrite-phase functions (`regex_replace`,
 * `to_string`, `substring`, …) are not defined, so they are `unknown identifier`.
 */
import type { Literal } from "./ast.ts";
import { asciiLower, asciiUpper, fromByteString, toByteString } from "./bytes.ts";
import { type FieldType, isArray, type Runtime, sameType } from "./types.ts";

/** What the parser knows of an argument when checking it. */
export interface Param {
	readonly kind: "Field" | "Literal";
	readonly type: FieldType;
	readonly literal?: Literal;
}

/** One allowed argument type: an exact type, or any array / any map (`Array<_>`, `Map<_>`). */
export type Expected = FieldType | "Array<_>" | "Map<_>";

/** Why an argument was refused (the parser adds `invalid … of argument #i: `). */
type ParamError =
	| { readonly kind: "kind"; readonly expected: Param["kind"]; readonly actual: Param["kind"] }
	| { readonly kind: "type"; readonly expected: readonly Expected[]; readonly actual: FieldType }
	| { readonly kind: "value"; readonly message: string };

/**
 * A function's value: undefined is a missing value. `cost`, when set, is the work the call may
 * take beyond reading its arguments (a regex's, `work-budget.ts`), charged before it runs.
 */
export type Impl = ((args: readonly (Runtime | undefined)[]) => Runtime | undefined) & {
	cost?: (args: readonly (Runtime | undefined)[]) => number;
};

/** A function of the scheme. */
export interface FunctionDef {
	readonly name: string;
	/** Mandatory arguments. */
	readonly mandatory: number;
	/** Optional arguments after them; null for any number. */
	readonly optional: number | null;
	/** Checks argument `index` given those before it; undefined when it is fine. */
	check(index: number, param: Param, previous: readonly Param[]): ParamError | undefined;
	/** The result type for these arguments. */
	returnType(params: readonly Param[]): FieldType;
	/** The implementation for these (checked) arguments. */
	compile(params: readonly Param[]): Impl;
}

function expectKind(param: Param, kind: Param["kind"]): ParamError | undefined {
	return param.kind === kind ? undefined : { kind: "kind", expected: kind, actual: param.kind };
}

function expectType(param: Param, expected: readonly Expected[]): ParamError | undefined {
	for (const e of expected) {
		if (e === "Array<_>" ? isArray(param.type) : e === "Map<_>" ? false : sameType(e, param.type)) return undefined;
	}
	return { kind: "type", expected, actual: param.type };
}

function field(param: Param, expected: readonly Expected[]): ParamError | undefined {
	return expectKind(param, "Field") ?? expectType(param, expected);
}

function literal(param: Param, expected: readonly Expected[]): ParamError | undefined {
	return expectKind(param, "Literal") ?? expectType(param, expected);
}

const BYTES: readonly Expected[] = ["Bytes"];

/** A function of fixed arguments checked one by one. */
function simple(
	name: string,
	mandatory: number,
	optional: number | null,
	check: FunctionDef["check"],
	returnType: FieldType,
	impl: Impl,
): FunctionDef {
	return { name, mandatory, optional, check, returnType: () => returnType, compile: () => impl };
}

function quantifier(name: "any" | "all"): FunctionDef {
	return simple(
		name,
		1,
		0,
		(_, p) => field(p, [{ array: "Bool" }]),
		"Bool",
		([a]) => {
			if (!Array.isArray(a)) return undefined;
			return name === "any" ? a.some((x) => x === true) : a.every((x) => x === true);
		},
	);
}

function hexValue(c: number): number {
	if (c >= 48 && c <= 57) return c - 48;
	if (c >= 65 && c <= 70) return c - 55;
	if (c >= 97 && c <= 102) return c - 87;
	return -1;
}

function hexAt(s: string, at: number, digits: number): number {
	if (at + digits > s.length) return -1;
	let n = 0;
	for (let i = 0; i < digits; i++) {
		const d = hexValue(s.charCodeAt(at + i));
		if (d < 0) return -1;
		n = n * 16 + d;
	}
	return n;
}

/** One pass of URL decoding over bytes: `%XX`, `+` as space, and with `unicode` `%uXXXX` as UTF-8. */
function urlDecodeOnce(s: string, unicode: boolean): string {
	let out = "";
	for (let i = 0; i < s.length; i++) {
		const c = s[i];
		if (c === "+") out += " ";
		else if (c === "%" && unicode && (s[i + 1] === "u" || s[i + 1] === "U") && hexAt(s, i + 2, 4) >= 0) {
			out += toByteString(String.fromCharCode(hexAt(s, i + 2, 4)));
			i += 5;
		} else if (c === "%" && hexAt(s, i + 1, 2) >= 0) {
			out += String.fromCharCode(hexAt(s, i + 1, 2));
			i += 2;
		} else out += c;
	}
	return out;
}

function urlDecode(params: readonly Param[]): Impl {
	const options = params[1]?.literal?.type === "Bytes" ? params[1].literal.value : "";
	const recursive = options.includes("r");
	const unicode = options.includes("u");
	return ([a]) => {
		if (typeof a !== "string") return undefined;
		let value = urlDecodeOnce(a, unicode);
		// Recursive decoding stops when a pass changes nothing; the bound keeps it linear-ish.
		for (let i = 0; recursive && i < 16; i++) {
			const next = urlDecodeOnce(value, unicode);
			if (next === value) break;
			value = next;
		}
		return value;
	};
}

function lookupJson(name: string, result: "Bytes" | "Int"): FunctionDef {
	return {
		name,
		mandatory: 2,
		optional: null,
		check: (i, p) => (i === 0 ? field(p, BYTES) : literal(p, ["Bytes", "Int"])),
		returnType: () => result,
		compile: (params) => {
			const path = params
				.slice(1)
				.map((p) => (p.literal?.type === "Int" ? p.literal.value : fromByteString(String(p.literal?.value))));
			return ([doc]) => {
				if (typeof doc !== "string") return undefined;
				const text = fromByteString(doc);
				if (text === undefined) return undefined;
				let node: unknown;
				try {
					node = JSON.parse(text);
				} catch {
					return undefined;
				}
				for (const key of path) {
					if (typeof key === "number") node = Array.isArray(node) ? node[key] : undefined;
					else if (typeof key === "string" && node !== null && typeof node === "object" && !Array.isArray(node))
						node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
					else node = undefined;
				}
				if (result === "Bytes") return typeof node === "string" ? toByteString(node) : undefined;
				return typeof node === "number" && Number.isSafeInteger(node) ? node : undefined;
			};
		},
	};
}

const concat: FunctionDef = {
	name: "concat",
	mandatory: 2,
	optional: null,
	// wirefilter concat.rs: the first argument is Bytes or an array; the others have its type.
	check: (_, p, previous) => expectType(p, previous[0] === undefined ? ["Bytes", "Array<_>"] : [previous[0].type]),
	returnType: (params) => params[0]?.type ?? "Bytes",
	compile: () => (args) => {
		const present = args.filter((a) => a !== undefined);
		if (present.length === 0) return undefined;
		if (typeof present[0] === "string") return present.join("");
		return present.flatMap((a) => (Array.isArray(a) ? a : []));
	},
};

function affix(name: string, test: (s: string, affix: string) => boolean): FunctionDef {
	return simple(
		name,
		2,
		0,
		(i, p) => (i === 0 ? field(p, BYTES) : expectType(p, BYTES)),
		"Bool",
		([s, a]) => (typeof s === "string" && typeof a === "string" ? test(s, a) : undefined),
	);
}

const DEFINITIONS: readonly FunctionDef[] = [
	quantifier("any"),
	quantifier("all"),
	simple(
		"lower",
		1,
		0,
		(_, p) => field(p, BYTES),
		"Bytes",
		([a]) => (typeof a === "string" ? asciiLower(a) : undefined),
	),
	simple(
		"upper",
		1,
		0,
		(_, p) => field(p, BYTES),
		"Bytes",
		([a]) => (typeof a === "string" ? asciiUpper(a) : undefined),
	),
	simple(
		"len",
		1,
		0,
		(_, p) => field(p, ["Bytes", "Array<_>"]),
		"Int",
		([a]) => (typeof a === "string" || Array.isArray(a) ? a.length : undefined),
	),
	affix("starts_with", (s, a) => s.startsWith(a)),
	affix("ends_with", (s, a) => s.endsWith(a)),
	concat,
	{
		name: "url_decode",
		mandatory: 1,
		optional: 1,
		check: (i, p) => {
			if (i === 0) return field(p, BYTES);
			const error = literal(p, BYTES);
			if (error !== undefined || p.literal?.type !== "Bytes") return error;
			return /^[ru]*$/.test(p.literal.value)
				? undefined
				: { kind: "value", message: "url_decode options are made of r and u" };
		},
		returnType: () => "Bytes",
		compile: urlDecode,
	},
	lookupJson("lookup_json_string", "Bytes"),
	lookupJson("lookup_json_integer", "Int"),
	{
		name: "remove_bytes",
		mandatory: 2,
		optional: 0,
		check: (i, p) => (i === 0 ? field(p, BYTES) : literal(p, BYTES)),
		returnType: () => "Bytes",
		compile: (params) => {
			const remove = params[1]?.literal?.type === "Bytes" ? params[1].literal.value : "";
			return ([a]) => (typeof a !== "string" ? undefined : remove === "" ? a : a.split(remove).join(""));
		},
	},
];

/** Function name -> definition. */
export const FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(DEFINITIONS.map((d) => [d.name, d]));
