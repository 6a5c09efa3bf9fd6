import { describe, expect, it } from "vitest";
import { prefersHtml } from "../../src/common/accept";

describe("prefersHtml", () => {
	it.each([
		[
			"Chromium's navigation",
			"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8",
			true,
		],
		["Firefox's navigation", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", true],
		["text/* over */*", "text/*, */*;q=0.5", true],
		["HTML above JSON", "application/json;q=0.5, TEXT/HTML", true],
		["HTML with a parameter", "text/html;level=1", true],
		["curl's */*", "*/*", false],
		["no header", null, false],
		["an empty header", "", false],
		["JSON", "application/json", false],
		["JSON and HTML at the same q", "application/json, text/html", false],
		["HTML below JSON", "text/html;q=0.5, application/json", false],
		["HTML below */*", "text/html;q=0.5, */*", false],
		["HTML refused", "text/html;q=0, */*", false],
		["text/* where text/html is refused", "text/html;q=0, text/*", false],
		["another text type only", "text/plain", false],
	])("%s: %j → %s", (_, accept, expected) => {
		expect(prefersHtml(accept)).toBe(expected);
	});
});
