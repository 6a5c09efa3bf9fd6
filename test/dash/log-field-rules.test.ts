/** The dashboard's custom-field edits over the entrypoint's rules (src/dash/log-field-rules.ts), pure. */
import { describe, expect, it } from "vitest";
import { type EntrypointRule, fieldsOf, isAbout, withField, withoutField } from "../../src/dash/log-field-rules";

const stored = (action_parameters: Record<string, unknown>): EntrypointRule & { version: string } => ({
	id: "0123456789abcdef0123456789abcdef",
	ref: "0123456789abcdef0123456789abcdef",
	action: "log_custom_field",
	expression: "true",
	description: "",
	enabled: true,
	action_parameters,
	version: "1",
});

describe("custom fields of the entrypoint", () => {
	it("lists every list's names with their type", () => {
		const rules = [stored({ request_fields: [{ name: "a" }], cookie_fields: [{ name: "C" }] })];
		expect(fieldsOf(rules)).toEqual([
			{ type: "request_fields", name: "a" },
			{ type: "cookie_fields", name: "C" },
		]);
	});

	it("adds to a new rule `true` when there is none, pointing at the new name", () => {
		expect(withField([], { type: "request_fields", name: "x-request-id" })).toEqual({
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					action_parameters: { request_fields: [{ name: "x-request-id" }] },
				},
			],
			pointer: "/rules/0/action_parameters/request_fields/0",
		});
	});

	it("adds to the existing rule, keeping its id and leaving out read-only fields", () => {
		const change = withField([stored({ request_fields: [{ name: "a" }] })], { type: "request_fields", name: "b" });
		expect(change.pointer).toBe("/rules/0/action_parameters/request_fields/1");
		expect(change.rules[0]).not.toHaveProperty("version");
		expect(change.rules[0]?.id).toBe("0123456789abcdef0123456789abcdef");
		expect(fieldsOf(change.rules).map((f) => f.name)).toEqual(["a", "b"]);
	});

	it("removes a name, then its empty list, then its empty rule", () => {
		const rules = [stored({ request_fields: [{ name: "a" }], response_fields: [{ name: "a" }] })];
		const once = withoutField(rules, { type: "request_fields", name: "a" });
		expect(fieldsOf(once.rules)).toEqual([{ type: "response_fields", name: "a" }]);
		expect(once.rules[0]?.action_parameters).not.toHaveProperty("request_fields");
		expect(withoutField(once.rules, { type: "response_fields", name: "a" }).rules).toEqual([]);
	});

	it("tells which API errors are about the added name", () => {
		const at = "/rules/0/action_parameters/request_fields/1";
		expect(isAbout(`${at}/name`, at)).toBe(true);
		expect(isAbout(at, at)).toBe(true);
		expect(isAbout("/rules/0/action_parameters/request_fields/10/name", at)).toBe(false);
		expect(isAbout("/rules/0/action_parameters", at)).toBe(false);
	});
});
