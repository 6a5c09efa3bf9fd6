/**
 * The phases `http_request_late_transform` (request header modification) and
 * `http_response_headers_transform` (response header modification): `rewrite` rules with
 * `action_parameters.headers`, and the headers each may not touch.
 *
 * Emulates (developers.cloudflare.com/rules/transform/request-header-modification/ and
 * response-header-modification/, "Important remarks"): at least one header and no `uri`; no
 * header named `cf-…` or `x-cf-…`, except that a request rule may remove `cf-connecting-ip`; a
 * request rule may not change `x-forwarded-for` (it may remove it), `true-client-ip`,
 * `x-real-ip` or `x-forwarded-proto`, and may only remove `cookie`; a response rule may not
 * change `server`, `eh-cache-tag` or `eh-cdn-cache-control`. Names compare case-insensitively.
 * Bounded as WAF custom rules are (`checkCustomRules`).
 * Gaps: the real API's texts are not public; the messages are edgezone's. Forbidden header
 * names of the Fetch standard ("generally not allowed", e.g. `accept-encoding`) are accepted.
 */
import type { Rule } from "./actions";
import { checkCustomRules } from "./firewall-custom";
import type { HeaderChange } from "./rewrite";
import type { RuleIssue } from "./rule";

/** Why `change` of header `name` is refused in a request or response rule, or undefined. */
type HeaderRule = (name: string, change: HeaderChange) => string | undefined;

function cloudflareHeader(name: string): boolean {
	return name.startsWith("cf-") || name.startsWith("x-cf-");
}

const REQUEST_FIXED = new Set(["true-client-ip", "x-real-ip", "x-forwarded-proto"]);

const requestHeaderRule: HeaderRule = (name, change) => {
	if (name === "cf-connecting-ip" && change.operation === "remove") return undefined;
	if (cloudflareHeader(name)) return `the request header ${name} is Cloudflare's: it cannot be modified`;
	if (REQUEST_FIXED.has(name)) return `the request header ${name} cannot be modified`;
	if ((name === "x-forwarded-for" || name === "cookie") && change.operation !== "remove")
		return `the request header ${name} can only be removed`;
	return undefined;
};

const RESPONSE_FIXED = new Set(["server", "eh-cache-tag", "eh-cdn-cache-control"]);

const responseHeaderRule: HeaderRule = (name) => {
	if (cloudflareHeader(name)) return `the response header ${name} is Cloudflare's: it cannot be modified`;
	if (RESPONSE_FIXED.has(name)) return `the response header ${name} cannot be modified`;
	return undefined;
};

function checkHeaderRewrites(rules: readonly Rule[], headerRule: HeaderRule): RuleIssue[] {
	const issues: RuleIssue[] = [];
	for (const [index, rule] of rules.entries()) {
		if (rule.action !== "rewrite") continue;
		const { uri, headers } = rule.action_parameters;
		if (uri !== undefined)
			issues.push({
				rule: index,
				path: "/action_parameters/uri",
				message: "a header rule rewrites no URL: use http_request_transform",
			});
		const entries = Object.entries(headers ?? {});
		if (entries.length === 0)
			issues.push({
				rule: index,
				path: "/action_parameters/headers",
				message: "a header rule changes at least one header",
			});
		for (const [name, change] of entries) {
			const refused = headerRule(name.toLowerCase(), change);
			if (refused !== undefined)
				issues.push({ rule: index, path: `/action_parameters/headers/${name}`, message: refused });
		}
	}
	return issues.length > 0 ? issues : checkCustomRules(rules);
}

/** Checks the rules of an `http_request_late_transform` ruleset. */
export function checkRequestHeaderRewrites(rules: readonly Rule[]): RuleIssue[] {
	return checkHeaderRewrites(rules, requestHeaderRule);
}

/** Checks the rules of an `http_response_headers_transform` ruleset. */
export function checkResponseHeaderRewrites(rules: readonly Rule[]): RuleIssue[] {
	return checkHeaderRewrites(rules, responseHeaderRule);
}
