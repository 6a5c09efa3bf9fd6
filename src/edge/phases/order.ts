/**
 * The zone's phases in the order Cloudflare runs them
 * (developers.cloudflare.com/ruleset-engine/reference/phases-list/), each one file of this folder:
 *
 * request: `http_request_sanitize` (URL normalization) → `http_request_dynamic_redirect` (Single
 * Redirects) → `http_request_transform` (URL rewrites) → `http_request_origin` (Origin Rules) →
 * `http_request_firewall_custom` (WAF custom rules, the legacy firewall rules with them) →
 * `http_request_late_transform` (request header rules); then the destination;
 * response: (Managed Transforms, Cloudflare's own, `managed-transforms.ts`) →
 * `http_response_headers_transform` (response header rules) → `http_log_custom_fields`
 * (the log tap, `log-entry.ts`, which the pipeline runs last as it streams the answer).
 *
 * A request phase may answer in the destination's place (a redirect, a block), which ends the
 * request phases; the response phases run on every answer.
 */
import type { MaybePromise } from "../../common/maybe-promise";
import { firewallPhase } from "./firewall";
import { managedResponseHeaders } from "./managed-transforms";
import { originRoute } from "./origin-route";
import { redirect } from "./redirect";
import { requestHeaders } from "./request-headers";
import { responseHeaders } from "./response-headers";
import { sanitize } from "./sanitize";
import type { PhaseState } from "./state";
import { urlRewrite } from "./url-rewrite";

/** A request phase: updates the state, or answers in the destination's place. */
type RequestPhase = (state: PhaseState) => MaybePromise<Response | undefined>;

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
	["managed transforms", managedResponseHeaders],
	["http_response_headers_transform", responseHeaders],
];

/**
 * Runs the request phases in order until one answers; that answer, or undefined to go on to the
 * destination. At once (no promise) while every phase answers at once, as they do with the zone's
 * view cached: each await of a known value would cost a turn of the microtask queue.
 */
export function runRequestPhases(state: PhaseState): MaybePromise<Response | undefined> {
	return runFrom(state, 0);
}

/** The request phases from the `from`-th on (`runRequestPhases`). */
function runFrom(state: PhaseState, from: number): MaybePromise<Response | undefined> {
	for (let index = from; index < REQUEST_PHASES.length; index++) {
		// Indexed rather than destructured: a destructuring allocates an iterator on every request.
		const answer = (REQUEST_PHASES[index] as (typeof REQUEST_PHASES)[number])[1](state);
		if (answer instanceof Promise) return answer.then((answered) => answered ?? runFrom(state, index + 1));
		if (answer !== undefined) return answer;
	}
	return undefined;
}

/** Runs the response phases in order on the answer. */
export function runResponsePhases(state: PhaseState, response: Response): Response {
	let answer = response;
	for (let index = 0; index < RESPONSE_PHASES.length; index++) {
		answer = (RESPONSE_PHASES[index] as (typeof RESPONSE_PHASES)[number])[1](state, answer);
	}
	return answer;
}
