/**
 * The request phases' check that a `rewrite` rule reads no response field. A `rewrite` rule is
 * parsed with the response fields (`REWRITE_EXPRESSION`), since `http_response_headers_transform`
 * takes it too; a request phase runs before there is a response, so there its expression and its
 * value expressions must compile with the request fields alone. Refused as any expression the
 * engine does not compile, with code 20125 and the engine's `unknown identifier` (the response
 * fields are not in a request phase's scheme: docs fields/reference/http.response.code, "The
 * availability of HTTP response fields depends on the exact Cloudflare feature").
 */
import { compileValueExpression } from "../../rules-language";
import { expressionError, rulesetExpressionMessage } from "../expressions";
import { CODES } from "../failure";
import type { Rule } from "./actions";
import type { RuleIssue } from "./rule";

/** The issues of the `rewrite` rules among `rules` that read a response field. */
export function requestSchemeIssues(rules: readonly Rule[]): RuleIssue[] {
	const issues: RuleIssue[] = [];
	for (const [index, rule] of rules.entries()) {
		if (rule.action !== "rewrite") continue;
		const engineText = expressionError(rule.expression);
		if (engineText !== undefined)
			issues.push({
				rule: index,
				path: "/expression",
				message: rulesetExpressionMessage(rule.expression, engineText),
				code: CODES.rulesetExpression,
			});
		const { uri, headers } = rule.action_parameters;
		const values: [string, string | undefined][] = [
			[
				"/action_parameters/uri/path/expression",
				uri?.path !== undefined && "expression" in uri.path ? uri.path.expression : undefined,
			],
			[
				"/action_parameters/uri/query/expression",
				uri?.query !== undefined && "expression" in uri.query ? uri.query.expression : undefined,
			],
			...Object.entries(headers ?? {}).map(([name, change]): [string, string | undefined] => [
				`/action_parameters/headers/${name}/expression`,
				"expression" in change ? change.expression : undefined,
			]),
		];
		for (const [path, expression] of values) {
			if (expression === undefined) continue;
			const compiled = compileValueExpression(expression, "request", true);
			if (!compiled.ok)
				issues.push({ rule: index, path, message: compiled.error.message, code: CODES.rulesetExpression });
		}
	}
	return issues;
}
