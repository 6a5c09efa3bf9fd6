/** Job filters: every operator, nesting, types, limits. */
import { describe, expect, it } from "vitest";
import type { LogEntry } from "../../src/logs/entry";
import { type FilterNode, parseFilter, passes } from "../../src/logs/filter";

const ENTRY: LogEntry = {
	ClientRequestPath: "/static/app.js",
	ClientRequestHost: "example.com",
	ClientCountry: "us",
	EdgeResponseStatus: 404,
	SecurityActions: ["log", "block"],
	EdgeStartTimestamp: 1_000,
};

function where(filter: unknown): FilterNode | undefined {
	const parsed = parseFilter(JSON.stringify(filter));
	if (!parsed.ok) throw new Error(parsed.message);
	return parsed.where;
}

const cond = (key: string, operator: string, value: unknown) => ({ where: { key, operator, value } });

describe("filter operators", () => {
	it.each([
		["ClientRequestHost", "eq", "example.com", true],
		["ClientRequestHost", "eq", "other.com", false],
		["ClientCountry", "!eq", "ca", true],
		["EdgeResponseStatus", "eq", "404", true],
		["EdgeResponseStatus", "lt", "500", true],
		["EdgeResponseStatus", "leq", 404, true],
		["EdgeResponseStatus", "gt", 404, false],
		["EdgeResponseStatus", "geq", "404", true],
		["ClientRequestPath", "startsWith", "/static", true],
		["ClientRequestPath", "!startsWith", "/static", false],
		["ClientRequestPath", "endsWith", ".js", true],
		["ClientRequestPath", "!endsWith", ".js", false],
		["ClientRequestPath", "contains", "/static", true],
		["ClientRequestPath", "!contains", "/static", false],
		["SecurityActions", "contains", "block", true],
		["SecurityActions", "!contains", "block", false],
		["EdgeResponseStatus", "in", [200, 404], true],
		["EdgeResponseStatus", "!in", [200, 404], false],
		["ClientCountry", "in", ["us", "ca"], true],
		["EdgeStartTimestamp", "geq", 1_000_000_000, true],
		["BotScore", "eq", 0, true],
	])("%s %s %j is %s", (key, operator, value, expected) => {
		expect(passes(ENTRY, where(cond(key, operator, value)))).toBe(expected);
	});
});

describe("logical operators", () => {
	it("and, or, nested (the docs' shapes)", () => {
		const x = { key: "ClientRequestPath", operator: "contains", value: "/static" };
		const y = { key: "ClientRequestHost", operator: "eq", value: "example.com" };
		const z = { key: "ClientCountry", operator: "eq", value: "ca" };
		expect(passes(ENTRY, where({ where: { and: [x, y, z] } }))).toBe(false);
		expect(passes(ENTRY, where({ where: { or: [x, y, z] } }))).toBe(true);
		expect(passes(ENTRY, where({ where: { and: [x, { or: [y, z] }] } }))).toBe(true);
		expect(passes(ENTRY, where({ where: { or: [{ and: [z, y] }, z] } }))).toBe(false);
	});

	it("an empty filter passes everything", () => {
		expect(parseFilter("")).toStrictEqual({ ok: true, where: undefined });
		expect(passes(ENTRY, undefined)).toBe(true);
	});
});

describe("refused filters", () => {
	it.each([
		["not JSON", "{"],
		["no where", JSON.stringify({ key: "RayID", operator: "eq", value: "x" })],
		["an unknown field", JSON.stringify(cond("Nope", "eq", "x"))],
		["an unknown operator", JSON.stringify(cond("RayID", "like", "x"))],
		["lt on a string", JSON.stringify(cond("RayID", "lt", "x"))],
		["in without an array", JSON.stringify(cond("RayID", "in", "x"))],
		["a number field compared to a word", JSON.stringify(cond("EdgeResponseStatus", "eq", "ok"))],
		[
			"31 conditions",
			JSON.stringify({
				where: { or: Array.from({ length: 31 }, () => ({ key: "RayID", operator: "eq", value: "" })) },
			}),
		],
		["over 1000 bytes", JSON.stringify(cond("RayID", "eq", "x".repeat(1000)))],
	])("%s", (_, filter) => {
		expect(parseFilter(filter).ok).toBe(false);
	});
});
