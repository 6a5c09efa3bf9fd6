/**
 * The shape of a rule common to every phase and action (docs ruleset-engine/rulesets-api/json-object;
 * SDK `rulesets/rules.ts`): `id`, `ref`, `action`, `expression`, `description`, `enabled` and
 * `action_parameters`, strict (an unknown field is refused, as the real API does). Each
 * action's schema (`actions.ts`) is this shape with its own `action_parameters` and, where
 * the action constrains it, its own `expression`.
 */
import { z } from "zod";
import { HEX_ID_PATTERN } from "../../common/ids";
import { MAX_EXPRESSION, MAX_REF, MAX_RULE_DESCRIPTION } from "../limits";

/** The fields every rule has, whatever its action; defaults are filled in by `actionRule`. */
export const RULE_FIELDS = {
	id: z.string().regex(HEX_ID_PATTERN, "must be a rule id (32 lower-case hex)"),
	ref: z.string().min(1).max(MAX_REF),
	expression: z.string().min(1).max(MAX_EXPRESSION),
	description: z.string().max(MAX_RULE_DESCRIPTION),
	enabled: z.boolean(),
};

/**
 * The schema of a rule taking `action`: the common fields, `action_parameters` by
 * `parameters`, and `expression` by `expression` when the action constrains it.
 */
export function actionRule<A extends string, P extends z.ZodType>(
	action: A,
	parameters: P,
	expression: z.ZodType<string> = RULE_FIELDS.expression,
) {
	return z.strictObject({
		id: RULE_FIELDS.id.optional(),
		ref: RULE_FIELDS.ref.optional(),
		action: z.literal(action),
		expression,
		description: RULE_FIELDS.description.default(""),
		enabled: RULE_FIELDS.enabled.default(true),
		action_parameters: parameters,
	});
}

/** A stored rule: the validated input with its identity, version and time filled in. */
export type Stored<R> = R extends unknown
	? Omit<R, "id" | "ref"> & { id: string; ref: string; version: string; last_updated: string }
	: never;

/** A violation of a check over all rules of a ruleset: the rule (by position), the path in it, the message. */
export interface RuleIssue {
	rule: number;
	path: string;
	message: string;
	/** The error code; the rulesets API's "invalid ruleset" when absent. */
	code?: number;
}
