/**
 * The translated form of a `matches` pattern: a small HIR, its RE2 syntax for `re2js`, and the
 * size the engine's compiled NFA would have.
 *
 * Emulates: regex-syntax's HIR smart constructors (regex-syntax 0.8 `src/hir/mod.rs`:
 * `Hir::concat` merges adjacent literals and drops empties, `Hir::alternation` flattens and turns
 * alternatives that are all single bytes or classes into one class, `Hir::class` turns a
 * one-byte class into a literal and an empty one into a failure, `Hir::repetition` drops `{0}`
 * and `{1}` and clamps repetitions of what matches only the empty string), and the Thompson
 * compiler of regex-automata 0.4 (`src/nfa/thompson/compiler.rs`, `builder.rs`,
 * `literal_trie.rs`), whose builder refuses a pattern once `states * size_of::<State>()` plus the
 * states' heap (8 bytes per transition of a sparse state, 4 per alternate of a union) exceeds
 * the limit. wirefilter (`engine/src/rhs_types/regex/imp_real.rs`) builds a `meta::Regex` with
 * `nfa_size_limit` 10 MiB (`ParserSettings::default`, `engine/src/ast/parse.rs`), which compiles
 * a forward NFA (with an unanchored `(?s-u:.)*?` prefix unless the pattern starts with `^`/`\A`)
 * and, for its lazy DFA, a reverse one; either may exceed the limit.
 * Gaps: `Hir::alternation`'s `lift_common_prefix` is not applied, and an alternation of literals
 * where one is a prefix of another (which the engine compiles as a trie split into chunks) is
 * sized as a plain alternation, so such patterns within a few percent of the limit may be judged
 * differently. The size of the NFA state is that of a 64-bit build (Cloudflare's edge); the
 * differential oracle, a 32-bit WebAssembly build with implicit capture states, is checked with
 * its own profile: at the edge of the limit the sizes agree exactly for literals, classes,
 * concatenations, alternations (plain and of literals), `?`, `*`, `+` and counted repetitions;
 * that build's older regex-syntax does not clamp repetitions of look-arounds (`(?:\b){N}`), and
 * it refuses `\x00{N}` three states earlier, unexplained.
 */

/** A byte set as 256 flags. */
export type ByteSet = readonly boolean[];

/** The look-arounds a pattern can hold (regex-syntax `hir::Look`, the ones reachable with Unicode off). */
type Look = "start" | "end" | "startLF" | "endLF" | "wordAscii" | "wordAsciiNegate";

export type Hir =
	| { readonly k: "empty" }
	| { readonly k: "fail" }
	| { readonly k: "literal"; readonly bytes: readonly number[] }
	| { readonly k: "class"; readonly set: ByteSet }
	| { readonly k: "look"; readonly look: Look }
	| { readonly k: "capture"; readonly sub: Hir }
	| { readonly k: "repetition"; readonly min: number; readonly max: number | undefined; readonly sub: Hir }
	| { readonly k: "concat"; readonly subs: readonly Hir[] }
	| { readonly k: "alternation"; readonly subs: readonly Hir[] };

export const EMPTY: Hir = { k: "empty" };

function members(set: ByteSet): number[] {
	const out: number[] = [];
	for (let b = 0; b < 256; b++) if (set[b]) out.push(b);
	return out;
}

/** `Hir::class`: an empty class fails, a one-byte class is that literal. */
export function klass(set: ByteSet): Hir {
	const bytes = members(set);
	if (bytes.length === 0) return { k: "fail" };
	if (bytes.length === 1) return { k: "literal", bytes };
	return { k: "class", set };
}

export function literal(bytes: readonly number[]): Hir {
	return bytes.length === 0 ? EMPTY : { k: "literal", bytes };
}

/** `Hir::concat`: flattened, adjacent literals merged, empties dropped. */
export function concat(subs: readonly Hir[]): Hir {
	const out: Hir[] = [];
	let pending: number[] | undefined;
	const push = (h: Hir) => {
		if (h.k === "literal") {
			pending = [...(pending ?? []), ...h.bytes];
			return;
		}
		if (pending) out.push({ k: "literal", bytes: pending });
		pending = undefined;
		out.push(h);
	};
	for (const sub of subs) {
		if (sub.k === "empty") continue;
		if (sub.k === "concat") sub.subs.forEach(push);
		else push(sub);
	}
	if (pending) out.push({ k: "literal", bytes: pending });
	if (out.length === 0) return EMPTY;
	if (out.length === 1) return out[0] ?? EMPTY;
	return { k: "concat", subs: out };
}

/** The byte set of a one-byte literal or a class (`singleton_bytes` / `class_bytes`); else undefined. */
function asSet(h: Hir): ByteSet | undefined {
	if (h.k === "class") return h.set;
	if (h.k === "literal" && h.bytes.length === 1) {
		const set = new Array<boolean>(256).fill(false);
		set[h.bytes[0] ?? 0] = true;
		return set;
	}
	return undefined;
}

/** `Hir::alternation`: flattened; alternatives that are all one byte or a class become one class. */
export function alternation(subs: readonly Hir[]): Hir {
	const flat = subs.flatMap((s) => (s.k === "alternation" ? s.subs : [s]));
	if (flat.length === 0) return { k: "fail" };
	if (flat.length === 1) return flat[0] ?? EMPTY;
	const sets = flat.map(asSet);
	if (sets.every((s) => s !== undefined)) {
		const union = new Array<boolean>(256).fill(false);
		for (const s of sets) for (let b = 0; b < 256; b++) if (s?.[b]) union[b] = true;
		return klass(union);
	}
	return { k: "alternation", subs: flat };
}

/** `Hir::repetition`: `{0}` is empty, `{1}` the sub; a sub that matches only "" repeats at most once. */
export function repetition(sub: Hir, min: number, max: number | undefined): Hir {
	if (maxLen(sub) === 0) {
		min = Math.min(min, 1);
		max = max === undefined ? 1 : Math.min(max, 1);
	}
	if (min === 0 && max === 0) return EMPTY;
	if (min === 1 && max === 1) return sub;
	return { k: "repetition", min, max, sub };
}

/**
 * The bytes every match of `h` begins with at the subject's first byte, when `h` is anchored
 * there (`^` without `m`, or `\A`) and a literal follows: one char per byte, as subjects are
 * (`bytes.ts`). A subject that does not start with them cannot match, so the engine need not
 * run (Rust's `regex` crate likewise skips its engines on a literal prefix: regex-automata's
 * prefilters). Undefined when `h` has no such prefix.
 */
export function anchoredPrefix(h: Hir): string | undefined {
	const subs = h.k === "concat" ? h.subs : [h];
	if (subs[0]?.k !== "look" || subs[0].look !== "start") return undefined;
	const next = subs[1];
	return next?.k === "literal" ? String.fromCharCode(...next.bytes) : undefined;
}

/**
 * When `h` is anchored at the subject's start (`^` without `m`, or `\A`) and its matches are
 * bounded: the most bytes a match attempt reads. Undefined otherwise (an attempt may read the
 * whole subject).
 */
export function anchoredReach(h: Hir): number | undefined {
	return anchored(h, false) ? maxLen(h) : undefined;
}

/**
 * About how many instructions re2js compiles `h` to, counted before it is compiled: one per byte
 * of a literal, per class and per assertion, one more per alternative and per optional or
 * repeated copy, with counted repetitions written out. What edgezone's size limit (`parser.ts`)
 * is checked against, so that no oversized pattern is compiled to be refused.
 */
export function instructionCount(h: Hir): number {
	switch (h.k) {
		case "empty":
		case "fail":
		case "look":
		case "class":
			return 1;
		case "literal":
			return h.bytes.length;
		case "capture":
			return instructionCount(h.sub);
		case "concat":
			return h.subs.reduce((n, sub) => n + instructionCount(sub), 0);
		case "alternation":
			return h.subs.reduce((n, sub) => n + instructionCount(sub) + 1, 0);
		case "repetition": {
			const sub = instructionCount(h.sub);
			const optional = h.max === undefined ? sub + 1 : (h.max - h.min) * (sub + 1);
			return h.min * sub + optional;
		}
	}
}

/** regex-syntax `Properties::maximum_len`: undefined for unbounded or a failure. */
function maxLen(h: Hir): number | undefined {
	switch (h.k) {
		case "empty":
		case "look":
			return 0;
		case "fail":
			return undefined;
		case "literal":
			return h.bytes.length;
		case "class":
			return 1;
		case "capture":
			return maxLen(h.sub);
		case "repetition": {
			const sub = maxLen(h.sub);
			if (sub === undefined) return undefined;
			if (h.max === undefined) return sub === 0 ? 0 : undefined;
			return sub * h.max;
		}
		case "concat": {
			let sum = 0;
			for (const s of h.subs) {
				const n = maxLen(s);
				if (n === undefined) return undefined;
				sum += n;
			}
			return sum;
		}
		case "alternation": {
			let most = 0;
			for (const s of h.subs) {
				const n = maxLen(s);
				if (n === undefined) return undefined;
				most = Math.max(most, n);
			}
			return most;
		}
	}
}

/** regex-syntax `Properties::minimum_len`: undefined for a failure. */
function minLen(h: Hir): number | undefined {
	switch (h.k) {
		case "empty":
		case "look":
			return 0;
		case "fail":
			return undefined;
		case "literal":
			return h.bytes.length;
		case "class":
			return 1;
		case "capture":
			return minLen(h.sub);
		case "repetition": {
			if (h.min === 0) return 0;
			const sub = minLen(h.sub);
			return sub === undefined ? undefined : sub * h.min;
		}
		case "concat": {
			let sum = 0;
			for (const s of h.subs) {
				const n = minLen(s);
				if (n === undefined) return undefined;
				sum += n;
			}
			return sum;
		}
		case "alternation": {
			let least: number | undefined;
			for (const s of h.subs) {
				const n = minLen(s);
				if (n !== undefined) least = least === undefined ? n : Math.min(least, n);
			}
			return least;
		}
	}
}

/** regex-syntax `look_set_prefix` (or, `fromEnd`, `look_set_suffix`) holds `Look::Start` (`End`). */
function anchored(h: Hir, fromEnd: boolean): boolean {
	switch (h.k) {
		case "look":
			return h.look === (fromEnd ? "end" : "start");
		case "capture":
			return anchored(h.sub, fromEnd);
		case "repetition":
			return h.min > 0 && anchored(h.sub, fromEnd);
		case "concat": {
			const subs = fromEnd ? [...h.subs].reverse() : h.subs;
			for (const s of subs) {
				if (anchored(s, fromEnd)) return true;
				if (maxLen(s) !== 0) return false;
			}
			return false;
		}
		case "alternation":
			return h.subs.every((s) => anchored(s, fromEnd));
		default:
			return false;
	}
}

// ---------------------------------------------------------------------------------------------
// RE2 syntax for re2js. The subject is a string of chars 0x00–0xFF (one per byte), so every byte
// is written as the code point `\x{HH}` and every class as explicit ranges: no flag of RE2's
// (case folding, `.`, Perl classes) takes part, so the byte semantics are the HIR's.

/** RE2 (re2/parse.cc, `maxRepeat`; re2js alike) refuses a repetition count over 1000, nested counts multiplied. */
const RE2_MAX_REPEAT = 1000;

function byteText(b: number): string {
	const c = String.fromCharCode(b);
	return /[A-Za-z0-9]/.test(c) ? c : `\\x{${b.toString(16).padStart(2, "0")}}`;
}

function setText(set: ByteSet): string {
	let out = "";
	for (let c = 0; c < 256; c++) {
		if (!set[c]) continue;
		let end = c;
		while (end + 1 < 256 && set[end + 1]) end++;
		out += end === c ? byteText(c) : `${byteText(c)}-${byteText(end)}`;
		c = end;
	}
	return `[${out}]`;
}

const LOOK_RE2: Record<Look, string> = {
	start: "\\A",
	end: "\\z",
	startLF: "(?m:^)",
	endLF: "(?m:$)",
	wordAscii: "\\b",
	wordAsciiNegate: "\\B",
};

/** RE2 text and the product of the repetition counts nested in it (RE2's limit applies to it). */
interface Re2 {
	readonly text: string;
	readonly weight: number;
}

function counted(group: string, n: number): string {
	return n === 1 ? group : `${group}{${n}}`;
}

/** `sub{count}` (`optional`: `sub{0,count}`) within RE2's limit: whole blocks of the largest count it allows. */
function repeatText(sub: Re2, count: number, optional: boolean): Re2 {
	if (count === 0) return { text: "", weight: 1 };
	const group = `(?:${sub.text})`;
	const step = Math.floor(RE2_MAX_REPEAT / sub.weight);
	if (count <= step)
		return { text: optional ? `${group}{0,${count}}` : counted(group, count), weight: sub.weight * count };
	// (x{0,k})^q x{0,r} and x{k·q + r} match exactly the same strings as x{0,kq+r} / x{kq+r}.
	const blocks = Math.floor(count / step);
	const rest = count % step;
	const block = optional ? `${group}{0,${step}}` : counted(group, step);
	const tail = rest === 0 ? "" : optional ? `${group}{0,${rest}}` : counted(group, rest);
	return { text: block.repeat(blocks) + tail, weight: sub.weight * step };
}

function re2(h: Hir, captures: boolean): Re2 {
	switch (h.k) {
		case "empty":
			return { text: "(?:)", weight: 1 };
		case "fail":
			return { text: "[^\\x00-\\x{10FFFF}]", weight: 1 };
		case "literal":
			return { text: h.bytes.map(byteText).join(""), weight: 1 };
		case "class":
			return { text: setText(h.set), weight: 1 };
		case "look":
			return { text: LOOK_RE2[h.look], weight: 1 };
		case "capture": {
			const sub = re2(h.sub, captures);
			return captures ? { text: `(${sub.text})`, weight: sub.weight } : sub;
		}
		case "concat":
		case "alternation": {
			const parts = h.subs.map((sub) => re2(sub, captures));
			const weight = Math.max(...parts.map((p) => p.weight));
			const joined = parts.map((p) => `(?:${p.text})`).join(h.k === "concat" ? "" : "|");
			return { text: h.k === "concat" ? joined : `(?:${joined})`, weight };
		}
		case "repetition": {
			const sub = re2(h.sub, captures);
			const group = `(?:${sub.text})`;
			// With captures, a repeated group must stay one group (its number counts): RE2's own
			// counted form when it is within RE2's limit; past it, the blocks below repeat the group.
			const most = Math.max(h.min, h.max ?? 1, 1);
			if (captures && most * sub.weight <= RE2_MAX_REPEAT)
				return { text: `${group}{${h.min},${h.max ?? ""}}`, weight: sub.weight * most };
			const head = repeatText(sub, h.min, false);
			if (h.max === undefined) return { text: `${head.text}${group}*`, weight: head.weight };
			const tail = repeatText(sub, h.max - h.min, true);
			return { text: `(?:${head.text}${tail.text})`, weight: Math.max(head.weight, tail.weight) };
		}
	}
}

/**
 * The pattern in RE2 syntax, for re2js, matching what the HIR matches on a byte string; with
 * `captures`, its capture groups capture (for `regex_replace`'s `${N}`), else none does.
 */
export function toRe2(h: Hir, captures = false): string {
	return re2(h, captures).text;
}

// ---------------------------------------------------------------------------------------------
// The compiled size (regex-automata's Thompson builder).

/** What the builder counts: `size_of::<State>()` per state, and whether implicit capture states are added. */
export interface NfaProfile {
	readonly stateBytes: number;
	readonly captureStates: boolean;
}

/** A 64-bit build (`builder.rs` `state_has_small_size`: 32 bytes) with `WhichCaptures::None`, as wirefilter sets it. */
export const EDGE_PROFILE: NfaProfile = { stateBytes: 32, captureStates: false };

/** Sizes of a compiled fragment: states, heap bytes, and whether its end is a union (patching it grows it). */
interface Size {
	states: number;
	heap: number;
	endUnion: boolean;
}

/** `Builder::patch` from a union adds an alternate (4 bytes, a `StateID`). */
const patch = (s: Size) => (s.endUnion ? 4 : 0);

/** `c_exactly`: `n` copies concatenated (`n` = 0: one empty state). */
function exactly(sub: Size, n: number): Size {
	if (n === 0) return { states: 1, heap: 0, endUnion: false };
	return { states: sub.states * n, heap: sub.heap * n + patch(sub) * (n - 1), endUnion: sub.endUnion };
}

/** `LiteralTrie`: one union and one range or sparse state per inner node, plus the end. Undefined if a literal prefixes another. */
function trie(literals: readonly (readonly number[])[], reverse: boolean): Size | undefined {
	const words = literals.map((l) => (reverse ? [...l].reverse() : [...l]).join(","));
	const sorted = [...words].sort();
	for (let i = 1; i < sorted.length; i++) {
		const a = sorted[i - 1] ?? "";
		const b = sorted[i] ?? "";
		if (a === b || b.startsWith(`${a},`)) return undefined;
	}
	const children = new Map<string, Set<number>>();
	for (const l of literals) {
		const bytes = reverse ? [...l].reverse() : l;
		for (let i = 0; i < bytes.length; i++) {
			const key = bytes.slice(0, i).join(",");
			const set = children.get(key) ?? new Set<number>();
			set.add(bytes[i] ?? 0);
			children.set(key, set);
		}
	}
	let states = 1;
	let heap = 0;
	for (const set of children.values()) {
		states += 2;
		heap += 4 + (set.size === 1 ? 0 : 8 * set.size);
	}
	return { states, heap, endUnion: false };
}

function size(h: Hir, reverse: boolean): Size {
	switch (h.k) {
		case "empty":
		case "fail":
		case "look":
			return { states: 1, heap: 0, endUnion: false };
		case "literal":
			return { states: h.bytes.length, heap: 0, endUnion: false };
		case "class":
			return { states: 2, heap: 8 * runs(h.set), endUnion: false };
		case "capture":
			return size(h.sub, reverse);
		case "concat": {
			const parts = h.subs.map((s) => size(s, reverse));
			let states = 0;
			let heap = 0;
			parts.forEach((p, i) => {
				states += p.states;
				heap += p.heap + (i < parts.length - 1 ? patch(p) : 0);
			});
			return { states, heap, endUnion: parts[parts.length - 1]?.endUnion ?? false };
		}
		case "alternation": {
			if (h.subs.every((s) => s.k === "literal")) {
				const t = trie(
					h.subs.map((s) => (s.k === "literal" ? s.bytes : [])),
					reverse,
				);
				if (t) return t;
			}
			// `c_alt_iter`: a union with an alternate per branch, an empty end each branch is patched to.
			let states = 2;
			let heap = 4 * h.subs.length;
			for (const s of h.subs) {
				const p = size(s, reverse);
				states += p.states;
				heap += p.heap + patch(p);
			}
			return { states, heap, endUnion: false };
		}
		case "repetition":
			return repetitionSize(h.sub, h.min, h.max, reverse);
	}
}

/** `c_repetition` with `c_zero_or_one`, `c_at_least`, `c_exactly` and `c_bounded`. */
function repetitionSize(hir: Hir, min: number, max: number | undefined, reverse: boolean): Size {
	const sub = size(hir, reverse);
	if (min === 0 && max === 1) return { states: sub.states + 2, heap: sub.heap + 8 + patch(sub), endUnion: false };
	if (max === undefined) {
		if (min === 0) {
			if ((minLen(hir) ?? 0) > 0) return { states: sub.states + 1, heap: sub.heap + 4 + patch(sub), endUnion: true };
			return { states: sub.states + 3, heap: sub.heap + 16 + patch(sub), endUnion: false };
		}
		return { states: sub.states * min + 1, heap: sub.heap * min + patch(sub) * min + 4, endUnion: true };
	}
	const prefix = exactly(sub, min);
	if (min === max) return prefix;
	const extra = max - min;
	return {
		states: prefix.states + 1 + extra * (sub.states + 1),
		heap: prefix.heap + patch(prefix) + extra * (sub.heap + 8 + patch(sub)),
		endUnion: false,
	};
}

/** How many ranges a byte set is made of (one sparse transition each). */
function runs(set: ByteSet): number {
	let n = 0;
	for (let b = 0; b < 256; b++) if (set[b] && !set[b - 1]) n++;
	return n;
}

/** The builder's memory for one direction: the unanchored prefix, the pattern, its capture and match states. */
function total(h: Hir, reverse: boolean, profile: NfaProfile): number {
	const body = size(h, reverse);
	// The unanchored prefix `(?s-u:.)*?`: a union, a one-range class, the union patched to the pattern;
	// when the pattern is anchored, one empty state.
	const prefix = anchored(h, reverse) ? { states: 1, heap: 0 } : { states: 3, heap: 4 + 8 + 4 };
	const captures = profile.captureStates && !reverse ? 2 : 0;
	const states = prefix.states + body.states + captures + 1;
	// The pattern's end is patched to the match state (or to the capture end before it).
	const heap = prefix.heap + body.heap + patch(body);
	return states * profile.stateBytes + heap;
}

/** The larger of the forward and the reverse NFA's builder memory, in bytes. */
export function compiledSize(h: Hir, profile: NfaProfile = EDGE_PROFILE): number {
	return Math.max(total(h, false, profile), total(h, true, profile));
}
