/**
 * `http_response_headers_transform` (response header modification): the headers of every answer
 * the visitor gets — the destination's, and the edge's own pages (a block, a redirect), which
 * Cloudflare's rules also reach (docs: they apply to Cloudflare error pages). The rules' fields
 * are the request's (as the request phases left them) and the response's (`response-fields.ts`:
 * `http.response.code`, `http.response.headers`, `http.response.content_type.media_type`...).
 * Gap: a response whose rules would pass the request's budget of work is left as it was
 * (logged), since the destination has answered already.
 */
import { ComparisonWorkExceeded } from "../../rules-language";
import type { EdgeConfig } from "../../zone/edge-config";
import { applyHeaderRules, compileHeaderRules } from "./header-changes";
import { type PhaseState, phaseRules, phaseValues } from "./state";

function compileResponseHeaderRules(config: EdgeConfig) {
	return compileHeaderRules(config.responseHeaderRules, "response");
}

/** `response` with its headers changed by the matching rules (in place: the edge's answers' headers are its own). */
export function responseHeaders(state: PhaseState, response: Response): Response {
	const phase = phaseRules(state, compileResponseHeaderRules);
	if (phase.rules.length === 0) return response;
	try {
		applyHeaderRules(phase, phaseValues(state, phase, response), response.headers);
	} catch (error) {
		if (!(error instanceof ComparisonWorkExceeded)) throw error;
		console.error(
			`edgezone rules: zone ${state.zoneId}: ${error.message}; response headers of ${state.rayId} unchanged`,
		);
	}
	return response;
}
