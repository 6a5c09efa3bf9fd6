/**
 * `http_request_firewall_custom`, with the legacy firewall rules before it (`../firewall.ts`):
 * the rules see the URL as the earlier phases rewrote it and the visitor's headers, and spend the
 * request's one budget of work with the other phases.
 */
import { andThen, type MaybePromise } from "../../common/maybe-promise";
import { firewall } from "../firewall";
import { requestFields } from "../request-fields";
import type { PhaseState } from "./state";

/**
 * The firewall's answer when a rule ends the request; its matches go to the state for the log.
 * At once (no promise) when the zone's view is cached, as it is on a request's path.
 */
export function firewallPhase(state: PhaseState): MaybePromise<Response | undefined> {
	const { request, url, context } = state;
	const verdict = firewall(
		state.env,
		state.zoneId,
		(names) => requestFields(request, url, context, names),
		state.rayId,
		state.receivedAt,
		state.work,
	);
	return andThen(verdict, ({ matches, answer }) => {
		state.matches = matches;
		return answer;
	});
}
