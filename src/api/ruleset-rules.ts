/**
 * `/zones/{zone_id}/rulesets/{ruleset_id}/rules`: add, edit and delete single rules
 * (cloudflare-api-v4.md §3.1, §3.3; SDK `client.rulesets.rules.*`). Each answers the
 * whole ruleset at its new version. `position` places the rule: `{before}`, `{after}`
 * (a rule id, or "" for top / bottom) or `{index}` (1-based). The rule itself is
 * validated by its phase's schema in the Zone, with pointers relative to the body.
 */
import type { RulesetGetResponse } from "cloudflare/resources/rulesets/rulesets";
import { Hono } from "hono";
import { z } from "zod";
import { HEX_ID_PATTERN } from "../common/ids";
import { CODES } from "../zone/failure";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam } from "./validate";

// Reference §3.3: a rule id, or "" for the top (before) or the bottom (after).
const RULE_REF = z.string().refine((id) => id === "" || HEX_ID_PATTERN.test(id), "must be a rule id or empty");
const POSITION = z.union([
	z.strictObject({ before: RULE_REF }),
	z.strictObject({ after: RULE_REF }),
	z.strictObject({ index: z.number().int().min(1) }),
]);

// The rule's own fields pass through to the Zone, which knows the phase and its schema.
const RULE_BODY = z
	.looseObject({ position: POSITION.optional() })
	.transform(({ position, ...rule }) => ({ position, rule }));

/** Routes under `/zones/{zone_id}/rulesets/{ruleset_id}/rules`. */
export const rulesetRules = new Hono<ApiEnv>()
	.post("/", async (c) => {
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		const { rule, position } = await parseBody(c, RULE_BODY, CODES.rulesetInvalid);
		return ok(unwrap(await c.var.zoneState.addRule(rulesetId, rule, position)) satisfies RulesetGetResponse);
	})
	.patch("/:rule_id", async (c) => {
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		const ruleId = parseParam(c, "rule_id", HEX_ID);
		const { rule, position } = await parseBody(c, RULE_BODY, CODES.rulesetInvalid);
		return ok(unwrap(await c.var.zoneState.editRule(rulesetId, ruleId, rule, position)) satisfies RulesetGetResponse);
	})
	.delete("/:rule_id", async (c) => {
		const rulesetId = parseParam(c, "ruleset_id", HEX_ID);
		const ruleId = parseParam(c, "rule_id", HEX_ID);
		return ok(unwrap(await c.var.zoneState.deleteRule(rulesetId, ruleId)) satisfies RulesetGetResponse);
	});
