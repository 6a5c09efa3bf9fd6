import { describe, expect, it } from "vitest";
import { normalizePath, pathOfKey, removeDotSegments } from "../../src/common/url-normalization";

describe("normalizePath", () => {
	// The rows of developers.cloudflare.com/rules/normalization/examples/ ("URL at Cloudflare's network").
	const docs: [path: string, type: "cloudflare" | "rfc3986", normalized: string][] = [
		["/hello", "rfc3986", "/hello"],
		["/hello", "cloudflare", "/hello"],
		["/%68ello", "rfc3986", "/hello"],
		["/%68ello", "cloudflare", "/hello"],
		["/%68ello//pa\\th", "rfc3986", "/hello//pa%5Cth"],
		["/%68ello//pa\\th", "cloudflare", "/hello/pa/th"],
		["/hello//../path", "rfc3986", "/hello/path"],
		["/hello//../path", "cloudflare", "/path"],
		["/hello/\\../path", "rfc3986", "/hello/%5C../path"],
		["/hello/\\../path", "cloudflare", "/path"],
		// The earlier page's Cloudflare example (cloudflare-docs, rules/normalization, 2021).
		["/./lang//en/hello./", "cloudflare", "/lang/en/hello./"],
	];
	it.each(docs)("%s (%s) is %s, as Cloudflare's examples show", (path, type, normalized) => {
		expect(normalizePath(path, type)).toBe(normalized);
	});

	// developers.cloudflare.com/rules/normalization/how-it-works/, one rule a row.
	const rules: [rule: string, path: string, normalized: string][] = [
		["decodes every unreserved byte", "/%41%5a%61%7A%30%39%2D%2E%5F%7E", "/AZaz09-._~"],
		["leaves reserved bytes encoded: %2F is not a slash", "/private%2Freport.txt", "/private%2Freport.txt"],
		["upper-cases the encodings it keeps", "/private%2freport%3a%40", "/private%2Freport%3A%40"],
		["leaves reserved bytes literal", "/a:b@c!$&'()*+,;=", "/a:b@c!$&'()*+,;="],
		["encodes other literal bytes", '/a b"<>^`{|}', "/a%20b%22%3C%3E%5E%60%7B%7C%7D"],
		["encodes non-ASCII as UTF-8", "/café", "/caf%C3%A9"],
		["encodes a % that starts no escape", "/100%/x%zz", "/100%25/x%25zz"],
		["removes dot segments decoded from %2E", "/public/%2E%2E/private/x", "/private/x"],
		["keeps a segment that only looks like one", "/private./x", "/private./x"],
		["keeps a trailing slash", "/private/", "/private/"],
	];
	it.each(rules)("%s: %s is %s", (_, path, normalized) => {
		expect(normalizePath(path, "rfc3986")).toBe(normalized);
		expect(normalizePath(path, "cloudflare")).toBe(normalized);
	});

	it("normalizes the bypasses of a rule on /private/* to /private/ or leaves %2F for the gateway to refuse", () => {
		expect(normalizePath("/%70rivate/report.txt", "cloudflare")).toBe("/private/report.txt");
		expect(normalizePath("//private//report.txt", "cloudflare")).toBe("/private/report.txt");
		expect(normalizePath("/\\private\\report.txt", "cloudflare")).toBe("/private/report.txt");
		expect(normalizePath("/private%2Freport.txt", "cloudflare")).toBe("/private%2Freport.txt");
	});

	it("removes 12,000 dot segments, plain and escaped, down to /", () => {
		expect(normalizePath("/a/..".repeat(8_000) + "/%2e%2e".repeat(4_000), "cloudflare")).toBe("/");
	});
});

describe("removeDotSegments (RFC 3986 §5.2.4)", () => {
	it.each([
		["/a/b/c/./../../g", "/a/g"],
		["/mid/content=5/../6", "/mid/6"],
		["/..", "/"],
		["/.", "/"],
		["/a/..", "/"],
		["/a/.", "/a/"],
		["/../../x", "/x"],
	])("%s is %s", (path, removed) => {
		expect(removeDotSegments(path)).toBe(removed);
	});
});

describe("pathOfKey", () => {
	it.each([
		["private/report.txt", "/private/report.txt"],
		["a b/ü/%/?#", "/a%20b/%C3%BC/%25/%3F%23"],
		["x/../y", "/x/../y"],
		["a:b@c!$&'()*+,;=", "/a:b@c!$&'()*+,;="],
		["", "/"],
	])("%j is %s, which normalization leaves as it is", (key, path) => {
		expect(pathOfKey(key)).toBe(path);
		if (!key.includes("..")) expect(normalizePath(path, "rfc3986")).toBe(path);
	});
});
