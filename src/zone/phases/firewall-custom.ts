/**
 * The phase `http_request_firewall_custom` (WAF custom rules) and its actions `block`,
 * `challenge`, `js_challenge`, `managed_challenge`, `log` and `skip` (Cloudflare docs
 * waf/custom-rules and ruleset-engine/rules-language/actions; SDK `rulesets/rules.ts`
 * `BlockRule`, `SkipRule`, ...).
 *
 * Emulates: expressions compiled by the Rules language, refused with the rulesets API's text and
 * code 20125 at the rule's `/expression` (the text users report in cloudflare-docs#28223; the code
 * is edgezone's choice, not public); `block` with an optional custom `response` (`status_code`
 * 400–499, `content`, `content_type` of the four the docs name); `skip` of the rest of the current
 * ruleset (`ruleset: "current"`), of later `phases`, or of legacy `products`, with optional
 * `logging`; the challenges and `log` without parameters. At most MAX_CUSTOM_RULES rules per
 * ruleset, and at most MAX_CUSTOM_RULES_BYTES of them as JSON, so a version snapshot stays small
 * (limits.ts).
 * Gaps: `exposed_credential_check`, `ratelimit` and plan entitlements (`log` is Enterprise only).
 */
import { z } from "zod";
import type { Scheme } from "../../rules-language";
import { expressionError, rulesetExpressionMessage } from "../expressions";
import { CODES } from "../failure";
import { MAX_CUSTOM_RULES, MAX_CUSTOM_RULES_BYTES, MAX_RESPONSE_CONTENT } from "../limits";
import type { Rule } from "./actions";
import { actionRule, RULE_FIELDS, type RuleIssue } from "./rule";

/**
 * A rule expression that the Rules language compiles with the fields of `scheme`; refused with
 * code 20125 and the rulesets API's text.
 */
function compiledExpression(scheme: Scheme) {
	return RULE_FIELDS.expression.superRefine((expression, ctx) => {
		const engineText = expressionError(expression, scheme);
		if (engineText === undefined) return;
		ctx.addIssue({
			code: "custom",
			message: rulesetExpressionMessage(expression, engineText),
			params: { code: CODES.rulesetExpression },
		});
	});
}

/** The expression of a request phase's rule (`compiledExpression`). */
export const COMPILED_EXPRESSION = compiledExpression("request");

/**
 * The expression of a `rewrite` rule, whose phases include a response phase: compiled with the
 * response fields too, and refused by each request phase's check (`scheme.ts`) when it reads one.
 */
export const REWRITE_EXPRESSION = compiledExpression("response");

// Docs waf/custom-rules/create-api: the content types a custom block response may have.
const RESPONSE = z.strictObject({
	status_code: z.number().int().min(400).max(499),
	content: z.string().max(MAX_RESPONSE_CONTENT),
	content_type: z.enum(["application/json", "text/html", "text/plain", "text/xml"]),
});

const NO_PARAMETERS = z.strictObject({}).optional();

// Docs waf/custom-rules/skip/options: the later phases and the legacy products a skip rule may skip.
const SKIP_PARAMETERS = z
	.strictObject({
		ruleset: z.literal("current").optional(),
		phases: z
			.array(z.enum(["http_ratelimit", "http_request_firewall_managed", "http_request_sbfm"]))
			.min(1)
			.optional(),
		products: z
			.array(z.enum(["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"]))
			.min(1)
			.optional(),
	})
	.refine(
		(p) => p.ruleset !== undefined || p.phases !== undefined || p.products !== undefined,
		"a skip rule needs at least one of ruleset, phases, products",
	);

/** A `block` rule, with an optional custom response. */
export const BLOCK_RULE = actionRule(
	"block",
	z.strictObject({ response: RESPONSE.optional() }).optional(),
	COMPILED_EXPRESSION,
);
/** A `challenge` rule (interactive challenge). */
export const CHALLENGE_RULE = actionRule("challenge", NO_PARAMETERS, COMPILED_EXPRESSION);
/** A `js_challenge` rule. */
export const JS_CHALLENGE_RULE = actionRule("js_challenge", NO_PARAMETERS, COMPILED_EXPRESSION);
/** A `managed_challenge` rule. */
export const MANAGED_CHALLENGE_RULE = actionRule("managed_challenge", NO_PARAMETERS, COMPILED_EXPRESSION);
/** A `log` rule: records a match, changes nothing. */
export const LOG_RULE = actionRule("log", NO_PARAMETERS, COMPILED_EXPRESSION);
/** A `skip` rule; `logging` is allowed with `skip` only (terraform-provider-cloudflare#7377: 20018). */
export const SKIP_RULE = actionRule("skip", SKIP_PARAMETERS, COMPILED_EXPRESSION).extend({
	logging: z.strictObject({ enabled: z.boolean() }).optional(),
});

/** Bounds the rules of one custom ruleset: their number, then the bytes of their JSON; names the first rule past either. */
export function checkCustomRules(rules: readonly Rule[]): RuleIssue[] {
	if (rules.length > MAX_CUSTOM_RULES) {
		return [
			{ rule: MAX_CUSTOM_RULES, path: "", message: `a ruleset of this phase holds at most ${MAX_CUSTOM_RULES} rules` },
		];
	}
	const encoder = new TextEncoder();
	let bytes = 0;
	for (const [index, rule] of rules.entries()) {
		bytes += encoder.encode(JSON.stringify(rule)).byteLength;
		if (bytes > MAX_CUSTOM_RULES_BYTES) {
			return [
				{
					rule: index,
					path: "",
					message: `the rules of a ruleset of this phase hold at most ${MAX_CUSTOM_RULES_BYTES} bytes of JSON`,
				},
			];
		}
	}
	return [];
}
