/**
 * The rule actions edgezone implements, each with the schema of a rule taking it (its
 * `action_parameters` and any constraint on its `expression`). Parameters are global per
 * action, as in the SDK's rule types (one type per action, whatever the phase); which
 * phase accepts which action is the phase table's (`table.ts`). A new action is one entry.
 */
import { z } from "zod";
import { REDIRECT_RULE } from "./dynamic-redirect";
import {
	BLOCK_RULE,
	CHALLENGE_RULE,
	JS_CHALLENGE_RULE,
	LOG_RULE,
	MANAGED_CHALLENGE_RULE,
	SKIP_RULE,
} from "./firewall-custom";
import { LOG_CUSTOM_FIELD_RULE } from "./log-custom-fields";
import { ROUTE_RULE } from "./origin-route";
import { REWRITE_RULE } from "./rewrite";
import { RULE_FIELDS, type Stored } from "./rule";

/** Rule schema per action name. */
const ACTIONS = {
	log_custom_field: LOG_CUSTOM_FIELD_RULE,
	block: BLOCK_RULE,
	challenge: CHALLENGE_RULE,
	js_challenge: JS_CHALLENGE_RULE,
	managed_challenge: MANAGED_CHALLENGE_RULE,
	log: LOG_RULE,
	skip: SKIP_RULE,
	rewrite: REWRITE_RULE,
	route: ROUTE_RULE,
	redirect: REDIRECT_RULE,
};

/** An action edgezone implements. */
export type ActionName = keyof typeof ACTIONS;

type ActionRule = (typeof ACTIONS)[ActionName];

// Object.values of a literal object with at least one entry: never empty.
const RULES = Object.values(ACTIONS) as [ActionRule, ...ActionRule[]];

/** Names of the implemented actions, for messages. */
const ACTION_NAMES = Object.keys(ACTIONS) as [ActionName, ...ActionName[]];

const UNKNOWN_ACTION = `the action must be one that edgezone implements: ${ACTION_NAMES.join(", ")}`;

/** A rule as a client sends it, checked by the schema of its action. */
export const RULE = z.discriminatedUnion("action", RULES, {
	error: (issue) => (issue.code === "invalid_union" ? UNKNOWN_ACTION : undefined),
});

/**
 * The body of a rule edit (PATCH): any of the rule's fields, each checked on its own.
 * `action_parameters` must be an object here; whether they fit the rule's action, and its
 * expression, is checked on the edited rule (`RULE`) in the Zone, which knows the rule's other
 * fields, so each error points at its own field (a union of every action's parameters could
 * only point at `action_parameters`). Cloudflare refuses `action_parameters` sent without
 * `action` ("action is required for action parameters", as a client met it:
 * pl4nty/winget-extras#793), while the other fields may come alone.
 */
export const RULE_PATCH = z
	.strictObject({
		id: RULE_FIELDS.id.optional(),
		ref: RULE_FIELDS.ref.optional(),
		action: z.enum(ACTION_NAMES, { error: UNKNOWN_ACTION }).optional(),
		expression: RULE_FIELDS.expression.optional(),
		description: RULE_FIELDS.description.optional(),
		enabled: RULE_FIELDS.enabled.optional(),
		action_parameters: z.record(z.string(), z.unknown()).optional(),
	})
	.superRefine((patch, ctx) => {
		if (patch.action_parameters !== undefined && patch.action === undefined)
			ctx.addIssue({ code: "custom", path: ["action"], message: "action is required for action parameters" });
	});

/** A validated rule edit. */
export type RulePatch = z.output<typeof RULE_PATCH>;

/** A validated rule as sent by a client (read-only fields excluded). */
export type RuleInput = z.output<typeof RULE>;

/** A rule as stored and returned: every field the SDK's response rule requires. */
export type Rule = Stored<RuleInput>;
