/** The rules of one DNS record alone (`src/zone/dns-record-checks.ts`), called directly. */
import { describe, expect, it } from "vitest";
import {
	EVERY_RECORD,
	fullName,
	isIpv4,
	isIpv6,
	recordProblem,
	selectRecords,
	storedContent,
} from "../../src/zone/dns-record-checks";
import { CAA } from "../../src/zone/record-data/caa";

describe("DNS record checks", () => {
	it.each([
		["192.0.2.1", true],
		["255.255.255.255", true],
		["256.0.0.1", false],
		["01.2.3.4", false],
		["1.2.3", false],
		["1", false],
	])("reads %s as an IPv4 address: %s", (text, expected) => {
		expect(isIpv4(text)).toBe(expected);
	});

	it.each([
		["2001:db8::1", true],
		["::ffff:192.0.2.1", true],
		["::", true],
		["192.0.2.1", false],
		["2001:db8:::1", false],
		["[::1]", false],
		["::1]/x[", false],
	])("reads %s as an IPv6 address: %s", (text, expected) => {
		expect(isIpv6(text)).toBe(expected);
	});

	it.each([
		["@", "example.com"],
		["www", "www.example.com"],
		["WWW.Example.com.", "www.example.com"],
		["example.com", "example.com"],
		["a.example.org", "a.example.org.example.com"],
	])("makes %s the full name %s in example.com", (raw, full) => {
		expect(fullName(raw, "example.com")).toBe(full);
	});

	it("refuses a CNAME to its own name and a wildcard that is not the leftmost label", () => {
		expect(
			recordProblem({ name: "a.example.com", type: "CNAME", content: "A.example.com.", proxied: false }),
		).toMatchObject({
			field: "content",
		});
		expect(recordProblem({ name: "a.*.example.com", type: "A", content: "192.0.2.1", proxied: false })).toMatchObject({
			field: "name",
		});
		expect(recordProblem({ name: "*.example.com", type: "A", content: "192.0.2.1", proxied: true })).toBeUndefined();
	});

	it("orders records by the key, then by name, and filters case-insensitively", () => {
		const r = (id: string, name: string, type: string, ttl: number) => ({
			id,
			name,
			type,
			ttl,
			content: "x",
			tags: [],
		});
		const records = [
			r("1", "b.example.com", "A", 60),
			r("2", "a.example.com", "TXT", 60),
			r("3", "c.example.com", "A", 1),
		];
		const base = EVERY_RECORD;
		expect(selectRecords(records, { ...base, order: "type" }).map((x) => x.id)).toStrictEqual(["1", "3", "2"]);
		expect(selectRecords(records, { ...base, order: "ttl" }).map((x) => x.id)).toStrictEqual(["3", "2", "1"]);
		expect(
			selectRecords(records, { ...base, order: "name", name: { startswith: "A." }, type: "A", match: "any" }).map(
				(x) => x.id,
			),
		).toStrictEqual(["2", "1", "3"]);
	});

	it("filters by tags (case-insensitive, combined by tag_match, then with the rest by match) and by search", () => {
		const r = (id: string, tags: string[], comment?: string) => ({
			id,
			name: `${id}.example.com`,
			type: "A",
			ttl: 1,
			content: "192.0.2.1",
			tags,
			...(comment === undefined ? {} : { comment }),
		});
		const records = [
			r("a", ["Team:Web", "important"]),
			r("b", ["team:db"], "the database"),
			r("c", ["env:prod", "team:web-edge"]),
			r("d", []),
		];
		const base = { ...EVERY_RECORD, order: "name" } as const;
		const ids = (q: Partial<Parameters<typeof selectRecords>[1]>) =>
			selectRecords(records, { ...base, ...q }).map((x) => x.id);
		expect(ids({ tag: { present: "TEAM" } })).toEqual(["a", "b", "c"]);
		expect(ids({ tag: { absent: "team" } })).toEqual(["d"]);
		expect(ids({ tag: { exact: "team:WEB" } })).toEqual(["a"]);
		expect(ids({ tag: { exact: "important" } })).toEqual(["a"]);
		expect(ids({ tag: { contains: "team:we" } })).toEqual(["a", "c"]);
		expect(ids({ tag: { startswith: "team:web-", endswith: "env:od" } })).toEqual(["c"]);
		expect(ids({ tag: { exact: "team:db", present: "env" }, tagMatch: "any" })).toEqual(["b", "c"]);
		// The tags' condition is one filter among the others: with `match: any`, a name or the tags.
		expect(ids({ tag: { present: "env" }, name: { exact: "d.example.com" }, match: "any" })).toEqual(["c", "d"]);
		expect(ids({ search: "DATABASE" })).toEqual(["b"]);
		expect(ids({ search: "web", match: "any", name: { exact: "d.example.com" } })).toEqual([]);
		expect(ids({ search: "web" })).toEqual(["a", "c"]);
	});

	it("checks a CAA record's data: flags 0-255 (Cloudflare's 9053), a known tag, a printable value; never proxied", () => {
		const caa = (data: { flags: number; tag: string; value: string } | undefined, proxied = false) =>
			recordProblem({ name: "example.com", type: "CAA", content: "", data, proxied });
		expect(caa({ flags: 0, tag: "issue", value: "letsencrypt.org" })).toBeUndefined();
		expect(caa({ flags: 128, tag: "iodef", value: "mailto:ca@example.com" })).toBeUndefined();
		expect(caa(undefined)).toMatchObject({ code: 9101, field: "data/flags", missing: ["flags", "tag", "value"] });
		expect(caa({ flags: 256, tag: "issue", value: "x" })).toMatchObject({
			code: 9053,
			message: "Invalid CAA flag. Must be an integer",
			field: "data/flags",
		});
		expect(caa({ flags: 1.5, tag: "issue", value: "x" })).toMatchObject({ code: 9053 });
		expect(caa({ flags: 0, tag: "issuemail", value: "x" })).toMatchObject({ code: 1004, field: "data/tag" });
		expect(caa({ flags: 0, tag: "issue", value: "" })).toMatchObject({ code: 1004, field: "data/value" });
		expect(caa({ flags: 0, tag: "issue", value: "caf\u00e9.example" })).toMatchObject({ field: "data/value" });
		expect(caa({ flags: 0, tag: "issue", value: "pki.goog" }, true)).toMatchObject({ code: 9004, field: "proxied" });
	});

	it("derives a CAA record's content as Cloudflare shows it, and reads it back", () => {
		const data = { flags: 0, tag: "issue", value: "letsencrypt.org; validationmethods=dns-01" };
		const content = storedContent("CAA", "", data);
		expect(content).toBe('0 issue "letsencrypt.org; validationmethods=dns-01"');
		expect(CAA.parse(content, undefined)).toStrictEqual(data);
		const quoted = { flags: 128, tag: "iodef", value: 'a"b\\c' };
		expect(storedContent("CAA", "", quoted)).toBe('128 iodef "a\\"b\\\\c"');
		expect(CAA.parse(storedContent("CAA", "", quoted), undefined)).toStrictEqual(quoted);
		expect(CAA.parse("issue letsencrypt.org", undefined)).toBeUndefined();
	});
});
