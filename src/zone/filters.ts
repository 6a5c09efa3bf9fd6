/**
 * Filters of one zone: stand-alone expressions that firewall rules reference (Cloudflare Filters
 * API, developers.cloudflare.com/firewall/api/cf-filters/). Storage and semantics, run inside the
 * Zone's transactions.
 *
 * Emulates: 32-hex ids; one filter per expression (a duplicate is 10102 with `meta.id` of the
 * existing filter, terraform-provider-cloudflare#1577); expressions compiled by the Rules language
 * (`expressions.ts`); `paused` false by default; `description` and `ref` left out of the object
 * until set, as the real POST answer shows; batches all or nothing; page-based lists in creation
 * order, filtered by `id`, `ref` (exact), `expression` (case-insensitive substring), `description`
 * (substring), `paused`.
 * Filters created by a firewall rules POST are locked: the filters API may read them but not
 * change them, nor delete them while a rule uses them, and no filter a rule references may be
 * deleted. A locked filter that no rule references (its rule was deleted or moved to another
 * filter, or a POST refused over the rule quota kept it) may be deleted: the lock exists "to
 * protect against accidentally modifying or deleting filters used by other Cloudflare features"
 * (developers.cloudflare.com/firewall/api/call-sequence/), and an orphan is used by nothing, so
 * keeping it undeletable would only let it fill the zone (edgezone's reading of that sentence).
 * A bulk PUT naming one filter twice is refused whole (400 10100, edgezone's choice: Cloudflare's
 * answer is not documented). A bulk DELETE (`?id=`) skips ids that name no filter, a repeat
 * included, and answers 200 ("Returns HTTP status code 200 if a specified filter does not
 * exist", developers.cloudflare.com/firewall/api/cf-filters/endpoints/); its answer lists each
 * deleted filter once (edgezone's choice: the docs show only ids that exist).
 * Gaps: the real codes and texts of the other refusals are not public; edgezone's are in
 * `failure.ts`.
 */
import { randomHexId } from "../common/ids";
import { expressionError } from "./expressions";
import { CODES, type Failure, FailureSignal, invalid } from "./failure";
import { MAX_FILTERS } from "./limits";
import { pageOf } from "./sql-pages";

/** A filter as the API answers it (SDK `FirewallFilter`). */
export interface Filter {
	id: string;
	expression: string;
	paused: boolean;
	description?: string;
	ref?: string;
}

/** A new filter as a client sends it. */
export interface FilterInput {
	expression: string;
	paused?: boolean;
	description?: string;
	ref?: string;
}

/** A change of a filter: the given fields replace the stored ones. */
export interface FilterEdit {
	id: string;
	expression?: string;
	paused?: boolean;
	description?: string;
	ref?: string;
}

/** An item of a batch with the JSON pointer of its place in the request body ("" for a single object). */
export interface Entry<T> {
	input: T;
	pointer: string;
}

/**
 * What a delete does with an id that names nothing: a bulk DELETE (`?id=a&id=b`) skips it, as
 * Cloudflare answers 200 for it; a DELETE of one object by its path refuses it with 404.
 */
export type UnknownIds = "refuse" | "skip";

/**
 * 400 at `/N/id` for each entry of a batch whose `id` an earlier entry named: applying both would
 * let the last win and leave what the earlier ones wrote (a PUT's new locked filter) behind.
 * `noun` names the object in the message ("filter", "firewall rule"); `code` is the API's own.
 */
export function repeatedIds(entries: Entry<{ id: string }>[], noun: string, code: number): Failure[] {
	const first = new Map<string, string>();
	return entries.flatMap(({ input, pointer }) => {
		const earlier = first.get(input.id);
		if (earlier === undefined) {
			first.set(input.id, pointer);
			return [];
		}
		return [
			{
				kind: "invalid" as const,
				code,
				message: `${noun} ${input.id} is named more than once in this request (first at ${earlier})`,
				pointer: `${pointer}/id`,
			},
		];
	});
}

/** Filters and paging of a list; text filters are substrings unless said otherwise. */
export interface FilterQuery {
	id?: string;
	/** Exact. */
	ref?: string;
	/** Case-insensitive. */
	expression?: string;
	description?: string;
	paused?: boolean;
	page: number;
	perPage: number;
}

/** One page of a list and the number of matching items on all pages. */
export interface Page<T> {
	items: T[];
	total: number;
}

/** Why an expression cannot be a new filter: the engine refuses it, or another filter has it. */
export type ExpressionProblem = { kind: "invalid"; engineText: string } | { kind: "duplicate"; id: string };

interface FilterRow extends Record<string, SqlStorageValue> {
	id: string;
	expression: string;
	paused: number;
	description: string | null;
	ref: string | null;
	locked: number;
}

/** Filters of one zone on its SQLite storage. Every method runs inside the caller's transaction. */
export class FilterStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Creates filters through the filters API; every invalid or duplicate entry is reported, and then nothing is created. */
	create(entries: Entry<FilterInput>[]): Filter[] {
		const problems = this.checkNew(entries.map(({ input, pointer }) => ({ input: input.expression, pointer })));
		if (problems.length > 0)
			throw new FailureSignal(
				problems.map(({ problem, at }) => filtersApiFailure({ problem, pointer: entries[at]?.pointer ?? "" })),
			);
		return entries.map(({ input }) => this.insert(input, false));
	}

	/**
	 * The problems of new expressions, each with its position `at` in `expressions`: refused by
	 * the engine, a duplicate of a stored filter, or of an earlier expression of the same batch.
	 */
	checkNew(expressions: { input: string }[]): { problem: ExpressionProblem; at: number }[] {
		const found: { problem: ExpressionProblem; at: number }[] = [];
		const seen = new Set<string>();
		for (const [at, { input: expression }] of expressions.entries()) {
			const problem = this.problemOf(expression) ?? (seen.has(expression) ? duplicateInBatch : undefined);
			if (problem !== undefined) found.push({ problem, at });
			seen.add(expression);
		}
		return found;
	}

	/** Why `expression` cannot be given to a filter (other than `except`), or undefined when it can. */
	problemOf(expression: string, except?: string): ExpressionProblem | undefined {
		const engineText = expressionError(expression);
		if (engineText !== undefined) return { kind: "invalid", engineText };
		const existing = this.#sql
			.exec<{ id: string }>("SELECT id FROM filters WHERE expression = ?", expression)
			.toArray()[0];
		return existing === undefined || existing.id === except ? undefined : { kind: "duplicate", id: existing.id };
	}

	/** Stores a new filter whose expression was checked; `locked` for filters made by a firewall rules POST. */
	insert(input: FilterInput, locked: boolean): Filter {
		const count = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM filters").one().n;
		if (count >= MAX_FILTERS) invalid(CODES.filterQuota, `a zone holds at most ${MAX_FILTERS} filters`);
		const id = randomHexId();
		this.#sql.exec(
			"INSERT INTO filters (id, expression, paused, description, ref, locked) VALUES (?, ?, ?, ?, ?, ?)",
			id,
			input.expression,
			input.paused === true ? 1 : 0,
			input.description ?? null,
			input.ref ?? null,
			locked ? 1 : 0,
		);
		return this.get(id);
	}

	/** One filter; 404 when unknown. */
	get(id: string): Filter {
		return toFilter(this.#row(id));
	}

	/** Whether a filter exists. */
	has(id: string): boolean {
		return this.#sql.exec("SELECT 1 FROM filters WHERE id = ?", id).toArray().length > 0;
	}

	/** One page of filters in creation order, and how many match in all. */
	list(query: FilterQuery): Page<Filter> {
		const { rows, total } = pageOf<FilterRow>(
			this.#sql,
			"filters",
			[
				["id = ?", query.id],
				["ref = ?", query.ref],
				["instr(lower(expression), lower(?)) > 0", query.expression],
				["instr(description, ?) > 0", query.description],
				["paused = ?", query.paused === undefined ? undefined : Number(query.paused)],
			],
			"seq",
			query.page,
			query.perPage,
		);
		return { items: rows.map(toFilter), total };
	}

	/**
	 * Changes filters through the filters API: unknown (404), locked, invalid or duplicate
	 * entries, or one filter named twice, refuse the whole batch.
	 */
	update(entries: Entry<FilterEdit>[]): Filter[] {
		const failures = repeatedIds(entries, "filter", CODES.filterInvalid);
		if (failures.length > 0) throw new FailureSignal(failures);
		for (const { input, pointer } of entries) {
			const refusal = this.#refusal(input.id, pointer);
			if (refusal !== undefined) {
				failures.push(refusal);
				continue;
			}
			const problem = input.expression === undefined ? undefined : this.problemOf(input.expression, input.id);
			if (problem !== undefined) failures.push(filtersApiFailure({ problem, pointer }));
		}
		const expressions = entries.flatMap(({ input, pointer }) =>
			input.expression === undefined ? [] : [{ input: input.expression, pointer }],
		);
		for (const { at } of this.checkNew(expressions).filter(({ problem }) => problem === duplicateInBatch)) {
			failures.push(filtersApiFailure({ problem: duplicateInBatch, pointer: expressions[at]?.pointer ?? "" }));
		}
		if (failures.length > 0) throw new FailureSignal(failures);
		return entries.map(({ input }) => {
			const current = this.get(input.id);
			const next = { ...current, ...input };
			this.#sql.exec(
				"UPDATE filters SET expression = ?, paused = ?, description = ?, ref = ? WHERE id = ?",
				next.expression,
				next.paused ? 1 : 0,
				next.description ?? null,
				next.ref ?? null,
				input.id,
			);
			return this.get(input.id);
		});
	}

	/**
	 * Deletes filters through the filters API, each once however often it is named, and answers
	 * them in the order first named. A filter a rule uses (10103, or 10104 when it is locked)
	 * refuses the whole batch, as does an unknown one (404) unless `unknown` is "skip". A locked
	 * filter no rule uses may go: see the ledger.
	 */
	delete(entries: Entry<string>[], unknown: UnknownIds): { id: string }[] {
		const found = new Set<string>();
		const failures: Failure[] = [];
		for (const { input: id, pointer } of entries) {
			if (found.has(id)) continue;
			const row = this.#sql.exec<FilterRow>("SELECT * FROM filters WHERE id = ?", id).toArray()[0];
			if (row === undefined) {
				if (unknown === "refuse") failures.push(notFoundFilter(id));
				continue;
			}
			found.add(id);
			const rules = this.rulesUsing(id);
			// Used by no rule, an orphan protects nothing: it may go even when locked (see the ledger).
			if (rules.length === 0) continue;
			failures.push(
				row.locked === 1
					? lockedFailure(id, pointer, "deleted")
					: {
							kind: "invalid",
							code: CODES.filterInUse,
							message: `filter ${id} is used by firewall rule${rules.length > 1 ? "s" : ""} ${rules.join(", ")}; delete or change the rules first`,
							pointer,
						},
			);
		}
		if (failures.length > 0) throw new FailureSignal(failures);
		for (const id of found) this.remove(id);
		return [...found].map((id) => ({ id }));
	}

	/** Ids of the firewall rules that reference a filter. */
	rulesUsing(id: string): string[] {
		return this.#sql
			.exec<{ id: string }>("SELECT id FROM firewall_rules WHERE filter_id = ? ORDER BY seq", id)
			.toArray()
			.map((row) => row.id);
	}

	/** Deletes a filter, locked or not; the caller checked that no rule uses it. */
	remove(id: string): void {
		this.#sql.exec("DELETE FROM filters WHERE id = ?", id);
	}

	/** Why the filters API may not change filter `id`: unknown (404) or locked, used by a rule or not; undefined when it may. */
	#refusal(id: string, pointer: string): Failure | undefined {
		const row = this.#sql.exec<FilterRow>("SELECT * FROM filters WHERE id = ?", id).toArray()[0];
		if (row === undefined) return notFoundFilter(id);
		return row.locked === 0 ? undefined : lockedFailure(id, pointer, "changed");
	}

	#row(id: string): FilterRow {
		const row = this.#sql.exec<FilterRow>("SELECT * FROM filters WHERE id = ?", id).toArray()[0];
		if (row === undefined) throw new FailureSignal([notFoundFilter(id)]);
		return row;
	}
}

/** 10104: a filter created together with its firewall rule, which the filters API may not change or delete. */
function lockedFailure(id: string, pointer: string, verb: "changed" | "deleted"): Failure {
	return {
		kind: "invalid",
		code: CODES.filterLocked,
		message: `filter ${id} was created together with its firewall rule and cannot be ${verb} through the filters API; use the firewall rules API`,
		pointer,
	};
}

/** The problem of an expression that an earlier entry of the same batch has. */
const duplicateInBatch: ExpressionProblem = { kind: "duplicate", id: "" };

/** 404 for an unknown filter. */
function notFoundFilter(id: string): Failure {
	return { kind: "not_found", code: CODES.filterNotFound, message: `filter ${id} not found` };
}

/** The real duplicate text (terraform-provider-cloudflare#1577), with `meta.id` when the other is stored. */
export const DUPLICATE_MESSAGE = "config duplicates an already existing config";

/** A problem as the filters API reports it: 10014 with the engine text, or 10102 with `meta.id`. */
function filtersApiFailure({ problem, pointer }: { problem: ExpressionProblem; pointer: string }): Failure {
	const at = `${pointer}/expression`;
	if (problem.kind === "invalid")
		return { kind: "invalid", code: CODES.filterExpression, message: problem.engineText, pointer: at };
	return {
		kind: "invalid",
		code: CODES.filterDuplicate,
		message: DUPLICATE_MESSAGE,
		pointer: at,
		...(problem.id === "" ? {} : { meta: { id: problem.id } }),
	};
}

function toFilter(row: FilterRow): Filter {
	return {
		id: row.id,
		paused: row.paused === 1,
		...(row.description === null ? {} : { description: row.description }),
		expression: row.expression,
		...(row.ref === null ? {} : { ref: row.ref }),
	};
}
