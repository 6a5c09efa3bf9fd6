/**
 * Where a bucket ledger keeps the storage class an object was written with when the binding does
 * not keep it: Miniflare's R2 simulator drops `storageClass` (its object rows have no such column,
 * and it answers `""` for every object), while R2 keeps `InfrequentAccess`
 * (https://developers.cloudflare.com/r2/buckets/storage-classes/). One row per key, with the
 * binding's `version` of the object written: a row is answered only for that version, so an
 * object written since by any other way is taken as the binding reports it, and no row ever needs
 * clearing for it. Only a class the binding's answer did not carry is recorded, so on R2 itself
 * the table stays empty. Each method runs inside the caller's transaction.
 */

/** The SQL of the table (part of the ledger's migration 7, `bucket-ledger.ts`). */
export const STORAGE_CLASS_SQL = `
	-- The binding's storage class (InfrequentAccess) of the object of this key and version.
	CREATE TABLE object_storage_classes (
		key TEXT PRIMARY KEY,
		version TEXT NOT NULL,
		storage_class TEXT NOT NULL
	);
`;

/** The storage class recorded for a key: the binding's version of the object it describes, and the binding's class name. */
export interface StoredStorageClass {
	version: string;
	storageClass: string;
}

type Row = { key: string; version: string; storage_class: string };

/** The `object_storage_classes` table. */
export class StorageClassStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Records that the object of `key` and `version` was written with `storageClass`. */
	stored(key: string, version: string, storageClass: string): void {
		this.#sql.exec(
			"INSERT OR REPLACE INTO object_storage_classes (key, version, storage_class) VALUES (?, ?, ?)",
			key,
			version,
			storageClass,
		);
	}

	/**
	 * The rows of `keys` (one list page: up to 1000, passed as one JSON parameter, since a query
	 * takes at most 100 bound parameters), by key.
	 */
	of(keys: readonly string[]): Map<string, StoredStorageClass> {
		const rows = this.#sql
			.exec<Row>(
				"SELECT key, version, storage_class FROM object_storage_classes WHERE key IN (SELECT value FROM json_each(?))",
				JSON.stringify(keys),
			)
			.toArray();
		return new Map(rows.map((row) => [row.key, { version: row.version, storageClass: row.storage_class }]));
	}

	/** Whether any object of the bucket was recorded with a storage class. */
	any(): boolean {
		return this.#sql.exec("SELECT 1 FROM object_storage_classes LIMIT 1").toArray().length > 0;
	}

	/** Forgets `key`, just deleted. */
	forget(key: string): void {
		this.#sql.exec("DELETE FROM object_storage_classes WHERE key = ?", key);
	}
}
