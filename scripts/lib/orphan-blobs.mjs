// Frees the blob files Miniflare's R2 simulator leaves behind when an upload is refused.
//
// The simulator writes an object's bytes to `<persist>/v3/r2/<bucket>/blobs/<id>` as the body
// streams, then records `<id>` in the bucket's SQLite database (`_mf_objects.blob_id`, or
// `_mf_multipart_parts.blob_id` for a part). When the body errors (edgezone refuses a body by
// erroring its stream: a bad chunk signature, a wrong SHA-256 or checksum, a client gone) or the
// binding's own Content-MD5 check fails, the id is never recorded and the file stays, reachable
// by no binding call (workers-sdk, packages/miniflare/src/workers/r2/bucket.worker.ts `#put`,
// src/workers/shared/blob.worker.ts: "we'll just background-delete the blob" only when the
// put's transaction fails). Deployed, R2 keeps nothing of a refused body.
//
// This sweep deletes every blob file no database references. It runs from `npm run dev`, before
// wrangler starts on the directory, and errs towards keeping: any layout it does not recognise
// means nothing is deleted, and a file younger than `minAgeMs` (which another wrangler dev on the
// same directory may be writing or about to record) is kept.
import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";

/** Where Miniflare keeps R2 under a persist directory, and its R2 Durable Object's databases. */
const R2_DIR = ["v3", "r2"];
const DATABASES = "miniflare-R2BucketObject";
/** The Durable Object namespace's own file (alarms only: `_cf_ALARM`), not a bucket's. */
const NAMESPACE_METADATA = "metadata.sqlite";
/** Miniflare's blob ids: 32 random bytes and a 64-bit time, in hex (shared/blob.worker.ts `generateBlobId`). */
const BLOB_ID = /^[0-9a-f]{80}$/;

/**
 * What a sweep did. `refused`: the directory was not as expected, nothing was deleted, `reason`
 * says why. Otherwise `freedBytes`/`freedBlobs` were deleted and `youngBlobs` unreferenced files
 * were kept for their age.
 * @typedef {{ kind: "refused"; reason: string }
 *   | { kind: "swept"; freedBytes: number; freedBlobs: number; youngBlobs: number }} SweepResult
 */

/**
 * Deletes the blob files under `<persistDir>/v3/r2/<bucket>/blobs/` that no R2 database of
 * Miniflare's (`<persistDir>/v3/r2/miniflare-R2BucketObject/*.sqlite`) references. Call it only
 * while no wrangler dev uses `persistDir`. Refuses (deleting nothing) when a database cannot be
 * read or lacks Miniflare's tables, when blob files exist but no database does, or when a
 * database references a blob that is not on disk (a layout this code does not know).
 * @param {string} persistDir wrangler dev's `--persist-to` (default `.wrangler/state`)
 * @param {{ minAgeMs?: number; now?: number }} [options] files modified less than `minAgeMs`
 *   (default 60 s) before `now` (default the clock, ms since the epoch) are kept
 * @returns {Promise<SweepResult>}
 */
export async function sweepOrphanBlobs(persistDir, { minAgeMs = 60_000, now = Date.now() } = {}) {
	const r2 = join(persistDir, ...R2_DIR);
	/** @type {{ id: string; path: string; size: number; mtimeMs: number }[]} */
	const blobs = [];
	for (const bucket of entries(r2)) {
		if (bucket === DATABASES) continue;
		const dir = join(r2, bucket, "blobs");
		for (const name of entries(dir)) {
			const path = join(dir, name);
			const stat = lstatSync(path);
			// A name Miniflare never gives a blob, or anything but a plain file, is not ours to judge.
			if (BLOB_ID.test(name) && stat.isFile()) blobs.push({ id: name, path, size: stat.size, mtimeMs: stat.mtimeMs });
		}
	}
	if (blobs.length === 0) return { kind: "swept", freedBytes: 0, freedBlobs: 0, youngBlobs: 0 };

	const databases = entries(join(r2, DATABASES)).filter(
		(name) => name.endsWith(".sqlite") && name !== NAMESPACE_METADATA,
	);
	if (databases.length === 0) return { kind: "refused", reason: `${blobs.length} blob files but no R2 database` };
	const referenced = new Set();
	for (const name of databases) {
		const read = await referencedBlobs(join(r2, DATABASES, name));
		if (typeof read === "string") return { kind: "refused", reason: `${name}: ${read}` };
		for (const id of read) referenced.add(id);
	}
	const onDisk = new Set(blobs.map((blob) => blob.id));
	const missing = [...referenced].filter((id) => !onDisk.has(id)).length;
	if (missing > 0) return { kind: "refused", reason: `${missing} referenced blobs are not under */blobs/` };

	let freedBytes = 0;
	let freedBlobs = 0;
	let youngBlobs = 0;
	for (const blob of blobs) {
		if (referenced.has(blob.id)) continue;
		if (now - blob.mtimeMs < minAgeMs) {
			youngBlobs++;
			continue;
		}
		try {
			unlinkSync(blob.path);
		} catch (error) {
			if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") continue;
			throw error;
		}
		freedBytes += blob.size;
		freedBlobs++;
	}
	return { kind: "swept", freedBytes, freedBlobs, youngBlobs };
}

/** The names in a directory, none when it does not exist. */
function entries(dir) {
	try {
		return readdirSync(dir);
	} catch (error) {
		if (/** @type {NodeJS.ErrnoException} */ (error).code === "ENOENT") return [];
		throw error;
	}
}

/**
 * Every blob id one bucket's database references (objects' and multipart parts', of uploads in
 * progress too), or why it cannot be read. Opened in place, read-only, so SQLite reads its
 * write-ahead log (`-wal`) too: the simulator's databases are in WAL mode, and the newest rows may
 * be there alone.
 * @param {string} path
 * @returns {Promise<Set<string> | string>}
 */
async function referencedBlobs(path) {
	let database;
	try {
		const { DatabaseSync } = await import("node:sqlite");
		database = new DatabaseSync(path, { readOnly: true });
		for (const table of ["_mf_objects", "_mf_multipart_parts"]) {
			const columns = database.prepare(`PRAGMA table_info(${table})`).all();
			if (!columns.some((column) => column.name === "blob_id")) return `no ${table}.blob_id`;
		}
		// One statement, so one read transaction: a consistent snapshot of both tables.
		const rows = database
			.prepare(
				"SELECT blob_id FROM _mf_objects WHERE blob_id IS NOT NULL UNION SELECT blob_id FROM _mf_multipart_parts",
			)
			.all();
		return new Set(rows.map((row) => String(row.blob_id)));
	} catch (error) {
		return `cannot be read (${error instanceof Error ? error.message : String(error)})`;
	} finally {
		database?.close();
	}
}
