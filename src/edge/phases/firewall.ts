/**
 * `http_request_firewall_custom`, with the legacy firewall rules before it (`../firewall.ts`):
 * the rules see the URL as the earlier phases rewrote it and the visitor's headers, and spend the
 * request's one budget of work with the other phases.
 */
import { firewall } from "../firewall";
import { requestFields } from "../request-fields";
import type { PhaseState } from "./state";

/** The firewall's answer when a rule ends the request; its matches go to the state for the log. */
export async function firewallPhase(state: PhaseState): Promise<Response | undefined> {
	const { request, url, context } = state;
	const verdict = await firewall(
		state.env,
		state.zoneId,
		(names) => requestFields(request, url, context, names),
		state.rayId,
		state.receivedAt,
		state.work,
	);
	state.matches = verdict.matches;
	return verdict.answer;
}
