/**
 * Types of the Rules language: `Bool`, `Bytes`, `Int`, `Ip`, `Array<T>`, `Map<T>`, and the
 * runtime values the evaluator works on.
 *
 * Emulates: wirefilter's `Type` (engine/src/types.rs). Two renderings exist there and both
 * appear in error texts: `Display` (`Array<Bytes>`, used by `expected value of type …`) and
 * `Debug` (used by `cannot perform this operation on type …` and `cannot access index …`).
 * The engine's `Debug` for compound types prints its internal bit layout
 * (`Map(CompoundType { layers: 0, len: 1, primitive: Bytes })` for `Map<Array<Bytes>>`); the real
 * engine (the differential oracle, test/rules-language/oracle.test.ts) prints exactly that, so we do too.
 * Gaps: whether Cloudflare's production build is recent enough to print this layout (rather than
 * the older `Map(Array(Bytes))`) is not recorded; we follow the engine we can run.
 */

/** A type of the language. Compound types nest: `{ map: { array: "Bytes" } }` is `Map<Array<Bytes>>`. */
export type FieldType = "Bool" | "Bytes" | "Int" | "Ip" | { readonly array: FieldType } | { readonly map: FieldType };

/** `Array<Bool>`, the type of a comparison under `[*]`. */
export const BOOL_ARRAY: FieldType = { array: "Bool" };

/** True when both types are the same. */
export function sameType(a: FieldType, b: FieldType): boolean {
	if (typeof a === "string" || typeof b === "string") return a === b;
	if ("array" in a) return "array" in b && sameType(a.array, b.array);
	return "map" in b && sameType(a.map, b.map);
}

/** The element type of an array or map, else undefined (wirefilter's `Type::next`). */
export function innerType(t: FieldType): FieldType | undefined {
	if (typeof t === "string") return undefined;
	return "array" in t ? t.array : t.map;
}

/** True for `Array<…>`. */
export function isArray(t: FieldType): t is { readonly array: FieldType } {
	return typeof t !== "string" && "array" in t;
}

/** True for `Map<…>`. */
export function isMap(t: FieldType): t is { readonly map: FieldType } {
	return typeof t !== "string" && "map" in t;
}

/** The engine's `Display` rendering: `Bytes`, `Array<Bytes>`, `Map<Array<Bytes>>`. */
export function displayType(t: FieldType): string {
	if (typeof t === "string") return t;
	return "array" in t ? `Array<${displayType(t.array)}>` : `Map<${displayType(t.map)}>`;
}

/**
 * wirefilter's `CompoundType` Debug for the element type of an array or map: the layers as bits
 * (array 0, map 1), pushed innermost first so the outermost layer is the lowest bit.
 */
function compoundDebug(t: FieldType): string {
	const bits: number[] = [];
	let inner: FieldType = t;
	while (typeof inner !== "string") {
		bits.push("array" in inner ? 0 : 1);
		inner = "array" in inner ? inner.array : inner.map;
	}
	let layers = 0;
	for (let i = bits.length - 1; i >= 0; i--) layers = layers * 2 + (bits[i] ?? 0);
	return `CompoundType { layers: ${layers}, len: ${bits.length}, primitive: ${inner} }`;
}

/**
 * The engine's derived `Debug` rendering: `Bytes`, `Array(CompoundType { … })`,
 * `Map(CompoundType { layers: 0, len: 1, primitive: Bytes })` (for `Map<Array<Bytes>>`).
 */
export function debugType(t: FieldType): string {
	if (typeof t === "string") return t;
	return "array" in t ? `Array(${compoundDebug(t.array)})` : `Map(${compoundDebug(t.map)})`;
}

/**
 * An IP address at runtime: the family and the address, a uint32 number for IPv4 (cheap to
 * compare, see ip.ts) and a 128-bit bigint for IPv6.
 */
export type IpValue = { readonly v6: false; readonly n: number } | { readonly v6: true; readonly n: bigint };

/**
 * A value at runtime. Bytes are "byte strings": one JS char per byte (0–255), the UTF-8 form of
 * the text, so that lengths, comparisons and regexes see bytes as the engine does.
 * `undefined` is a missing value.
 */
export type Runtime = boolean | number | string | IpValue | readonly Runtime[] | ReadonlyMap<string, Runtime>;
