import { describe, expect, it } from "vitest";
import { HEX_ID_PATTERN, randomHexId } from "../../src/common/ids";

describe("ids", () => {
	it("makes random ids of 32 lower-case hex digits, each new", () => {
		const ids = new Set(Array.from({ length: 100 }, randomHexId));
		expect(ids.size).toBe(100);
		for (const id of ids) expect(id).toMatch(HEX_ID_PATTERN);
	});

	it.each(["023e105f4ecef8ad9ca31a8372d0c35", "023E105F4ECEF8AD9CA31A8372D0C353", "023e105f4ecef8ad9ca31a8372d0c353a"])(
		"refuses %j",
		(id) => {
			expect(HEX_ID_PATTERN.test(id)).toBe(false);
		},
	);
});
