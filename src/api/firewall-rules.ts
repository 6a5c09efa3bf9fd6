/**
 * `/zones/{zone_id}/firewall/rules`: the Firewall Rules API (developers.cloudflare.com/firewall/
 * api/cf-firewall-rules/; SDK `client.firewall.rules.*`, deprecated there but present).
 *
 * Emulates: list (filters `id`, `action`, `description`, `paused`; page-based, evaluation
 * order), create from a JSON array, bulk replace (PUT) and bulk edit (PATCH) from arrays, bulk
 * delete by `?id=a&id=b`, and get / replace / edit / delete of one rule. A rule's `filter` is
 * `{id}` (an existing filter; other fields beside `id` are ignored, as a client echoing a rule
 * sends them) or `{expression, paused?, description?, ref?}` (a new filter, locked).
 * SDK quirks (cloudflare-typescript `src/resources/firewall/rules.ts`, generated from Cloudflare's
 * OpenAPI schema, whose create and update bodies carry the rate-limiting API's action object):
 * `firewall.rules.create` and `.update` send one object whose `action` is `{mode, response?,
 * timeout?}`, where the documented API takes an array of rules whose `action` is a string
 * (developers.cloudflare.com/firewall/api/cf-firewall-rules/post/, json-object/). Both are
 * accepted: `mode` is mapped (`ban` to `block`, `simulate` to `log`, the challenges as they
 * are), `response` and `timeout` are shape-checked and not kept (`ACTION_OBJECT`). `edit` and
 * `bulkEdit` send `{}` / `{id}`: no change. Refused, as the documented API refuses them:
 * `bulkUpdate` sends PUT `{id}` alone, where a PUT must carry each rule whole with `id`,
 * `action` and `filter.id` (docs .../put/), a 400 10200 naming the missing field; `bulkDelete`
 * sends no ids, where they go in `?id=` (docs .../delete/), a 400 at `/id` (the SDK sends them
 * with the request option `query: {id: [...]}`).
 * The zone's rule quota is the var FIREWALL_RULES_QUOTA (default 1000, the Enterprise plan's).
 * DELETE takes `delete_filter_if_unused` in the body or the query. Answers are the SDK's types;
 * one deleted rule is `{id}` (plus `filter: {id, deleted: true}` when its filter went too).
 * Errors (codes in `zone/failure.ts`): 10202 `filter at index N: ...` for a rule's filter
 * (observed code; invalid expression, duplicate with `meta.id`, unknown id), 10203 over the
 * quota, 10200 other invalid fields and a PUT or PATCH naming one rule twice, 404 10201 unknown
 * rules (edgezone's choices), except in a bulk DELETE, which skips them and answers 200 as
 * Cloudflare documents (`zone/firewall-rules.ts`).
 */
import type { FirewallRule as SdkFirewallRule } from "cloudflare/resources/firewall/rules";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { jsonVar } from "../common/config";
import { CODES } from "../zone/failure";
import type { FirewallAction, FirewallRule } from "../zone/firewall-rules";
import { MAX_FIREWALL_DESCRIPTION, MAX_FIREWALL_REF } from "../zone/limits";
import { parseBatch, parseIds } from "./bulk-requests";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { FILTER_FIELDS, idMismatch } from "./filters";
import { PAGE_QUERY, pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { BOOLEAN_QUERY, HEX_ID, parseBody, parseOptionalBody, parseParam, parseQuery } from "./validate";

const CODE = CODES.firewallRuleInvalid;

const ACTIONS = ["block", "challenge", "js_challenge", "managed_challenge", "allow", "log", "bypass"] as const;
const ACTION_NAME = z.enum(ACTIONS, { error: `action must be one of ${ACTIONS.join(", ")}` });

// The SDK's rate-limit `mode` names for the same effects.
const MODES: Record<string, FirewallAction> = { ban: "block", simulate: "log" };

/**
 * The SDK's `RuleCreateParams.Action` / `RuleUpdateParams.Action` (cloudflare-typescript
 * `src/resources/firewall/rules.ts`): `{mode, response?, timeout?}`, shape-checked as the SDK
 * types it. Only `mode` sets the rule's action: `timeout` (a rate limit's mitigation time, 1 to
 * 86400 s) and `response` (a rate limit's custom body) have nothing to act on in a firewall rule,
 * which acts on each matching request with its action's own page, so they are taken and not kept.
 */
const ACTION_OBJECT = z
	.strictObject({
		mode: z.enum([...ACTIONS, "ban", "simulate"]),
		timeout: z.number().int().min(1).max(86_400).optional(),
		response: z
			.strictObject({
				body: z.string().optional(),
				content_type: z.enum(["text/plain", "text/xml", "application/json"]).optional(),
			})
			.optional(),
	})
	.transform(({ mode }): FirewallAction => MODES[mode] ?? (mode as FirewallAction));

/** `action`: a name, or the SDK's `{mode}` object. */
const ACTION = z.union([ACTION_NAME, ACTION_OBJECT], {
	error: `action must be one of ${ACTIONS.join(", ")}, or an object {"mode": ...}`,
});

const FIELDS = {
	action: ACTION,
	description: z.string().max(MAX_FIREWALL_DESCRIPTION),
	paused: z.boolean(),
	// 0 to 2147483647 (Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas); null: evaluated last.
	priority: z.number().int().min(0).max(2_147_483_647).nullable(),
	ref: z.string().max(MAX_FIREWALL_REF),
	products: z.array(z.enum(["zoneLockdown", "uaBlock", "bic", "hot", "securityLevel", "rateLimit", "waf"])).min(1),
};

/** `filter`: `{id, ...}` names an existing filter; otherwise `{expression, ...}` is a new one. */
const FILTER = z
	.strictObject({
		id: HEX_ID.optional(),
		expression: FILTER_FIELDS.expression.optional(),
		paused: FILTER_FIELDS.paused.optional(),
		description: FILTER_FIELDS.description.optional(),
		ref: FILTER_FIELDS.ref.optional(),
	})
	.superRefine((filter, ctx) => {
		if (filter.id === undefined && filter.expression === undefined)
			ctx.addIssue({ code: "custom", message: "a filter needs an id (an existing filter) or an expression" });
	})
	.transform(({ id, ...fields }) => (id === undefined ? { ...fields, expression: fields.expression ?? "" } : { id }));

const NEW_RULE = z.strictObject({
	filter: FILTER,
	action: FIELDS.action,
	description: FIELDS.description.optional(),
	paused: FIELDS.paused.optional(),
	priority: FIELDS.priority.optional(),
	ref: FIELDS.ref.optional(),
	products: FIELDS.products.optional(),
});
const RULE_REPLACE = NEW_RULE.extend({ id: HEX_ID });
const ONE_RULE_REPLACE = NEW_RULE.extend({ id: HEX_ID.optional() });

const RULE_EDIT = z.strictObject({
	id: HEX_ID,
	action: FIELDS.action.optional(),
	description: FIELDS.description.optional(),
	paused: FIELDS.paused.optional(),
	priority: FIELDS.priority.optional(),
	ref: FIELDS.ref.optional(),
	products: FIELDS.products.optional(),
});
const ONE_RULE_EDIT = RULE_EDIT.partial({ id: true });

const DELETE_OPTIONS = z.strictObject({ delete_filter_if_unused: z.boolean().default(false) });
const DELETE_QUERY = z.object({ delete_filter_if_unused: BOOLEAN_QUERY.optional() });

const LIST = z.object({
	id: HEX_ID.optional(),
	action: z.string().max(32).optional(),
	description: z.string().max(MAX_FIREWALL_DESCRIPTION).optional(),
	paused: BOOLEAN_QUERY.optional(),
	...PAGE_QUERY,
});

const QUOTA = z.coerce.number().int().min(0);

/** The zone's quota of firewall rules: the var FIREWALL_RULES_QUOTA (wrangler.toml: 1000, the Enterprise plan's). */
function ruleQuota(env: Env): number {
	return jsonVar("FIREWALL_RULES_QUOTA", env.FIREWALL_RULES_QUOTA, QUOTA);
}

/** Whether DELETE asks for the rules' filters to go when unused: body or query. */
async function deleteFilterIfUnused(c: Context<ApiEnv>): Promise<boolean> {
	const query = parseQuery(c, DELETE_QUERY, CODE);
	const body = await parseOptionalBody(c, DELETE_OPTIONS, CODE);
	return body.delete_filter_if_unused || query.delete_filter_if_unused === true;
}

// The stored `priority` is null when unset (the docs' POST example answers `"priority": null`,
// developers.cloudflare.com/firewall/api/cf-firewall-rules/post/), where the SDK's type says `number`.
type Answered = Omit<SdkFirewallRule, "priority"> & { priority?: number | null };

/** Routes under `/zones/{zone_id}/firewall/rules`. */
export const firewallRules = new Hono<ApiEnv>()
	.get("/", reads("Firewall Services"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const page = unwrap(await c.var.zoneState.listFirewallRules({ ...q, perPage: q.per_page }));
		return ok(page.items satisfies Answered[], pageInfo(q.page, q.per_page, page.items.length, page.total));
	})
	.post("/", writes("Firewall Services"), async (c) => {
		const entries = await parseBatch(c, NEW_RULE, CODE);
		return ok(unwrap(await c.var.zoneState.createFirewallRules(entries, ruleQuota(c.env))) satisfies Answered[]);
	})
	.put("/", writes("Firewall Services"), async (c) => {
		const entries = await parseBatch(c, RULE_REPLACE, CODE);
		return ok(unwrap(await c.var.zoneState.replaceFirewallRules(entries)) satisfies Answered[]);
	})
	.patch("/", writes("Firewall Services"), async (c) => {
		const entries = await parseBatch(c, RULE_EDIT, CODE);
		return ok(unwrap(await c.var.zoneState.editFirewallRules(entries)) satisfies Answered[]);
	})
	.delete("/", writes("Firewall Services"), async (c) => {
		const ids = parseIds(c, CODE);
		return ok(
			unwrap(
				await c.var.zoneState.deleteFirewallRules(ids, await deleteFilterIfUnused(c), "skip"),
			) satisfies Answered[],
		);
	})
	.get("/:rule_id", reads("Firewall Services"), async (c) => {
		const id = parseParam(c, "rule_id", HEX_ID);
		return ok(unwrap(await c.var.zoneState.getFirewallRule(id)) satisfies Answered);
	})
	.put("/:rule_id", writes("Firewall Services"), async (c) => {
		const id = parseParam(c, "rule_id", HEX_ID);
		const body = await parseBody(c, ONE_RULE_REPLACE, CODE);
		if (body.id !== undefined && body.id !== id) throw idMismatch(CODE, id);
		const [rule] = unwrap(await c.var.zoneState.replaceFirewallRules([{ input: { ...body, id }, pointer: "" }]));
		return ok(rule satisfies FirewallRule | undefined);
	})
	.patch("/:rule_id", writes("Firewall Services"), async (c) => {
		const id = parseParam(c, "rule_id", HEX_ID);
		const body = await parseBody(c, ONE_RULE_EDIT, CODE);
		if (body.id !== undefined && body.id !== id) throw idMismatch(CODE, id);
		return ok(
			unwrap(await c.var.zoneState.editFirewallRules([{ input: { ...body, id }, pointer: "" }])) satisfies Answered[],
		);
	})
	.delete("/:rule_id", writes("Firewall Services"), async (c) => {
		const id = parseParam(c, "rule_id", HEX_ID);
		const [deleted] = unwrap(await c.var.zoneState.deleteFirewallRules([id], await deleteFilterIfUnused(c), "refuse"));
		return ok(deleted satisfies Answered | undefined);
	});
