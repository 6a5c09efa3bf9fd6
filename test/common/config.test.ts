import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, jsonVar } from "../../src/common/config";

const SCHEMA = z.record(z.string(), z.enum(["a", "b"]));

describe("jsonVar", () => {
	it("parses a JSON var with its schema", () => {
		expect(jsonVar("TEST_VAR", '{"x": "a"}', SCHEMA)).toEqual({ x: "a" });
	});

	it("parses again when the value changes, and answers from its cache when it does not", () => {
		const first = jsonVar("TEST_CACHED", '{"x": "a"}', SCHEMA);
		expect(jsonVar("TEST_CACHED", '{"x": "a"}', SCHEMA)).toBe(first);
		expect(jsonVar("TEST_CACHED", '{"x": "b"}', SCHEMA)).toEqual({ x: "b" });
	});

	it.each([
		[undefined, "it is not set"],
		["", "it is not set"],
		["{", "it is not JSON"],
		['{"x": "c"}', "x"],
	])("throws a ConfigError naming the var for %j", (raw, detail) => {
		let thrown: unknown;
		try {
			jsonVar("TEST_BAD", raw, SCHEMA);
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(ConfigError);
		expect((thrown as ConfigError).message).toMatch(/^TEST_BAD is not valid: /);
		expect((thrown as ConfigError).message).toContain(detail);
	});
});
