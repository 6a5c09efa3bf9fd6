/**
 * The phase `http_request_dynamic_redirect` (Single Redirects) and its action `redirect` with
 * `from_value` (SDK `RedirectRule`; developers.cloudflare.com/rules/url-forwarding/single-redirects/settings/).
 *
 * Emulates: `target_url` as a static `value` (an absolute `http`/`https` URL, edgezone's check)
 * or an `expression` (a value expression, `rewrite.ts`); `status_code` 301, 302, 303, 307 or 308
 * (the SDK's type; 301 when absent, applied at the edge); `preserve_query_string` (false when
 * absent). Bounded as WAF custom rules are (`checkCustomRules`).
 * Gaps: `from_list` (Bulk Redirects, phase `http_request_redirect`) is not implemented; the real
 * API's texts are not public.
 */
import { z } from "zod";
import { MAX_EXPRESSION } from "../limits";
import { COMPILED_EXPRESSION } from "./firewall-custom";
import { VALUE_EXPRESSION } from "./rewrite";
import { actionRule } from "./rule";

const TARGET_URL = z
	.string()
	.max(MAX_EXPRESSION)
	.refine(
		(url) => /^https?:\/\//i.test(url) && URL.canParse(url),
		"target_url.value must be an absolute http or https URL",
	);

const REDIRECT_PARAMETERS = z.strictObject({
	from_value: z.strictObject({
		target_url: z.union([z.strictObject({ value: TARGET_URL }), z.strictObject({ expression: VALUE_EXPRESSION })]),
		status_code: z.union([z.literal(301), z.literal(302), z.literal(303), z.literal(307), z.literal(308)]).optional(),
		preserve_query_string: z.boolean().optional(),
	}),
});

/** A `redirect` rule. */
export const REDIRECT_RULE = actionRule("redirect", REDIRECT_PARAMETERS, COMPILED_EXPRESSION);
