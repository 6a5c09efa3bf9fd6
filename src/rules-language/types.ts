/**
 * Types of the Rules language: `Bool`, `Bytes`, `Int`, `Ip`, `Array<T>`, `Map<T>`, and the
 * runtime values the evaluator works on.
 *
 * Emulates: wirefilter's `Type` (engine/src/types.rs). Two renderings exist there and both
 * appear in error texts: `Display` (`Array<Bytes>`, used by `expected value of type …`) and
 * `Debug` (used by `cannot perform this operation on type …` and `cannot access index …`).
 * Gaps: the engine's current `Debug` for compound types prints its internal bit layout
 * (`Array(CompoundType { layers: 0, … })`); we render the earlier, readable form
 * `Array(Bytes)` / `Map(Array(Bytes))` instead, as the exact production text is not recorded.
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

/** The engine's `Debug` rendering: `Bytes`, `Array(Bytes)`, `Map(Array(Bytes))`. */
export function debugType(t: FieldType): string {
	if (typeof t === "string") return t;
	return "array" in t ? `Array(${debugType(t.array)})` : `Map(${debugType(t.map)})`;
}

/** An IP address at runtime: the family and the address as a number (128 bits for IPv6). */
export interface IpValue {
	readonly v6: boolean;
	readonly n: bigint;
}

/**
 * A value at runtime. Bytes are "byte strings": one JS char per byte (0–255), the UTF-8 form of
 * the text, so that lengths, comparisons and regexes see bytes as the engine does.
 * `undefined` is a missing value.
 */
export type Runtime = boolean | number | string | IpValue | readonly Runtime[] | ReadonlyMap<string, Runtime>;
