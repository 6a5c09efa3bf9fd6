/**
 * The differential oracle: our Rules-language parser against the real wirefilter engine.
 *
 * Emulates: nothing; this is a conformance check (edgezone's own). `@arcjet/analyze-wasm` (Apache-2.0,
 * a devDependency only, imported only here) ships a build of cloudflare/wirefilter behind
 * Arcjet's `matchFilters(request, localFields, expressions, allowIfMatch)`. An expression the
 * engine refuses makes it throw the engine's `ParseError` Display text (`Filter parsing error
 * (L:C):\n…`), which is exactly what our `compile` returns as `error.message`, so the two are
 * compared byte for byte. In workerd the package's `workerd` export condition imports its three
 * `.wasm` files as compiled modules, which the vitest pool supports as is.
 *
 * What is compared, and what is excluded (differences of scheme, not of engine):
 * - Fields: only those with the same name and type in both schemes (generate.ts
 *   `SHARED_BYTES_FIELDS`, `SHARED_IP_FIELDS`), plus Arcjet's `Bool` and `Map<Bytes>` fields,
 *   which our parser is given under Arcjet's names and types (`ADJUSTED_*`): Cloudflare's own
 *   Bool fields have other names and its maps are `Map<Array<Bytes>>`. Arcjet has no `Int`
 *   field: integers come from `len(…)`.
 * - Functions: `lower`, `upper`, `len` only; Arcjet has no `any`/`all`, `concat`, `starts_with`,
 *   … (`unknown identifier` there). Arcjet's `len` takes only `Bytes` where Cloudflare's takes
 *   `Bytes` or an array, so when a mutation gives `len` another type the two texts differ only in
 *   the expected-type list (`Bytes` vs `Bytes or Array<_>`): such a pair counts as agreeing
 *   ({@link sameBut}) and is tallied apart.
 * - Named lists: Arcjet's scheme has no lists (`in $x` is `cannot perform this operation on type
 *   Ip` there), so list names only appear in invalid forms both lex the same way.
 * - The 4,096-character limit is Cloudflare's, not the engine's; generated expressions are short.
 * Gaps: one engine build (Arcjet 1.13.0); Cloudflare production may run another revision.
 */
import { initializeWasm } from "@arcjet/analyze-wasm";
import { beforeAll, describe, expect, it } from "vitest";
import { compile } from "../../src/rules-language/index.ts";
import { translateRegex } from "../../src/rules-language/regex.ts";
import { EDGE_CASES, generate, ORACLE_FIELDS } from "./generate.ts";

/** What the oracle says of one expression: accepted, or the engine's Display text. */
type Verdict = { readonly ok: true } | { readonly ok: false; readonly message: string };

/** The one export of Arcjet's component this test uses. */
interface FilterEngine {
	matchFilters(request: string, localFields: string, expressions: string[], allowIfMatch: boolean): unknown;
}

/** A request with every field Arcjet's scheme reads, so evaluation never fails after a good parse. */
const REQUEST = JSON.stringify({
	ip: "203.0.113.7",
	method: "GET",
	protocol: "https:",
	host: "example.com",
	path: "/api/v1/login.php",
	headers: { "user-agent": "curl/8", host: "example.com" },
	cookies: "a=b",
	query: "?a=b",
	extra: {},
});

let engine: FilterEngine;

beforeAll(async () => {
	// The component asks for these host functions; the filter path calls only `ipLookup`.
	const loaded = await initializeWasm({
		"arcjet:js-req/bot-identifier": { detect: () => [] },
		"arcjet:js-req/email-validator-overrides": {
			hasGravatar: () => "unknown",
			hasMxRecords: () => "unknown",
			isDisposableEmail: () => "unknown",
			isFreeEmail: () => "unknown",
		},
		"arcjet:js-req/filter-overrides": { ipLookup: () => undefined },
		"arcjet:js-req/sensitive-information-identifier": { detect: (tokens) => tokens.map(() => undefined) },
		"arcjet:js-req/verify-bot": { verify: () => "unverifiable" },
	});
	if (loaded === undefined) throw new Error("@arcjet/analyze-wasm did not initialise");
	engine = loaded;
});

function oracle(expression: string): Verdict {
	try {
		engine.matchFilters(REQUEST, "{}", [expression], true);
		return { ok: true };
	} catch (e) {
		const message = e instanceof Error ? e.message : String(e);
		// Anything but a parse error would be an evaluation failure: the expression parsed.
		return message.startsWith("Filter parsing error") ? { ok: false, message } : { ok: true };
	}
}

function ours(expression: string): Verdict {
	const result = compile(expression, { fields: ORACLE_FIELDS });
	return result.ok ? { ok: true } : { ok: false, message: result.error.message };
}

const show = (v: Verdict) => (v.ok ? "accepted" : JSON.stringify(v.message));

/** Seeds and counts: fixed, so a failure names an expression that fails again on every run. */
const RUNS = [
	{ seed: 1, count: 1500 },
	{ seed: 0xc0ffee, count: 1500 },
	{ seed: 20260801, count: 1500 },
	{ seed: 7, count: 1500 },
];

/**
 * True when both refuse and the texts differ only by `len`'s signature (a scheme difference, see
 * the header): ours expects `Bytes or Array<_>`, Arcjet's `Bytes`.
 */
function sameBut(engineVerdict: Verdict, ourVerdict: Verdict): boolean {
	if (engineVerdict.ok || ourVerdict.ok) return false;
	const lenSignature = /(invalid type of argument #0: expected value of type) Bytes or Array<_>(, but got)/;
	return ourVerdict.message.replace(lenSignature, "$1 Bytes$2") === engineVerdict.message;
}

/** The outcome of comparing a batch. */
interface Comparison {
	/** Disagreements, as Markdown table rows. */
	readonly rows: string[];
	/** Expressions the engine accepted. */
	readonly accepted: number;
	/** Disagreements due only to `len`'s signature. */
	readonly lenSignature: number;
	/** Expressions generated as valid that the engine refused. */
	readonly generatorBugs: string[];
}

function compare(expressions: readonly { expression: string; kind: string }[]): Comparison {
	const rows: string[] = [];
	let accepted = 0;
	let lenSignature = 0;
	const generatorBugs: string[] = [];
	for (const { expression, kind } of expressions) {
		const engineVerdict = oracle(expression);
		if (engineVerdict.ok) accepted++;
		// Grammar output the engine refuses is a generator bug: it would test less than it claims.
		if (kind === "valid" && !engineVerdict.ok)
			generatorBugs.push(`${JSON.stringify(expression)}: ${show(engineVerdict)}`);
		const ourVerdict = ours(expression);
		const same =
			engineVerdict.ok === ourVerdict.ok &&
			(engineVerdict.ok || (!ourVerdict.ok && engineVerdict.message === ourVerdict.message));
		if (same) continue;
		if (sameBut(engineVerdict, ourVerdict)) lenSignature++;
		else rows.push(`| ${kind} | ${JSON.stringify(expression)} | ${show(ourVerdict)} | ${show(engineVerdict)} |`);
	}
	return { rows, accepted, lenSignature, generatorBugs };
}

function table(rows: readonly string[]): string {
	return ["| mutation | expression | ours | engine |", "|---|---|---|---|", ...rows].join("\n");
}

describe("differential oracle: our parser against wirefilter (@arcjet/analyze-wasm)", () => {
	it("agrees on the hand-picked edge cases", () => {
		const { rows } = compare(EDGE_CASES.map((expression) => ({ expression, kind: "edge" })));
		expect(rows.length, `${rows.length} disagreements:\n${table(rows)}`).toBe(0);
	});

	for (const { seed, count } of RUNS) {
		it(`agrees on ${count} generated expressions (seed ${seed})`, () => {
			const { rows, accepted: valid, lenSignature, generatorBugs } = compare(generate(seed, count));
			expect(
				rows.length,
				`${rows.length} disagreements (${valid} accepted by the engine, ${count - valid} refused, ${lenSignature} differing only by len's signature):\n${table(rows)}`,
			).toBe(0);
			expect(generatorBugs, "generated as valid, refused by the engine").toEqual([]);
			// Both halves must be exercised, or the check says little.
			expect(valid).toBeGreaterThan(count / 4);
			expect(count - valid).toBeGreaterThan(count / 4);
		});
	}
});

/**
 * The engine's compiled-size limit, at its edge: the largest count the engine accepts for each
 * shape (found by bisection against this build), and the next one it refuses. Our size of the
 * NFA is checked with this build's profile: a 32-bit WebAssembly target (16-byte builder
 * states) whose wirefilter still adds the implicit capture states (wirefilter `bcc69c1`; since
 * `953f38a` it asks for none, as our edge profile does).
 */
const SIZE_EDGES: [string, number][] = [
	["a{N}", 655353],
	[".{N}", 218451],
	["[a-c]{N}", 262141],
	["(?:ab){N}", 327676],
	["a{0,N}", 262140],
	["a{N,}", 655351],
	["(?:abc|def){N}", 49460],
	["(?:a*){N}", 262141],
	["(?:a?){N}", 187243],
	["(?:a|){N}", 145634],
	["(?i:a){N}", 218451],
	["[a-z0-9_]{N}", 187243],
];

describe("the compiled-size limit against wirefilter", () => {
	const WASM = { stateBytes: 16, captureStates: true };
	it.each(SIZE_EDGES)("%j: the engine accepts N = %i and refuses N + 1, which we refuse with its text", (shape, n) => {
		const at = (k: number) => shape.replace("N", String(k));
		const over = translateRegex(at(n + 1), WASM);
		expect(over).toEqual({ ok: false, error: "Compiled regex exceeds size limit of 10485760 bytes." });
		const message = oracle(`http.request.uri.path matches "${at(n + 1)}"`);
		expect(message).toMatchObject({ ok: false });
		expect(message.ok ? "" : message.message).toContain("Compiled regex exceeds size limit of 10485760 bytes.");
		expect(oracle(`http.request.uri.path matches "${at(n)}"`)).toEqual({ ok: true });
	});
});
