/** Custom log fields: names, first instances, cookie case, Range, 40 names, the 8 KB limit. */
import { describe, expect, it } from "vitest";
import {
	CUSTOM_FIELDS_MAX_BYTES,
	customFieldNames,
	limitCustomFields,
	pickCookies,
	pickHeaders,
} from "../../src/logs/custom-field-objects";

describe("customFieldNames", () => {
	it("merges the lists of every rule, lower-cases headers, keeps cookie case, drops range and duplicates", () => {
		const names = customFieldNames([
			{ request_fields: [{ name: "x-a" }, { name: "range" }], cookie_fields: [{ name: "Session" }] },
			{ transformed_request_fields: [{ name: "x-a" }, { name: "host" }], raw_response_fields: [{ name: "allow" }] },
			{ response_fields: [{ name: "server" }], cookie_fields: [{ name: "session" }] },
		]);
		expect(names).toStrictEqual({
			request: ["x-a"],
			transformed: ["host"],
			response: ["allow", "server"],
			cookies: ["Session", "session"],
			duplicates: [],
		});
	});

	it("lists the response headers configured with preserve_duplicates, in either list", () => {
		const names = customFieldNames([
			{ response_fields: [{ name: "Set-Cookie", preserve_duplicates: true }, { name: "server" }] },
			{
				raw_response_fields: [
					{ name: "link", preserve_duplicates: true },
					{ name: "vary", preserve_duplicates: false },
				],
			},
		]);
		expect(names.response).toStrictEqual(["set-cookie", "server", "link", "vary"]);
		expect(names.duplicates).toStrictEqual(["set-cookie", "link"]);
	});

	it("reads at most 40 names over all lists", () => {
		const many = Array.from({ length: 30 }, (_, i) => ({ name: `x-${i}` }));
		const names = customFieldNames([{ request_fields: many, cookie_fields: many }]);
		expect(names.request).toHaveLength(30);
		expect(names.cookies).toHaveLength(10);
	});
});

describe("pickHeaders", () => {
	it("picks the named headers present, in the order of the names", () => {
		const values = new Map([
			["accept", "text/html"],
			["x-custom", "one"],
		]);
		expect(pickHeaders(values, ["x-custom", "x-missing", "accept"])).toStrictEqual([
			["x-custom", "one"],
			["accept", "text/html"],
		]);
	});
});

describe("pickCookies", () => {
	it("matches cookie names case-sensitively and keeps the first of a repeated cookie", () => {
		const header = "Session=upper; session=lower; session=second; other=x";
		expect(pickCookies(header, ["session", "Session", "SESSION"])).toStrictEqual([
			["session", "lower"],
			["Session", "upper"],
		]);
	});

	it("reads nothing without a Cookie header", () => {
		expect(pickCookies(null, ["a"])).toStrictEqual([]);
	});
});

describe("limitCustomFields (8 KB of values in all)", () => {
	it("keeps everything under the limit", () => {
		const out = limitCustomFields({ request: [["a", "1"]], cookies: [["c", "3"]], response: [["b", "2"]] });
		expect(out).toStrictEqual({ RequestHeaders: { a: "1" }, ResponseHeaders: { b: "2" }, Cookies: { c: "3" } });
	});

	it("cuts the value crossing 8,192 bytes and empties every later one, in request, cookie, response order", () => {
		const big = "r".repeat(5000);
		const out = limitCustomFields({
			request: [["x-big", big]],
			cookies: [
				["c1", "c".repeat(4000)],
				["c2", "later"],
			],
			response: [["server", "edge"]],
		});
		expect(CUSTOM_FIELDS_MAX_BYTES).toBe(8192);
		expect(out.RequestHeaders["x-big"]).toBe(big);
		expect(out.Cookies.c1).toBe("c".repeat(8192 - 5000));
		expect(out.Cookies.c2).toBe("");
		expect(out.ResponseHeaders.server).toBe("");
	});

	it("spends what is left on ResponseFields last, value by value", () => {
		const out = limitCustomFields(
			{
				request: [["a", "1234"]],
				cookies: [],
				response: [["set-cookie", "x=1"]],
				every: [["set-cookie", ["x=1", "y=22"]]],
			},
			10,
		);
		expect(out).toStrictEqual({
			RequestHeaders: { a: "1234" },
			Cookies: {},
			ResponseHeaders: { "set-cookie": "x=1" },
			ResponseFields: { "set-cookie": ["x=1", ""] },
		});
	});

	it("counts UTF-8 bytes and never cuts inside a character", () => {
		const out = limitCustomFields({ request: [["x-u", "é".repeat(10)]], cookies: [], response: [] }, 7);
		expect(out.RequestHeaders["x-u"]).toBe("ééé");
	});

	it("spends the budget by each value's UTF-8 bytes: 2, 3 and 4-byte characters, and a lone surrogate as 3", () => {
		const value = "é€😀\ud800"; // 2 + 3 + 4 + 3 bytes
		const pick = (budget: number) =>
			limitCustomFields({ request: [["a", value]], cookies: [["b", "x"]], response: [] }, budget);
		expect(new TextEncoder().encode(value).byteLength).toBe(12);
		expect(pick(13)).toMatchObject({ RequestHeaders: { a: value }, Cookies: { b: "x" } });
		expect(pick(12)).toMatchObject({ RequestHeaders: { a: value }, Cookies: { b: "" } });
	});
});
