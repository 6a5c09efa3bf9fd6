/**
 * The phase table: every ruleset phase, and for the phases that accept rules, the actions
 * they accept and their checks over a whole ruleset.
 *
 * Every phase of the SDK's `Phase` type can hold a ruleset; rules are accepted only in
 * phases with an entry in `PHASE_RULES` (custom log fields, WAF custom rules, the Transform,
 * Origin and Redirect Rules' phases). A rule in any
 * other phase, or with an action its phase does not accept, is a 400 at its `action`, so
 * no rule is stored that nothing checks. A new phase is one entry here (plus its actions
 * in `actions.ts`), with no change in `zone/rulesets.ts`.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import type { ActionName, Rule } from "./actions";
import { checkCustomRules } from "./firewall-custom";
import { checkFieldLimit } from "./log-custom-fields";
import { checkRequestHeaderRewrites } from "./request-header-rules";
import { checkResponseHeaderRewrites } from "./response-header-rules";
import type { RuleIssue } from "./rule";
import { checkUrlRewrites } from "./url-rewrite";

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

/** All phases of the cloudflare SDK 7.x `Phase` type (`resources/rulesets/rulesets.ts`). */
export const PHASES = Object.keys(PHASE_SET) as [Phase, ...Phase[]];

/** What a phase accepts: the actions of its rules, and the checks over all rules of one ruleset. */
export interface PhaseRules {
	actions: readonly ActionName[];
	checkAll?(rules: readonly Rule[]): RuleIssue[];
}

/** The phases that accept rules; a rule in any other phase is refused. */
export const PHASE_RULES: Partial<Record<Phase, PhaseRules>> = {
	http_log_custom_fields: { actions: ["log_custom_field"], checkAll: checkFieldLimit },
	http_request_firewall_custom: {
		actions: ["block", "challenge", "js_challenge", "managed_challenge", "log", "skip"],
		checkAll: checkCustomRules,
	},
	http_request_transform: { actions: ["rewrite"], checkAll: checkUrlRewrites },
	http_request_late_transform: { actions: ["rewrite"], checkAll: checkRequestHeaderRewrites },
	http_response_headers_transform: { actions: ["rewrite"], checkAll: checkResponseHeaderRewrites },
	http_request_origin: { actions: ["route"], checkAll: checkCustomRules },
	http_request_dynamic_redirect: { actions: ["redirect"], checkAll: checkCustomRules },
};
