/**
 * `http_request_dynamic_redirect` (Single Redirects): the first matching rule answers a redirect
 * (developers.cloudflare.com/rules/url-forwarding/single-redirects/settings/; a redirect is
 * terminating, ruleset-engine/rules-language/actions).
 *
 * Emulates: `target_url` static or from a value expression; `status_code`, 301 when absent;
 * `preserve_query_string`, false when absent, appending the visitor's query to the target's
 * (`&` when the target has one). A rule whose expression gives no value (a missing field) does
 * not redirect, and the next rule is tried; so does one whose value no `Location` header can hold
 * (a line break).
 * Gaps: the body of Cloudflare's redirect answers is not recorded; edgezone's is empty.
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

/** What a `Location` value may hold: no CR, LF or NUL (RFC 9110 §5.5), one byte per char. */
const LOCATION = /^[^\r\n\0\u0100-\uffff]*$/;

interface Redirect {
	target: string | ValueExpression;
	status: number;
	preserveQuery: boolean;
}

function compileRedirects(config: EdgeConfig): CompiledPhase<Redirect> {
	return compilePhase(config.redirectRules, (rule) => {
		if (rule.action !== "redirect") return undefined;
		const { target_url, status_code, preserve_query_string } = rule.action_parameters.from_value;
		const target = "value" in target_url ? target_url.value : storedValue(target_url.expression);
		return {
			parameters: { target, status: status_code ?? 301, preserveQuery: preserve_query_string ?? false },
			values: typeof target === "string" ? [] : [target],
		};
	});
}

/** The redirect of the first matching rule that gives a target, or undefined. */
export function redirect(state: PhaseState): Response | undefined {
	const phase = phaseRules(state, compileRedirects);
	if (phase.rules.length === 0) return undefined;
	return withinBudget(state, () => {
		const values = phaseValues(state, phase);
		for (const { filter, parameters } of phase.rules) {
			if (!filter.matchesIn(values)) continue;
			const { target, status, preserveQuery } = parameters;
			// An expression's value goes out as its UTF-8 bytes; a static target is an ASCII URL (checked on write).
			let location = typeof target === "string" ? target : target.bytesIn(values);
			if (location === undefined || location === "" || !LOCATION.test(location)) continue;
			const query = state.url.search;
			if (preserveQuery && query !== "") location += (location.includes("?") ? "&" : "?") + query.slice(1);
			return new Response(null, { status, headers: { location } });
		}
		return undefined;
	});
}
