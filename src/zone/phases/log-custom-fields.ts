/**
 * The phase `http_log_custom_fields` and its action `log_custom_field`: which headers and cookies log-push
 * entries carry (https://developers.cloudflare.com/logs/reference/custom-fields/; SDK
 * `LogCustomFieldRule`).
 *
 * Emulates: action `log_custom_field` only; expression exactly `true`; the five field
 * lists (`request_fields`, `transformed_request_fields`, `response_fields`,
 * `raw_response_fields`, `cookie_fields`), at least one present; header names lower
 * case; cookie names kept as sent; the request header `Range` refused; at most 40
 * names per zone, over all rules and lists (edgezone's cap, see `zone/limits.ts`); a header not both raw and
 * transformed.
 * Gaps: the real API's error codes and messages for these violations are not public,
 * so the messages here are edgezone's own. Size limits (100 names per list, name
 * length) and their sources: `zone/limits.ts`.
 */
import { z } from "zod";
import { HTTP_TOKEN } from "../../common/http-token";
import { MAX_CUSTOM_FIELDS } from "../../logs/custom-field-objects";
import { MAX_FIELD_NAME, MAX_FIELDS_PER_LIST } from "../limits";
import type { Rule } from "./actions";
import { actionRule, type RuleIssue } from "./rule";

const headerName = z
	.string()
	.max(MAX_FIELD_NAME)
	.regex(HTTP_TOKEN, "must be an HTTP header name (RFC 9110 token)")
	.refine((name) => name === name.toLowerCase(), "header names must be lower case");
const cookieName = z.string().max(MAX_FIELD_NAME).regex(HTTP_TOKEN, "must be a cookie name (RFC 6265 token)");

const requestField = z.strictObject({ name: headerName });
const responseField = z.strictObject({ name: headerName, preserve_duplicates: z.boolean().optional() });
const cookieField = z.strictObject({ name: cookieName });

const LISTS = [
	"request_fields",
	"transformed_request_fields",
	"response_fields",
	"raw_response_fields",
	"cookie_fields",
] as const;

/** `action_parameters` of a `log_custom_field` rule, with every rule above as a zod issue at its field. */
const LOG_CUSTOM_FIELD_PARAMETERS = z
	.strictObject({
		request_fields: z.array(requestField).min(1).max(MAX_FIELDS_PER_LIST).optional(),
		transformed_request_fields: z.array(requestField).min(1).max(MAX_FIELDS_PER_LIST).optional(),
		response_fields: z.array(responseField).min(1).max(MAX_FIELDS_PER_LIST).optional(),
		raw_response_fields: z.array(responseField).min(1).max(MAX_FIELDS_PER_LIST).optional(),
		cookie_fields: z.array(cookieField).min(1).max(MAX_FIELDS_PER_LIST).optional(),
	})
	.superRefine((params, ctx) => {
		if (LISTS.every((list) => params[list] === undefined)) {
			ctx.addIssue({ code: "custom", message: `at least one of ${LISTS.join(", ")} is required` });
		}
		for (const list of LISTS) {
			const seen = new Set<string>();
			(params[list] ?? []).forEach(({ name }, i) => {
				if (seen.has(name))
					ctx.addIssue({ code: "custom", path: [list, i, "name"], message: `duplicate field name "${name}"` });
				seen.add(name);
			});
		}
		for (const list of ["request_fields", "transformed_request_fields"] as const) {
			(params[list] ?? []).forEach(({ name }, i) => {
				if (name === "range")
					ctx.addIssue({
						code: "custom",
						path: [list, i, "name"],
						message: "the request header range is not supported as a custom field",
					});
			});
		}
		// Docs: "You cannot log both raw and transformed values for the same header."
		const pairs = [
			["request_fields", "transformed_request_fields"],
			["raw_response_fields", "response_fields"],
		] as const;
		for (const [raw, transformed] of pairs) {
			const rawNames = new Set((params[raw] ?? []).map((f) => f.name));
			(params[transformed] ?? []).forEach(({ name }, i) => {
				if (rawNames.has(name))
					ctx.addIssue({
						code: "custom",
						path: [transformed, i, "name"],
						message: `header "${name}" cannot be logged both raw (${raw}) and transformed (${transformed})`,
					});
			});
		}
	});

/** The `action_parameters` of a `log_custom_field` rule. */
export type LogCustomFieldParameters = z.output<typeof LOG_CUSTOM_FIELD_PARAMETERS>;

/** A `log_custom_field` rule as sent by a client: its expression must be `true` (docs custom-fields.mdx). */
export const LOG_CUSTOM_FIELD_RULE = actionRule(
	"log_custom_field",
	LOG_CUSTOM_FIELD_PARAMETERS,
	z.literal("true", { error: 'the expression of a log_custom_field rule must be "true"' }),
);

/**
 * edgezone's limit of 40 custom fields per zone, counted over the `log_custom_field` rules
 * of the zone's ruleset and all five lists; names the first field over the limit.
 */
export function checkFieldLimit(rules: readonly Rule[]): RuleIssue[] {
	let total = 0;
	for (const [index, rule] of rules.entries()) {
		if (rule.action !== "log_custom_field") continue;
		for (const list of LISTS) {
			for (const i of (rule.action_parameters[list] ?? []).keys()) {
				total += 1;
				if (total > MAX_CUSTOM_FIELDS) {
					return [
						{
							rule: index,
							path: `/action_parameters/${list}/${i}`,
							message: `at most ${MAX_CUSTOM_FIELDS} custom log fields are allowed per zone`,
						},
					];
				}
			}
		}
	}
	return [];
}

/** The `action_parameters` of the enabled `log_custom_field` rules of `rules`, in order: what the edge logs. */
export function enabledCustomFields(rules: readonly Rule[]): LogCustomFieldParameters[] {
	return rules.flatMap((rule) => (rule.enabled && rule.action === "log_custom_field" ? [rule.action_parameters] : []));
}
