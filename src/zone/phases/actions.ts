/**
 * The rule actions edgezone implements, each with the schema of a rule taking it (its
 * `action_parameters` and any constraint on its `expression`). Parameters are global per
 * action, as in the SDK's rule types (one type per action, whatever the phase); which
 * phase accepts which action is the phase table's (`table.ts`). A new action is one entry.
 */
import { z } from "zod";
import { LOG_CUSTOM_FIELD_RULE } from "./log-custom-fields";
import type { Stored } from "./rule";

/** Rule schema per action name. */
export const ACTIONS = {
	log_custom_field: LOG_CUSTOM_FIELD_RULE,
};

/** An action edgezone implements. */
export type ActionName = keyof typeof ACTIONS;

type ActionRule = (typeof ACTIONS)[ActionName];

// Object.values of a literal object with at least one entry: never empty.
const RULES = Object.values(ACTIONS) as [ActionRule, ...ActionRule[]];

/** Names of the implemented actions, for messages. */
export const ACTION_NAMES = Object.keys(ACTIONS) as [ActionName, ...ActionName[]];

/** A rule as a client sends it, checked by the schema of its action. */
export const RULE = z.discriminatedUnion("action", RULES, {
	error: (issue) =>
		issue.code === "invalid_union"
			? `the action must be one that edgezone implements: ${ACTION_NAMES.join(", ")}`
			: undefined,
});

/** A validated rule as sent by a client (read-only fields excluded). */
export type RuleInput = z.output<typeof RULE>;

/** A rule as stored and returned: every field the SDK's response rule requires. */
export type Rule = Stored<RuleInput>;
