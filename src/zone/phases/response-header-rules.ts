/**
 * The phase `http_response_headers_transform` (response header modification): `rewrite` rules
 * with `action_parameters.headers`, and the response headers they may not touch.
 *
 * Emulates (developers.cloudflare.com/rules/transform/response-header-modification/, "Important
 * remarks"): no header named `cf-…` or `x-cf-…`; no change of `server`, `eh-cache-tag` or
 * `eh-cdn-cache-control`.
 * Gaps: the real API's texts are not public; the messages are edgezone's.
 */
import type { Rule } from "./actions";
import { checkHeaderRewrites, cloudflareHeader, type HeaderRule } from "./header-rules";
import type { RuleIssue } from "./rule";

const FIXED = new Set(["server", "eh-cache-tag", "eh-cdn-cache-control"]);

const responseHeaderRule: HeaderRule = (name) => {
	if (cloudflareHeader(name)) return `the response header ${name} is Cloudflare's: it cannot be modified`;
	if (FIXED.has(name)) return `the response header ${name} cannot be modified`;
	return undefined;
};

/** Checks the rules of an `http_response_headers_transform` ruleset. */
export function checkResponseHeaderRewrites(rules: readonly Rule[]): RuleIssue[] {
	return checkHeaderRewrites(rules, responseHeaderRule);
}
