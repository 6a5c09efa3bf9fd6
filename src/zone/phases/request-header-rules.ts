/**
 * The phase `http_request_late_transform` (request header modification): `rewrite` rules with
 * `action_parameters.headers`, and the request headers they may not touch.
 *
 * Emulates (developers.cloudflare.com/rules/transform/request-header-modification/, "Important
 * remarks"): no header named `cf-…` or `x-cf-…`, except that a rule may remove
 * `cf-connecting-ip`; no change of `x-forwarded-for` (it may be removed), `true-client-ip`,
 * `x-real-ip` or `x-forwarded-proto`; `cookie` only removed.
 * Gaps: the real API's texts are not public; the messages are edgezone's. Forbidden header
 * names of the Fetch standard ("generally not allowed", e.g. `accept-encoding`) are accepted.
 */
import type { Rule } from "./actions";
import { checkHeaderRewrites, cloudflareHeader, type HeaderRule } from "./header-rules";
import type { RuleIssue } from "./rule";
import { requestSchemeIssues } from "./scheme";

const FIXED = new Set(["true-client-ip", "x-real-ip", "x-forwarded-proto"]);

const requestHeaderRule: HeaderRule = (name, change) => {
	if (name === "cf-connecting-ip" && change.operation === "remove") return undefined;
	if (cloudflareHeader(name)) return `the request header ${name} is Cloudflare's: it cannot be modified`;
	if (FIXED.has(name)) return `the request header ${name} cannot be modified`;
	if ((name === "x-forwarded-for" || name === "cookie") && change.operation !== "remove")
		return `the request header ${name} can only be removed`;
	return undefined;
};

/** Checks the rules of an `http_request_late_transform` ruleset. */
export function checkRequestHeaderRewrites(rules: readonly Rule[]): RuleIssue[] {
	const issues = requestSchemeIssues(rules);
	return issues.length > 0 ? issues : checkHeaderRewrites(rules, requestHeaderRule);
}
