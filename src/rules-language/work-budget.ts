/**
 * The most work one request's string comparisons (`matches`, `wildcard`, `contains`) and
 * function calls may cost, so that no tenant's rules (nor a visitor's long URL against them) can
 * hold the isolate, and every other zone with it.
 *
 * Why a budget and not only size limits: `re2js` runs a lazy DFA that falls back to an NFA
 * simulation when its state cache thrashes, so a match costs, at worst, the program's size times
 * the subject's length (15–25 ns per instruction and byte in workerd, `BENCHMARKS.md`, "Regular
 * expressions"). The engine Cloudflare runs (Rust's regex-automata, wirefilter
 * `engine/src/rhs_types/regex/imp_real.rs`) is far faster on the same patterns, and its 10 MiB
 * program limit accepts patterns such as `(?:[a-z]{100}){30}[0-9]` that take seconds here on a
 * 64 KiB path; even an 11-character `a[ab]{200}c` takes most of a second. No size limit that
 * leaves ordinary patterns alone can prevent that (edgezone's, `parser.ts`, bounds what a write
 * compiles, not what a match costs), so each comparison is charged its worst case before it
 * runs, and the request is refused once the sum would pass the budget.
 *
 * The charge of one `matches` (`ByteRegex.cost`): one unit per subject byte, plus the re2js
 * program's instructions times the bytes the match may read plus one. A pattern anchored at the
 * subject's start with a bounded length reads at most that many bytes; one whose literal prefix
 * the subject lacks costs nothing (it never runs). A `wildcard` is charged the subject's bytes
 * plus one times its tokens plus one (its star backtracking's worst case: one 4,000-byte pattern
 * on a 32 KiB path takes over a second), a `contains` the subject's and the needle's bytes (a
 * needle such as `aaa…ab` makes V8's search read the subject byte by byte), a function call
 * (`lower`, `url_decode`, `concat`…, once per element under `[*]`) its arguments' bytes: 100
 * `lower(http.cookie)` of a 64 KiB cookie would copy 6.5 MB.
 * Gaps (edgezone's own): Cloudflare documents no such refusal; a request whose comparisons
 * would pass the budget is answered by the edge with an error, where Cloudflare would evaluate
 * it. Real requests stay far below it: 20 unanchored patterns of 50 instructions read 2 KiB each
 * for 2.1 M units. Comparisons of numbers, addresses and sets, and equality, cost little and
 * are not charged.
 */

/** Units one request's comparisons and calls may be charged (an re2js instruction on one byte is one). */
export const COMPARISON_WORK_PER_REQUEST = 2 ** 22;

/** Thrown when a comparison would take a request's charges past {@link COMPARISON_WORK_PER_REQUEST}. */
export class ComparisonWorkExceeded extends Error {
	constructor(readonly limit: number) {
		super(`the request's comparisons would take more than ${limit} units of work`);
		this.name = "ComparisonWorkExceeded";
	}
}

/** What is left of one request's budget; spent by the `matches` closures (`compile.ts`). */
export interface WorkBudget {
	left: number;
}

/** Spends `units` of `budget`, or throws {@link ComparisonWorkExceeded} (spending nothing) when it has not that much left. */
export function spend(budget: WorkBudget, units: number): void {
	if (units > budget.left) throw new ComparisonWorkExceeded(COMPARISON_WORK_PER_REQUEST);
	budget.left -= units;
}
