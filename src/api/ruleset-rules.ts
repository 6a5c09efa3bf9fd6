/**
 * `/zones/{zone_id}/rulesets/{ruleset_id}/rules`: add, edit and delete single rules
 * (developers.cloudflare.com/ruleset-engine/rulesets-api/; SDK `client.rulesets.rules.*`). Each answers the
 * whole ruleset at its new version. `position` places the rule: `{before}`, `{after}`
 * (a rule id, or "" for top / bottom) or `{index}` (1-based). The rule is validated here
 * by its action's schema (an edit: each given field, and a malformed `id` refused as in
 * POST), with pointers relative to the body; its phase's rules are the Zone's. Each takes
 * `?dry_run=true` as the ruleset writes do (`rulesets.ts`).
 */
import { Hono } from "hono";
import { z } from "zod";
import { HEX_ID_PATTERN } from "../common/ids";
import { CODES } from "../zone/failure";
import { RULE, RULE_PATCH } from "../zone/phases/actions";
import { unwrap } from "./errors";
import { RULESETS, writes } from "./permissions";
import { requireRulesetPhase } from "./phase-access";
import { dryRunOf, written } from "./rulesets";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam } from "./validate";

// A rule id, or "" for the top (before) or the bottom (after): `^(?:[0-9a-f]{32})?$` in
// Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas.
const RULE_REF = z.string().refine((id) => id === "" || HEX_ID_PATTERN.test(id), "must be a rule id or empty");
const POSITION = z.union([
	z.strictObject({ before: RULE_REF }),
	z.strictObject({ after: RULE_REF }),
	z.strictObject({ index: z.number().int().min(1) }),
]);

/**
 * A body of the rule endpoints: `position` and the rule's fields, the latter checked by
 * `rule` with pointers relative to the body (`/action_parameters/...`).
 */
function withPosition<S extends z.ZodType>(rule: S) {
	return z.looseObject({ position: POSITION.optional() }).transform(({ position, ...fields }, ctx) => {
		const parsed = rule.safeParse(fields);
		if (parsed.success) return { position, rule: parsed.data };
		for (const issue of parsed.error.issues) ctx.addIssue({ ...issue });
		return z.NEVER;
	});
}

const RULE_BODY = withPosition(RULE);
const PATCH_BODY = withPosition(RULE_PATCH);

/** Routes under `/zones/{zone_id}/rulesets/{ruleset_id}/rules`. */
export const rulesetRules = new Hono<ApiEnv>()
	.post("/", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, rulesetId, "write");
		const { rule, position } = await parseBody(c, RULE_BODY, CODES.rulesetInvalid);
		return written(unwrap(await c.var.zoneState.addRule(rulesetId, rule, position, dryRun)), dryRun);
	})
	.patch("/:rule_id", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		const ruleId = parseParam(c, "rule_id", HEX_ID);
		await requireRulesetPhase(c, rulesetId, "write");
		const { rule, position } = await parseBody(c, PATCH_BODY, CODES.rulesetInvalid);
		return written(unwrap(await c.var.zoneState.editRule(rulesetId, ruleId, rule, position, dryRun)), dryRun);
	})
	.delete("/:rule_id", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		const ruleId = parseParam(c, "rule_id", HEX_ID);
		await requireRulesetPhase(c, rulesetId, "write");
		return written(unwrap(await c.var.zoneState.deleteRule(rulesetId, ruleId, dryRun)), dryRun);
	});
