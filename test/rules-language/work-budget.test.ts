import { describe, expect, it } from "vitest";
import {
	COMPARISON_WORK_PER_REQUEST,
	ComparisonWorkExceeded,
	compile,
	evaluation,
	type Filter,
} from "../../src/rules-language/index.ts";

const KIB64 = 64 * 1024;

function filter(expression: string): Filter {
	const result = compile(expression);
	if (!result.ok) throw new Error(result.error.message);
	return result.filter;
}

describe("one request's budget of regex work", () => {
	it("refuses, before running it, a match whose worst case passes the budget", () => {
		// Accepted by the engine's 10 MiB limit; 3,000 instructions times 16,000 bytes, here.
		const big = filter('http.request.uri.path matches "(?:[a-z]{100}){30}[0-9]"');
		expect(() => big.matches({ "http.request.uri.path": `/${"a".repeat(16_000)}` })).toThrow(ComparisonWorkExceeded);
		// The same pattern on a short path is within the budget, and answers.
		expect(big.matches({ "http.request.uri.path": `/${"a".repeat(100)}` })).toBe(false);
	});

	it("says the limit", () => {
		const big = filter('http.request.uri.path matches "(?:[a-z]{100}){30}[0-9]"');
		try {
			big.matches({ "http.request.uri.path": `/${"a".repeat(KIB64)}` });
			expect.unreachable();
		} catch (error) {
			expect(error).toBeInstanceOf(ComparisonWorkExceeded);
			expect((error as ComparisonWorkExceeded).limit).toBe(COMPARISON_WORK_PER_REQUEST);
		}
	});

	it("charges a small pattern on a long subject its size times the subject, and lets it run", () => {
		const small = filter('http.request.uri.path matches "\\.php$"');
		expect(small.matches({ "http.request.uri.path": `/${"a".repeat(KIB64)}.php` })).toBe(true);
	});

	it("charges nothing when the subject lacks the anchored literal prefix", () => {
		const anchored = filter('http.request.uri.path matches "^/api/(?:[a-z]{100}){30}"');
		expect(anchored.matches({ "http.request.uri.path": `/web/${"a".repeat(KIB64)}` })).toBe(false);
	});

	it("charges an anchored, bounded pattern only the bytes it can read", () => {
		// About 200 instructions: times 201 bytes, far within the budget; times 64 KiB, thrice past it.
		const bounded = filter('http.request.uri.path matches "^/[a-z]{1,200}$"');
		expect(bounded.matches({ "http.request.uri.path": `/${"a".repeat(KIB64)}` })).toBe(false);
	});

	it("is one budget for every filter of an evaluation", () => {
		// Each costs a little more than a third of the budget on this subject.
		const subject = `/${"a".repeat(20_000)}`;
		const third = filter('http.request.uri.path matches "[b-z]{70}"');
		const values = evaluation({ "http.request.uri.path": subject });
		expect(third.matchesIn(values)).toBe(false);
		expect(third.matchesIn(values)).toBe(false);
		expect(() => third.matchesIn(values)).toThrow(ComparisonWorkExceeded);
		// A new request has its own budget.
		expect(third.matchesIn(evaluation({ "http.request.uri.path": subject }))).toBe(false);
	});

	it("charges a wildcard its subject times its tokens: a long pattern on a long path is refused", () => {
		// Star backtracking on this pair compares about 32,768 × 4,000 bytes (over a second in V8).
		const long = filter(`http.request.uri.path strict wildcard "*${"a".repeat(4000)}b"`);
		expect(() => long.matches({ "http.request.uri.path": "a".repeat(32 * 1024) })).toThrow(ComparisonWorkExceeded);
		expect(long.matches({ "http.request.uri.path": `${"a".repeat(500)}` })).toBe(false);
	});

	it("charges a contains its subject and needle", () => {
		const expression = Array.from({ length: 100 }, (_, i) => `http.cookie contains "a${i}b"`).join(" or ");
		const many = filter(expression);
		// 100 searches of a 64 KiB cookie: 6.5 M units.
		expect(() => many.matches({ "http.cookie": "a".repeat(KIB64) })).toThrow(ComparisonWorkExceeded);
		expect(many.matches({ "http.cookie": "a".repeat(1024) })).toBe(false);
	});

	it("charges a function call its arguments' bytes", () => {
		const expression = Array.from({ length: 100 }, (_, i) => `lower(http.cookie) eq "c${i}"`).join(" or ");
		const many = filter(expression);
		// 100 copies of a 64 KiB cookie lowercased: 6.5 M units.
		expect(() => many.matches({ "http.cookie": "A".repeat(KIB64) })).toThrow(ComparisonWorkExceeded);
		expect(many.matches({ "http.cookie": "C42" })).toBe(true);
		// Over each element of an array, `[*]`, as over one value.
		const each = filter(
			Array.from({ length: 60 }, (_, i) => `any(lower(http.request.headers.values[*])[*] eq "v${i}")`).join(" or "),
		);
		// 60 times two 64 KiB values: 7.9 M units.
		const values = ["A".repeat(KIB64), "B".repeat(KIB64)];
		expect(() => each.matches({ "http.request.headers.values": values })).toThrow(ComparisonWorkExceeded);
		expect(each.matches({ "http.request.headers.values": ["V7"] })).toBe(true);
	});
});
