// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the replacements of the Rules language write ${N}, not templates
import { describe, expect, it } from "vitest";
import { compile, compileValueExpression, evaluation, type FieldValues } from "../../src/rules-language/index.ts";

const REQUEST: FieldValues = {
	"http.host": "Shop.Example.com",
	"http.request.uri.path": "/old/a/b.html",
	"http.request.uri.query": "x=1",
	"http.request.full_uri": "https://shop.example.com/old/a/b.html?x=1",
	"http.request.headers": { "x-name": ["Zoë"] },
	"ip.src": "203.0.113.7",
	"ip.src.asnum": 64496,
	ssl: true,
};

function valueText(expression: string, values: FieldValues = REQUEST): string | undefined {
	const compiled = compileValueExpression(expression);
	if (!compiled.ok) throw new Error(compiled.error.message);
	return compiled.value.valueIn(evaluation(values));
}

function errorOf(expression: string): string {
	const compiled = compileValueExpression(expression);
	return compiled.ok ? "" : compiled.error.message;
}

describe("value expressions", () => {
	it("read a field, or call the filter's functions", () => {
		expect(valueText("http.request.uri.path")).toBe("/old/a/b.html");
		expect(valueText('concat("/new", http.request.uri.path)')).toBe("/new/old/a/b.html");
		expect(valueText("lower(http.host)")).toBe("shop.example.com");
		expect(valueText('http.request.headers["x-name"][0]')).toBe("Zoë");
		expect(valueText('http.request.headers["absent"][0]')).toBeUndefined();
	});

	it("regex_replace replaces the first match, ${N} naming its groups and $$ a dollar", () => {
		expect(valueText('regex_replace(http.request.uri.path, "^/old/(.*)/(.*)$", "/new/${2}/${1}")')).toBe(
			"/new/b.html/a",
		);
		expect(valueText('regex_replace(http.request.uri.path, "/", "$$")')).toBe("$old/a/b.html");
		expect(valueText('regex_replace(http.request.uri.path, "^/none", "/x")')).toBe("/old/a/b.html");
		expect(valueText('regex_replace(http.request.uri.path, "(a)+", "[${1}]")')).toBe("/old/[a]/b.html");
		expect(valueText('regex_replace(http.request.uri.path, "(?:(o)|(x))ld", "${2}-${1}")')).toBe("/-o/a/b.html");
	});

	it("wildcard_replace rewrites a whole match, each star as short as it may be", () => {
		const expr =
			'wildcard_replace(http.request.full_uri, "https://*.example.com/*/*", "https://example.com/${1}/${3}?from=${2}")';
		expect(valueText(expr)).toBe("https://example.com/shop/a/b.html?x=1?from=old");
		expect(valueText('wildcard_replace(http.request.uri.path, "/OLD/*", "/new/${1}")')).toBe("/new/a/b.html");
		expect(valueText('wildcard_replace(http.request.uri.path, "/OLD/*", "/new/${1}", "s")')).toBe("/old/a/b.html");
		expect(valueText('wildcard_replace(http.request.uri.path, "/old/*/*", "${1}|${2}")')).toBe("a|b.html");
		expect(valueText('wildcard_replace(http.request.uri.path, "*.html*", "${1}!${2}")')).toBe("/old/a/b!");
	});

	it("to_string writes numbers, booleans and addresses", () => {
		expect(valueText("to_string(ip.src.asnum)")).toBe("64496");
		expect(valueText("to_string(ssl)")).toBe("true");
		expect(valueText("to_string(ip.src)")).toBe("203.0.113.7");
		expect(valueText("to_string(ip.src)", { "ip.src": "2001:db8:0:0:1:0:0:1" })).toBe("2001:db8::1:0:0:1");
	});

	it("are refused with the engine's texts when they are not one string", () => {
		expect(errorOf("ip.src")).toContain("expected value of type Bytes, but got Ip");
		expect(errorOf('http.host eq "a"')).toContain("unrecognised input");
		expect(errorOf("unknown.field")).toContain("unknown identifier");
		expect(errorOf('regex_replace("lit", "a", "b")')).toContain("expected argument of kind Field, but got Literal");
		expect(errorOf('regex_replace(http.host, "(", "b")')).toContain("regex parse error");
		expect(errorOf('regex_replace(http.host, "a", "${9}")')).toContain("${1} to ${8}");
		expect(errorOf('wildcard_replace(http.host, "a**", "b")')).toContain("double star");
		expect(errorOf('concat(regex_replace(http.host, "a", "b"), regex_replace(http.host, "a", "b"))')).toContain(
			"one regex_replace or wildcard_replace",
		);
	});

	it("are unknown to filters", () => {
		const compiled = compile('regex_replace(http.host, "a", "b") eq "b"');
		expect(compiled.ok ? "" : compiled.error.message).toContain("unknown identifier");
	});

	it("spend the request's work budget", () => {
		const compiled = compileValueExpression('regex_replace(http.request.uri.path, "[a-z]{50}x", "y")');
		if (!compiled.ok) throw new Error(compiled.error.message);
		const long = { "http.request.uri.path": "a".repeat(200_000) };
		expect(() => compiled.value.valueIn(evaluation(long))).toThrow(/units of work/);
	});
});
