/**
 * What the two header phases share (`request-header-rules.ts`, `response-header-rules.ts`):
 * `rewrite` rules with `action_parameters.headers` (at least one header, no `uri`), each header
 * checked by its phase's rule, the ruleset bounded as WAF custom rules are (`checkCustomRules`).
 * Names compare case-insensitively.
 */
import type { Rule } from "./actions";
import { checkCustomRules } from "./firewall-custom";
import type { HeaderChange } from "./rewrite";
import type { RuleIssue } from "./rule";

/** Why `change` of header `name` (lower case) is refused in a phase, or undefined. */
export type HeaderRule = (name: string, change: HeaderChange) => string | undefined;

/** Whether `name` (lower case) is Cloudflare's own: `cf-…` or `x-cf-…`. */
export function cloudflareHeader(name: string): boolean {
	return name.startsWith("cf-") || name.startsWith("x-cf-");
}

/** Checks the `rewrite` rules of a header phase's ruleset with the phase's `headerRule`. */
export function checkHeaderRewrites(rules: readonly Rule[], headerRule: HeaderRule): RuleIssue[] {
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
