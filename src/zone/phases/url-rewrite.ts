/**
 * The phase `http_request_transform` (URL rewrite rules): `rewrite` rules with
 * `action_parameters.uri` (developers.cloudflare.com/rules/transform/url-rewrite/).
 *
 * Emulates: a rule rewrites the path, the query or both (at least one), and no header; a static
 * path starts with `/` (edgezone's check: the path is the URL's, the hostname is Origin Rules'
 * to change, url-rewrite/index); the values and expressions of one rule hold at most 4,096
 * characters together (url-rewrite/reference/parameters). Bounded as WAF custom rules are
 * (`checkCustomRules`).
 * Gaps: the real API's texts are not public; the messages are edgezone's.
 */
import type { Rule } from "./actions";
import { checkCustomRules } from "./firewall-custom";
import type { RuleIssue } from "./rule";
import { requestSchemeIssues } from "./scheme";

/** Docs url-rewrite/reference/parameters: "combined length … limited to 4,096 characters". */
const MAX_URI_REWRITE = 4096;

/** Checks the `rewrite` rules of an `http_request_transform` ruleset: URL rewrites only. */
export function checkUrlRewrites(rules: readonly Rule[]): RuleIssue[] {
	const issues: RuleIssue[] = requestSchemeIssues(rules);
	for (const [index, rule] of rules.entries()) {
		if (rule.action !== "rewrite") continue;
		const { uri, headers } = rule.action_parameters;
		if (headers !== undefined)
			issues.push({
				rule: index,
				path: "/action_parameters/headers",
				message: "a URL rewrite changes no header: use http_request_late_transform",
			});
		if (uri?.path === undefined && uri?.query === undefined) {
			issues.push({
				rule: index,
				path: "/action_parameters/uri",
				message: "a URL rewrite rewrites uri.path, uri.query or both",
			});
			continue;
		}
		if (uri.path !== undefined && "value" in uri.path && !uri.path.value.startsWith("/"))
			issues.push({
				rule: index,
				path: "/action_parameters/uri/path/value",
				message: "a rewritten path starts with /",
			});
		const parts = [uri.path, uri.query].map((part) =>
			part === undefined ? "" : "value" in part ? part.value : part.expression,
		);
		if (parts.join("").length > MAX_URI_REWRITE)
			issues.push({
				rule: index,
				path: "/action_parameters/uri",
				message: `the values and expressions of a URL rewrite hold at most ${MAX_URI_REWRITE} characters together`,
			});
	}
	return issues.length > 0 ? issues : checkCustomRules(rules);
}
