/**
 * `http_request_late_transform` (request header modification), the last request phase: the
 * headers the destination is sent. The log tap records the visitor's headers, as sent (the
 * custom log fields' `request_fields`, developers.cloudflare.com/logs/reference/custom-fields/).
 */
import type { EdgeConfig } from "../../zone/edge-config";
import { applyHeaderRules, compileHeaderRules } from "./header-changes";
import { type PhaseState, phaseRules, phaseValues, withinBudget } from "./state";

function compileRequestHeaderRules(config: EdgeConfig) {
	return compileHeaderRules(config.requestHeaderRules, "request");
}

/** Sets the headers the destination is sent when a rule matched; answers only when the request's budget runs out. */
export function requestHeaders(state: PhaseState): Response | undefined {
	const phase = phaseRules(state, compileRequestHeaderRules);
	if (phase.rules.length === 0) return undefined;
	return withinBudget(state, () => {
		const headers = new Headers(state.request.headers);
		if (applyHeaderRules(phase, phaseValues(state, phase), headers)) state.headers = headers;
		return undefined;
	});
}
