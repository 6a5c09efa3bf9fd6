/**
 * Firewall rules of one zone: a filter and an action (Cloudflare Firewall Rules API,
 * developers.cloudflare.com/firewall/api/cf-firewall-rules/). Storage and semantics, run inside
 * the Zone's transactions.
 *
 * Emulates: the rule object (`id`, `paused`, `description`, `action`, `priority` (null unless
 * given; lower runs first, null last), `ref` ("" unless given), `products` (only with `bypass`),
 * `filter`); a filter given as `{id}` (an existing filter, shared) or `{expression, ...}` (created
 * with the rule and locked: such filters refuse PUT and DELETE, call-sequence page); a POST is one
 * transaction: any invalid rule or filter means nothing is created (10202 "filter at index N: ..."
 * for its filter), with the one exception the docs name: when the zone's rule quota would be
 * exceeded, the filters the request created stay, without their rules, and the answer names them
 * ("If you have exceeded your rule quota, the filter could be created while creating the rule may
 * fail", developers.cloudflare.com/firewall/api/call-sequence/). A refused request leaves nothing
 * else.
 * A PUT replaces a rule: a filter `{expression}` equal to the rule's current one keeps that
 * filter, another expression makes a new locked filter. DELETE leaves the filter unless
 * `delete_filter_if_unused`, then answers it as `{id, deleted: true}` (SDK `DeletedFilter`).
 * A PUT or PATCH naming one rule twice is refused whole (400 10200 at the repeat's `/N/id`,
 * edgezone's choice: Cloudflare's answer is not documented), so that no entry's new filter is
 * written and then overwritten by a later entry of the same request.
 * A bulk DELETE (`?id=`) skips ids that name no rule, a repeat included, and answers 200 with
 * the rules it deleted, each once ("Returns HTTP status code 200 if a specified rule does not
 * exist", developers.cloudflare.com/firewall/api/cf-firewall-rules/endpoints/; which ids the
 * answer lists is edgezone's choice); a DELETE of one rule by its path answers 404 for an
 * unknown one. Lists are in evaluation order (priority, null last, then creation).
 * A locked filter no rule uses (left by a PUT to another filter, a DELETE without the flag, or a
 * POST refused over the quota) stays, and the filters API may delete it (`filters.ts`). The
 * filters a quota-refused POST keeps count toward MAX_FILTERS, so refused POSTs can still fill
 * the zone's 5,000; the refusal names them, and the filters API deletes them (`?id=` of those
 * ids) or the recommended flow uses them by id, as the docs advise.
 * Gaps: plan entitlements (`log` is Enterprise only) are not checked; the real codes and
 * texts of the refusals are not public beyond 10202 (cloudflare/cloudflare-php#144); edgezone's
 * are in `failure.ts`.
 */
import type { Product } from "cloudflare/resources/firewall/rules";
import type { Action } from "cloudflare/resources/rate-limits/rate-limits";
import { randomHexId } from "../common/ids";
import { CODES, type Failure, FailureSignal, type Result } from "./failure";
import {
	DUPLICATE_MESSAGE,
	type Entry,
	type ExpressionProblem,
	type Filter,
	type FilterInput,
	type FilterStore,
	type Page,
	repeatedIds,
	type UnknownIds,
} from "./filters";
import { pageOf } from "./sql-pages";

/** The actions of a firewall rule (SDK `RateLimitsAPI.Action`; firewall/cf-firewall-rules/actions docs). */
export type FirewallAction = Action;

/** A firewall rule as the API answers it; `priority` is null when unset, as the real API sends it. */
export interface FirewallRule {
	id: string;
	paused: boolean;
	description: string;
	action: Action;
	priority: number | null;
	filter: Filter | { id: string; deleted: true };
	ref: string;
	products?: Product[];
}

/** A stored rule with its filter, as the edge enforces it (`EdgeConfig.firewallRules`). */
export interface EnforcedFirewallRule extends FirewallRule {
	filter: Filter;
}

/** The fields of a rule besides its filter. */
interface RuleFields {
	action: Action;
	description?: string;
	paused?: boolean;
	priority?: number | null;
	ref?: string;
	products?: Product[];
}

/** A rule's filter: an existing one by id, or a new one by its expression. */
type FilterChoice = { id: string } | FilterInput;

/** A new rule as a client sends it. */
export interface FirewallRuleInput extends RuleFields {
	filter: FilterChoice;
}

/** A rule replaced by a PUT. */
export interface FirewallRuleReplace extends FirewallRuleInput {
	id: string;
}

/** A deleted rule; `filter` when its filter was deleted with it (SDK `DeletedFilter`). */
export interface DeletedRule {
	id: string;
	filter?: { id: string; deleted: true };
}

/** A PATCH of a rule: the given fields replace the stored ones. */
export type FirewallRuleEdit = Partial<RuleFields> & { id: string };

/** Filters and paging of the rule list. */
export interface FirewallRuleQuery {
	id?: string;
	/** Exact. */
	action?: string;
	/** Substring. */
	description?: string;
	paused?: boolean;
	page: number;
	perPage: number;
}

/** Lower priorities first, null last, then creation order (firewall/cf-firewall-rules/order-priority docs). */
const EVALUATION_ORDER = "priority IS NULL, priority, seq";

interface RuleRow extends Record<string, SqlStorageValue> {
	id: string;
	filter_id: string;
	action: string;
	priority: number | null;
	paused: number;
	description: string;
	ref: string;
	products: string | null;
}

/** Firewall rules of one zone on its SQLite storage, with the zone's filters. Every method runs inside the caller's transaction. */
export class FirewallRuleStore {
	readonly #sql: SqlStorage;
	readonly #filters: FilterStore;

	constructor(sql: SqlStorage, filters: FilterStore) {
		this.#sql = sql;
		this.#filters = filters;
	}

	/**
	 * Creates rules and the filters given by expression. Every invalid entry is reported and
	 * nothing is written; past the zone's `quota` of rules the new filters are kept and no rule
	 * is: the answer is then a failed Result, to be committed as it is.
	 */
	create(entries: Entry<FirewallRuleInput>[], quota: number): Result<FirewallRule[]> {
		const failures = entries.flatMap((entry, index) => this.#check(entry, index));
		const newExpressions = entries.flatMap(({ input, pointer }, index) =>
			"id" in input.filter ? [] : [{ input: input.filter.expression, pointer, index }],
		);
		for (const { problem, at } of this.#filters.checkNew(newExpressions)) {
			const { index, pointer } = newExpressions[at] ?? { index: at, pointer: "" };
			failures.push(filterFailure(index, pointer, problem));
		}
		if (failures.length > 0) throw new FailureSignal(failures);
		const filterIds = entries.map(({ input }) =>
			"id" in input.filter ? input.filter.id : this.#filters.insert(input.filter, true).id,
		);
		const count = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM firewall_rules").one().n;
		if (count + entries.length > quota)
			return { ok: false, failures: [quotaFailure(quota, count, entries, filterIds)] };
		const rules = entries.map(({ input }, i) => this.#insert(input, filterIds[i] ?? ""));
		return { ok: true, value: rules };
	}

	/** One rule; 404 when unknown. */
	get(id: string): EnforcedFirewallRule {
		return this.#toRule(this.#row(id));
	}

	/** One page of rules in evaluation order, and how many match in all. */
	list(query: FirewallRuleQuery): Page<FirewallRule> {
		const { rows, total } = pageOf<RuleRow>(
			this.#sql,
			"firewall_rules",
			[
				["id = ?", query.id],
				["action = ?", query.action],
				["instr(description, ?) > 0", query.description],
				["paused = ?", query.paused === undefined ? undefined : Number(query.paused)],
			],
			EVALUATION_ORDER,
			query.page,
			query.perPage,
		);
		return { items: rows.map((row) => this.#toRule(row)), total };
	}

	/** Every rule in evaluation order: what the edge enforces. */
	all(): EnforcedFirewallRule[] {
		return this.#sql
			.exec<RuleRow>(`SELECT * FROM firewall_rules ORDER BY ${EVALUATION_ORDER}`)
			.toArray()
			.map((row) => this.#toRule(row));
	}

	/** Replaces rules (PUT); unknown rules (404), invalid entries or a rule named twice refuse the whole batch. */
	replace(entries: Entry<FirewallRuleReplace>[]): FirewallRule[] {
		const failures = repeatedIds(entries, "firewall rule", CODES.firewallRuleInvalid);
		if (failures.length > 0) throw new FailureSignal(failures);
		const kept = new Map<string, string>();
		const newExpressions: (Entry<string> & { index: number })[] = [];
		entries.forEach((entry, index) => {
			const { input, pointer } = entry;
			const current = this.#sql.exec<RuleRow>("SELECT * FROM firewall_rules WHERE id = ?", input.id).toArray()[0];
			if (current === undefined) {
				failures.push(notFoundRule(input.id));
				return;
			}
			failures.push(...this.#check(entry, index));
			if ("id" in input.filter) return;
			if (this.#filters.get(current.filter_id).expression === input.filter.expression)
				kept.set(input.id, current.filter_id);
			else newExpressions.push({ input: input.filter.expression, pointer, index });
		});
		for (const { problem, at } of this.#filters.checkNew(newExpressions)) {
			const { index, pointer } = newExpressions[at] ?? { index: at, pointer: "" };
			failures.push(filterFailure(index, pointer, problem));
		}
		if (failures.length > 0) throw new FailureSignal(failures);
		return entries.map(({ input }) => {
			const filterId =
				"id" in input.filter ? input.filter.id : (kept.get(input.id) ?? this.#filters.insert(input.filter, true).id);
			this.#sql.exec(
				`UPDATE firewall_rules SET filter_id = ?, action = ?, priority = ?, paused = ?, description = ?, ref = ?, products = ?
				 WHERE id = ?`,
				filterId,
				...fieldValues(input),
				input.id,
			);
			return this.get(input.id);
		});
	}

	/** Changes the given fields of rules (PATCH); unknown rules (404), invalid results or a rule named twice refuse the whole batch. */
	edit(entries: Entry<FirewallRuleEdit>[]): FirewallRule[] {
		const repeated = repeatedIds(entries, "firewall rule", CODES.firewallRuleInvalid);
		if (repeated.length > 0) throw new FailureSignal(repeated);
		const failures = entries.flatMap(({ input, pointer }) => {
			const current = this.#sql.exec<RuleRow>("SELECT * FROM firewall_rules WHERE id = ?", input.id).toArray()[0];
			if (current === undefined) return [notFoundRule(input.id)];
			return productsFailures({ ...fieldsOf(current), ...input }, pointer);
		});
		if (failures.length > 0) throw new FailureSignal(failures);
		return entries.map(({ input }) => {
			const next = { ...fieldsOf(this.#row(input.id)), ...input };
			this.#sql.exec(
				"UPDATE firewall_rules SET action = ?, priority = ?, paused = ?, description = ?, ref = ?, products = ? WHERE id = ?",
				...fieldValues(next),
				input.id,
			);
			return this.get(input.id);
		});
	}

	/**
	 * Deletes rules, each once however often it is named, answering them in the order first
	 * named. An unknown id refuses the batch (404) unless `unknown` is "skip". With
	 * `deleteFilterIfUnused`, filters left unused go too.
	 */
	delete(ids: string[], deleteFilterIfUnused: boolean, unknown: UnknownIds): DeletedRule[] {
		const present: string[] = [];
		const missing: string[] = [];
		for (const id of new Set(ids)) {
			const found = this.#sql.exec("SELECT 1 FROM firewall_rules WHERE id = ?", id).toArray().length > 0;
			(found ? present : missing).push(id);
		}
		if (missing.length > 0 && unknown === "refuse") throw new FailureSignal(missing.map(notFoundRule));
		return present.map((id) => {
			const filterId = this.#row(id).filter_id;
			this.#sql.exec("DELETE FROM firewall_rules WHERE id = ?", id);
			if (!deleteFilterIfUnused || this.#filters.rulesUsing(filterId).length > 0) return { id };
			this.#filters.remove(filterId);
			return { id, filter: { id: filterId, deleted: true } };
		});
	}

	/** The failures of one entry's fields and of its filter given by id. */
	#check({ input, pointer }: Entry<FirewallRuleInput>, index: number): Failure[] {
		const failures = productsFailures(input, pointer);
		if ("id" in input.filter && !this.#filters.has(input.filter.id)) {
			failures.push({
				kind: "invalid",
				code: CODES.firewallRuleFilter,
				message: `filter at index ${index}: could not find filter ${input.filter.id}`,
				pointer: `${pointer}/filter/id`,
			});
		}
		return failures;
	}

	#insert(input: FirewallRuleInput, filterId: string): FirewallRule {
		const id = randomHexId();
		this.#sql.exec(
			`INSERT INTO firewall_rules (id, filter_id, action, priority, paused, description, ref, products)
			 VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			id,
			filterId,
			...fieldValues(input),
		);
		return this.get(id);
	}

	#row(id: string): RuleRow {
		const row = this.#sql.exec<RuleRow>("SELECT * FROM firewall_rules WHERE id = ?", id).toArray()[0];
		if (row === undefined) throw new FailureSignal([notFoundRule(id)]);
		return row;
	}

	#toRule(row: RuleRow): EnforcedFirewallRule {
		return {
			id: row.id,
			paused: row.paused === 1,
			description: row.description,
			action: row.action as Action,
			priority: row.priority,
			filter: this.#filters.get(row.filter_id),
			ref: row.ref,
			...(row.products === null ? {} : { products: JSON.parse(row.products) as Product[] }),
		};
	}
}

/** The stored fields of a row, as a rule's input would give them. */
function fieldsOf(row: RuleRow): RuleFields {
	return {
		action: row.action as Action,
		priority: row.priority,
		paused: row.paused === 1,
		description: row.description,
		ref: row.ref,
		...(row.products === null ? {} : { products: JSON.parse(row.products) as Product[] }),
	};
}

/** Column values of `action, priority, paused, description, ref, products`, defaults filled in. */
function fieldValues(fields: RuleFields): SqlStorageValue[] {
	return [
		fields.action,
		fields.priority ?? null,
		fields.paused === true ? 1 : 0,
		fields.description ?? "",
		fields.ref ?? "",
		fields.products === undefined ? null : JSON.stringify(fields.products),
	];
}

/** `products` name what a `bypass` rule skips (SDK `Product`): refused with any other action. */
function productsFailures(fields: RuleFields, pointer: string): Failure[] {
	if (fields.products === undefined || fields.action === "bypass") return [];
	return [
		{
			kind: "invalid",
			code: CODES.firewallRuleInvalid,
			message: `products are only allowed with the bypass action, not ${fields.action}`,
			pointer: `${pointer}/products`,
		},
	];
}

/**
 * 10202 "filter at index N" (cloudflare/cloudflare-php#144) for a rule's new filter, with `meta.id`
 * of a duplicate's original.
 */
function filterFailure(index: number, pointer: string, problem: ExpressionProblem): Failure {
	const detail = problem.kind === "invalid" ? problem.engineText : DUPLICATE_MESSAGE;
	return {
		kind: "invalid",
		code: CODES.firewallRuleFilter,
		message: `filter at index ${index}: ${detail}`,
		pointer: `${pointer}/filter/expression`,
		...(problem.kind === "duplicate" && problem.id !== "" ? { meta: { id: problem.id } } : {}),
	};
}

/** The quota refusal, naming the filters the request created and kept (call-sequence docs). */
function quotaFailure(quota: number, count: number, entries: Entry<FirewallRuleInput>[], filterIds: string[]): Failure {
	const created = filterIds.filter((_, i) => !("id" in (entries[i]?.input.filter ?? {})));
	const kept =
		created.length === 0
			? "no rule or filter was created"
			: `no rule was created, but the filters of this request were: ${created.join(", ")}`;
	return {
		kind: "invalid",
		code: CODES.firewallRuleQuota,
		message: `exceeded the zone's quota of ${quota} firewall rules (${count} exist, ${entries.length} requested): ${kept}`,
	};
}

function notFoundRule(id: string): Failure {
	return { kind: "not_found", code: CODES.firewallRuleNotFound, message: `firewall rule ${id} not found` };
}
