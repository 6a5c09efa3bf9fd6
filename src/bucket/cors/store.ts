/**
 * Where a bucket ledger keeps its bucket's CORS rules (`rules.ts`), which the binding cannot
 * hold: one row, a JSON array. No row is a bucket with no CORS configuration, which the gateway's
 * default (`CORS_ORIGINS`) then covers. Each method runs inside the caller's transaction.
 */
import type { CorsRule } from "../../edge/s3/cors/rules";

/** The SQL of the table (part of the ledger's migration 7, `bucket-ledger.ts`). */
export const BUCKET_CORS_SQL = `
	-- The bucket's CORS rules (a JSON array), put by PutBucketCors.
	CREATE TABLE bucket_cors (
		id INTEGER PRIMARY KEY CHECK (id = 1),
		rules TEXT NOT NULL
	);
`;

/** The one-row `bucket_cors` table. */
export class CorsStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The rules put last; none when the bucket has no configuration. */
	rules(): CorsRule[] {
		const [row] = this.#sql.exec<{ rules: string }>("SELECT rules FROM bucket_cors").toArray();
		return row === undefined ? [] : (JSON.parse(row.rules) as CorsRule[]);
	}

	/** Replaces the rules; none deletes the configuration. */
	set(rules: readonly CorsRule[]): void {
		if (rules.length === 0) this.#sql.exec("DELETE FROM bucket_cors");
		else this.#sql.exec("INSERT OR REPLACE INTO bucket_cors (id, rules) VALUES (1, ?)", JSON.stringify(rules));
	}
}
