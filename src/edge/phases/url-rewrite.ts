/**
 * `http_request_transform` (URL rewrite rules): every matching rule rewrites the path, the query
 * or both (developers.cloudflare.com/rules/transform/url-rewrite/), against the field values as
 * the phase began (values "are immutable within a phase", ruleset-engine/about/rules), a later
 * rule's part replacing an earlier one's. Later phases' `http.request.uri*` fields see the
 * rewritten URL; the `raw.` fields the visitor's; the destination is sent it (for the bucket
 * gateway, the rewritten path is the object's key).
 * Gaps: an expression that gives no value leaves its part as it was; `uri.origin` is ignored.
 */
import type { ValueExpression } from "../../rules-language";
import type { EdgeConfig } from "../../zone/edge-config";
import {
	type CompiledPhase,
	compilePhase,
	type PhaseState,
	phaseRules,
	phaseValues,
	storedValue,
	withinBudget,
} from "./state";

type Part = string | ValueExpression | undefined;

interface UriRewrite {
	path: Part;
	query: Part;
}

function partOf(part: { value: string } | { expression: string } | undefined): Part {
	if (part === undefined) return undefined;
	return "value" in part ? part.value : storedValue(part.expression, "request", true);
}

function compileUrlRewrites(config: EdgeConfig): CompiledPhase<UriRewrite> {
	return compilePhase(config.urlRewriteRules, (rule) => {
		if (rule.action !== "rewrite" || rule.action_parameters.uri === undefined) return undefined;
		const path = partOf(rule.action_parameters.uri.path);
		const query = partOf(rule.action_parameters.uri.query);
		return {
			parameters: { path, query },
			values: [path, query].filter((p): p is ValueExpression => typeof p === "object"),
		};
	});
}

/** Rewrites the URL the later phases and the origin see; answers only when the request's budget runs out. */
export function urlRewrite(state: PhaseState): Response | undefined {
	const phase = phaseRules(state, compileUrlRewrites);
	if (phase.rules.length === 0) return undefined;
	return withinBudget(state, () => {
		const values = phaseValues(state, phase);
		let path: string | undefined;
		let query: string | undefined;
		const valueOfPart = (part: Part) => (typeof part === "object" ? part.valueIn(values) : part);
		for (const { filter, parameters } of phase.rules) {
			if (!filter.matchesIn(values)) continue;
			path = valueOfPart(parameters.path) ?? path;
			query = valueOfPart(parameters.query) ?? query;
		}
		if (path === undefined && query === undefined) return undefined;
		const origin = new URL(state.origin);
		// The URL's setters percent-encode what a path or a query may not hold: the fields see what the origin is sent.
		if (path !== undefined) origin.pathname = path;
		if (query !== undefined) origin.search = query;
		const rewrittenPath = path === undefined ? state.context.path : () => origin.pathname;
		const rewrittenSearch = origin.search;
		state.origin = origin;
		state.context = {
			...state.context,
			...(rewrittenPath === undefined ? {} : { path: rewrittenPath }),
			search: () => rewrittenSearch,
		};
		return undefined;
	});
}
