/**
 * `matches` / `~`: Rust regex syntax checked as the engine checks it, and matched by `re2js`.
 *
 * Emulates: wirefilter's regex (engine/src/rhs_types/regex/imp_real.rs): Rust `regex` syntax,
 * `unicode(false)` and `utf8(false)`, an unanchored `is_match` on the value's bytes, in time
 * linear in the subject (a Thompson NFA, as regex-automata's). The pattern is parsed here into a
 * small HIR (`regex-hir.ts`) with byte semantics: `.` is any byte but `\n`; `\d \w \s` and
 * `(?i)` are ASCII-only; a non-ASCII literal matches its UTF-8 bytes; `^`/`$` are text bounds and,
 * under `(?m)`, line bounds at `\n` only; `\A`/`\z` are text bounds; groups capture nothing
 * that matters to `is_match`; `(?P<n>…)`, `(?<n>…)`, inline flags `i m s U x` (global or scoped),
 * POSIX classes `[[:alpha:]]`. The HIR is written in RE2 syntax for `re2js` (a port of RE2, whose
 * matching is linear in the subject) over the byte string (one char 0x00–0xFF per byte): every
 * byte as `\x{HH}` and every class as explicit ranges, so no RE2 flag changes the meaning.
 * Errors use regex-syntax's `Display` (`regex parse error:\n    …`) and its texts where known
 * (look-around, backreferences, unclosed group, …), and wirefilter's `CompiledTooBig` text for a
 * pattern whose compiled NFA would exceed the engine's 10 MiB limit (sized in `regex-hir.ts`).
 * Gaps: refused with our own texts (the engine accepts them): class set operations (`&&`, `--`,
 * `~~`) and nested classes, the `u` and `R` flags, `\b{start}`-style boundaries, non-ASCII
 * characters inside a class. The compiled size is exact for the constructs `regex-hir.ts` models
 * and estimated for the two it names there. Matching costs time proportional to the subject
 * times the pattern's size (an NFA simulation, as the engine's fallback when its lazy DFA gives
 * up), so a pattern near the size limit on a long subject is slow, though never exponential.
 */
import { RE2JS } from "re2js";
import {
	alternation,
	anchoredPrefix,
	anchoredReach,
	compiledSize,
	concat,
	EDGE_PROFILE,
	EMPTY,
	type Hir,
	instructionCount,
	klass,
	literal,
	type NfaProfile,
	repetition,
	toRe2,
} from "./regex-hir.ts";

/** A compiled `matches` right-hand side: `test` is an unanchored match on a byte string. */
export interface ByteRegex {
	test(subject: string): boolean;
	/**
	 * The most work `test(subject)` may take, in the units of `work-budget.ts`: one per subject
	 * byte, plus the re2js program's instructions times the bytes the match may read plus one;
	 * 0 when the subject lacks the pattern's anchored literal prefix (the engine never runs).
	 */
	cost(subject: string): number;
	/** About the re2js program's instructions, counted before compiling (`instructionCount`). */
	readonly instructions: number;
	/**
	 * The leftmost-first match in `subject`: its bounds and its groups' byte strings (`[0]` the
	 * whole match; a group that took no part is undefined), or undefined when none. Groups are
	 * numbered only when the pattern was translated with `captures`. Costs what `test` costs.
	 */
	exec(subject: string): RegexMatch | undefined;
}

/** A match of {@link ByteRegex.exec}: byte offsets into the subject and the groups' bytes. */
interface RegexMatch {
	readonly start: number;
	readonly end: number;
	readonly groups: readonly (string | undefined)[];
}

/**
 * The translation: a matcher for byte strings, or the error text the engine gives; with
 * `tooLarge`, the instructions of a pattern past the caller's `maxInstructions`, left uncompiled.
 */
export type RegexResult = { ok: true; regex: ByteRegex } | { ok: false; error: string; tooLarge?: number };

interface Flags {
	i: boolean;
	m: boolean;
	s: boolean;
	U: boolean;
	x: boolean;
}

class RegexSyntaxError {
	constructor(
		readonly message: string,
		readonly start: number,
		readonly end: number,
	) {}
}

const MISSING_REPEAT = "repetition operator missing expression";

/** A translated item of a concatenation; `flagsOnly` marks `(?i)`, which nothing may repeat. */
interface Atom {
	readonly hir: Hir;
	readonly flagsOnly?: boolean;
}

/** A repetition operator's bounds (`max` undefined: unbounded). Greediness does not matter to `is_match`. */
interface Bounds {
	readonly min: number;
	readonly max: number | undefined;
}

function byteSet(): boolean[] {
	return new Array<boolean>(256).fill(false);
}

function addRange(set: boolean[], lo: number, hi: number): void {
	for (let c = lo; c <= hi; c++) set[c] = true;
}

const PERL: Record<string, (set: boolean[]) => void> = {
	d: (s) => addRange(s, 48, 57),
	w: (s) => {
		addRange(s, 48, 57);
		addRange(s, 65, 90);
		addRange(s, 97, 122);
		s[95] = true;
	},
	s: (s) => {
		addRange(s, 9, 13);
		s[32] = true;
	},
};

const POSIX: Record<string, (set: boolean[]) => void> = {
	alnum: (s) => {
		addRange(s, 48, 57);
		addRange(s, 65, 90);
		addRange(s, 97, 122);
	},
	alpha: (s) => {
		addRange(s, 65, 90);
		addRange(s, 97, 122);
	},
	ascii: (s) => addRange(s, 0, 127),
	blank: (s) => {
		s[9] = true;
		s[32] = true;
	},
	cntrl: (s) => {
		addRange(s, 0, 31);
		s[127] = true;
	},
	digit: (s) => addRange(s, 48, 57),
	graph: (s) => addRange(s, 33, 126),
	lower: (s) => addRange(s, 97, 122),
	print: (s) => addRange(s, 32, 126),
	punct: (s) => {
		addRange(s, 33, 47);
		addRange(s, 58, 64);
		addRange(s, 91, 96);
		addRange(s, 123, 126);
	},
	space: (s) => {
		addRange(s, 9, 13);
		s[32] = true;
	},
	upper: (s) => addRange(s, 65, 90),
	word: (s) => PERL.w?.(s),
	xdigit: (s) => {
		addRange(s, 48, 57);
		addRange(s, 65, 70);
		addRange(s, 97, 102);
	},
};

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

function foldCase(set: boolean[]): void {
	for (let c = 65; c <= 90; c++) {
		if (set[c] || set[c + 32]) {
			set[c] = true;
			set[c + 32] = true;
		}
	}
}

class Translator {
	pos = 0;
	/**
	 * The first error of regex-syntax's second phase (AST to HIR, e.g. `Unicode not allowed here`):
	 * the engine reports it only when the whole pattern parsed, so a later parse error wins.
	 */
	deferred: RegexSyntaxError | undefined;
	constructor(readonly src: string) {}

	/** Records a translation-phase error (see {@link deferred}); the parse goes on. */
	later(message: string, start: number, end: number): void {
		this.deferred ??= new RegexSyntaxError(message, start, end);
	}

	error(message: string, start: number, end = start + 1): never {
		throw new RegexSyntaxError(message, start, end);
	}

	peek(offset = 0): string | undefined {
		return this.src[this.pos + offset];
	}

	skipVerbose(flags: Flags): void {
		if (!flags.x) return;
		for (;;) {
			const c = this.peek();
			if (c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "\v") this.pos++;
			else if (c === "#") {
				while (this.pos < this.src.length && this.peek() !== "\n") this.pos++;
			} else return;
		}
	}

	/** Alternation up to `)` or the end; `flags` may be changed by `(?i)` inside. */
	alternation(flags: Flags, depth: number): Hir {
		const branches: Hir[] = [];
		let current: Hir[] = [];
		let last: Atom | undefined;
		const flush = () => {
			if (last) current.push(last.hir);
			last = undefined;
		};
		for (;;) {
			this.skipVerbose(flags);
			const c = this.peek();
			if (c === undefined || c === ")") break;
			const start = this.pos;
			if (c === "|") {
				this.pos++;
				flush();
				branches.push(concat(current));
				current = [];
				continue;
			}
			if (c === "*" || c === "+" || c === "?" || c === "{") {
				// regex-syntax checks for an operand before reading the operator, at its first char.
				// A flags group (`(?i)*`) is no operand either, as in regex-syntax.
				if (!last || last.flagsOnly) this.error(MISSING_REPEAT, start);
				const { min, max } = this.repetition(flags);
				last = { hir: repetition(last.hir, min, max) };
				continue;
			}
			flush();
			last = this.atom(flags, depth);
		}
		flush();
		branches.push(concat(current));
		return alternation(branches);
	}

	/** A repetition operator and its lazy suffix (laziness does not change what `is_match` says). */
	repetition(flags: Flags): Bounds {
		if (this.peek() === "{") return this.counted(flags);
		const op = this.peek() ?? "";
		this.pos++;
		if (this.peek() === "?") this.pos++;
		if (op === "*") return { min: 0, max: undefined };
		return op === "+" ? { min: 1, max: undefined } : { min: 0, max: 1 };
	}

	/** regex-syntax `bump_and_bump_space`: one char, then (under `x`) spaces and comments; false at the end. */
	bumpAndSpace(flags: Flags): boolean {
		this.pos++;
		this.skipVerbose(flags);
		return this.pos < this.src.length;
	}

	/**
	 * regex-syntax `parse_decimal`: spaces (always), digits, spaces; the error is kept, not thrown,
	 * because the caller decides whether an empty count is an error (`{2,}` vs `{,2}`).
	 */
	decimal(flags: Flags): number | RegexSyntaxError {
		while (this.pos < this.src.length && /\s/.test(this.peek() ?? "")) this.pos++;
		const start = this.pos;
		let digits = "";
		while (this.pos < this.src.length && /[0-9]/.test(this.peek() ?? "")) {
			digits += this.peek();
			this.bumpAndSpace(flags);
		}
		const end = this.pos;
		while (this.pos < this.src.length && /\s/.test(this.peek() ?? "")) this.bumpAndSpace(flags);
		if (digits === "") return new RegexSyntaxError("repetition quantifier expects a valid decimal", start, end);
		const n = Number(digits);
		return n > 0xffffffff ? new RegexSyntaxError("decimal literal invalid", start, end) : n;
	}

	/** regex-syntax `parse_counted_repetition`, from the `{`: its checks, in its order, with its spans. */
	counted(flags: Flags): Bounds {
		const start = this.pos;
		const unclosed = () => this.error("unclosed counted repetition", start, this.pos);
		const value = (n: number | RegexSyntaxError): number => {
			if (n instanceof RegexSyntaxError) throw n;
			return n;
		};
		if (!this.bumpAndSpace(flags)) unclosed();
		const min = this.decimal(flags);
		if (this.pos >= this.src.length) unclosed();
		let max: number | undefined;
		if (this.peek() === ",") {
			if (!this.bumpAndSpace(flags)) unclosed();
			if (this.peek() !== "}") {
				value(min);
				max = value(this.decimal(flags));
			}
		} else max = value(min);
		if (this.pos >= this.src.length || this.peek() !== "}") unclosed();
		if (this.bumpAndSpace(flags) && this.peek() === "?") this.pos++;
		if (max !== undefined && max < value(min))
			this.error("invalid repetition count range, the start must be <= the end", start, this.pos);
		return { min: value(min), max };
	}

	atom(flags: Flags, depth: number): Atom {
		const start = this.pos;
		const c = this.peek() ?? "";
		this.pos++;
		const plain = (hir: Hir): Atom => ({ hir });
		switch (c) {
			case "(":
				return this.group(flags, depth, start);
			case "[":
				return plain(klass(this.klass(flags, start)));
			case ".": {
				const set = byteSet();
				addRange(set, 0, 255);
				if (!flags.s) set[10] = false;
				return plain(klass(set));
			}
			case "^":
				return plain({ k: "look", look: flags.m ? "startLF" : "start" });
			case "$":
				return plain({ k: "look", look: flags.m ? "endLF" : "end" });
			case "\\":
				return this.escape(flags, start);
			default:
				return plain(this.literal(c, flags));
		}
	}

	literal(c: string, flags: Flags): Hir {
		const code = c.codePointAt(0) ?? 0;
		if (code > 127) {
			if (code > 0xffff) this.pos++;
			// With Unicode off, a literal matches its UTF-8 bytes.
			return literal([...new TextEncoder().encode(String.fromCodePoint(code))]);
		}
		const set = byteSet();
		set[code] = true;
		if (flags.i) foldCase(set);
		return klass(set);
	}

	group(outer: Flags, depth: number, start: number): Atom {
		let inner: Flags = { ...outer };
		// `(…)` and named groups capture; `(?:…)` and `(?flags:…)` do not (regex-syntax `HirKind::Capture`).
		let capturing = true;
		if (this.peek() === "?") {
			const rest = this.src.slice(this.pos);
			if (rest.startsWith("?=") || rest.startsWith("?!"))
				this.error("look-around, including look-ahead and look-behind, is not supported", start, start + 3);
			if (rest.startsWith("?<=") || rest.startsWith("?<!"))
				this.error("look-around, including look-ahead and look-behind, is not supported", start, start + 4);
			const named = /^\?P?<([^>]*)>/.exec(rest);
			if (named) {
				const name = named[1] ?? "";
				if (name === "") this.error("empty capture group name", this.pos + named[0].length - 1);
				if (!/^[A-Za-z_][A-Za-z0-9_.[\]]*$/.test(name))
					this.error("invalid capture group character", this.pos + named[0].indexOf(name));
				this.pos += named[0].length;
			} else {
				capturing = false;
				this.pos++;
				const flagsStart = this.pos;
				let negate = false;
				for (;;) {
					const f = this.peek();
					if (f === undefined && this.pos === flagsStart) this.error("unclosed group", start);
					if (f === undefined) this.error("expected flag but got end of regex", this.pos);
					this.pos++;
					// `(?)`: regex-syntax reads no flags there and calls it a repetition without operand, at the `?`.
					if (f === ")" && this.pos - 1 === flagsStart) this.error(MISSING_REPEAT, flagsStart - 1);
					if (f === ")" || f === ":") {
						if (negate && this.src[this.pos - 2] === "-") this.error("dangling flag negation operator", this.pos - 2);
						if (f === ")") {
							// `(?flags)`: applies to the rest of the enclosing group.
							Object.assign(outer, inner);
							return { hir: EMPTY, flagsOnly: true };
						}
						break;
					}
					if (f === "-") {
						if (negate) this.error("flag negation operator repeated", this.pos - 1);
						negate = true;
					} else if (f === "i" || f === "m" || f === "s" || f === "U" || f === "x") {
						inner = { ...inner, [f]: !negate };
					} else if (f === "u" || f === "R") {
						this.error(`the ${f} flag is not supported by this emulator`, this.pos - 1);
					} else this.error("unrecognized flag", this.pos - 1);
				}
				if (this.pos - 1 === flagsStart) inner = { ...outer };
			}
		}
		if (depth >= 250) this.error("exceed the maximum number of nested parentheses/brackets (250)", start);
		const body = this.alternation(inner, depth + 1);
		if (this.peek() !== ")") this.error("unclosed group", start);
		this.pos++;
		return { hir: capturing ? { k: "capture", sub: body } : body };
	}

	/** An escape outside a class. */
	escape(flags: Flags, start: number): Atom {
		const c = this.peek();
		if (c === undefined) this.error("incomplete escape sequence, reached end of pattern prematurely", start);
		if (c === "A" || c === "z") {
			this.pos++;
			return { hir: { k: "look", look: c === "A" ? "start" : "end" } };
		}
		if (c === "b" || c === "B") {
			this.pos++;
			if (this.peek() === "{")
				this.error("word boundary assertions like \\b{start} are not supported by this emulator", start, this.pos + 1);
			return { hir: { k: "look", look: c === "b" ? "wordAscii" : "wordAsciiNegate" } };
		}
		if (c >= "1" && c <= "9") this.error("backreferences are not supported", start, start + 2);
		const wide = this.wideHex();
		if (wide !== undefined) {
			// `\x{…}` above 0xFF is a Unicode scalar; with Unicode off it matches its UTF-8 bytes,
			// as a non-ASCII literal does (checked against the engine).
			return { hir: literal([...new TextEncoder().encode(String.fromCodePoint(wide))]) };
		}
		const set = this.classEscape(start);
		if (flags.i) foldCase(set);
		return { hir: klass(set) };
	}

	/** `\x{…}` with a value above 0xFF (a valid scalar), consumed; else undefined and nothing consumed. */
	wideHex(): number | undefined {
		const m = /^x\{([0-9A-Fa-f]+)\}/.exec(this.src.slice(this.pos));
		if (!m) return undefined;
		const value = Number.parseInt(m[1] ?? "", 16);
		if (value <= 0xff) return undefined;
		if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
			const digits = this.pos + 2;
			this.error("hexadecimal literal is not a Unicode scalar value", digits, digits + (m[1] ?? "").length);
		}
		this.pos += m[0].length;
		return value;
	}

	/** An escape that stands for a set of bytes (inside or outside a class); `pos` is after the `\`. */
	classEscape(start: number): boolean[] {
		const c = this.peek() ?? "";
		this.pos++;
		const set = byteSet();
		const lower = c.toLowerCase();
		const perl = PERL[lower];
		if (perl && (c === lower || c === c.toUpperCase())) {
			perl(set);
			if (c !== lower) for (let b = 0; b < 256; b++) set[b] = !set[b];
			return set;
		}
		if (c === "p" || c === "P") {
			// regex-syntax `parse_unicode_class`: a letter or `{name}`; the whole class is the span.
			const eof = "incomplete escape sequence, reached end of pattern prematurely";
			if (this.pos >= this.src.length) this.error(eof, this.pos, this.pos);
			if (this.peek() === "{") {
				const close = this.src.indexOf("}", this.pos);
				if (close === -1) this.error(eof, this.src.length, this.src.length);
				this.pos = close + 1;
			} else this.pos += (this.src.codePointAt(this.pos) ?? 0) > 0xffff ? 2 : 1;
			this.later("Unicode not allowed here", start, this.pos);
			return set;
		}
		const simple = SIMPLE_ESCAPES[c];
		if (simple !== undefined) {
			set[simple] = true;
			return set;
		}
		if (c === "x") {
			let digits: string;
			if (this.peek() === "{") {
				const close = this.src.indexOf("}", this.pos);
				if (close === -1) this.error("unclosed hexadecimal literal", start, this.src.length);
				digits = this.src.slice(this.pos + 1, close);
				if (digits === "") this.error("hexadecimal literal empty", start, close + 1);
				this.pos = close + 1;
			} else {
				digits = this.src.slice(this.pos, this.pos + 2);
				this.pos += 2;
			}
			if (!/^[0-9A-Fa-f]+$/.test(digits) || (digits.length !== 2 && this.src[this.pos - 1] !== "}"))
				this.error("invalid hexadecimal digit", start, this.pos);
			const value = Number.parseInt(digits, 16);
			if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff))
				this.error("hexadecimal literal is not a Unicode scalar value", start + 3, this.pos - 1);
			if (value > 0xff) {
				this.later("Unicode not allowed here", start, this.pos);
				return set;
			}
			set[value] = true;
			return set;
		}
		// Rust allows escaping any ASCII punctuation; letters and digits are reserved.
		if (/^[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e ]$/.test(c)) {
			set[c.charCodeAt(0)] = true;
			return set;
		}
		return this.error("unrecognized escape sequence", start, this.pos);
	}

	/** A bracketed class; `pos` is after the `[`. */
	klass(flags: Flags, start: number): boolean[] {
		const set = byteSet();
		let negated = false;
		if (this.peek() === "^") {
			negated = true;
			this.pos++;
		}
		// regex-syntax reports an unclosed class on its opening: `[`, `^` and a leading literal `]`.
		const openEnd = this.peek() === "]" ? this.pos + 1 : this.pos;
		let first = true;
		for (;;) {
			const c = this.peek();
			if (c === undefined) this.error("unclosed character class", start, openEnd);
			if (c === "]" && !first) {
				this.pos++;
				break;
			}
			const itemStart = this.pos;
			if (c === "[") {
				const posix = /^\[:(\^?)([a-z]+):\]/.exec(this.src.slice(this.pos));
				const add = posix ? POSIX[posix[2] ?? ""] : undefined;
				if (!posix || !add) this.error("nested character classes are not supported by this emulator", itemStart);
				const part = byteSet();
				add(part);
				for (let b = 0; b < 256; b++) if (part[b] !== (posix[1] === "^")) set[b] = true;
				this.pos += posix[0].length;
				first = false;
				continue;
			}
			const op = this.src.slice(this.pos, this.pos + 2);
			if (!first && (op === "&&" || op === "--" || op === "~~"))
				this.error("character class set operations are not supported by this emulator", itemStart, itemStart + 2);
			const lo = this.classAtom(itemStart);
			first = false;
			if (this.peek() === "-" && this.peek(1) !== "]" && this.peek(1) !== undefined) {
				this.pos++;
				const hiStart = this.pos;
				const hi = this.classAtom(hiStart);
				if (typeof lo !== "number" || typeof hi !== "number")
					this.error("invalid range boundary, must be a literal", hiStart, this.pos);
				if (hi < lo) this.error("invalid character class range, the start must be <= the end", itemStart, this.pos);
				addRange(set, lo, hi);
			} else if (typeof lo === "number") set[lo] = true;
			else for (let b = 0; b < 256; b++) if (lo[b]) set[b] = true;
		}
		if (flags.i) foldCase(set);
		if (negated) for (let b = 0; b < 256; b++) set[b] = !set[b];
		return set;
	}

	/** One class item: a byte, or a set for `\d`-style escapes. */
	classAtom(start: number): number | boolean[] {
		const c = this.peek() ?? "";
		this.pos++;
		if (c === "\\") {
			const set = this.classEscape(start);
			const members = set.flatMap((m, b) => (m ? [b] : []));
			return members.length === 1 && !/^[dDwWsS]$/.test(this.src[start + 1] ?? "") ? (members[0] ?? 0) : set;
		}
		const code = c.codePointAt(0) ?? 0;
		if (code > 127) this.error("non-ASCII characters in a class are not supported by this emulator", start);
		return code;
	}
}

/** regex-syntax's `Display` for a one-line pattern. */
/** 1-based line and column (in characters) of `offset` in `pattern`, as regex-syntax's `Position`. */
function position(pattern: string, offset: number): { line: number; column: number } {
	const before = [...pattern.slice(0, offset)];
	let line = 1;
	let column = 1;
	for (const c of before) {
		if (c === "\n") {
			line++;
			column = 1;
		} else column++;
	}
	return { line, column };
}

/**
 * regex-syntax's error `Display` (error.rs `Formatter`, `Spans::notate`): the pattern with carets
 * under the span; a pattern with a newline gets numbered lines between `~` dividers, and a span
 * over several lines is named by line and column instead of underlined.
 */
function renderRegexError(pattern: string, e: RegexSyntaxError): string {
	// Rust's `str::lines`: split at `\n`, drop a `\r` before it, no empty last line after a final `\n`.
	const lines = pattern.split("\n").map((l) => l.replace(/\r$/, ""));
	if (pattern.endsWith("\n")) lines.pop();
	const lineCount = lines.length + (pattern.endsWith("\n") ? 1 : 0);
	const width = lineCount <= 1 ? 0 : String(lineCount).length;
	const padding = width === 0 ? 4 : 2 + width;
	const start = position(pattern, e.start);
	const end = position(pattern, e.end);
	const oneLine = start.line === end.line;
	let notated = "";
	lines.forEach((text, i) => {
		notated += `${width > 0 ? `${String(i + 1).padStart(width)}: ` : "    "}${text}\n`;
		if (oneLine && start.line === i + 1) {
			const carets = Math.max(1, end.column - start.column);
			notated += `${" ".repeat(padding + start.column - 1)}${"^".repeat(carets)}\n`;
		}
	});
	if (!pattern.includes("\n")) return `regex parse error:\n${notated}error: ${e.message}`;
	const divider = "~".repeat(79);
	const note = oneLine
		? ""
		: `on line ${start.line} (column ${start.column}) through line ${end.line} (column ${end.column - 1})\n`;
	return `regex parse error:\n${divider}\n${notated}${divider}\n${note}error: ${e.message}`;
}

/** The engine's compiled-size limit (wirefilter `ParserSettings::default`: `regex_compiled_size_limit`). */
const COMPILED_SIZE_LIMIT = 10 * (1 << 20);

/**
 * Checks a Rust regex (the text after the filter literal's own escapes) as the engine does, and
 * compiles it for `re2js`, whose matching time is linear in the subject. The matcher's `test`
 * takes a byte string (one char per byte, `bytes.ts`). Errors: regex-syntax's `Display`, or
 * wirefilter's `Compiled regex exceeds size limit of N bytes.` (without a `regex parse error`
 * header: it is not a syntax error) when the engine's NFA would exceed `COMPILED_SIZE_LIMIT`
 * (`profile`: the build whose NFA is sized, see `regex-hir.ts`). With `captures`, `exec` numbers
 * the pattern's groups (for `regex_replace`).
 */
export function translateRegex(
	pattern: string,
	profile: NfaProfile = EDGE_PROFILE,
	maxInstructions = Number.POSITIVE_INFINITY,
	captures = false,
): RegexResult {
	const t = new Translator(pattern);
	let hir: Hir;
	try {
		const flags: Flags = { i: false, m: false, s: false, U: false, x: false };
		hir = t.alternation(flags, 0);
		if (t.pos < pattern.length) t.error("unopened group", t.pos);
		if (t.deferred) throw t.deferred;
	} catch (e) {
		if (e instanceof RegexSyntaxError) return { ok: false, error: renderRegexError(pattern, e) };
		throw e;
	}
	if (compiledSize(hir, profile) > COMPILED_SIZE_LIMIT)
		return { ok: false, error: `Compiled regex exceeds size limit of ${COMPILED_SIZE_LIMIT} bytes.` };
	// Counted before compiling: an oversized pattern costs its caller nothing to refuse.
	const instructions = instructionCount(hir);
	if (instructions > maxInstructions)
		return {
			ok: false,
			error: `the pattern compiles to ${instructions} instructions, more than ${maxInstructions}`,
			tooLarge: instructions,
		};
	// The HIR's RE2 text is valid RE2 within RE2's repetition limit; a failure here is a bug.
	const engine = RE2JS.compile(toRe2(hir, captures));
	const prefix = anchoredPrefix(hir);
	// re2js's `programSize`: its instructions, which an NFA step visits at most once each.
	const size = engine.programSize();
	const reach = anchoredReach(hir);
	const cost = (subject: string): number => {
		if (prefix !== undefined && !subject.startsWith(prefix)) return 0;
		const read = reach === undefined ? subject.length : Math.min(subject.length, reach);
		return subject.length + size * (read + 1);
	};
	const exec = (subject: string): RegexMatch | undefined => {
		if (prefix !== undefined && !subject.startsWith(prefix)) return undefined;
		const matcher = engine.matcher(subject);
		if (!matcher.find()) return undefined;
		const groups: (string | undefined)[] = [];
		for (let i = 0; i <= matcher.groupCount(); i++) groups.push(matcher.group(i) ?? undefined);
		return { start: matcher.start(), end: matcher.end(), groups };
	};
	if (prefix === undefined)
		return { ok: true, regex: { test: (subject) => engine.test(subject), cost, instructions, exec } };
	return {
		ok: true,
		regex: { test: (subject) => subject.startsWith(prefix) && engine.test(subject), cost, instructions, exec },
	};
}
