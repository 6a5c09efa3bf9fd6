/**
 * The typed syntax tree the parser builds and the compiler turns into closures.
 *
 * Emulates: wirefilter's AST (engine/src/ast/*.rs): `LogicalExpr`, `ComparisonExpr` with its
 * `ComparisonOpExpr`, `IndexExpr` with `FieldIndex`, `FunctionCallExpr` and its arguments.
 * Types are settled while parsing, as in the engine, so every node carries its type.
 * Gaps: none known.
 */
import type { FunctionDef } from "./functions.ts";
import type { IpRange } from "./ip.ts";
import type { BytesFormat } from "./lexer.ts";
import type { ByteRegex } from "./regex.ts";
import type { FieldType, IpValue } from "./types.ts";
import type { Wildcard } from "./wildcard.ts";

/** One `[…]` step: `[0]`, `["key"]` or `[*]`. */
export type IndexStep =
	| { readonly kind: "index"; readonly index: number }
	| { readonly kind: "key"; readonly key: string }
	| { readonly kind: "each" };

/** A field or a function call, the head of an index expression. */
export type Identifier =
	| { readonly kind: "field"; readonly name: string; readonly type: FieldType }
	| { readonly kind: "call"; readonly fn: FunctionDef; readonly args: readonly Arg[]; readonly type: FieldType };

/** `head[…][…]`; `type` is the type after the steps (under `[*]`: the element type). */
export interface IndexExpr {
	readonly head: Identifier;
	readonly steps: readonly IndexStep[];
	readonly type: FieldType;
	/** How many `[*]` steps there are. */
	readonly eachCount: number;
}

/** A literal on the right of an operator or as a function argument. */
export type Literal =
	| { readonly type: "Bytes"; readonly value: string; readonly format: BytesFormat }
	| { readonly type: "Int"; readonly value: number }
	| { readonly type: "Ip"; readonly value: IpValue };

/** A function argument. */
export type Arg =
	| { readonly kind: "index"; readonly expr: IndexExpr; readonly type: FieldType }
	| { readonly kind: "literal"; readonly literal: Literal; readonly type: FieldType }
	| { readonly kind: "logical"; readonly expr: Logical; readonly type: FieldType };

/** `eq ne lt le gt ge`. */
export type OrderingOp = "eq" | "ne" | "lt" | "le" | "gt" | "ge";

/** What a comparison does with its left side. */
export type ComparisonOp =
	| { readonly kind: "isTrue" }
	| { readonly kind: "ordering"; readonly op: OrderingOp; readonly rhs: Literal }
	| { readonly kind: "bitwiseAnd"; readonly rhs: number }
	| { readonly kind: "contains"; readonly rhs: string }
	| { readonly kind: "matches"; readonly regex: ByteRegex; readonly source: string }
	| { readonly kind: "wildcard"; readonly wildcard: Wildcard }
	| { readonly kind: "inBytes"; readonly values: readonly string[] }
	| { readonly kind: "inInts"; readonly ranges: readonly (readonly [number, number])[] }
	| { readonly kind: "inIps"; readonly ranges: readonly IpRange[] }
	| { readonly kind: "inList"; readonly name: string };

/** A logical expression; `type` is `Bool` or, under `[*]`, `Array<Bool>`. */
export type Logical =
	| {
			readonly kind: "combine";
			readonly op: "and" | "or" | "xor";
			readonly items: readonly Logical[];
			readonly type: FieldType;
			/** Written in parentheses: not flattened into an outer node of the same operator. */
			readonly grouped?: boolean;
	  }
	| { readonly kind: "compare"; readonly lhs: IndexExpr; readonly op: ComparisonOp; readonly type: FieldType }
	| { readonly kind: "not"; readonly arg: Logical; readonly type: FieldType };
