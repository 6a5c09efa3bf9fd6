import { describe, expect, it } from "vitest";
import {
	contentRange,
	isSatisfiable,
	type ParsedRange,
	parseContentRange,
	parseRange,
	servedRange,
} from "../../src/wire/ranges";

describe("parseRange", () => {
	it.each<[string | null, ParsedRange["kind"], R2Range?]>([
		[null, "none"],
		["bytes=0-4", "range", { offset: 0, length: 5 }],
		[" bytes=3- ", "range", { offset: 3 }],
		["bytes=-2", "range", { suffix: 2 }],
		["bytes=-0", "unsatisfiable"],
		["bytes=5-4", "invalid"],
		["bytes=0-1,3-4", "invalid"],
		["items=0-1", "invalid"],
		["bytes=-", "invalid"],
		["", "invalid"],
	])("%j is %s", (header, kind, range) => {
		const parsed = parseRange(header);
		expect(parsed.kind).toBe(kind);
		if (parsed.kind === "range") expect(parsed.range).toEqual(range);
	});
});

describe("served bytes", () => {
	it.each<[R2Range, number, boolean, { offset: number; length: number }?]>([
		[{ offset: 0, length: 5 }, 10, true, { offset: 0, length: 5 }],
		[{ offset: 8, length: 5 }, 10, true, { offset: 8, length: 2 }],
		[{ offset: 3 }, 10, true, { offset: 3, length: 7 }],
		[{ suffix: 4 }, 10, true, { offset: 6, length: 4 }],
		[{ suffix: 40 }, 10, true, { offset: 0, length: 10 }],
		[{ offset: 10 }, 10, false],
		[{ suffix: 1 }, 0, false],
	])("%j of %d bytes: satisfiable %s, serves %j", (range, size, satisfiable, served) => {
		expect(isSatisfiable(range, size)).toBe(satisfiable);
		if (served !== undefined) expect(servedRange(range, size)).toEqual(served);
	});
});

describe("Content-Range", () => {
	it.each([
		[{ offset: 0, length: 5 }, 10, "bytes 0-4/10"],
		[{ offset: 9, length: 1 }, 10, "bytes 9-9/10"],
	])("writes %j of %d as %s and reads it back", (served, size, header) => {
		expect(contentRange(served, size)).toBe(header);
		expect(parseContentRange(header)).toEqual({ ...served, size });
	});

	it.each([null, "bytes */10", "bytes 0-4/*", "items 0-4/10"])("reads %j as nothing", (header) => {
		expect(parseContentRange(header)).toBeUndefined();
	});
});
