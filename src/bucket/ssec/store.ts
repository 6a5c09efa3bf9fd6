/**
 * Where a bucket ledger keeps which objects were stored with an SSE-C key (`customer-key.ts`):
 * one row per key, with the binding's `version` of the object written (a new one for every
 * write, whatever its bytes) and the MD5 (base64) of the key. A row is answered only for the
 * object of that version, so an object written since by any other way (the native gateway, Worker
 * code, an S3 write without a key) is taken as stored without one, and no row ever needs
 * clearing for it. The MD5 an upload was created with is a column of the ledger's `uploads`.
 *
 * The binding keeps this itself where R2 stores SSE-C (`R2Object.ssecKeyMd5`), but Miniflare's R2
 * simulator drops the key (its schemas have no `ssec`), so locally the ledger is the only record;
 * the edge checks reads against the ledger in both places, so they behave alike. Each method runs
 * inside the caller's transaction.
 */

/** The migration that makes the table and column (`bucket-ledger.ts` lists it). */
export const SSEC_MIGRATION = {
	id: 6,
	name: "ssec",
	sql: `
		-- The SSE-C key's MD5 (base64) of the object of this key and version (the binding's).
		CREATE TABLE object_ssec (
			key TEXT PRIMARY KEY,
			version TEXT NOT NULL,
			key_md5 TEXT NOT NULL
		);
		-- The SSE-C key's MD5 an upload was created with.
		ALTER TABLE uploads ADD COLUMN ssec_key_md5 TEXT;
	`,
};

/** The object stored with an SSE-C key under some key: the binding's version of it, and the key's MD5. */
export interface StoredSsec {
	version: string;
	keyMd5: string;
}

/** The `object_ssec` table. */
export class SsecStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Records that the object of `key` and `version` was stored with the key of `keyMd5`. */
	stored(key: string, version: string, keyMd5: string): void {
		this.#sql.exec("INSERT OR REPLACE INTO object_ssec (key, version, key_md5) VALUES (?, ?, ?)", key, version, keyMd5);
	}

	/** The row of `key`, which the caller compares with the version it read; null for none. */
	of(key: string): StoredSsec | null {
		const [row] = this.#sql
			.exec<{ version: string; key_md5: string }>("SELECT version, key_md5 FROM object_ssec WHERE key = ?", key)
			.toArray();
		return row === undefined ? null : { version: row.version, keyMd5: row.key_md5 };
	}

	/**
	 * Whether any object of the bucket may have been stored with a key: one recorded, or an open
	 * upload with a key, which either dialect may complete.
	 */
	any(): boolean {
		return (
			this.#sql
				.exec(
					"SELECT 1 FROM object_ssec UNION ALL SELECT 1 FROM uploads WHERE state = 'open' AND ssec_key_md5 IS NOT NULL LIMIT 1",
				)
				.toArray().length > 0
		);
	}

	/** Forgets `key`, just deleted. */
	forget(key: string): void {
		this.#sql.exec("DELETE FROM object_ssec WHERE key = ?", key);
	}
}
