/**
 * The entries of a zone file in master file format (RFC 1035 §5.1): each entry its tokens, whether
 * it began with a blank (an owner left out, "the last stated owner is assumed"), the comment that
 * ends it and the line it starts on. Parentheses join lines into one entry; `;` begins a comment
 * outside quotes; `"` quotes a token that may hold blanks; `\X` stands for X and `\DDD` for the
 * octet of that decimal value (both RFC 1035 §5.1). Octets are decoded as UTF-8 (BIND writes a
 * name's or a TXT string's non-ASCII bytes as `\DDD`).
 *
 * Pure, one pass over the text: the API bounds the text (256 KiB, Cloudflare's limit) before this
 * runs.
 */

/** One token: its text after escapes, and whether it was quoted (a quoted `@` is not the origin). */
export interface Token {
	text: string;
	quoted: boolean;
	/** The token as the file writes it, quotes and escapes included (`$GENERATE` substitutes in it). */
	raw: string;
}

/** One entry of the file: a directive or a resource record, before it is read. */
export interface Entry {
	/** The 1-based line the entry starts on. */
	line: number;
	/** Whether the entry's first line begins with a blank: its owner is the previous entry's. */
	blankOwner: boolean;
	tokens: Token[];
	/** The comment on the entry's last line, without its `;` and outer blanks; undefined without one. */
	comment: string | undefined;
}

/** A line of the file that cannot be read. */
export interface LexProblem {
	line: number;
	message: string;
}

const BLANK = /[ \t\r]/;

/** The entries of `text`, or the first problem (an unclosed quote or parenthesis, a bad escape). */
export function entries(text: string): { ok: true; entries: Entry[] } | { ok: false; problem: LexProblem } {
	const out: Entry[] = [];
	let line = 1;
	let current: Entry | undefined;
	let depth = 0;
	let token: TokenBuilder | undefined;
	let quoted = false;
	let quoteLine = 0;
	const fail = (at: number, message: string) => ({ ok: false as const, problem: { line: at, message } });
	/** Ends the token being read; `end` is the index after its last character. */
	const endToken = (end: number) => {
		if (token === undefined) return;
		current?.tokens.push(token.finish(text.slice(token.start, end)));
		token = undefined;
	};
	const endEntry = (end: number) => {
		endToken(end);
		if (current !== undefined && current.tokens.length > 0) out.push(current);
		current = undefined;
	};
	for (let i = 0; i < text.length; i++) {
		const c = text[i] ?? "";
		if (current === undefined) current = { line, blankOwner: BLANK.test(c), tokens: [], comment: undefined };
		if (quoted) {
			if (c === '"') {
				quoted = false;
				endToken(i + 1);
			} else if (c === "\\") {
				const escaped = escapeAt(text, i);
				if (escaped === undefined) return fail(line, "a \\ escape must be followed by a character or three digits");
				token?.add(escaped.value, escaped.octet);
				i = escaped.end;
			} else {
				if (c === "\n") line++;
				token?.add(c, false);
			}
			continue;
		}
		if (c === ";") {
			const end = text.indexOf("\n", i);
			const comment = text.slice(i + 1, end === -1 ? text.length : end).trim();
			endToken(i);
			current.comment = comment;
			i = (end === -1 ? text.length : end) - 1;
			continue;
		}
		if (c === "\n") {
			line++;
			if (depth === 0) endEntry(i);
			else {
				endToken(i);
				// A comment belongs to the line it ends: a later line of the same entry replaces it.
				current.comment = undefined;
			}
			continue;
		}
		if (BLANK.test(c)) {
			endToken(i);
			continue;
		}
		if (c === "(") {
			endToken(i);
			depth++;
			continue;
		}
		if (c === ")") {
			endToken(i);
			if (depth === 0) return fail(line, "a ) closes no (");
			depth--;
			continue;
		}
		if (c === '"') {
			endToken(i);
			token = new TokenBuilder(true, i);
			quoted = true;
			quoteLine = line;
			continue;
		}
		token ??= new TokenBuilder(false, i);
		if (c === "\\") {
			const escaped = escapeAt(text, i);
			if (escaped === undefined) return fail(line, "a \\ escape must be followed by a character or three digits");
			token.add(escaped.value, escaped.octet);
			i = escaped.end;
		} else token.add(c, false);
	}
	if (quoted) return fail(quoteLine, 'a quoted string is not closed with "');
	if (depth > 0) return fail(current?.line ?? line, "a ( is not closed with )");
	endEntry(text.length);
	return { ok: true, entries: out };
}

/** The escape at `text[at]` (a `\`): a character, or an octet from `\DDD` (0 to 255). */
function escapeAt(text: string, at: number): { value: string; octet: boolean; end: number } | undefined {
	const digits = /^[0-9]{3}/.exec(text.slice(at + 1, at + 4));
	if (digits !== null) {
		const octet = Number(digits[0]);
		return octet > 255 ? undefined : { value: String.fromCharCode(octet), octet: true, end: at + 3 };
	}
	const next = text[at + 1];
	if (next === undefined || next === "\n" || /[0-9]/.test(next)) return undefined;
	return { value: next, octet: false, end: at + 1 };
}

/** A token's text as it is read: literal characters, and octets that decode together as UTF-8. */
class TokenBuilder {
	#parts = "";
	#octets: number[] = [];

	/** `start`: the index of the token's first character (its opening quote) in the text. */
	constructor(
		readonly quoted: boolean,
		readonly start: number,
	) {}

	add(value: string, octet: boolean): void {
		if (octet) {
			this.#octets.push(value.charCodeAt(0));
			return;
		}
		this.#flush();
		this.#parts += value;
	}

	finish(raw: string): Token {
		this.#flush();
		return { text: this.#parts, quoted: this.quoted, raw };
	}

	#flush(): void {
		if (this.#octets.length === 0) return;
		this.#parts += new TextDecoder().decode(new Uint8Array(this.#octets));
		this.#octets = [];
	}
}
