/**
 * The options of `npx edgezone` and `startEdgezone` (node/options.mjs, pure): `edgezone.jsonc`
 * read as JSON with comments and trailing commas, flags over the file, and each option checked
 * before anything starts; and the JSON schema the package ships for editors, which names exactly
 * the options the file may hold.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseJsonc, resolveOptions } from "../../node/options.mjs";

const SCHEMA = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "node", "edgezone.schema.json"), "utf8"));

describe("parseJsonc", () => {
	it("drops comments and trailing commas, and keeps // and /* inside strings", () => {
		const text = `{
			// a line comment
			"origin": "http://localhost:3000/*not a comment*/", /* a block
			comment */ "buckets": ["a//b", "c",],
		}`;
		expect(parseJsonc(text)).toEqual({ origin: "http://localhost:3000/*not a comment*/", buckets: ["a//b", "c"] });
	});

	it("keeps an escaped quote inside a string", () => {
		expect(parseJsonc(String.raw`{"ip": "a\"//b"}`)).toEqual({ ip: 'a"//b' });
	});

	it("throws a SyntaxError for what is not JSONC", () => {
		expect(() => parseJsonc("{ /* open")).toThrow(SyntaxError);
		expect(() => parseJsonc("{ port: 1 }")).toThrow(SyntaxError);
	});
});

describe("resolveOptions", () => {
	it("defaults to the bucket the README uses, and no Workers", () => {
		expect(resolveOptions(undefined, {})).toEqual({
			port: undefined,
			ip: undefined,
			persistTo: undefined,
			buckets: ["edgezone-bucket"],
			workers: [],
			origin: undefined,
		});
	});

	it("takes the file's options, and a flag over the file's", () => {
		const file = { port: 9000, buckets: ["from-file"], workers: ["a/wrangler.toml"], origin: "https://origin.test" };
		expect(resolveOptions(file, { port: 9001, buckets: [] })).toMatchObject({
			port: 9001,
			buckets: ["from-file"],
			workers: ["a/wrangler.toml"],
			origin: "https://origin.test",
		});
		expect(resolveOptions(file, { buckets: ["from-flag"] }).buckets).toEqual(["from-flag"]);
	});

	it("refuses, naming it, an option the file may not hold", () => {
		expect(() => resolveOptions({ bucket: ["x"] }, {}, "my.jsonc")).toThrow('my.jsonc: unknown option "bucket"');
		expect(() => resolveOptions([], {})).toThrow("not a JSON object");
	});

	it("refuses a bucket name R2 refuses, a name listed twice, and an empty list", () => {
		for (const name of ["ab", "Upper", "under_score", "-dash", "dash-", "a".repeat(64)])
			expect(() => resolveOptions(undefined, { buckets: [name] }), name).toThrow("is not an R2 bucket name");
		expect(resolveOptions(undefined, { buckets: ["abc", "a".repeat(63), "a-1"] }).buckets).toHaveLength(3);
		expect(() => resolveOptions(undefined, { buckets: ["abc", "abc"] })).toThrow("listed twice");
		expect(() => resolveOptions({ buckets: [] }, {})).toThrow("at least one bucket");
	});

	it("refuses a port out of range, an origin that is no http(s) URL, and lists that are not of strings", () => {
		for (const port of [0, 65536, 1.5, Number.NaN])
			expect(() => resolveOptions(undefined, { port }), String(port)).toThrow("is not a TCP port");
		expect(() => resolveOptions(undefined, { origin: "localhost:3000" })).toThrow("is not an http(s) URL");
		expect(() => resolveOptions({ workers: "a.toml" }, {})).toThrow("workers: not a list of strings");
	});
});

describe("edgezone.schema.json", () => {
	it("names exactly the options resolveOptions takes from the file", () => {
		const names = Object.keys(SCHEMA.properties);
		expect(SCHEMA.additionalProperties).toBe(false);
		for (const name of names.filter((n) => n !== "$schema")) {
			const value = name === "port" ? 8787 : ["buckets", "workers"].includes(name) ? ["some-bucket"] : "http://x";
			expect(() => resolveOptions({ [name]: value }, {}), name).not.toThrow();
		}
		expect(() => resolveOptions({ notInSchema: 1 }, {})).toThrow("unknown option");
		expect(new Set(names)).toEqual(new Set(["$schema", "port", "ip", "persistTo", "buckets", "workers", "origin"]));
	});

	it("holds R2's bucket name rule as resolveOptions does", () => {
		const pattern = new RegExp(SCHEMA.properties.buckets.items.pattern);
		for (const name of ["abc", "a-1", "a".repeat(63)]) expect(pattern.test(name), name).toBe(true);
		for (const name of ["ab", "Upper", "-dash", "a".repeat(64)]) expect(pattern.test(name), name).toBe(false);
	});
});
