/**
 * Where a bucket ledger keeps its bucket's lifecycle rules: one row of its SQLite, with the name
 * of the R2 binding the ledger is for, so that its alarm can reach the bucket (a Durable Object
 * is not told the name it was addressed by). No row, or a row without rules, is a bucket no
 * configuration was ever put to: R2's default rule applies (`rules.ts`); an empty list is one
 * whose configuration was deleted. Each method runs inside the caller's transaction.
 */
import { DEFAULT_RULES, type LifecycleRule } from "../../edge/s3/lifecycle/rules";

/** The migration that makes the table (`bucket-ledger.ts` lists it). */
export const LIFECYCLE_MIGRATION = {
	id: 5,
	name: "lifecycle",
	sql: `
		-- The bucket's lifecycle rules (a JSON array; NULL for R2's default) and its binding's name.
		CREATE TABLE lifecycle (
			id INTEGER PRIMARY KEY CHECK (id = 1),
			binding TEXT NOT NULL,
			rules TEXT
		);
	`,
};

/** The one-row `lifecycle` table. */
export class LifecycleStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The rules in effect: those put last, none after a delete, R2's default before any put. */
	rules(): readonly LifecycleRule[] {
		const rules = this.#row()?.rules;
		return rules === undefined || rules === null ? DEFAULT_RULES : (JSON.parse(rules) as LifecycleRule[]);
	}

	/** The name of the R2 binding the ledger is for, once a request has said it. */
	binding(): string | undefined {
		return this.#row()?.binding;
	}

	/** Records the binding's name, keeping the rules. */
	remember(binding: string): void {
		this.#sql.exec(
			"INSERT INTO lifecycle (id, binding, rules) VALUES (1, ?, NULL) ON CONFLICT (id) DO UPDATE SET binding = excluded.binding",
			binding,
		);
	}

	/** Replaces the rules (an empty list deletes the configuration). */
	set(binding: string, rules: readonly LifecycleRule[]): void {
		this.#sql.exec(
			"INSERT OR REPLACE INTO lifecycle (id, binding, rules) VALUES (1, ?, ?)",
			binding,
			JSON.stringify(rules),
		);
	}

	#row(): { binding: string; rules: string | null } | undefined {
		return this.#sql
			.exec<{ binding: string; rules: string | null }>("SELECT binding, rules FROM lifecycle")
			.toArray()[0];
	}
}
