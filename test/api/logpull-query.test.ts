/** The Logpull query parser (`src/logs/logpull.ts`): time formats, the window's rules, Go durations. */
import { describe, expect, it } from "vitest";
import { goDuration, parseLogpullTime, parseReceived } from "../../src/logs/logpull";

const KNOWN = new Set(["RayID", "ClientIP", "EdgeStartTimestamp"]);
const HOUR = 3_600_000;

describe("parseLogpullTime", () => {
	it.each([
		["1700000000", 1_700_000_000_000],
		["1700000000000000000", 1_700_000_000_000],
		["1700000000000000001", 1_700_000_000_001],
		["1700000000999999999", 1_700_000_001_000],
		["2023-11-14T22:13:20Z", 1_700_000_000_000],
		["2023-11-14t22:13:20z", 1_700_000_000_000],
		["2023-11-14T23:13:20+01:00", 1_700_000_000_000],
		["2023-11-14T22:13:20.5Z", 1_700_000_000_500],
		["2023-11-14T22:13:20.000000001Z", 1_700_000_000_001],
	])("reads %s as %d ms (a fraction of a ms rounded up)", (text, ms) => {
		expect(parseLogpullTime(text)).toBe(ms);
	});

	it.each([
		"",
		"now",
		"-5",
		"1.5",
		"2023-11-14",
		"2023-11-14 22:13:20Z",
		"2023-11-14T22:13:20",
		"2023-13-01T00:00:00Z",
	])("refuses %j", (text) => {
		expect(parseLogpullTime(text)).toBeUndefined();
	});
});

describe("parseReceived", () => {
	const now = 1_700_000_000_000;
	const cloudflare = { retentionMs: 168 * HOUR, minEndAgeMs: 60_000 };
	const parse = (args: Record<string, string>, limits = cloudflare) => parseReceived(args, KNOWN, now, limits);
	const s = (ms: number) => String(ms / 1000);

	it("keeps Cloudflare's rule that end is at least a minute before now when the limit says so", () => {
		expect(parse({ start: s(now - 120_000), end: s(now - 60_000) }).ok).toBe(true);
		expect(parse({ start: s(now - 120_000), end: s(now - 59_000) })).toStrictEqual({
			ok: false,
			message:
				"bad query: error parsing time: invalid time range: too late: end must be at least 1m0s earlier than now",
		});
		expect(parse({ start: s(now - 120_000), end: s(now) }, { ...cloudflare, minEndAgeMs: 0 }).ok).toBe(true);
	});

	it("allows exactly one hour, and a start exactly at the retention window's edge", () => {
		expect(parse({ start: s(now - 2 * HOUR), end: s(now - HOUR) }).ok).toBe(true);
		expect(parse({ start: s(now - 2 * HOUR - 1000), end: s(now - HOUR) }).ok).toBe(false);
		expect(parse({ start: s(now - 168 * HOUR), end: s(now - 167 * HOUR) }).ok).toBe(true);
		expect(parse({ start: s(now - 168 * HOUR - 1000), end: s(now - 167 * HOUR - 1000) })).toMatchObject({
			message:
				"bad query: error parsing time: invalid time range: too early: logs older than 168h0m0s are not available",
		});
	});

	it("answers the window, count, sample and output options", () => {
		const parsed = parse({
			start: s(now - 120_000),
			end: s(now - 60_000),
			count: "3",
			sample: "0.25",
			fields: "RayID,ClientIP,RayID",
			timestamps: "unix",
			"CVE-2021-44228": "true",
		});
		expect(parsed).toMatchObject({
			ok: true,
			value: {
				from: now - 120_000,
				to: now - 60_000,
				count: 3,
				sample: 0.25,
				output: { field_names: ["ClientIP", "RayID"], timestamp_format: "unix", "CVE-2021-44228": true },
			},
		});
	});
});

describe("goDuration", () => {
	it.each([
		[168 * HOUR, "168h0m0s"],
		[60_000, "1m0s"],
		[90 * 60_000, "1h30m0s"],
		[0, "0s"],
	])("writes %d ms as %s", (ms, text) => {
		expect(goDuration(ms)).toBe(text);
	});
});
