/**
 * `http_request_origin` (Origin Rules): the `route` of every matching rule merged in rule order,
 * a later rule's `host_header`, `origin.host`, `origin.port` or `sni` replacing an earlier one's
 * and keeping the rest (developers.cloudflare.com/rules/origin-rules/faq/: port from one rule,
 * host from another). The result is the request's {@link OriginRoute}, which the destination
 * follows (`origin/route.ts`).
 */
import type { EdgeConfig } from "../../zone/edge-config";
import type { OriginRoute } from "../origin/route";
import { type CompiledPhase, compilePhase, type PhaseState, phaseRules, phaseValues, withinBudget } from "./state";

function compileOriginRules(config: EdgeConfig): CompiledPhase<OriginRoute> {
	return compilePhase(config.originRules, (rule) =>
		rule.action === "route" ? { parameters: rule.action_parameters } : undefined,
	);
}

/** `over`'s fields over `route`'s, `origin` merged field by field. */
function mergeRoute(route: OriginRoute, over: OriginRoute): OriginRoute {
	const merged: OriginRoute = { ...route };
	if (over.host_header !== undefined) merged.host_header = over.host_header;
	if (over.origin !== undefined) merged.origin = { ...route.origin, ...over.origin };
	if (over.sni !== undefined) merged.sni = over.sni;
	return merged;
}

/** Sets the request's route; answers only when the request's budget runs out. */
export function originRoute(state: PhaseState): Response | undefined {
	const phase = phaseRules(state, compileOriginRules);
	if (phase.rules.length === 0) return undefined;
	return withinBudget(state, () => {
		const values = phaseValues(state, phase);
		for (const { filter, parameters } of phase.rules) {
			if (filter.matchesIn(values)) state.route = mergeRoute(state.route, parameters);
		}
		return undefined;
	});
}
