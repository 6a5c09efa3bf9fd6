/**
 * The edge's record of what the R2 binding does not keep about a bucket: one SQLite Durable
 * Object per R2 binding, which outlives isolates and restarts. It holds
 * - the multipart uploads, for S3's ListMultipartUploads and ListParts
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListMultipartUploads.html,
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListParts.html). R2 answers both through
 *   its S3 API (https://developers.cloudflare.com/r2/api/s3/api/), but the binding has no way to
 *   list uploads or parts (workerd `r2-bucket.h`, `r2-multipart.h`), so the edge keeps what it sees;
 * - the flexible checksum an object was uploaded with through the S3 dialect when the binding
 *   cannot store it (CRC32, CRC32C, CRC64NVME, or a SHA sent in a trailer: `R2PutOptions` takes
 *   MD5 and the SHAs up front only), so that a read with `x-amz-checksum-mode: ENABLED` answers it
 *   as R2 does (https://developers.cloudflare.com/r2/api/s3/api/, "Checksum types").
 *
 * Uploads: both dialects write them, after the binding has done the operation: the S3 dialect
 * (`src/edge/s3/multipart.ts`, `copy.ts`) and the native gateway (src/edge/gateway/multipart.ts), which
 * RemoteBucket speaks; so an upload begun through one is listed through the other. An upload the
 * edge learns of only by one of its parts (begun by Worker code on the binding itself) is
 * recorded from that part on, its initiation time that of the part. Uploads Worker code drives on
 * the binding alone never reach it: that gap is said in docs/gateway.md. A finished (completed or
 * aborted) upload keeps its row, without parts, so the S3 dialect can answer NoSuchUpload for it;
 * finished rows go after 7 days, the time R2 keeps an abandoned upload
 * (https://developers.cloudflare.com/r2/objects/multipart-objects/) — edgezone's choice.
 *
 * - the flexible checksum an upload was created with and each part's checksum of it, from which
 *   CompleteMultipartUpload makes the object's (`src/edge/s3/checksums/multipart-checksums.ts`), kept as above;
 * - the part sizes of an object a multipart upload completed, for GetObject's `partNumber`
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_GetObject.html): the binding does not say
 *   where an object's parts begin.
 *
 * - the bucket's lifecycle rules (`lifecycle/`), which the binding cannot set: S3's
 *   Get/Put/DeleteBucketLifecycleConfiguration read and write them, and the ledger applies them
 *   once a day on its alarm (`lifecycle/sweep.ts`), or at a moment the emulator route asks.
 * - which objects and uploads were stored with an SSE-C key, by the key's MD5 (`ssec/store.ts`):
 *   locally the binding keeps no trace of the key.
 * - the bucket's creation date, which the binding does not tell (`bucket-creation.ts`).
 * - the storage class an object was written with (`storage-class/store.ts`), which Miniflare's
 *   binding forgets, and the bucket's CORS rules (`cors/`), which the binding cannot set.
 *
 * Checksums and part sizes: one row per key, with the ETag of the object they describe. A row is answered
 * only for an object of that ETag: an object written since by any other way (the native gateway,
 * Worker code) has another ETag unless it holds the same bytes (a single-part ETag is the MD5 of
 * the bytes), so a row never describes bytes it was not computed over.
 */
import { DurableObject } from "cloudflare:workers";
import { type ChecksumType, type UploadChecksum, uploadChecksumFrom } from "../edge/s3/checksums/multipart-checksums";
import type { CorsRule } from "../edge/s3/cors/rules";
import type { LifecycleRule } from "../edge/s3/lifecycle/rules";
import { bucketOfLedger } from "../runtime-buckets/catalog";
import { migrate } from "../zone/schema";
import { CREATION_MIGRATION, creationDate } from "./bucket-creation";
import { BUCKET_CORS_SQL, CorsStore } from "./cors/store";
import { LIFECYCLE_MIGRATION, LifecycleStore } from "./lifecycle/store";
import { type LifecycleSweep, type OpenUpload, sweepBucket } from "./lifecycle/sweep";
import { SSEC_MIGRATION, SsecStore, type StoredSsec } from "./ssec/store";
import { STORAGE_CLASS_SQL, StorageClassStore, type StoredStorageClass } from "./storage-class/store";

/** How often the alarm applies the lifecycle rules, in ms: R2 applies them "typically within 24 hours". */
const SWEEP_INTERVAL_MS = 24 * 60 * 60 * 1000;

/** How long a finished upload's row is kept, in ms. */
const FINISHED_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const MIGRATIONS = [
	{
		id: 1,
		name: "uploads_and_parts",
		sql: `
			-- One row per upload the edge saw; state 'open', 'completed' or 'aborted'. Times in ms.
			CREATE TABLE uploads (
				upload_id TEXT PRIMARY KEY,
				key TEXT NOT NULL,
				initiated INTEGER NOT NULL,
				storage_class TEXT NOT NULL,
				state TEXT NOT NULL,
				finished INTEGER
			);
			-- ListMultipartUploads pages by (key, upload_id), UTF-8 byte order as S3 sorts keys.
			CREATE INDEX uploads_by_key ON uploads (state, key, upload_id);
			CREATE TABLE parts (
				upload_id TEXT NOT NULL,
				part_number INTEGER NOT NULL,
				etag TEXT NOT NULL,
				size INTEGER NOT NULL,
				uploaded INTEGER NOT NULL,
				PRIMARY KEY (upload_id, part_number)
			);
		`,
	},
	{
		id: 2,
		name: "object_checksums",
		sql: `
			-- The flexible checksum of the object of this key and etag (the binding's, unquoted):
			-- its response header (x-amz-checksum-crc32, ...) and base64 value.
			CREATE TABLE object_checksums (
				key TEXT PRIMARY KEY,
				etag TEXT NOT NULL,
				header TEXT NOT NULL,
				value TEXT NOT NULL
			);
		`,
	},
	{
		id: 3,
		name: "object_parts",
		sql: `
			-- The part sizes, in bytes and part order, of the object of this key and etag that a
			-- multipart upload completed, for GetObject's partNumber.
			CREATE TABLE object_parts (
				key TEXT PRIMARY KEY,
				etag TEXT NOT NULL,
				sizes TEXT NOT NULL
			);
		`,
	},
	{
		id: 4,
		name: "multipart_checksums",
		sql: `
			-- The flexible checksum an upload was created with (S3's name, CRC32...; COMPOSITE or
			-- FULL_OBJECT), each part's checksum of it (base64), and an object checksum's type.
			ALTER TABLE uploads ADD COLUMN checksum_algorithm TEXT;
			ALTER TABLE uploads ADD COLUMN checksum_type TEXT;
			ALTER TABLE parts ADD COLUMN checksum TEXT;
			ALTER TABLE object_checksums ADD COLUMN type TEXT NOT NULL DEFAULT 'FULL_OBJECT';
			-- The parts' checksums (a JSON array of base64, in part order) of an object whose
			-- checksum was made from them, for a partNumber read.
			ALTER TABLE object_parts ADD COLUMN checksums TEXT;
		`,
	},
	LIFECYCLE_MIGRATION,
	SSEC_MIGRATION,
	{ id: 7, name: "storage_classes_and_cors", sql: STORAGE_CLASS_SQL + BUCKET_CORS_SQL },
	CREATION_MIGRATION,
];

/**
 * A flexible checksum as a response carries it: its header (`x-amz-checksum-crc32`, …), base64
 * value (with `-N` for a COMPOSITE one) and type (`x-amz-checksum-type`).
 */
export interface ObjectChecksum {
	header: string;
	value: string;
	type: ChecksumType;
}

/** A recorded checksum and the ETag (unquoted) of the object it was computed over. */
export interface RecordedChecksum extends ObjectChecksum {
	etag: string;
}

/** A multipart object's parts: sizes in bytes, and checksums (base64) when its checksum was made from them. */
export interface ObjectParts {
	sizes: number[];
	checksums?: string[];
}

/**
 * What a completion made: the object's ETag (unquoted) and version (the binding's), the part
 * numbers it took in order, and its flexible checksum, if one was made.
 */
export interface CompletedUpload {
	etag: string;
	version: string;
	partNumbers: readonly number[];
	checksum?: ObjectChecksum;
}

/** An upload as recorded. */
export interface UploadRecord {
	uploadId: string;
	key: string;
	/** ms since the epoch. */
	initiated: number;
	/** The binding's storage class (`Standard`, `InfrequentAccess`). */
	storageClass: string;
	state: "open" | "completed" | "aborted";
	/** The flexible checksum it was created with, if any. */
	checksum?: UploadChecksum;
	/** The MD5 (base64) of the SSE-C key it was created with, if any. */
	ssecKeyMd5?: string;
}

/**
 * A part as recorded: its number, the binding's etag (unquoted), size in bytes, time in ms, and
 * its checksum (base64) of its upload's algorithm, when the upload has one (computed or verified
 * by the edge, in either dialect).
 */
export interface PartRecord {
	partNumber: number;
	etag: string;
	size: number;
	uploaded: number;
	checksum?: string;
}

/** One page of the open uploads of a bucket, in (key, uploadId) order. */
export interface UploadsPage {
	uploads: UploadRecord[];
	/** Common prefixes under the delimiter, each counted once, in order. */
	prefixes: string[];
	truncated: boolean;
	/** The last key and upload id (or common prefix) of the page, for the next page's markers. */
	nextKeyMarker?: string;
	nextUploadIdMarker?: string;
}

/** What ListMultipartUploads asks for. */
export interface UploadsQuery {
	prefix: string;
	delimiter?: string;
	keyMarker?: string;
	uploadIdMarker?: string;
	/** 1 to 1000. */
	maxUploads: number;
}

type UploadRow = {
	upload_id: string;
	key: string;
	initiated: number;
	storage_class: string;
	state: UploadRecord["state"];
	checksum_algorithm: string | null;
	checksum_type: string | null;
	ssec_key_md5: string | null;
};

const UPLOAD_COLUMNS =
	"upload_id, key, initiated, storage_class, state, checksum_algorithm, checksum_type, ssec_key_md5";

function toUpload(row: UploadRow): UploadRecord {
	const upload: UploadRecord = {
		uploadId: row.upload_id,
		key: row.key,
		initiated: row.initiated,
		storageClass: row.storage_class,
		state: row.state,
	};
	const checksum = uploadChecksumFrom(row.checksum_algorithm, row.checksum_type);
	if (checksum !== undefined) upload.checksum = checksum;
	if (row.ssec_key_md5 !== null) upload.ssecKeyMd5 = row.ssec_key_md5;
	return upload;
}

type PartRow = { part_number: number; etag: string; size: number; uploaded: number; checksum: string | null };

function toPart(row: PartRow): PartRecord {
	const part: PartRecord = { partNumber: row.part_number, etag: row.etag, size: row.size, uploaded: row.uploaded };
	if (row.checksum !== null) part.checksum = row.checksum;
	return part;
}

/** The record of what one R2 binding does not keep: its multipart uploads, its objects' flexible checksums (see the module comment). */
export class BucketLedger extends DurableObject<Env> {
	readonly #lifecycle: LifecycleStore;
	readonly #ssec: SsecStore;
	readonly #storageClasses: StorageClassStore;
	readonly #cors: CorsStore;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.#lifecycle = new LifecycleStore(ctx.storage.sql);
		this.#ssec = new SsecStore(ctx.storage.sql);
		this.#storageClasses = new StorageClassStore(ctx.storage.sql);
		this.#cors = new CorsStore(ctx.storage.sql);
		void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, MIGRATIONS));
	}

	/** The bucket's creation date for ListBuckets, ISO 8601: when the edge first saw it (`bucket-creation.ts`). */
	bucketCreated(): string {
		return creationDate(this.ctx.storage.sql, new Date().toISOString());
	}

	/** The lifecycle rules in effect (R2's default until a configuration is put). */
	lifecycle(): readonly LifecycleRule[] {
		return this.#lifecycle.rules();
	}

	/** Replaces the lifecycle rules of the bucket of `binding` (none: the configuration deleted). */
	async setLifecycle(binding: string, rules: readonly LifecycleRule[]): Promise<void> {
		this.#lifecycle.set(binding, rules);
		await this.#armSweep();
	}

	/**
	 * Applies the lifecycle rules to the bucket of `binding` as they stand at `at` (ms since the
	 * epoch): the emulator route's way to see a rule act without waiting for its days.
	 */
	async applyLifecycle(binding: string, at: number): Promise<LifecycleSweep> {
		this.#lifecycle.remember(binding);
		return this.#sweep(binding, at);
	}

	/** The daily sweep, at real time; armed again while a rule is enabled. */
	override async alarm(): Promise<void> {
		const binding = this.#lifecycle.binding();
		if (binding === undefined) return;
		await this.#sweep(binding, Date.now());
		await this.#armSweep();
	}

	async #sweep(binding: string, at: number): Promise<LifecycleSweep> {
		const served = await bucketOfLedger(this.env, binding);
		if (served === undefined) return { at, objectsExpired: 0, uploadsAborted: 0 };
		const uploads = this.ctx.storage.sql
			.exec<{ upload_id: string; key: string; initiated: number }>(
				"SELECT upload_id, key, initiated FROM uploads WHERE state = 'open'",
			)
			.toArray()
			.map((row): OpenUpload => ({ uploadId: row.upload_id, key: row.key, initiated: row.initiated }));
		return sweepBucket(served.bucket, this.#lifecycle.rules(), uploads, at, {
			objectsDeleted: (keys) => this.objectsDeleted(keys),
			uploadAborted: (uploadId, key, when) => this.finished(uploadId, key, "aborted", when),
		});
	}

	/**
	 * Drops every record of the bucket, which was just deleted (a bucket created at run time,
	 * src/runtime-buckets/manage.ts), and its alarm: answers the uploads still open, for the
	 * caller to abort on the binding.
	 */
	async dropBucket(): Promise<OpenUpload[]> {
		const open = this.ctx.storage.sql
			.exec<{ upload_id: string; key: string; initiated: number }>(
				"SELECT upload_id, key, initiated FROM uploads WHERE state = 'open'",
			)
			.toArray()
			.map((row): OpenUpload => ({ uploadId: row.upload_id, key: row.key, initiated: row.initiated }));
		await this.ctx.storage.deleteAlarm();
		await this.ctx.storage.deleteAll();
		return open;
	}

	/** Sets the alarm a day out when a rule is enabled and none is set. */
	async #armSweep(): Promise<void> {
		if (!this.#lifecycle.rules().some((rule) => rule.enabled)) return;
		if ((await this.ctx.storage.getAlarm()) === null) await this.ctx.storage.setAlarm(Date.now() + SWEEP_INTERVAL_MS);
	}

	/** Records the flexible checksum of the object of `key` and `etag` (unquoted), replacing any other of `key`. */
	checksumStored(key: string, etag: string, checksum: ObjectChecksum): void {
		this.ctx.storage.sql.exec(
			"INSERT OR REPLACE INTO object_checksums (key, etag, header, value, type) VALUES (?, ?, ?, ?, ?)",
			key,
			etag,
			checksum.header,
			checksum.value,
			checksum.type,
		);
	}

	/**
	 * The flexible checksum last recorded for `key`, with the ETag (unquoted) of the object it was
	 * computed over, which the caller compares with the object it read; null for none. Asked by
	 * key alone so that a read can ask it while the binding is still answering.
	 */
	storedChecksum(key: string): RecordedChecksum | null {
		const [row] = this.ctx.storage.sql
			.exec<{ etag: string; header: string; value: string; type: ChecksumType }>(
				"SELECT etag, header, value, type FROM object_checksums WHERE key = ?",
				key,
			)
			.toArray();
		return row ?? null;
	}

	/** Records that the object of `key` and `version` (the binding's) was stored with the SSE-C key of `keyMd5`. */
	ssecStored(key: string, version: string, keyMd5: string): void {
		this.#ssec.stored(key, version, keyMd5);
	}

	/**
	 * The SSE-C record of `key`, with the version of the object it describes, which the caller
	 * compares with the object it read; null for none.
	 */
	storedSsec(key: string): StoredSsec | null {
		return this.#ssec.of(key);
	}

	/** Whether any object of the bucket may have been stored with an SSE-C key. */
	hasSsecObjects(): boolean {
		return this.#ssec.any();
	}

	/** Records that the object of `key` and `version` (the binding's) was written with `storageClass`. */
	storageClassStored(key: string, version: string, storageClass: string): void {
		this.#storageClasses.stored(key, version, storageClass);
	}

	/**
	 * The storage classes recorded for `keys` (at most a list page's 1000), with the version of the
	 * object each describes, which the caller compares with the object it read.
	 */
	storedStorageClasses(keys: readonly string[]): Map<string, StoredStorageClass> {
		return this.#storageClasses.of(keys);
	}

	/** Whether any object of the bucket was recorded with a storage class. */
	hasStorageClasses(): boolean {
		return this.#storageClasses.any();
	}

	/** The bucket's CORS rules; none when it has no configuration. */
	cors(): CorsRule[] {
		return this.#cors.rules();
	}

	/** Replaces the bucket's CORS rules (none: the configuration deleted). */
	setCors(rules: readonly CorsRule[]): void {
		this.#cors.set(rules);
	}

	/**
	 * The parts of the multipart object of `key` and `etag`: their sizes (bytes, in order) and,
	 * when the object's checksum was made from theirs, their checksums (base64, in order); null
	 * when not recorded.
	 */
	objectParts(key: string, etag: string): ObjectParts | null {
		const [row] = this.ctx.storage.sql
			.exec<{ sizes: string; checksums: string | null }>(
				"SELECT sizes, checksums FROM object_parts WHERE key = ? AND etag = ?",
				key,
				etag,
			)
			.toArray();
		if (row === undefined) return null;
		const parts: ObjectParts = { sizes: JSON.parse(row.sizes) as number[] };
		if (row.checksums !== null) parts.checksums = JSON.parse(row.checksums) as string[];
		return parts;
	}

	/** Forgets the checksums, part sizes and SSE-C records of deleted keys. */
	objectsDeleted(keys: readonly string[]): void {
		const sql = this.ctx.storage.sql;
		this.ctx.storage.transactionSync(() => {
			for (const key of keys) {
				sql.exec("DELETE FROM object_checksums WHERE key = ?", key);
				sql.exec("DELETE FROM object_parts WHERE key = ?", key);
				this.#ssec.forget(key);
				this.#storageClasses.forget(key);
			}
		});
	}

	/**
	 * Records a new upload of the bucket of `binding`; prunes finished rows past their time, and
	 * arms the lifecycle's sweep, which aborts the upload if it is left open too long.
	 */
	async created(binding: string, upload: Omit<UploadRecord, "state">): Promise<void> {
		this.#lifecycle.remember(binding);
		await this.#armSweep();
		const sql = this.ctx.storage.sql;
		sql.exec("DELETE FROM uploads WHERE state != 'open' AND finished < ?", upload.initiated - FINISHED_TTL_MS);
		sql.exec(
			`INSERT OR REPLACE INTO uploads (${UPLOAD_COLUMNS}) VALUES (?, ?, ?, ?, 'open', ?, ?, ?)`,
			upload.uploadId,
			upload.key,
			upload.initiated,
			upload.storageClass,
			upload.checksum?.algorithm.name ?? null,
			upload.checksum?.type ?? null,
			upload.ssecKeyMd5 ?? null,
		);
	}

	/**
	 * Records a part the binding took (replacing one of the same number, as R2 does). The binding
	 * took it, so the upload is open: one the ledger did not know is recorded from now on.
	 */
	partUploaded(uploadId: string, key: string, part: PartRecord): void {
		const sql = this.ctx.storage.sql;
		this.ctx.storage.transactionSync(() => {
			sql.exec(
				"INSERT OR IGNORE INTO uploads (upload_id, key, initiated, storage_class, state) VALUES (?, ?, ?, 'Standard', 'open')",
				uploadId,
				key,
				part.uploaded,
			);
			sql.exec(
				"INSERT OR REPLACE INTO parts (upload_id, part_number, etag, size, uploaded, checksum) VALUES (?, ?, ?, ?, ?, ?)",
				uploadId,
				part.partNumber,
				part.etag,
				part.size,
				part.uploaded,
				part.checksum ?? null,
			);
		});
	}

	/**
	 * Records that an upload was completed or aborted, and forgets its parts. A completion names
	 * the object it made (`etag` unquoted, the binding's `version`) and the part numbers it took,
	 * in order: their sizes are kept for GetObject's `partNumber` when the ledger knows every one of
	 * them; the object's flexible checksum when one was made, replacing any other of `key`; and the
	 * upload's SSE-C key, which the object was stored with.
	 * @returns for a completion, the MD5 (base64) of the upload's SSE-C key, if it was created with one.
	 */
	finished(
		uploadId: string,
		key: string,
		state: "completed" | "aborted",
		at: number,
		completed?: CompletedUpload,
	): string | undefined {
		const sql = this.ctx.storage.sql;
		return this.ctx.storage.transactionSync(() => {
			let keyMd5: string | undefined;
			if (completed !== undefined) {
				keyMd5 = this.upload(uploadId)?.ssecKeyMd5;
				if (keyMd5 !== undefined) this.#ssec.stored(key, completed.version, keyMd5);
				const parts = completed.partNumbers.map(
					(partNumber) =>
						sql
							.exec<{ size: number; checksum: string | null }>(
								"SELECT size, checksum FROM parts WHERE upload_id = ? AND part_number = ?",
								uploadId,
								partNumber,
							)
							.toArray()[0],
				);
				if (parts.every((part) => part !== undefined)) {
					const checksums = completed.checksum === undefined ? null : parts.map((part) => part.checksum);
					sql.exec(
						"INSERT OR REPLACE INTO object_parts (key, etag, sizes, checksums) VALUES (?, ?, ?, ?)",
						key,
						completed.etag,
						JSON.stringify(parts.map((part) => part.size)),
						checksums === null || checksums.includes(null) ? null : JSON.stringify(checksums),
					);
				}
				if (completed.checksum !== undefined) this.checksumStored(key, completed.etag, completed.checksum);
			}
			sql.exec(
				`INSERT INTO uploads (upload_id, key, initiated, storage_class, state, finished) VALUES (?, ?, ?, 'Standard', ?, ?)
				 ON CONFLICT (upload_id) DO UPDATE SET state = excluded.state, finished = excluded.finished`,
				uploadId,
				key,
				at,
				state,
				at,
			);
			sql.exec("DELETE FROM parts WHERE upload_id = ?", uploadId);
			return keyMd5;
		});
	}

	/** The upload recorded under `uploadId`, open or finished; null when the edge never saw it. */
	upload(uploadId: string): UploadRecord | null {
		const [row] = this.ctx.storage.sql
			.exec<UploadRow>(`SELECT ${UPLOAD_COLUMNS} FROM uploads WHERE upload_id = ?`, uploadId)
			.toArray();
		return row === undefined ? null : toUpload(row);
	}

	/**
	 * One page of an open upload's parts, by part number, after `marker`.
	 * @param max 1 to 10000 (ListParts asks 1000 at most; CompleteMultipartUpload every part).
	 * @returns the parts and whether more follow.
	 */
	parts(uploadId: string, marker: number, max: number): { parts: PartRecord[]; truncated: boolean } {
		const rows = this.ctx.storage.sql
			.exec<PartRow>(
				"SELECT part_number, etag, size, uploaded, checksum FROM parts WHERE upload_id = ? AND part_number > ? ORDER BY part_number LIMIT ?",
				uploadId,
				marker,
				max + 1,
			)
			.toArray();
		return { parts: rows.slice(0, max).map(toPart), truncated: rows.length > max };
	}

	/**
	 * One page of the open uploads, S3's way: keys after `keyMarker` (and, for the marker's own
	 * key, upload ids after `uploadIdMarker`), under `prefix`; with a delimiter, the keys holding
	 * it past the prefix roll up into one common prefix, which counts once toward `maxUploads`.
	 * Reads each row of the page once, and the rolled-up rows it passes over.
	 */
	uploads(query: UploadsQuery): UploadsPage {
		const { prefix, delimiter, keyMarker = "", uploadIdMarker = "", maxUploads } = query;
		const cursor = this.ctx.storage.sql.exec<UploadRow>(
			`SELECT ${UPLOAD_COLUMNS} FROM uploads
			 WHERE state = 'open' AND substr(key, 1, length(?1)) = ?1
			   AND (key > ?2 OR (key = ?2 AND ?3 != '' AND upload_id > ?3))
			 ORDER BY key, upload_id`,
			prefix,
			keyMarker,
			uploadIdMarker,
		);
		const page: UploadsPage = { uploads: [], prefixes: [], truncated: false };
		// A key marker that is a common prefix skips every key under it, as S3 does.
		const skipped = delimiter && keyMarker.endsWith(delimiter) ? keyMarker : undefined;
		for (const row of cursor) {
			if (skipped !== undefined && row.key.startsWith(skipped)) continue;
			const at = delimiter ? row.key.indexOf(delimiter, prefix.length) : -1;
			const rolled = delimiter && at >= 0 ? row.key.slice(0, at + delimiter.length) : undefined;
			if (rolled !== undefined && page.prefixes.at(-1) === rolled) continue;
			if (page.uploads.length + page.prefixes.length === maxUploads) {
				page.truncated = true;
				break;
			}
			if (rolled !== undefined) {
				page.prefixes.push(rolled);
				page.nextKeyMarker = rolled;
				page.nextUploadIdMarker = undefined;
			} else {
				page.uploads.push(toUpload(row));
				page.nextKeyMarker = row.key;
				page.nextUploadIdMarker = row.upload_id;
			}
		}
		return page;
	}
}

/** The ledger of the R2 binding named `binding` (its name in wrangler.toml, e.g. `BUCKET`). */
export function bucketLedger(env: Env, binding: string): DurableObjectStub<BucketLedger> {
	return env.BUCKET_LEDGERS.get(env.BUCKET_LEDGERS.idFromName(binding));
}

/** The ledger of an S3 operation's bucket (its context's `env` and served bucket). */
export const ledgerOf = (c: { env: Env; bucket: { binding: string } }): DurableObjectStub<BucketLedger> =>
	bucketLedger(c.env, c.bucket.binding);

/**
 * The open upload `uploadId` of `key` as `ledger` recorded it (its flexible checksum and SSE-C
 * key, if any); undefined for one the ledger does not hold open under that key.
 */
export async function openUpload(
	ledger: DurableObjectStub<BucketLedger>,
	key: string,
	uploadId: string,
): Promise<UploadRecord | undefined> {
	const record = await ledger.upload(uploadId);
	return record?.state === "open" && record.key === key ? record : undefined;
}
