/**
 * Ruleset phases and the rule schema each phase accepts.
 *
 * Every phase of the SDK's `Phase` type can hold a ruleset; rules are accepted only in
 * phases whose rule schema edgezone implements (today `http_log_custom_fields`). A rule
 * in any other phase is a 400 at its `action`, so no rule is stored that nothing checks.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import type { z } from "zod";
import { checkFieldLimit, type LimitIssue, LOG_CUSTOM_FIELD_RULE } from "./log-custom-fields";

// A Record over the SDK's `Phase` type: the compiler refuses a missing or an unknown phase.
const PHASE_SET: Record<Phase, true> = {
	ddos_l4: true,
	ddos_l7: true,
	http_config_settings: true,
	http_custom_errors: true,
	http_log_custom_fields: true,
	http_ratelimit: true,
	http_request_cache_settings: true,
	http_request_dynamic_redirect: true,
	http_request_firewall_custom: true,
	http_request_firewall_managed: true,
	http_request_late_transform: true,
	http_request_origin: true,
	http_request_redirect: true,
	http_request_sanitize: true,
	http_request_sbfm: true,
	http_request_transform: true,
	http_response_cache_settings: true,
	http_response_compression: true,
	http_response_firewall_managed: true,
	http_response_headers_transform: true,
	magic_transit: true,
	magic_transit_ids_managed: true,
	magic_transit_managed: true,
	magic_transit_ratelimit: true,
};

/** All phases of the cloudflare SDK 7.x `Phase` type (reference §3.2). */
export const PHASES = Object.keys(PHASE_SET) as [Phase, ...Phase[]];

/** What a phase accepts: the schema of one rule, and the checks over all rules of a ruleset. */
export interface PhaseRules {
	rule: typeof LOG_CUSTOM_FIELD_RULE;
	checkAll(rules: readonly Pick<RuleInput, "action_parameters">[]): LimitIssue[];
}

/** The phases that accept rules; a rule in any other phase is refused. */
export const PHASE_RULES: Partial<Record<Phase, PhaseRules>> = {
	http_log_custom_fields: { rule: LOG_CUSTOM_FIELD_RULE, checkAll: checkFieldLimit },
};

/** A validated rule as sent by a client: what the schemas above output. */
export type RuleInput = z.output<typeof LOG_CUSTOM_FIELD_RULE>;
