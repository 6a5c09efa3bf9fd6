/**
 * Where the buckets created at run time are listed: one table of the zone registry
 * (`src/zone/registry.ts`, one instance per deployment, as an account's buckets are one list).
 * Each method runs inside the caller's transaction.
 *
 * A row's `id` is the bucket's own, random at creation: its objects' namespace in the backing
 * binding (`<id>/`) and its ledger's name (`ledgerName`), so a bucket deleted and created again
 * under the same name starts empty, whatever a late write left under the old one.
 */
import { randomHexId } from "../common/ids";
import { conflict, invalid } from "../zone/failure";
import { BUCKET_CODES, type BucketStorageClass, type LocationHint, MAX_BUCKETS } from "./names";

/** The registry's migration 5 (`src/zone/schema.ts` lists it). */
export const CREATED_BUCKETS_MIGRATION = {
	id: 5,
	name: "created_buckets",
	sql: `
		-- The buckets created at run time (src/runtime-buckets/). created: ISO 8601 (ms);
		-- location: an R2 location hint or NULL for auto; storage_class: the bucket's default.
		CREATE TABLE created_buckets (
			name TEXT PRIMARY KEY,
			id TEXT NOT NULL UNIQUE,
			created TEXT NOT NULL,
			location TEXT,
			storage_class TEXT NOT NULL
		);
	`,
};

/** A bucket created at run time, as the registry keeps it. */
export interface CreatedBucket {
	name: string;
	/** 32 hex digits: the namespace of its objects and the name of its ledger. */
	id: string;
	/** ISO 8601, ms. */
	created: string;
	location: LocationHint | null;
	storageClass: BucketStorageClass;
}

/** What a creation asks. */
export interface BucketCreate {
	name: string;
	location: LocationHint | null;
	storageClass: BucketStorageClass;
}

type Row = { name: string; id: string; created: string; location: string | null; storage_class: string };

const toBucket = (row: Row): CreatedBucket => ({
	name: row.name,
	id: row.id,
	created: row.created,
	location: row.location as LocationHint | null,
	storageClass: row.storage_class as BucketStorageClass,
});

/** The `created_buckets` table. */
export class CreatedBucketStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Every created bucket, in name order. */
	all(): CreatedBucket[] {
		return this.#sql.exec<Row>("SELECT * FROM created_buckets ORDER BY name").toArray().map(toBucket);
	}

	/** The bucket called `name`, or undefined. */
	byName(name: string): CreatedBucket | undefined {
		const [row] = this.#sql.exec<Row>("SELECT * FROM created_buckets WHERE name = ?", name).toArray();
		return row === undefined ? undefined : toBucket(row);
	}

	/** The bucket of id `id`, or undefined. */
	byId(id: string): CreatedBucket | undefined {
		const [row] = this.#sql.exec<Row>("SELECT * FROM created_buckets WHERE id = ?", id).toArray();
		return row === undefined ? undefined : toBucket(row);
	}

	/** How many buckets were created. */
	count(): number {
		return this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM created_buckets").one().n;
	}

	/** Adds a bucket made now (`at`, ISO 8601); the caller checked the name is free. */
	insert(input: BucketCreate, at: string): CreatedBucket {
		const bucket: CreatedBucket = { ...input, id: randomHexId(), created: at };
		this.#sql.exec(
			"INSERT INTO created_buckets (name, id, created, location, storage_class) VALUES (?, ?, ?, ?, ?)",
			bucket.name,
			bucket.id,
			bucket.created,
			bucket.location,
			bucket.storageClass,
		);
		return bucket;
	}

	/** Sets the default storage class of `name`; false when there is no such bucket. */
	setStorageClass(name: string, storageClass: BucketStorageClass): boolean {
		return (
			this.#sql.exec("UPDATE created_buckets SET storage_class = ? WHERE name = ?", storageClass, name).rowsWritten > 0
		);
	}

	/** Removes `name`; false when there was no such bucket. */
	remove(name: string): boolean {
		return this.#sql.exec("DELETE FROM created_buckets WHERE name = ?", name).rowsWritten > 0;
	}
}

/**
 * Creates a bucket in `store` (inside the registry's transaction), at `at` (ISO 8601).
 * Fails 409 10073 for a name declared or created already, 400 10009 past `MAX_BUCKETS` with the
 * `declared` ones counted.
 */
export function createIn(
	store: CreatedBucketStore,
	input: BucketCreate,
	declared: readonly string[],
	at: string,
): CreatedBucket {
	if (declared.includes(input.name) || store.byName(input.name) !== undefined) {
		conflict(BUCKET_CODES.conflict, "The bucket you tried to create already exists, and you own it.");
	}
	if (declared.length + store.count() >= MAX_BUCKETS) {
		invalid(BUCKET_CODES.tooMany, `You have reached the maximum number of buckets allowed (${MAX_BUCKETS}).`);
	}
	return store.insert(input, at);
}
