import { describe, expect, it } from "vitest";
import {
	bindingError,
	bindingMessage,
	parseBindingMessage,
	R2_ERRORS,
	type R2ErrorName,
} from "../../src/wire/error-codes";

const NAMES = Object.keys(R2_ERRORS) as R2ErrorName[];

describe("R2_ERRORS", () => {
	it("gives every row its own code", () => {
		const codes = NAMES.map((name) => R2_ERRORS[name].code);
		expect(new Set(codes).size).toBe(codes.length);
	});

	it.each(NAMES)("gives %s an error status and a message", (name) => {
		const { status, message } = R2_ERRORS[name];
		expect(status).toBeGreaterThanOrEqual(400);
		expect(status).toBeLessThan(600);
		expect(message).not.toBe("");
	});

	it.each([
		[10007, "NoSuchKey"],
		[10039, "InvalidRange"],
		[100100, "EntityTooLarge"],
		[10001, "InternalError"],
		[10002, undefined],
		[400, undefined],
		[42, undefined],
	])("bindingError(%d) is %s", (code, name) => {
		expect(bindingError(code)).toBe(name);
	});
});

describe("binding messages", () => {
	it.each([
		[
			"get: The specified key does not exist. (10007)",
			{ op: "get", message: "The specified key does not exist.", code: 10007 },
		],
		["put: a (b) (10037)", { op: "put", message: "a (b)", code: 10037 }],
		["put: two\nlines (10012)", { op: "put", message: "two\nlines", code: 10012 }],
		["get: no code", undefined],
		["(10007)", undefined],
	])("parses %j", (text, parsed) => {
		expect(parseBindingMessage(text)).toEqual(parsed);
	});

	it("formats what it parses", () => {
		const text = bindingMessage("uploadPart", "The specified multipart upload does not exist.", 10024);
		expect(text).toBe("uploadPart: The specified multipart upload does not exist. (10024)");
		expect(parseBindingMessage(text)).toEqual({
			op: "uploadPart",
			message: "The specified multipart upload does not exist.",
			code: 10024,
		});
	});
});
