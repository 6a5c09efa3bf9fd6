import { describe, expect, it } from "vitest";
import { compile, MAX_EXPRESSION_LENGTH } from "../../src/rules-language/index.ts";

/** `http.host eq "…"` padded to exactly `length` characters. */
function ofLength(length: number): string {
	const head = 'http.host eq "';
	return `${head}${"a".repeat(length - head.length - 1)}"`;
}

describe("the 4,096-character limit", () => {
	it("accepts an expression of exactly 4,096 characters", () => {
		expect(ofLength(MAX_EXPRESSION_LENGTH).length).toBe(4096);
		expect(compile(ofLength(4096)).ok).toBe(true);
	});

	it("refuses one character more, pointing past the limit", () => {
		const result = compile(ofLength(4097));
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error.reason).toBe("expression is too long: 4097 characters, the limit is 4096");
			expect(result.error.column).toBe(4097);
		}
	});

	it("counts characters, not UTF-16 units", () => {
		const head = 'http.host eq "';
		const expression = `${head}${"😀".repeat(4096 - head.length - 1)}"`;
		expect(compile(expression).ok).toBe(true);
	});
});

describe("the nesting limit of 128", () => {
	const nest = (depth: number, open: string, close: string) => `${open.repeat(depth)}ssl${close.repeat(depth)}`;
	it.each([
		["parentheses", 128, "(", ")", true],
		["parentheses", 129, "(", ")", false],
		["not", 128, "not ", "", true],
		["not", 129, "not ", "", false],
		["!", 129, "!", "", false],
	])("%s nested %i deep: ok=%s", (_, depth, open, close, ok) => {
		expect(compile(nest(depth, open, close)).ok).toBe(ok);
	});

	it("says where the limit was reached", () => {
		const result = compile(nest(129, "(", ")"));
		expect(result.ok ? "" : result.error.message).toBe(
			`Filter parsing error (1:129):\n${nest(129, "(", ")")}\n${" ".repeat(128)}${"^".repeat(4 + 129)} maximum nesting depth exceeded (limit: 128)\n`,
		);
	});

	it("counts function calls as a level", () => {
		const inner = `${"(".repeat(127)}lower(http.host) eq "a"${")".repeat(127)}`;
		expect(compile(inner).ok).toBe(true);
		const deeper = `(${inner})`;
		const result = compile(deeper);
		expect(result.ok ? "" : result.error.reason).toBe("maximum nesting depth exceeded (limit: 128)");
	});
});

describe("the expression true", () => {
	it.each(["true", " true\n", "\r\ntrue "])(
		"matches every request for %j, as Cloudflare's rulesets take it",
		(expression) => {
			const compiled = compile(expression);
			expect(compiled.ok).toBe(true);
			if (compiled.ok) expect(compiled.filter.matches({})).toBe(true);
		},
	);

	it.each(["TRUE", "\ttrue", "true and ssl", "(true)"])("is nothing special in %j", (expression) => {
		expect(compile(expression).ok).toBe(false);
	});
});

describe("the limit of 64 regular expressions", () => {
	const regexes = (n: number) =>
		Array.from({ length: n }, (_, i) => `http.request.uri.path matches "^/r${i}/"`).join(" or ");

	it("accepts 64 in one expression", () => {
		expect(compile(regexes(64)).ok).toBe(true);
	});

	it("refuses the 65th, pointing at it", () => {
		const expression = regexes(65);
		const result = compile(expression);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error.reason).toBe("too many regular expressions: an expression may hold at most 64");
			expect(result.error.column).toBe(expression.lastIndexOf('"^/r64/"') + 1);
		}
	});

	it("counts raw strings and `~` alike", () => {
		const expression = Array.from({ length: 65 }, (_, i) => `http.host ~ r"h${i}"`).join(" or ");
		expect(compile(expression).ok).toBe(false);
	});
});

describe("edgezone's limit on what an expression's regular expressions compile to", () => {
	it("refuses a pattern the engine accepts whose program passes 8,192 instructions, pointing at it", () => {
		const expression = 'http.host eq "a" or http.request.uri.path matches "(?:[a-z]{1000}){30}[0-9]"';
		const result = compile(expression);
		expect(result.ok).toBe(false);
		if (!result.ok) {
			expect(result.error.reason).toMatch(
				/^regular expressions too large: they compile to \d+ instructions, more than the 8192 edgezone allows one expression$/,
			);
			expect(result.error.column).toBe(expression.indexOf("(?:") + 1);
		}
	});

	it("counts every pattern of the expression together", () => {
		const one = 'http.request.uri.path matches "[a-z]{3000}"';
		expect(compile(`${one} or ${one}`).ok).toBe(true);
		expect(compile(`${one} or ${one} or ${one}`).ok).toBe(false);
	});

	it("accepts the longest alternation of words an expression can hold", () => {
		const words = Array.from({ length: 400 }, (_, i) => `w${i.toString(36)}x${"abcdef".slice(i % 6)}`).join("|");
		const expression = `http.user_agent matches "(?i)(${words})"`.slice(0, 4090);
		expect(compile(`${expression.slice(0, expression.lastIndexOf("|"))})"`).ok).toBe(true);
	});
});
