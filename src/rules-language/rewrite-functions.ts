/**
 * Functions of rewrite and redirect value expressions (a rule's `expression` value in URL
 * rewrites, header modifications and dynamic redirects): `regex_replace`, `wildcard_replace` and
 * `to_string`, known to the parser only when it parses a value (`parseValue`), so a filter using
 * them is `unknown identifier`, as Cloudflare's is (terraform-provider-cloudflare#1326).
 *
 * Emulates (developers.cloudflare.com/ruleset-engine/rules-language/functions/):
 * - `regex_replace(source, regular_expression, replacement)`: the first match of the regex in the
 *   source replaced, `${1}`…`${8}` naming its capture groups and `$$` a `$`; the source unchanged
 *   when nothing matches; at most one per expression (`parser.ts`).
 * - `wildcard_replace(source, wildcard_pattern, replacement[, flags])`: when the whole source
 *   matches the pattern (ASCII case folded, or not with the flag `"s"`), the replacement with
 *   `${N}` naming what the N-th `*` took, each star as short as the match allows; else the
 *   source unchanged; not together with `regex_replace` in one expression.
 * - `to_string(Integer | Boolean | IP address)`: its text.
 * Gaps: the texts of refused arguments are edgezone's; a lazy quantifier (`*?`) captures as a
 * greedy one in `regex_replace` (the regex HIR does not keep laziness), and a repeated group
 * counted past RE2's limit of 1,000 is numbered as several (`regex-hir.ts`).
 */
import type { FunctionDef, Impl, Param } from "./functions.ts";
import { translateRegex } from "./regex.ts";
import { EDGE_PROFILE } from "./regex-hir.ts";
import type { IpValue, Runtime } from "./types.ts";
import { compileWildcard, wildcardCaptures } from "./wildcard.ts";

/** The instructions a `regex_replace` pattern may compile to: the parser's limit for one expression's regexes. */
const MAX_REPLACE_INSTRUCTIONS = 8192;

/** `${N}` for N from 1 to `most`, and `$$`: the parts of a replacement; a string of why not when it is not one. */
function replacementParts(text: string, most: number): (string | number)[] | string {
	const parts: (string | number)[] = [];
	let literal = "";
	for (let i = 0; i < text.length; i++) {
		if (text[i] !== "$") {
			literal += text[i];
			continue;
		}
		if (text[i + 1] === "$") {
			literal += "$";
			i++;
			continue;
		}
		const ref = /^\$\{([0-9]+)\}/.exec(text.slice(i));
		const n = ref === null ? Number.NaN : Number(ref[1]);
		if (ref === null || n < 1 || n > most)
			return `the replacement may reference \${1} to \${${most}} and write $ as $$`;
		if (literal !== "") parts.push(literal);
		literal = "";
		parts.push(n);
		i += ref[0].length - 1;
	}
	if (literal !== "") parts.push(literal);
	return parts;
}

function expand(parts: readonly (string | number)[], groups: readonly (string | undefined)[]): string {
	let out = "";
	for (const part of parts) out += typeof part === "string" ? part : (groups[part] ?? "");
	return out;
}

function literalBytes(param: Param | undefined): string {
	return param?.literal?.type === "Bytes" ? param.literal.value : "";
}

/** A Field of type Bytes, then Literal Bytes arguments, each literal checked by `checkLiteral`. */
function checkArgs(
	index: number,
	param: Param,
	previous: readonly Param[],
	checkLiteral: (index: number, value: string, previous: readonly Param[]) => string | undefined,
): ReturnType<FunctionDef["check"]> {
	if (index === 0)
		return param.kind !== "Field"
			? { kind: "kind", expected: "Field", actual: param.kind }
			: param.type !== "Bytes"
				? { kind: "type", expected: ["Bytes"], actual: param.type }
				: undefined;
	if (param.kind !== "Literal") return { kind: "kind", expected: "Literal", actual: param.kind };
	if (param.type !== "Bytes") return { kind: "type", expected: ["Bytes"], actual: param.type };
	const message = checkLiteral(index, literalBytes(param), previous);
	return message === undefined ? undefined : { kind: "value", message };
}

const REGEX_MAX_GROUPS = 8;

const regexReplace: FunctionDef = {
	name: "regex_replace",
	mandatory: 3,
	optional: 0,
	check: (index, param, previous) =>
		checkArgs(index, param, previous, (i, value) => {
			if (i === 1) {
				const translated = translateRegex(value, EDGE_PROFILE, MAX_REPLACE_INSTRUCTIONS, true);
				return translated.ok ? undefined : translated.error;
			}
			const parts = replacementParts(value, REGEX_MAX_GROUPS);
			return typeof parts === "string" ? parts : undefined;
		}),
	returnType: () => "Bytes",
	compile: (params) => {
		const translated = translateRegex(literalBytes(params[1]), EDGE_PROFILE, MAX_REPLACE_INSTRUCTIONS, true);
		const parts = replacementParts(literalBytes(params[2]), REGEX_MAX_GROUPS);
		if (!translated.ok || typeof parts === "string") return () => undefined;
		const regex = translated.regex;
		const impl: Impl = ([source]) => {
			if (typeof source !== "string") return undefined;
			const match = regex.exec(source);
			if (match === undefined) return source;
			return source.slice(0, match.start) + expand(parts, match.groups) + source.slice(match.end);
		};
		impl.cost = ([source]) => (typeof source === "string" ? regex.cost(source) : 0);
		return impl;
	},
};

const wildcardReplace: FunctionDef = {
	name: "wildcard_replace",
	mandatory: 3,
	optional: 1,
	check: (index, param, previous) =>
		checkArgs(index, param, previous, (i, value, before) => {
			if (i === 1) {
				const compiled = compileWildcard(value, false);
				return typeof compiled === "string" ? compiled : undefined;
			}
			if (i === 2) {
				const stars = [...literalBytes(before[1]).replace(/\\[\\*]/g, "")].filter((c) => c === "*").length;
				const parts = replacementParts(value, Math.max(stars, 1));
				return typeof parts === "string" ? parts : undefined;
			}
			return value === "s" || value === ""
				? undefined
				: 'the flags of wildcard_replace are "s" (case-sensitive) or none';
		}),
	returnType: () => "Bytes",
	compile: (params) => {
		const compiled = compileWildcard(literalBytes(params[1]), literalBytes(params[3]) === "s");
		const parts = replacementParts(literalBytes(params[2]), Number.MAX_SAFE_INTEGER);
		if (typeof compiled === "string" || typeof parts === "string") return () => undefined;
		const impl: Impl = ([source]) => {
			if (typeof source !== "string") return undefined;
			const stars = wildcardCaptures(compiled, source);
			return stars === undefined ? source : expand(parts, [source, ...stars]);
		};
		// The walk's worst case: each byte of the source against each token (`work-budget.ts`).
		impl.cost = ([source]) => (typeof source === "string" ? (source.length + 1) * (compiled.codes.length + 1) : 0);
		return impl;
	},
};

function ipText(ip: IpValue): string {
	if (!ip.v6) return [24, 16, 8, 0].map((shift) => (ip.n >>> shift) & 255).join(".");
	const groups: number[] = [];
	for (let i = 7; i >= 0; i--) groups.push(Number((ip.n >> BigInt(i * 16)) & 0xffffn));
	// RFC 5952 §4.2: the longest run of two or more zero groups, the first of equals, becomes `::`.
	let best = -1;
	let bestLength = 1;
	for (let i = 0; i < 8; ) {
		let j = i;
		while (j < 8 && groups[j] === 0) j++;
		if (j - i > bestLength) {
			best = i;
			bestLength = j - i;
		}
		i = j === i ? i + 1 : j;
	}
	const hex = groups.map((g) => g.toString(16));
	if (best < 0) return hex.join(":");
	return `${hex.slice(0, best).join(":")}::${hex.slice(best + bestLength).join(":")}`;
}

const toStringFn: FunctionDef = {
	name: "to_string",
	mandatory: 1,
	optional: 0,
	check: (_, param) =>
		param.kind !== "Field"
			? { kind: "kind", expected: "Field", actual: param.kind }
			: param.type === "Int" || param.type === "Bool" || param.type === "Ip"
				? undefined
				: { kind: "type", expected: ["Bool", "Int", "Ip"], actual: param.type },
	returnType: () => "Bytes",
	compile:
		() =>
		([value]: readonly (Runtime | undefined)[]) => {
			if (typeof value === "number" || typeof value === "boolean") return String(value);
			if (value !== null && typeof value === "object" && "v6" in value) return ipText(value as IpValue);
			return undefined;
		},
};

/** Function name -> definition, for value expressions only. */
export const REWRITE_FUNCTIONS: ReadonlyMap<string, FunctionDef> = new Map(
	[regexReplace, wildcardReplace, toStringFn].map((d) => [d.name, d]),
);

/** The functions of which a value expression holds at most one (docs: regex_replace "can only be used once"). */
export const ONCE_PER_EXPRESSION: ReadonlySet<string> = new Set(["regex_replace", "wildcard_replace"]);
