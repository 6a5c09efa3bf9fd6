/**
 * The record types made of components (`src/zone/record-data/`), called directly: each type's
 * data as the API shows its content and reads it back, as a zone file writes and reads it, and
 * what each refuses.
 */
import { describe, expect, it } from "vitest";
import { type RecordType, recordProblem, storedContent } from "../../src/zone/dns-record-checks";
import type { RecordData } from "../../src/zone/record-data/components";
import { dataType, hasData } from "../../src/zone/record-data/types";
import { parseZoneFile } from "../../src/zone/zone-file/parse";
import { importedRecord } from "../../src/zone/zone-file/records";
import { writeZoneFile } from "../../src/zone/zone-file/write";

const ZONE = "example.com";
const SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
const KEY = "mdsswUyr3DPW132mOi8V9xESWE8jTo0dxCjjnopKl+GqJxpVXckHAeF+KkxLbxILfDLUT0rAK9iUzy1L53eKGQ==";

/** [type, name, data as sent, content as the API shows it, the data it reads back as]. */
const TYPES: [RecordType, string, RecordData, string, RecordData?][] = [
	[
		"HTTPS",
		"example.com",
		{ priority: 1, target: ".", value: 'alpn="h3,h2" ipv4hint="192.0.2.1"' },
		// As a real answer shows it (caddyserver/caddy#7301).
		'1 . alpn="h3,h2" ipv4hint="192.0.2.1"',
	],
	["SVCB", "_8443._foo.example.com", { priority: 2, target: "foo.", value: 'alpn="h3,h2"' }, '2 foo. alpn="h3,h2"'],
	[
		"HTTPS",
		"alias.example.com",
		{ priority: 0, target: "cdn.example.net" },
		"0 cdn.example.net",
		{ priority: 0, target: "cdn.example.net", value: "" },
	],
	[
		"URI",
		"_ftp._tcp.example.com",
		{ priority: 10, weight: 1, target: "ftp://ftp1.example.com/public" },
		'1 "ftp://ftp1.example.com/public"',
	],
	[
		"NAPTR",
		"example.com",
		{
			order: 100,
			preference: 10,
			flags: "U",
			service: "E2U+sip",
			regex: "!^.*$!sip:info@example.com!",
			replacement: ".",
		},
		'100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .',
	],
	[
		"LOC",
		"hq.example.com",
		{
			lat_degrees: 37,
			lat_minutes: 46,
			lat_seconds: 46,
			lat_direction: "N",
			long_degrees: 122,
			long_minutes: 23,
			long_seconds: 35,
			long_direction: "W",
			altitude: 0,
			size: 100,
			precision_horz: 0,
			precision_vert: 0,
		},
		// The content terraform-provider-cloudflare's LOC acceptance test reads back from the API.
		"37 46 46.000 N 122 23 35.000 W 0.00 100.00 0.00 0.00",
	],
	[
		"SSHFP",
		"host.example.com",
		{ algorithm: 4, type: 2, fingerprint: SHA256 },
		`4 2 ${SHA256.toUpperCase()}`,
		{ algorithm: 4, type: 2, fingerprint: SHA256.toUpperCase() },
	],
	[
		"TLSA",
		"_443._tcp.example.com",
		{ usage: 3, selector: 1, matching_type: 1, certificate: SHA256 },
		`3 1 1 ${SHA256.toUpperCase()}`,
		{ usage: 3, selector: 1, matching_type: 1, certificate: SHA256.toUpperCase() },
	],
	[
		"SMIMEA",
		"c93f1e400f26708f98cb19d936620da35eec8f72e57f9eec01c1afd6._smimecert.example.com",
		{ usage: 3, selector: 0, matching_type: 1, certificate: SHA256.toUpperCase() },
		`3 0 1 ${SHA256.toUpperCase()}`,
	],
	[
		"DS",
		"child.example.com",
		{ key_tag: 2371, algorithm: 13, digest_type: 2, digest: SHA256 },
		`2371 13 2 ${SHA256.toUpperCase()}`,
		{ key_tag: 2371, algorithm: 13, digest_type: 2, digest: SHA256.toUpperCase() },
	],
	["DNSKEY", "example.com", { flags: 257, protocol: 3, algorithm: 13, public_key: KEY }, `257 3 13 ${KEY}`],
	["CERT", "example.com", { type: 1, key_tag: 0, algorithm: 0, certificate: KEY }, `1 0 0 ${KEY}`],
];

describe("a record type made of components", () => {
	it.each(TYPES)("holds %s %s as its content and reads it back", (type, name, data, content, back = data) => {
		expect(hasData(type)).toBe(true);
		const filled = { ...dataType(type as Parameters<typeof dataType>[0]).defaults, ...data };
		expect(recordProblem({ name, type, content: "", data: filled, proxied: false })).toBeUndefined();
		expect(storedContent(type, "", filled)).toBe(content);
		const codec = dataType(type as Parameters<typeof dataType>[0]);
		expect(codec.parse(content, data.priority)).toStrictEqual(back);
	});

	it.each(TYPES)("writes %s %s in a zone file and reads it back", (type, name, data, content, back = data) => {
		const file = writeZoneFile(
			{ name: ZONE, nameServers: ["ns1.example.net"] },
			[
				{
					name,
					type,
					content,
					ttl: 3600,
					priority: data.priority,
					proxiable: false,
					proxied: false,
					tags: [],
					settings: {},
				},
			],
			0,
		);
		const parsed = parseZoneFile(file, ZONE, 10);
		if (!parsed.ok) throw new Error(parsed.message);
		const [record] = parsed.records.filter((r) => r.type === type);
		// A name in the data comes back without its final dot, as the zone file's names do.
		const target = back.target === undefined ? {} : { target: back.target.replace(/(.)\.$/, "$1") };
		expect(record === undefined ? undefined : importedRecord(record, ZONE, false)).toMatchObject({
			kind: "record",
			body: { name, type, data: { ...back, ...target } },
		});
	});

	it("reads a zone file's relative names and a SvcParam's quoted value, as BIND writes them", () => {
		const parsed = parseZoneFile(
			[
				"$ORIGIN example.com.",
				'@ 300 IN HTTPS 1 svc alpn="h3,h2" port=8443',
				'@ IN NAPTR 100 10 "S" "SIP+D2T" "" _sip._tcp',
				'_ftp._tcp IN URI 10 1 "ftp://ftp.example.com/"',
				"hq IN LOC 52 22 23 N 4 53 32 E -2m",
				`host IN SSHFP 4 2 ${SHA256.slice(0, 32)} ${SHA256.slice(32)}`,
			].join("\n"),
			ZONE,
			10,
		);
		if (!parsed.ok) throw new Error(parsed.message);
		const data = parsed.records.map((r) => {
			const imported = importedRecord(r, ZONE, false);
			return imported.kind === "record" ? imported.body.data : imported;
		});
		expect(data).toEqual([
			{ priority: 1, target: "svc.example.com", value: 'alpn="h3,h2" port=8443' },
			{ order: 100, preference: 10, flags: "S", service: "SIP+D2T", regex: "", replacement: "_sip._tcp.example.com" },
			{ priority: 10, weight: 1, target: "ftp://ftp.example.com/" },
			// RFC 1876 §3's defaults for what the line leaves out.
			{
				lat_degrees: 52,
				lat_minutes: 22,
				lat_seconds: 23,
				lat_direction: "N",
				long_degrees: 4,
				long_minutes: 53,
				long_seconds: 32,
				long_direction: "E",
				altitude: -2,
				size: 1,
				precision_horz: 10000,
				precision_vert: 10,
			},
			{ algorithm: 4, type: 2, fingerprint: SHA256 },
		]);
	});

	it.each([
		["HTTPS", { priority: 70000, target: ".", value: "" }, 1004, "data/priority"],
		["HTTPS", { priority: 1, target: "bad name", value: "" }, 1004, "data/target"],
		["HTTPS", { priority: 1, target: ".", value: "alpn=h2 alpn=h3" }, 1004, "data/value"],
		["SVCB", { priority: 1, target: ".", value: 'alpn="h2' }, 1004, "data/value"],
		["URI", { priority: 1, weight: 1, target: "no scheme" }, 1004, "data/target"],
		["URI", { weight: 1, target: "https://example.com/" }, 9100, "priority"],
		["NAPTR", { order: 1, preference: 1, flags: "U!", service: "", regex: "", replacement: "." }, 1004, "data/flags"],
		[
			"NAPTR",
			{ order: 1, preference: 1, flags: "U", service: "", regex: "", replacement: "*" },
			1004,
			"data/replacement",
		],
		["LOC", { ...loc(), lat_degrees: 91 }, 1004, "data/lat_degrees"],
		["LOC", { ...loc(), lat_seconds: 1.2345 }, 1004, "data/lat_seconds"],
		["LOC", { ...loc(), long_direction: "N" }, 1004, "data/long_direction"],
		["SSHFP", { algorithm: 4, type: 2, fingerprint: "xyz" }, 1004, "data/fingerprint"],
		["SSHFP", { algorithm: 4, type: 2, fingerprint: "abc" }, 1004, "data/fingerprint"],
		["TLSA", { usage: 256, selector: 1, matching_type: 1, certificate: "ab" }, 1004, "data/usage"],
		["DS", { algorithm: 13, digest_type: 2, digest: "ab" }, 9101, "data/key_tag"],
		["DNSKEY", { flags: 257, protocol: 3, algorithm: 13, public_key: "not base64!" }, 1004, "data/public_key"],
		["CERT", { type: 70000, key_tag: 0, algorithm: 0, certificate: KEY }, 1004, "data/type"],
		["SSHFP", { algorithm: 4, type: 2, fingerprint: SHA256, proxied: true }, 9004, "proxied"],
	] as const)("refuses a %s record of %j with %i at %s", (type, data, code, field) => {
		const { proxied = false, ...components } = data as RecordData & { proxied?: boolean };
		const problem = recordProblem({ name: "_a._tcp.example.com", type, content: "", data: components, proxied });
		expect(problem).toMatchObject({ code, field });
	});

	it("holds an OPENPGPKEY record as its Base64 content, blanks removed", () => {
		const check = (content: string) =>
			recordProblem({ name: "x._openpgpkey.example.com", type: "OPENPGPKEY", content, proxied: false });
		expect(check(`${KEY.slice(0, 20)} ${KEY.slice(20)}`)).toBeUndefined();
		expect(storedContent("OPENPGPKEY", `${KEY.slice(0, 20)} ${KEY.slice(20)}`)).toBe(KEY);
		expect(check("*** not a key ***")).toMatchObject({ code: 1004, field: "content" });
	});
});

/** A LOC record's data that passes. */
function loc(): RecordData {
	return {
		lat_degrees: 1,
		lat_minutes: 0,
		lat_seconds: 0,
		lat_direction: "N",
		long_degrees: 1,
		long_minutes: 0,
		long_seconds: 0,
		long_direction: "E",
		altitude: 0,
		size: 1,
		precision_horz: 10000,
		precision_vert: 10,
	};
}
