/**
 * The firewall: a zone's firewall rules and WAF custom rules against one request, before the
 * bucket sees it (developers.cloudflare.com/firewall/cf-firewall-rules/ and
 * developers.cloudflare.com/waf/custom-rules/).
 *
 * Order, and where it comes from:
 * 1. Firewall rules (legacy): by `priority`, lower first, rules without one last; rules of the
 *    same priority by the precedence of their action, log, bypass, allow, challenge,
 *    managed_challenge, js_challenge, block (docs firewall/cf-firewall-rules/actions, "listed
 *    in order of precedence"; cf-firewall-rules/order-priority). Paused rules, and rules whose
 *    filter is paused, are skipped. `log` and `bypass` record the match and go on ("Log and
 *    Bypass do not terminate further evaluation"); `allow` ends the firewall rules; a challenge
 *    or `block` ends the request.
 * 2. WAF custom rules, the enabled rules of the `http_request_firewall_custom` entrypoint in
 *    rule order (docs waf/custom-rules): `log` records; `skip` with `ruleset: "current"` ends
 *    the custom rules; a challenge or `block` ends the request. An `allow` of the firewall rules
 *    does not skip them: they are another phase, as on Cloudflare after the migration of
 *    firewall rules to custom rules.
 * Skipped later phases and bypassed products have nothing to act on locally; they are recorded.
 * A request whose string comparisons and function calls would pass its budget of work
 * (`rules-language/work-budget.ts`, edgezone's own limit) is answered 400 by the edge
 * (`security-pages.ts`) before any costly comparison runs, with the rules matched so far.
 *
 * A zone's rules are compiled once per configuration version and kept in the isolate, so no
 * request scans rules in SQL: the zone's view is cached by `zone-view.ts`, shared with the logs;
 * each expression is compiled once while it stays in the isolate's cache
 * (`rules-language/compiled-cache.ts`), so a write to one rule compiles that rule alone.
 */
import { andThen, type MaybePromise } from "../common/maybe-promise";
import {
	ComparisonWorkExceeded,
	type Evaluation,
	evaluation,
	type FieldValues,
	type Filter,
	type WorkBudget,
} from "../rules-language";
import { compileCached } from "../rules-language/compiled-cache";
import type { EdgeConfig } from "../zone/edge-config";
import type { EnforcedFirewallRule } from "../zone/firewall-rules";
import { type BlockResponse, blockAnswer, challengeAnswer, comparisonWorkAnswer } from "./security-pages";
import { derived, zoneView } from "./zone-view";

/** One rule that matched, as the `http_requests` log records it (`FirewallMatches*`, `SecurityRuleID`). */
interface FirewallMatch {
	ruleId: string;
	/** The action in the logs' spelling: block, challenge, jschallenge, managedChallenge, log, allow, bypass, skip. */
	action: string;
	/** The product, in the logs' spelling: firewallRules or firewallCustom. */
	source: "firewallRules" | "firewallCustom";
}

/** What the firewall decided for one request. */
export interface Verdict {
	/** The answer the edge gives instead of the gateway's; undefined lets the request through. */
	answer?: Response;
	/** Every rule that matched, in evaluation order; the last one decided when `answer` is set. */
	matches: FirewallMatch[];
}

type Terminal = "block" | "challenge" | "js_challenge" | "managed_challenge";

interface CompiledRule {
	id: string;
	filter: Filter;
	action: Terminal | "log" | "allow" | "bypass" | "skip";
	/** A custom rule's block response. */
	response?: BlockResponse;
	/** A custom `skip` rule that ends the custom rules. */
	skipsRuleset?: boolean;
}

interface CompiledZone {
	firewallRules: CompiledRule[];
	customRules: CompiledRule[];
	/** Every field any of the rules reads: the only ones a request's values are computed for. */
	fields: readonly string[];
}

const LOG_ACTIONS: Record<CompiledRule["action"], string> = {
	block: "block",
	challenge: "challenge",
	js_challenge: "jschallenge",
	managed_challenge: "managedChallenge",
	log: "log",
	allow: "allow",
	bypass: "bypass",
	skip: "skip",
};

/** Precedence of firewall-rule actions of the same priority (docs cf-firewall-rules/actions). */
const PRECEDENCE: readonly string[] = [
	"log",
	"bypass",
	"allow",
	"challenge",
	"managed_challenge",
	"js_challenge",
	"block",
];

/**
 * A stored expression compiles (it was validated on write); one that no longer does never matches.
 * One stored before the limits on an expression's regular expressions (`rules-language/parser.ts`)
 * still runs as written, compiled without them: a block rule must not stop blocking because a
 * later limit would refuse it today (the request's budget, `work-budget.ts`, still bounds it).
 * From the isolate's cache of compiled expressions: a new configuration version compiles only
 * the expressions it did not hold before.
 */
function filterOf(expression: string, ruleId: string): Filter {
	const written = compileCached(expression);
	const result = written.ok ? written : compileCached(expression, false);
	if (result.ok) return result.filter;
	console.error(`edgezone firewall: rule ${ruleId} no longer compiles and is skipped`, result.error.message);
	return { expression, fields: [], matches: () => false, matchesIn: () => false };
}

function compileFirewallRules(rules: readonly EnforcedFirewallRule[]): CompiledRule[] {
	const active = rules.filter((rule) => !rule.paused && !rule.filter.paused);
	const rank = (rule: EnforcedFirewallRule) => [
		rule.priority ?? Number.POSITIVE_INFINITY,
		PRECEDENCE.indexOf(rule.action),
	];
	// Array.prototype.sort is stable: rules equal in both keep the order the zone lists them in.
	active.sort((a, b) => {
		const [pa = 0, ra = 0] = rank(a);
		const [pb = 0, rb = 0] = rank(b);
		return pa - pb || ra - rb;
	});
	return active.map((rule) => ({
		id: rule.id,
		filter: filterOf(rule.filter.expression, rule.id),
		action: rule.action,
	}));
}

function compileCustomRules(rules: EdgeConfig["firewallCustomRules"]): CompiledRule[] {
	return rules.flatMap((rule): CompiledRule[] => {
		const filter = filterOf(rule.expression, rule.id);
		switch (rule.action) {
			case "block":
				return [{ id: rule.id, filter, action: "block", response: rule.action_parameters?.response }];
			case "skip":
				return [{ id: rule.id, filter, action: "skip", skipsRuleset: rule.action_parameters.ruleset === "current" }];
			case "challenge":
			case "js_challenge":
			case "managed_challenge":
			case "log":
				return [{ id: rule.id, filter, action: rule.action }];
			default:
				return [];
		}
	});
}

/** A zone's rules compiled, once per configuration version (`derived` in `zone-view.ts`). */
function compileZone(config: EdgeConfig): CompiledZone {
	const firewallRules = compileFirewallRules(config.firewallRules);
	const customRules = compileCustomRules(config.firewallCustomRules);
	const fields = new Set([...firewallRules, ...customRules].flatMap((rule) => rule.filter.fields));
	return { firewallRules, customRules, fields: [...fields] };
}

function terminalAnswer(rule: CompiledRule, rayId: string): Response | undefined {
	switch (rule.action) {
		case "block":
			return blockAnswer(rayId, rule.response);
		case "challenge":
		case "js_challenge":
		case "managed_challenge":
			return challengeAnswer(rayId, rule.action);
		default:
			return undefined;
	}
}

/**
 * Runs a zone's rules against one request, in the order of the file header.
 * @param fields the request's values of the named fields (those the zone's rules read), asked
 *   only when the zone has rules.
 * @param now when the request arrived, in ms since the epoch.
 * @param budget the request's budget of comparison work, when its other phases share it; else a fresh one.
 */
export function firewall(
	env: Env,
	zoneId: string,
	fields: (names: readonly string[]) => FieldValues,
	rayId: string,
	now: number,
	budget?: WorkBudget,
): MaybePromise<Verdict> {
	// At once when the zone's view is cached (the pipeline has just read it): no promise per request.
	return andThen(zoneView(env, zoneId, now), (view) =>
		verdictOf(derived(view, compileZone), zoneId, fields, rayId, budget),
	);
}

/** The firewall's verdict over a zone's compiled rules (`firewall`). */
function verdictOf(
	zone: CompiledZone,
	zoneId: string,
	fields: (names: readonly string[]) => FieldValues,
	rayId: string,
	budget: WorkBudget | undefined,
): Verdict {
	const matches: FirewallMatch[] = [];
	if (zone.firewallRules.length === 0 && zone.customRules.length === 0) return { matches };
	// One evaluation for all the rules: each field computed and converted once per request, and
	// one budget of comparison work, which a request whose comparisons would pass it is refused for.
	const values = evaluation(fields(zone.fields), undefined, budget);
	try {
		return evaluate(zone, values, matches, rayId);
	} catch (error) {
		if (!(error instanceof ComparisonWorkExceeded)) throw error;
		console.error(`edgezone firewall: zone ${zoneId}: ${error.message}; request ${rayId} refused`);
		return { answer: comparisonWorkAnswer(rayId, error.limit), matches };
	}
}

/** The rules of `zone` in order against one request's `values`; `matches` collects what matched. */
function evaluate(zone: CompiledZone, values: Evaluation, matches: FirewallMatch[], rayId: string): Verdict {
	for (const rule of zone.firewallRules) {
		if (!rule.filter.matchesIn(values)) continue;
		matches.push({ ruleId: rule.id, action: LOG_ACTIONS[rule.action], source: "firewallRules" });
		if (rule.action === "allow") break;
		const answer = terminalAnswer(rule, rayId);
		if (answer !== undefined) return { answer, matches };
	}
	for (const rule of zone.customRules) {
		if (!rule.filter.matchesIn(values)) continue;
		matches.push({ ruleId: rule.id, action: LOG_ACTIONS[rule.action], source: "firewallCustom" });
		if (rule.skipsRuleset) break;
		const answer = terminalAnswer(rule, rayId);
		if (answer !== undefined) return { answer, matches };
	}
	return { matches };
}
