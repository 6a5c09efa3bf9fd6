/** Zone files, read and written (`src/zone/zone-file/`), called directly. */
import { describe, expect, it } from "vitest";
import { readAttributes, writeAttributes } from "../../src/zone/zone-file/attributes";
import { type ParsedRecord, parseZoneFile, ttlOf } from "../../src/zone/zone-file/parse";
import { importedRecord } from "../../src/zone/zone-file/records";
import { type ExportedRecord, writeZoneFile } from "../../src/zone/zone-file/write";

const ZONE = "example.com";

/** The records of `text`, each as `name ttl type data...`; a problem as `line N: message`. */
function read(text: string, max = 100): string[] | string {
	const parsed = parseZoneFile(text, ZONE, max);
	if (!parsed.ok) return `line ${parsed.line}: ${parsed.message}`;
	return parsed.records.map((r) => [r.name, r.ttl, r.type, ...r.rdata.map((t) => t.text)].join(" "));
}

function records(text: string): ParsedRecord[] {
	const parsed = parseZoneFile(text, ZONE, 100);
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.records;
}

describe("reading a zone file", () => {
	it("reads owners, relative names, @, a left-out owner, TTLs and classes in either order", () => {
		const text = [
			"$TTL 1h",
			"@ IN A 192.0.2.1",
			"www 300 IN CNAME @",
			"  IN 600 TXT one",
			"mail.example.com. MX 10 mx",
			"other.example.net. A 192.0.2.9",
		].join("\n");
		expect(read(text)).toEqual([
			"example.com 3600 A 192.0.2.1",
			"www.example.com 300 CNAME @",
			"www.example.com 600 TXT one",
			"mail.example.com 3600 MX 10 mx",
			"other.example.net 3600 A 192.0.2.9",
		]);
	});

	it("without $TTL, a record takes the last TTL stated, and 1 (automatic) before any", () => {
		expect(read("a A 192.0.2.1\nb 120 A 192.0.2.2\nc A 192.0.2.3")).toEqual([
			"a.example.com 1 A 192.0.2.1",
			"b.example.com 120 A 192.0.2.2",
			"c.example.com 120 A 192.0.2.3",
		]);
	});

	it.each([
		["3600", 3600],
		["1h30m", 5400],
		["1W", 604800],
		["2d", 172800],
		["2147483648", undefined],
		["1y", undefined],
	])("reads the TTL %s as %s", (text, seconds) => {
		expect(ttlOf(text)).toBe(seconds);
	});

	it("joins parenthesized lines, skips comments inside them, keeps the comment of the last line", () => {
		const text = [
			"@ IN SOA ns1.example.com. hostmaster.example.com. ( ; the SOA",
			"    2024010101 ; serial",
			"    7200 900 1209600 86400 ) ; end",
			"www A 192.0.2.1 ; the web cf_tags=team:web",
		].join("\n");
		const parsed = records(text);
		expect(parsed.map((r) => r.rdata.length)).toEqual([7, 1]);
		expect(parsed.map((r) => r.comment)).toEqual(["end", "the web cf_tags=team:web"]);
		expect(parsed.map((r) => r.line)).toEqual([1, 4]);
	});

	it("reads quoted strings with blanks, semicolons, escapes and \\DDD octets as UTF-8", () => {
		const [txt, name] = records(
			'a TXT "v=DKIM1; k=rsa" "p=\\"x\\"" plain\nb TXT "S\\195\\163o Paulo" ; a comment; with a semicolon',
		);
		expect(txt?.rdata.map((t) => t.text)).toEqual(["v=DKIM1; k=rsa", 'p="x"', "plain"]);
		expect(name?.rdata.map((t) => t.text)).toEqual(["São Paulo"]);
		expect(name?.comment).toBe("a comment; with a semicolon");
	});

	it("follows $ORIGIN, absolute and relative to the origin before it", () => {
		const parsed = records("$ORIGIN sub.example.com.\nwww A 192.0.2.1\n$ORIGIN deeper\n@ CNAME www");
		expect(parsed.map((r) => [r.name, r.origin])).toEqual([
			["www.sub.example.com", "sub.example.com"],
			["deeper.sub.example.com", "deeper.sub.example.com"],
		]);
	});

	it("expands $GENERATE with its offset, width and base modifiers and \\$", () => {
		expect(read("$GENERATE 1-3 host-$ A 192.0.2.$")).toEqual([
			"host-1.example.com 1 A 192.0.2.1",
			"host-2.example.com 1 A 192.0.2.2",
			"host-3.example.com 1 A 192.0.2.3",
		]);
		expect(read(`$GENERATE 8-12/2 h\${0,3,x} 300 IN TXT \${10}\\$`)).toEqual([
			"h008.example.com 300 TXT 18$",
			"h00a.example.com 300 TXT 20$",
			"h00c.example.com 300 TXT 22$",
		]);
	});

	it.each([
		["$INCLUDE other.zone", "line 1: $INCLUDE directive not allowed"],
		["$TTL soon", "line 1: $TTL takes one TTL, such as 3600 or 1h"],
		["$SPLIT x", "line 1: $SPLIT is not a directive: only $ORIGIN, $TTL and $GENERATE"],
		['a TXT "open', 'line 1: a quoted string is not closed with "'],
		["a A (\n192.0.2.1", "line 1: a ( is not closed with )"],
		["a A 192.0.2.1 )", "line 1: a ) closes no ("],
		["\n\na CH A 192.0.2.1", "line 3: class CH is not read: only IN"],
		["a 300", "line 1: a record needs a type"],
		['a "300" A 1', 'line 1: "300" is not a TTL, a class or a record type'],
		["a TXT x\\", "line 1: a \\ escape must be followed by a character or three digits"],
		["a TXT \\256", "line 1: a \\ escape must be followed by a character or three digits"],
		["$GENERATE 5-1 h$ A 192.0.2.$", "line 1: $GENERATE's range must go up, by a step of at least 1"],
		[`$GENERATE 1-2 h\${x} A 192.0.2.1`, `line 1: $GENERATE cannot read "h\${x}"`],
	])("refuses %j: %s", (text, problem) => {
		expect(read(text)).toBe(problem);
	});

	it("refuses more records than the zone may hold, before making them", () => {
		expect(read("a A 192.0.2.1\nb A 192.0.2.2", 1)).toBe("line 2: a zone file may hold at most 1 records");
		expect(read("$GENERATE 1-1000000000 h$ A 192.0.2.1", 3500)).toBe(
			"line 1: a zone file may hold at most 3500 records",
		);
	});
});

describe("a record's comment and tags", () => {
	// The examples of developers.cloudflare.com/dns/manage-dns-records/how-to/import-and-export/.
	it.each([
		["cf_tags=awesome", undefined, ["awesome"]],
		[
			'cf_tags=tag1,tag2:value2,tag3:"value,with,commas",tag4:"value with \\"escaped\\" quotation marks"',
			undefined,
			["tag1", "tag2:value2", "tag3:value,with,commas", 'tag4:value with "escaped" quotation marks'],
		],
		["just a comment without tags", "just a comment without tags", []],
		["this comment contains cf_tags= as text cf_tags=", "this comment contains cf_tags= as text", []],
		["simple example cf_tags=important,ticket:THIS-12345", "simple example", ["important", "ticket:THIS-12345"]],
		['c cf_tags=empty:"",also:,bare', "c", ["empty:", "also:", "bare"]],
	])("reads %j", (comment, text, tags) => {
		expect(readAttributes(comment)).toEqual({ comment: text, tags, proxied: undefined, flattenCname: false });
	});

	it("reads the reserved cf-proxied and cf-flatten-cname tags apart from the others", () => {
		expect(readAttributes("cf_tags=test:1,cf-flatten-cname,cf-proxied:true")).toEqual({
			comment: undefined,
			tags: ["test:1"],
			proxied: true,
			flattenCname: true,
		});
		expect(readAttributes("cf_tags=cf-proxied:maybe")).toBe('cf-proxied is "true" or "false"');
		expect(readAttributes('cf_tags=a:"open')).toBe("the quoted value of tag a is not closed");
		expect(readAttributes("cf_tags=a b")).toBe('tags are separated by commas, at " b"');
	});

	it("writes what it reads back, a value with = or cf_tags= quoted so it cannot end the comment", () => {
		const attributes = {
			comment: "mentions cf_tags= in passing",
			tags: ["team:web", 'odd:"quoted", a=b cf_tags=x', "bare"],
			proxied: false,
			flattenCname: true,
		};
		const written = writeAttributes(attributes);
		expect(written.match(/cf_tags=/g)).toHaveLength(2);
		expect(readAttributes(written)).toEqual(attributes);
		expect(writeAttributes({ comment: "has cf_tags= only", tags: [], proxied: undefined, flattenCname: false })).toBe(
			"has cf_tags= only cf_tags=",
		);
		expect(writeAttributes({ comment: undefined, tags: [], proxied: undefined, flattenCname: false })).toBe("");
	});
});

describe("a record of the file, as the API would be sent it", () => {
	const one = (line: string, proxied = false) => {
		const [record] = records(line);
		if (record === undefined) throw new Error("no record");
		return importedRecord(record, ZONE, proxied);
	};

	it("reads each stored type's data, names made absolute, the proxied default for proxiable types only", () => {
		expect(one("www 300 CNAME app ; cf_tags=cf-proxied:false", true)).toEqual({
			kind: "record",
			body: {
				name: "www.example.com",
				type: "CNAME",
				content: "app.example.com",
				ttl: 300,
				proxied: false,
				tags: [],
				settings: {},
			},
		});
		expect(one("@ MX 10 mail.example.net.", true)).toMatchObject({
			body: { type: "MX", priority: 10, content: "mail.example.net", proxied: false },
		});
		expect(one('@ CAA 0 ISSUE "letsencrypt.org"')).toMatchObject({
			body: { type: "CAA", data: { flags: 0, tag: "issue", value: "letsencrypt.org" } },
		});
		expect(one('t TXT "v=spf1 " "-all" ; note')).toMatchObject({
			body: { type: "TXT", content: "v=spf1 -all", comment: "note", proxied: false },
		});
		expect(one("a A 192.0.2.1 ; cf_tags=cf-flatten-cname", true)).toMatchObject({
			body: { proxied: true, settings: { flatten_cname: true } },
		});
	});

	it("skips the zone's SOA and apex NS; names a type edgezone does not store, or a name outside the zone", () => {
		expect(one("@ 3600 SOA ns. host. 1 2 3 4 5")).toEqual({ kind: "skipped" });
		expect(one("@ NS ns1.example.net.")).toEqual({ kind: "skipped" });
		expect(one("sub NS ns1.example.net.")).toMatchObject({ body: { type: "NS", content: "ns1.example.net" } });
		expect(one("_sip._tcp SRV 10 5 5060 sip")).toMatchObject({
			body: { type: "SRV", data: { priority: 10, weight: 5, port: 5060, target: "sip.example.com" } },
		});
		expect(one("_x._tcp SRV 0 0 0 .")).toMatchObject({ body: { data: { target: "." } } });
		expect(one('host HINFO "PC" "Linux"')).toEqual({
			kind: "refused",
			message: "HINFO is not a record type the DNS records API takes",
		});
		expect(one("x.example.net. A 192.0.2.1")).toEqual({
			kind: "refused",
			message: "not inside the zone example.com",
		});
		expect(one("m MX mail")).toEqual({
			kind: "refused",
			message: 'An MX record\'s data is a preference and a name, not "mail"',
		});
	});
});

describe("writing a zone file", () => {
	const stored = (r: Partial<ExportedRecord> & Pick<ExportedRecord, "name" | "type" | "content">): ExportedRecord => ({
		ttl: 1,
		proxiable: ["A", "AAAA", "CNAME"].includes(r.type),
		proxied: false,
		tags: [],
		settings: {},
		...r,
	});
	const zone = { name: ZONE, nameServers: ["ns1.edgezone.localhost", "ns2.edgezone.localhost"] };
	const now = Date.UTC(2026, 11, 2, 3, 4, 5);

	it("writes Cloudflare's layout: the header, SOA, NS, a section per type, cf-proxied on proxiable records", () => {
		const text = writeZoneFile(
			zone,
			[
				stored({ name: "www.example.com", type: "CNAME", content: "example.com", proxied: true }),
				stored({ name: "example.com", type: "A", content: "192.0.2.1", proxied: true, comment: "apex" }),
				stored({ name: "example.com", type: "MX", content: "mail.example.net", priority: 10, ttl: 3600 }),
			],
			now,
		);
		expect(text.split("\n").slice(0, 3)).toEqual([
			";;",
			";; Domain:     example.com.",
			";; Exported:   2026-12-02 03:04:05",
		]);
		expect(text).toContain(
			";; SOA Record\nexample.com.\t3600\tIN\tSOA\tns1.edgezone.localhost. dns.example.com. 1796180645 10000 2400 604800 3600\n",
		);
		expect(text).toContain(
			";; NS Records\nexample.com.\t86400\tIN\tNS\tns1.edgezone.localhost.\nexample.com.\t86400\tIN\tNS\tns2.edgezone.localhost.\n",
		);
		expect(text).toContain(
			[
				";; A Records",
				"example.com.\t1\tIN\tA\t192.0.2.1 ; apex cf_tags=cf-proxied:true",
				"",
				";; CNAME Records",
				"www.example.com.\t1\tIN\tCNAME\texample.com. ; cf_tags=cf-proxied:true",
				"",
				";; MX Records",
				"example.com.\t3600\tIN\tMX\t10 mail.example.net.",
				"",
			].join("\n"),
		);
	});

	it("splits a long TXT value into strings of 255 octets, never inside a character, and reads it back whole", () => {
		const value = `${"a".repeat(254)}é"\\${"b".repeat(300)}`;
		const text = writeZoneFile(zone, [stored({ name: "t.example.com", type: "TXT", content: value })], now);
		const line = text.split("\n").find((l) => l.startsWith("t.example.com."));
		expect(line).toContain(`"${"a".repeat(254)}" "\\195\\169\\"\\\\bbb`);
		const [record] = records(
			text
				.split("\n")
				.filter((l) => l.startsWith("t."))
				.join("\n"),
		);
		expect(record === undefined ? undefined : importedRecord(record, ZONE, false)).toMatchObject({
			body: { content: value },
		});
	});

	it("reads back every record it writes, attributes included", () => {
		const written = [
			stored({ name: "example.com", type: "A", content: "192.0.2.1", proxied: true, tags: ["env:prod"] }),
			stored({ name: "v6.example.com", type: "AAAA", content: "2001:db8::1", ttl: 300, comment: "six" }),
			stored({ name: "example.com", type: "CAA", content: '0 issue "letsencrypt.org"' }),
			stored({
				name: "alias.example.com",
				type: "CNAME",
				content: "target.example.net",
				settings: { flatten_cname: true },
			}),
			stored({ name: "example.com", type: "MX", content: "mx.example.net", priority: 5, ttl: 3600 }),
			stored({ name: "example.com", type: "TXT", content: 'v=spf1 "quoted" ~all', comment: "spf cf_tags= text" }),
			stored({ name: "dev.example.com", type: "NS", content: "ns.example.net", ttl: 86400 }),
			stored({ name: "1.example.com", type: "PTR", content: "host.example.net" }),
			stored({ name: "_sip._tcp.example.com", type: "SRV", content: "5 5060 sip.example.net", priority: 10 }),
			stored({ name: "_no._tcp.example.com", type: "SRV", content: "0 0 .", priority: 0 }),
		];
		const read = records(writeZoneFile(zone, written, now)).map((r) => importedRecord(r, ZONE, false));
		expect(read.filter((r) => r.kind === "skipped")).toHaveLength(3);
		const bodies = read.flatMap((r) => (r.kind === "record" ? [r.body] : []));
		expect(
			bodies.map((b) => [b.name, b.type, b.content ?? b.data, b.ttl, b.proxied, b.comment, b.tags, b.settings]),
		).toEqual([
			["example.com", "A", "192.0.2.1", 1, true, undefined, ["env:prod"], {}],
			["v6.example.com", "AAAA", "2001:db8::1", 300, false, "six", [], {}],
			["example.com", "CAA", { flags: 0, tag: "issue", value: "letsencrypt.org" }, 1, false, undefined, [], {}],
			["alias.example.com", "CNAME", "target.example.net", 1, false, undefined, [], { flatten_cname: true }],
			["example.com", "MX", "mx.example.net", 3600, false, undefined, [], {}],
			["dev.example.com", "NS", "ns.example.net", 86400, false, undefined, [], {}],
			["1.example.com", "PTR", "host.example.net", 1, false, undefined, [], {}],
			["_no._tcp.example.com", "SRV", { priority: 0, weight: 0, port: 0, target: "." }, 1, false, undefined, [], {}],
			[
				"_sip._tcp.example.com",
				"SRV",
				{ priority: 10, weight: 5, port: 5060, target: "sip.example.net" },
				1,
				false,
				undefined,
				[],
				{},
			],
			["example.com", "TXT", 'v=spf1 "quoted" ~all', 1, false, "spf cf_tags= text", [], {}],
		]);
	});
});
