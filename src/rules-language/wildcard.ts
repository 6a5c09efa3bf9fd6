/**
 * `wildcard` and `strict wildcard` patterns.
 *
 * Emulates: wirefilter's `Wildcard` (engine/src/rhs_types/wildcard.rs) over Cloudflare's
 * `wildcard` crate, configured without the `?` metasymbol: `*` matches any bytes (including `/`),
 * `\*` and `\\` are the only escapes, the whole value must match, `wildcard` folds ASCII case
 * and `strict wildcard` does not. Errors: `invalid wildcard: wildcard syntax error at position N:
 * invalid escape sequence` (N is the byte index of the `\`), `… incomplete escape sequence at the
 * end of the wildcard`, and `wildcard contains a double star`.
 * Matching is the crate's algorithm (one backtrack point, the last star): O(n·m), never exponential.
 * Gaps: no star limit (the engine's default is unlimited; Cloudflare's is not recorded).
 */

/** A compiled wildcard: the pattern as tokens, literal runs and stars. */
export interface Wildcard {
	readonly pattern: string;
	readonly strict: boolean;
	/** Literal bytes (already ASCII-lowercased when not strict), or null for a star. */
	readonly tokens: readonly (string | null)[];
	/** The tokens as byte values, STAR for a star: what matching reads, with no string per byte. */
	readonly codes: readonly number[];
}

/** A star in {@link Wildcard.codes}. */
const STAR = -1;

/** Builds a wildcard from a byte string, or returns the error text. */
export function compileWildcard(pattern: string, strict: boolean): Wildcard | string {
	// The crate checks the escapes of the whole pattern first; the double star is checked after.
	const tokens: (string | null)[] = [];
	for (let i = 0; i < pattern.length; i++) {
		const c = pattern[i] ?? "";
		if (c === "\\") {
			const next = pattern[i + 1];
			if (next === undefined)
				return `invalid wildcard: wildcard syntax error at position ${i}: incomplete escape sequence at the end of the wildcard`;
			if (next !== "*" && next !== "\\")
				return `invalid wildcard: wildcard syntax error at position ${i}: invalid escape sequence`;
			tokens.push(next);
			i++;
		} else tokens.push(c === "*" ? null : c);
	}
	if (tokens.some((t, i) => t === null && tokens[i + 1] === null)) return "wildcard contains a double star";
	const folded = strict ? tokens : tokens.map((t) => (t === null ? t : t.toLowerCase()));
	const codes = folded.map((t) => (t === null ? STAR : t.charCodeAt(0)));
	return { pattern, strict, tokens: folded, codes };
}

function fold(code: number): number {
	return code >= 65 && code <= 90 ? code + 32 : code;
}

/** True when the whole byte string `input` matches. */
export function wildcardMatches(w: Wildcard, input: string): boolean {
	// Runs for every request and wildcard rule: plain numbers, no closure or string per byte.
	const p = w.codes;
	const strict = w.strict;
	let pi = 0;
	let ii = 0;
	let starP = -1;
	let starI = 0;
	while (ii < input.length) {
		const t = pi < p.length ? (p[pi] as number) : undefined;
		if (t === STAR) {
			starP = ++pi;
			starI = ii;
			if (pi >= p.length) return true;
		} else if (t !== undefined && t === (strict ? input.charCodeAt(ii) : fold(input.charCodeAt(ii)))) {
			pi++;
			ii++;
		} else if (starP >= 0) {
			pi = starP;
			ii = ++starI;
		} else return false;
	}
	while (p[pi] === STAR) pi++;
	return pi >= p.length;
}

/**
 * What each star of `w` took when the whole byte string `input` matches, in order, or undefined
 * when it does not (`wildcard_replace`'s `${N}`). Each star takes as few bytes as the match
 * allows, left to right: the same one-backtrack-point walk as {@link wildcardMatches}, which
 * only ever lengthens the last star it met.
 */
export function wildcardCaptures(w: Wildcard, input: string): string[] | undefined {
	const p = w.codes;
	const strict = w.strict;
	const starts: number[] = [];
	const ends: number[] = [];
	let pi = 0;
	let ii = 0;
	let starP = -1;
	let starI = 0;
	while (ii < input.length) {
		const t = pi < p.length ? (p[pi] as number) : undefined;
		if (t === STAR) {
			starts.push(ii);
			ends.push(ii);
			starP = ++pi;
			starI = ii;
			if (pi >= p.length) {
				ends[ends.length - 1] = input.length;
				return starts.map((start, k) => input.slice(start, ends[k]));
			}
		} else if (t !== undefined && t === (strict ? input.charCodeAt(ii) : fold(input.charCodeAt(ii)))) {
			pi++;
			ii++;
		} else if (starP >= 0) {
			// Back to the last star: it takes one byte more; the stars met after it are met again.
			const last = codesStarsBefore(p, starP);
			starts.length = last;
			ends.length = last;
			ends[last - 1] = ++starI;
			pi = starP;
			ii = starI;
		} else return undefined;
	}
	while (p[pi] === STAR) {
		starts.push(input.length);
		ends.push(input.length);
		pi++;
	}
	if (pi < p.length) return undefined;
	return starts.map((start, k) => input.slice(start, ends[k]));
}

/** How many stars `codes` holds before index `end`. */
function codesStarsBefore(codes: readonly number[], end: number): number {
	let n = 0;
	for (let i = 0; i < end; i++) if (codes[i] === STAR) n++;
	return n;
}
