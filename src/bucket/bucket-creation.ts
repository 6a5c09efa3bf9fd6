/**
 * A bucket's creation date, which ListBuckets answers as `CreationDate`
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_Bucket.html). A binding tells none, so the
 * bucket's ledger (`bucket-ledger.ts`) keeps one: the moment the edge first saw the bucket, that
 * of the ledger's first migration (`_migrations.applied_at`, ISO 8601 in ms), copied into a row
 * of its own so it stays what it is whatever later migrations do. A ledger made before this
 * migration gets its first migration's time too, not the time of the upgrade. Durable Object
 * storage outlives restarts (and `wrangler dev` keeps it under `.wrangler/state`), so the date
 * is stable across them. Edgezone's choice: the bucket itself (declared in wrangler.toml, made
 * by Miniflare or R2) may be older.
 */

/** The migration that records the date (`bucket-ledger.ts` lists it). */
export const CREATION_MIGRATION = {
	id: 8,
	name: "bucket_creation",
	sql: `
		-- One row: when the edge first saw this bucket (ISO 8601, ms).
		CREATE TABLE bucket_creation (
			id INTEGER PRIMARY KEY CHECK (id = 1),
			created TEXT NOT NULL
		);
		INSERT INTO bucket_creation (id, created) SELECT 1, applied_at FROM _migrations WHERE id = 1;
	`,
};

/**
 * The bucket's creation date (ISO 8601), recorded as `at` (ISO 8601) if the ledger holds none,
 * which only a ledger whose first migration left no row would. Runs inside the caller's
 * transaction (a Durable Object method's).
 */
export function creationDate(sql: SqlStorage, at: string): string {
	sql.exec("INSERT OR IGNORE INTO bucket_creation (id, created) VALUES (1, ?)", at);
	const [row] = sql.exec<{ created: string }>("SELECT created FROM bucket_creation WHERE id = 1").toArray();
	return row?.created ?? at;
}
