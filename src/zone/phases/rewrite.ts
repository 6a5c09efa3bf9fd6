/**
 * The action `rewrite` (SDK `RewriteRule`), taken by three phases: URL rewrites
 * (`http_request_transform`, `action_parameters.uri`), request header modification
 * (`http_request_late_transform`) and response header modification
 * (`http_response_headers_transform`, both `action_parameters.headers`). The shape is one, as in
 * the SDK; which part a phase accepts, and its header rules, are each phase's `checkAll`
 * (`url-rewrite.ts`, `request-header-rules.ts`, `response-header-rules.ts`).
 *
 * Emulates (developers.cloudflare.com/rules/transform/): a static `value` or a dynamic
 * `expression` per rewritten part, the expression a value expression of the Rules language
 * (`compileValueExpression`, with `regex_replace`, `wildcard_replace`, `to_string`) refused with
 * code 20125 and the engine's text without prefix (as terraform-provider-cloudflare#1326 shows
 * it); header names of `A–Z a–z 0–9 - _` and values of the characters the docs list
 * (rules/transform/header-valid-values), at most 4,096 bytes (header-format: "4 KB"); the
 * operations `set`, `add` and `remove`; `uri.origin` kept as sent.
 * Gaps: the real API's texts for these refusals are not public; the messages are edgezone's.
 */
import { z } from "zod";
import { compileValueExpression, type Scheme } from "../../rules-language";
import { CODES } from "../failure";
import { MAX_EXPRESSION } from "../limits";
import { REWRITE_EXPRESSION } from "./firewall-custom";
import { actionRule } from "./rule";

/**
 * A value expression that compiles with the fields of `scheme` (and, for a Transform Rule's,
 * `transform`, the fields only those read), refused with code 20125 and the engine's text.
 */
function valueExpression(scheme: Scheme, transform: boolean) {
	return z
		.string()
		.min(1)
		.max(MAX_EXPRESSION)
		.superRefine((expression, ctx) => {
			const compiled = compileValueExpression(expression, scheme, transform);
			if (!compiled.ok)
				ctx.addIssue({ code: "custom", message: compiled.error.message, params: { code: CODES.rulesetExpression } });
		});
}

/** A request phase's value expression (a redirect's `target_url`). */
export const VALUE_EXPRESSION = valueExpression("request", false);

/**
 * A `rewrite` rule's value expression: with the response fields, as the rule's expression
 * (`REWRITE_EXPRESSION`); a request phase's check refuses them (`scheme.ts`).
 */
const REWRITE_VALUE_EXPRESSION = valueExpression("response", true);

/** A static value or an expression: exactly one (docs: "static" or "dynamic"). */
const VALUE_OR_EXPRESSION = z.union([
	z.strictObject({ value: z.string().max(MAX_EXPRESSION) }),
	z.strictObject({ expression: REWRITE_VALUE_EXPRESSION }),
]);

/** Bytes of a header value (header-format: "The maximum length of a header value is 4 KB"). */
const MAX_HEADER_VALUE = 4096;

/** Docs rules/transform/header-valid-names: letters, digits, `-` and `_`. */
const HEADER_NAME = /^[A-Za-z0-9_-]+$/;

/** Docs rules/transform/header-valid-values: alphanumerics, space and `` _ :;.,\/"'?!(){}[]@<>=-+*#$&`|~^% ``. */
const HEADER_VALUE = /^[A-Za-z0-9 _:;.,\\/"'?!(){}[\]@<>=\-+*#$&`|~^%]*$/;

const headerValue = z
	.string()
	.max(MAX_HEADER_VALUE)
	.regex(HEADER_VALUE, "a header value may hold letters, digits, spaces and _ :;.,\\/\"'?!(){}[]@<>=-+*#$&`|~^%");

/** `set` or `add` with exactly one of a value and an expression. */
function valued<O extends "set" | "add">(operation: O) {
	return z
		.strictObject({
			operation: z.literal(operation),
			value: headerValue.optional(),
			expression: REWRITE_VALUE_EXPRESSION.optional(),
		})
		.refine(
			(c) => (c.value === undefined) !== (c.expression === undefined),
			`${operation} takes a value or an expression`,
		);
}

/** One header's change: `set` and `add` with a value or an expression, `remove` alone. */
const HEADER_CHANGE = z.discriminatedUnion("operation", [
	valued("set"),
	valued("add"),
	z.strictObject({ operation: z.literal("remove") }),
]);

/** A header change as stored. */
export type HeaderChange = z.output<typeof HEADER_CHANGE>;

const REWRITE_PARAMETERS = z.strictObject({
	uri: z
		.strictObject({
			path: VALUE_OR_EXPRESSION.optional(),
			query: VALUE_OR_EXPRESSION.optional(),
			origin: z.boolean().optional(),
		})
		.optional(),
	headers: z
		.record(z.string().regex(HEADER_NAME, "a header name may hold letters, digits, - and _"), HEADER_CHANGE)
		.optional(),
});

/** A `rewrite` rule. */
export const REWRITE_RULE = actionRule("rewrite", REWRITE_PARAMETERS, REWRITE_EXPRESSION);
