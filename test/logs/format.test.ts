/** output_options applied to entries: every option changes the output as documented. */
import { describe, expect, it } from "vitest";
import { absentValue } from "../../src/logs/absent";
import { objectKey, splitRecords } from "../../src/logs/delivered-objects";
import type { LogEntry } from "../../src/logs/entry";
import { formatRecord, formatTimestamp, formatter, frameBatch, parseTemplate, sampled } from "../../src/logs/format";
import { type OutputOptions, withOutputDefaults } from "../../src/logs/output-options";

const AT = Date.UTC(2024, 0, 2, 3, 4, 5, 678);
const ENTRY: LogEntry = {
	ClientIP: "89.163.242.206",
	EdgeStartTimestamp: AT,
	RayID: "3a6050bcbe121a87",
	EdgeResponseStatus: 200,
	RequestHeaders: { "user-agent": 'say "hi"' },
	SecurityActions: ["log"],
};
const FIELDS = ["ClientIP", "EdgeStartTimestamp", "RayID"];

function batch(options: Partial<OutputOptions>, entries: LogEntry[] = [ENTRY, ENTRY]): string {
	const full = withOutputDefaults({ field_names: FIELDS, ...options });
	const f = formatter(full);
	return frameBatch(
		entries.map((e) => formatRecord(e, f)),
		full,
	);
}

describe("output_type", () => {
	it("ndjson: one JSON object per line, fields in field_names order (the docs' example)", () => {
		expect(batch({}, [ENTRY])).toBe(
			`{"ClientIP":"89.163.242.206","EdgeStartTimestamp":${AT}000000,"RayID":"3a6050bcbe121a87"}\n`,
		);
		expect(batch({ field_names: ["RayID", "ClientIP"] }, [ENTRY])).toBe(
			'{"RayID":"3a6050bcbe121a87","ClientIP":"89.163.242.206"}\n',
		);
	});

	it("csv: values only, strings quoted with inner quotes doubled, objects as quoted JSON", () => {
		expect(batch({ output_type: "csv" }, [ENTRY])).toBe(`"89.163.242.206",${AT}000000,"3a6050bcbe121a87"\n`);
		expect(batch({ output_type: "csv", field_names: ["RequestHeaders", "EdgeResponseStatus"] }, [ENTRY])).toBe(
			'"{""user-agent"":""say \\""hi\\""""}",200\n',
		);
	});
});

describe("timestamp_format", () => {
	it.each([
		["unixnano", `${AT}000000`],
		["unix", String(Math.floor(AT / 1000))],
		["rfc3339", '"2024-01-02T03:04:05Z"'],
		["rfc3339ms", '"2024-01-02T03:04:05.678Z"'],
		["rfc3339ns", '"2024-01-02T03:04:05.678000000Z"'],
	] as const)("%s", (format, expected) => {
		expect(batch({ timestamp_format: format, field_names: ["EdgeStartTimestamp"] }, [ENTRY])).toBe(
			`{"EdgeStartTimestamp":${expected}}\n`,
		);
		expect(formatTimestamp(AT, format)).toBe(expected.replaceAll('"', ""));
	});
});

describe("framing", () => {
	it("record_prefix, record_suffix, record_delimiter, field_delimiter, batch_prefix, batch_suffix (the docs' nested JSON)", () => {
		expect(
			batch({
				batch_prefix: '{"events":[',
				batch_suffix: "\n]}\n",
				record_prefix: '\n  {"info":{',
				record_suffix: "}}",
				record_delimiter: ",",
			}),
		).toBe(
			`{"events":[\n  {"info":{"ClientIP":"89.163.242.206","EdgeStartTimestamp":${AT}000000,"RayID":"3a6050bcbe121a87"}},\n  {"info":{"ClientIP":"89.163.242.206","EdgeStartTimestamp":${AT}000000,"RayID":"3a6050bcbe121a87"}}\n]}\n`,
		);
	});

	it("tsv with a header line (the docs' example)", () => {
		expect(
			batch({ output_type: "csv", field_delimiter: "\t", batch_prefix: "ClientIP\tEdgeStartTimestamp\tRayID\n" }, [
				ENTRY,
			]),
		).toBe(`ClientIP\tEdgeStartTimestamp\tRayID\n"89.163.242.206"\t${AT}000000\t"3a6050bcbe121a87"\n`);
	});
});

describe("record_template", () => {
	it("renames fields (the docs' example), renders constants, drops comments, null for fields not in field_names", () => {
		const template =
			'"client-ip":{{.ClientIP}},"timestamp":{{ .EdgeStartTimestamp }},"ray-id":{{.RayID}}{{/* c */}},"k":{{ "v" }},"s":{{.EdgeResponseStatus}}';
		expect(batch({ record_template: template }, [ENTRY])).toBe(
			`{"client-ip":"89.163.242.206","timestamp":${AT}000000,"ray-id":"3a6050bcbe121a87","k":v,"s":null}\n`,
		);
	});

	it("takes raw constants and Go's whitespace trimming", () => {
		expect(batch({ record_template: "{{`{{x}}`}} a  {{- .RayID -}}  b" }, [ENTRY])).toBe(
			'{{{x}} a"3a6050bcbe121a87"b}\n',
		);
	});

	it("refuses anything beyond fields, constants and comments", () => {
		expect(parseTemplate("{{if .RayID}}x{{end}}").ok).toBe(false);
		expect(parseTemplate("{{.RayID").ok).toBe(false);
		expect(parseTemplate('{{ "a" }} {{ .A }} {{/* x */}}').ok).toBe(true);
	});
});

describe("CVE-2021-44228", () => {
	it("replaces every ${ of the output with x{", () => {
		const entry = { ...ENTRY, ClientIP: ["$", "{jndi:ldap://x}"].join("") };
		expect(batch({ "CVE-2021-44228": true, batch_prefix: "$" + "{" }, [entry])).toBe(
			`x{{"ClientIP":"x{jndi:ldap://x}","EdgeStartTimestamp":${AT}000000,"RayID":"3a6050bcbe121a87"}\n`,
		);
		expect(batch({}, [entry])).toContain("${jndi");
	});
});

describe("sample_rate", () => {
	it("keeps about the rate, the same records every time", () => {
		const rays = Array.from({ length: 2000 }, (_, i) => i.toString(16).padStart(16, "0"));
		const kept = rays.filter((ray) => sampled(ray, 0.1));
		expect(kept.length).toBeGreaterThan(120);
		expect(kept.length).toBeLessThan(280);
		expect(rays.filter((ray) => sampled(ray, 0.1))).toStrictEqual(kept);
		expect(rays.every((ray) => sampled(ray, 1))).toBe(true);
	});
});

describe("absent values", () => {
	it("follow the field's documented type or its named no-data value", () => {
		expect(batch({ field_names: ["ClientCountry", "BotScore", "CacheReserveUsed", "BotTags", "Cookies"] }, [{}])).toBe(
			'{"ClientCountry":"","BotScore":0,"CacheReserveUsed":false,"BotTags":[],"Cookies":{}}\n',
		);
		expect(absentValue("EdgePathingOp")).toBe("unknown");
		expect(absentValue("ClientSSLProtocol")).toBe("none");
	});
});

describe("batches", () => {
	it("splits records by max_upload_bytes, filtered entries joining the chunk they fall in", () => {
		const chunks = splitRecords(["aaaa", undefined, "bbbb", "cccc", undefined], 8);
		expect(chunks.map((c) => [c.records, c.end])).toStrictEqual([
			[["aaaa", "bbbb"], 3],
			[["cccc"], 5],
		]);
		expect(splitRecords(["a", "b"], 0)).toHaveLength(1);
		expect(splitRecords([undefined], 8)).toStrictEqual([{ records: [], end: 1, bytes: 0 }]);
	});

	it("names objects <dir>/<start>_<end>_<random>.log.gz", () => {
		expect(objectKey("logs/20240102", AT, AT + 30_000, "abcd1234")).toBe(
			"logs/20240102/20240102T030405Z_20240102T030435Z_abcd1234.log.gz",
		);
		expect(objectKey("", AT, AT, "ab")).toBe("20240102T030405Z_20240102T030405Z_ab.log.gz");
	});
});
