/**
 * The second half of a ruleset endpoint's permission check: the ruleset's phase (permissions.ts,
 * `permitsPhase`). The endpoint's own check (`auth.ts`) let in any ruleset family; here a token
 * limited by permissions must hold its phase's group, or gets 403 10000 as for any endpoint.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import type { Context } from "hono";
import { forbidden } from "./errors";
import { permitsPhase } from "./permissions";
import type { ApiEnv } from "./types";

/** Throws 403 10000 unless the caller may read or write rulesets of `phase`. */
export function requirePhase(c: Context<ApiEnv>, phase: Phase, access: "read" | "write"): void {
	if (!permitsPhase(c.var.caller, phase, access)) throw forbidden();
}

/**
 * Like `requirePhase`, for a ruleset named by id. Its phase is read only for a token limited by
 * permissions (one RPC more for those alone); an unknown ruleset passes, so the endpoint answers
 * its 404 as it would for anyone.
 */
export async function requireRulesetPhase(
	c: Context<ApiEnv>,
	rulesetId: string,
	access: "read" | "write",
): Promise<void> {
	if (c.var.caller.permissions === undefined) return;
	const ruleset = await c.var.zoneState.getRuleset(rulesetId);
	if (ruleset.ok) requirePhase(c, ruleset.value.phase, access);
}
