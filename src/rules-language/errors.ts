/**
 * Parse errors and their rendering.
 *
 * Emulates: wirefilter's `ParseError` and its `Display` (engine/src/ast/parse.rs):
 * `Filter parsing error ({line}:{col}):\n{line text}\n{col-1 spaces}{carets} {reason}\n`.
 * Line and column are 1-based; the column and the caret count are in UTF-8 bytes, as Rust
 * slices strings by byte; the caret run is clipped to the line and is at least one `^`.
 * Gaps: none known.
 */
import { utf8Length } from "./bytes.ts";

/** The engine's error, as the public API returns it. */
export interface FilterError {
	/** The full `Display` text, ending in a newline. */
	message: string;
	/** 1-based line of the error. */
	line: number;
	/** 1-based column, in UTF-8 bytes from the start of the line. */
	column: number;
	/** The reason alone, e.g. `unknown identifier`. */
	reason: string;
}

/** A failure while lexing: the reason and the failing span [start, end) as indexes into the input. */
export class LexError {
	constructor(
		readonly reason: string,
		readonly start: number,
		readonly end: number,
	) {}
}

/** Renders `error` against the original (untrimmed) `input` as the engine does. */
export function renderError(input: string, error: LexError): FilterError {
	const lineStart = input.lastIndexOf("\n", error.start - 1) + 1;
	let line = 1;
	for (let i = input.indexOf("\n"); i !== -1 && i < lineStart; i = input.indexOf("\n", i + 1)) line++;
	const newline = input.indexOf("\n", lineStart);
	const lineEnd = newline === -1 ? input.length : newline;
	const text = input.slice(lineStart, lineEnd);
	const before = utf8Length(input.slice(lineStart, error.start));
	const span = utf8Length(input.slice(error.start, Math.min(error.end, lineEnd)));
	const message = `Filter parsing error (${line}:${before + 1}):\n${text}\n${" ".repeat(before)}${"^".repeat(Math.max(1, span))} ${error.reason}\n`;
	return { message, line, column: before + 1, reason: error.reason };
}
