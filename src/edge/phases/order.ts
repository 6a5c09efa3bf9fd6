/**
 * The zone's phases in the order Cloudflare runs them
 * (developers.cloudflare.com/ruleset-engine/reference/phases-list/), each one file of this folder:
 *
 * request: `http_request_sanitize` (URL normalization) → `http_request_dynamic_redirect` (Single
 * Redirects) → `http_request_transform` (URL rewrites) → `http_request_origin` (Origin Rules) →
 * `http_request_firewall_custom` (WAF custom rules, the legacy firewall rules with them) →
 * `http_request_late_transform` (request header rules); then the destination;
 * response: `http_response_headers_transform` (response header rules) → `http_log_custom_fields`
 * (the log tap, `log-entry.ts`, which the pipeline runs last as it streams the answer).
 *
 * A request phase may answer in the destination's place (a redirect, a block), which ends the
 * request phases; the response phases run on every answer.
 */
import { firewallPhase } from "./firewall";
import { originRoute } from "./origin-route";
import { redirect } from "./redirect";
import { requestHeaders } from "./request-headers";
import { responseHeaders } from "./response-headers";
import { sanitize } from "./sanitize";
import type { PhaseState } from "./state";
import { urlRewrite } from "./url-rewrite";

/** A request phase: updates the state, or answers in the destination's place. */
type RequestPhase = (state: PhaseState) => Response | undefined | Promise<Response | undefined>;

/** The request phases, in Cloudflare's order, by phase name. */
const REQUEST_PHASES: readonly (readonly [string, RequestPhase])[] = [
	["http_request_sanitize", sanitize],
	["http_request_dynamic_redirect", redirect],
	["http_request_transform", urlRewrite],
	["http_request_origin", originRoute],
	["http_request_firewall_custom", firewallPhase],
	["http_request_late_transform", requestHeaders],
];

/** The response phases before the log tap, in Cloudflare's order. */
const RESPONSE_PHASES: readonly (readonly [string, (state: PhaseState, response: Response) => Response])[] = [
	["http_response_headers_transform", responseHeaders],
];

/** Runs the request phases in order until one answers; that answer, or undefined to go on to the destination. */
export async function runRequestPhases(state: PhaseState): Promise<Response | undefined> {
	for (const [, run] of REQUEST_PHASES) {
		const answer = await run(state);
		if (answer !== undefined) return answer;
	}
	return undefined;
}

/** Runs the response phases in order on the answer. */
export function runResponsePhases(state: PhaseState, response: Response): Response {
	let answer = response;
	for (const [, run] of RESPONSE_PHASES) answer = run(state, answer);
	return answer;
}
