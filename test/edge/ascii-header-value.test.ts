/**
 * The visitor location headers' encoding of non-ASCII values (src/edge/phases/managed-transforms.ts):
 * each character outside printable ASCII as its UTF-8 bytes, `\u00XX` each, as the docs' example
 * "São Paulo" → `S\u00c3\u00a3o Paulo` (developers.cloudflare.com/rules/transform/managed-transforms/reference/).
 */
import { describe, expect, it } from "vitest";
import { asciiHeaderValue } from "../../src/edge/phases/managed-transforms";

describe("asciiHeaderValue", () => {
	it.each([
		["Paris", "Paris"],
		["São Paulo", "S\\u00c3\\u00a3o Paulo"],
		["Zürich", "Z\\u00c3\\u00bcrich"],
		// Three and four UTF-8 bytes, and a character outside the Basic Multilingual Plane.
		["東京", "\\u00e6\\u009d\\u00b1\\u00e4\\u00ba\\u00ac"],
		["a😀b", "a\\u00f0\\u009f\\u0098\\u0080b"],
		// A control character is not printable ASCII either.
		["a\tb", "a\\u0009b"],
	])("writes %j as %j", (text, header) => {
		expect(asciiHeaderValue(text)).toBe(header);
	});
});
