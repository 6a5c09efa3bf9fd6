/**
 * The bytes of refused uploads, which Miniflare's R2 simulator leaves in its blob directory
 * (scripts/lib/orphan-blobs.mjs says why), are freed by the next `npm run dev`, and nothing
 * stored is lost: first the sweep on a directory laid out as the simulator lays it out (a real
 * SQLite database, in WAL mode, with Miniflare's tables), then through the front door: three
 * refused 12 MiB uploads to a wrangler dev, which is stopped and started again with `npm run dev`
 * on the same state.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOrphanBlobs } from "../../scripts/lib/orphan-blobs.mjs";
import { BUCKET, credentialsOf, type NativeBucket, nativeBucket, patternBytes, sha256Hex } from "./s3.ts";
import { DEV_VARS_EXAMPLE, type RunningDev, startDev } from "./wrangler-dev.ts";

const MiB = 1024 * 1024;
const MINUTE = 60_000;

/** Every blob file under `<persist>/v3/r2/<bucket>/blobs/`, by path, with its size in bytes. */
function blobFiles(persistTo: string): Map<string, number> {
	const files = new Map<string, number>();
	const r2 = join(persistTo, "v3", "r2");
	for (const bucket of readdirSync(r2)) {
		const dir = join(r2, bucket, "blobs");
		let names: string[] = [];
		try {
			names = readdirSync(dir);
		} catch {
			continue;
		}
		for (const name of names) files.set(join(dir, name), statSync(join(dir, name)).size);
	}
	return files;
}
const totalBytes = (files: Map<string, number>) => [...files.values()].reduce((sum, size) => sum + size, 0);

/** Sets a file's modification time `ms` in the past: the sweep keeps files younger than a minute. */
const age = (path: string, ms: number) => {
	const then = new Date(Date.now() - ms);
	utimesSync(path, then, then);
};

describe("the sweep of a state directory", () => {
	let root = "";
	beforeAll(() => {
		root = mkdtempSync(join(tmpdir(), "edgezone-sweep-"));
	});
	afterAll(() => rmSync(root, { recursive: true, force: true }));

	const id = (n: number) => n.toString(16).padStart(80, "0");
	/** A persist directory with one bucket's blobs (ids 1..`blobs`, one minute old) and its database. */
	function stateDir(name: string, { blobs = 6, tables = ["_mf_objects", "_mf_multipart_parts"] } = {}) {
		const dir = join(root, name);
		const blobDir = join(dir, "v3", "r2", "edgezone-bucket", "blobs");
		const databases = join(dir, "v3", "r2", "miniflare-R2BucketObject");
		mkdirSync(blobDir, { recursive: true });
		mkdirSync(databases, { recursive: true });
		for (let n = 1; n <= blobs; n++) {
			writeFileSync(join(blobDir, id(n)), Buffer.alloc(n * 100));
			age(join(blobDir, id(n)), 2 * MINUTE);
		}
		// Miniflare's schema (workers-sdk, packages/miniflare/src/workers/r2/bucket.worker.ts SQL_SCHEMA),
		// the columns the sweep reads.
		const database = new DatabaseSync(join(databases, `${"c".repeat(64)}.sqlite`));
		database.exec("PRAGMA journal_mode = WAL");
		if (tables.includes("_mf_objects")) database.exec("CREATE TABLE _mf_objects (key TEXT PRIMARY KEY, blob_id TEXT)");
		if (tables.includes("_mf_multipart_parts"))
			database.exec(
				"CREATE TABLE _mf_multipart_parts (upload_id TEXT, part_number INTEGER, blob_id TEXT NOT NULL, object_key TEXT)",
			);
		// The namespace's own database, which holds no bucket.
		new DatabaseSync(join(databases, "metadata.sqlite")).exec("CREATE TABLE _cf_ALARM (key TEXT, value INTEGER)");
		return { dir, blobDir, database };
	}
	const left = (blobDir: string) => readdirSync(blobDir).sort();

	it("deletes the unreferenced blobs a minute old and keeps the referenced, the young and what is not a blob", async () => {
		const { dir, blobDir, database } = stateDir("swept");
		// A plain object; a multipart object (no blob of its own) with its two parts; an upload in progress.
		const insertObject = database.prepare("INSERT INTO _mf_objects (key, blob_id) VALUES (?, ?)");
		insertObject.run("a", id(1));
		insertObject.run("multipart", null);
		const insertPart = database.prepare(
			"INSERT INTO _mf_multipart_parts (upload_id, part_number, blob_id, object_key) VALUES (?, ?, ?, ?)",
		);
		insertPart.run("u1", 1, id(2), "multipart");
		insertPart.run("u1", 2, id(3), "multipart");
		insertPart.run("u2", 1, id(4), null);
		// Unreferenced: id(5), a minute old; id(6) just written (another wrangler dev may be recording it).
		age(join(blobDir, id(6)), 1000);
		writeFileSync(join(blobDir, "notes.txt"), "not a blob");
		age(join(blobDir, "notes.txt"), 2 * MINUTE);
		// The database stays open: its rows are in the write-ahead log alone, which the sweep must read.
		expect(
			statSync(`${join(dir, "v3", "r2", "miniflare-R2BucketObject", "c".repeat(64))}.sqlite-wal`).size,
		).toBeGreaterThan(0);

		expect(await sweepOrphanBlobs(dir)).toEqual({ kind: "swept", freedBytes: 500, freedBlobs: 1, youngBlobs: 1 });
		expect(left(blobDir)).toEqual([id(1), id(2), id(3), id(4), id(6), "notes.txt"]);
		database.close();
	});

	it("deletes nothing when a database lacks Miniflare's tables", async () => {
		const { dir, blobDir, database } = stateDir("no-parts-table", { tables: ["_mf_objects"] });
		database.prepare("INSERT INTO _mf_objects (key, blob_id) VALUES (?, ?)").run("a", id(1));
		const result = await sweepOrphanBlobs(dir);
		expect(result).toEqual({ kind: "refused", reason: expect.stringContaining("_mf_multipart_parts") });
		expect(left(blobDir)).toHaveLength(6);
		database.close();
	});

	it("deletes nothing when there are blobs but no database, or a referenced blob is not on disk", async () => {
		const bare = join(root, "no-database", "v3", "r2", "edgezone-bucket", "blobs");
		mkdirSync(bare, { recursive: true });
		writeFileSync(join(bare, id(1)), "x");
		age(join(bare, id(1)), 2 * MINUTE);
		expect(await sweepOrphanBlobs(join(root, "no-database"))).toEqual({
			kind: "refused",
			reason: expect.stringContaining("no R2 database"),
		});
		expect(left(bare)).toEqual([id(1)]);

		const { dir, blobDir, database } = stateDir("elsewhere");
		database.prepare("INSERT INTO _mf_objects (key, blob_id) VALUES (?, ?)").run("a", id(99));
		expect(await sweepOrphanBlobs(dir)).toEqual({ kind: "refused", reason: expect.stringContaining("not under") });
		expect(left(blobDir)).toHaveLength(6);
		database.close();
	});
});

describe("refused uploads across a restart with npm run dev", () => {
	// `npm run dev` seeds the checkout's .dev.vars when it has none; npm test leaves the checkout as it found it.
	const devVars = join(import.meta.dirname, "..", "..", ".dev.vars");
	const hadDevVars = existsSync(devVars);
	let dev: RunningDev | undefined;
	beforeAll(async () => {
		dev = await startDev(DEV_VARS_EXAMPLE);
	});
	afterAll(async () => {
		await dev?.stop();
		if (!hadDevVars) rmSync(devVars, { force: true });
	});

	const REFUSED = 12 * MiB;
	const body = patternBytes(REFUSED, 35);

	/** A native PUT of `bytes` that the client abandons after `sent` bytes: the socket is destroyed. */
	const disconnectAfter = (url: string, key: string, sent: number) =>
		new Promise<void>((resolve) => {
			const req = request(`${url}/${key}`, {
				method: "PUT",
				headers: { authorization: "Bearer dev-token", "content-length": String(REFUSED) },
			});
			req.on("error", () => resolve());
			req.on("response", () => resolve());
			req.write(body.subarray(0, sent), () => setTimeout(() => req.destroy(), 500));
			req.on("close", () => resolve());
		});

	/** What each kept object holds, to compare after the sweep. */
	const readBack = async (bucket: NativeBucket, keys: string[]) => {
		const out: Record<string, string | null> = {};
		for (const key of keys) {
			const object = await bucket.get(key);
			out[key] = object === null ? null : sha256Hex(new Uint8Array(await object.arrayBuffer()));
		}
		return out;
	};

	it("frees the refused uploads' bytes and keeps every stored object and upload part", async () => {
		if (dev === undefined) throw new Error("wrangler dev did not start");
		const native = nativeBucket(dev.url);
		const s3 = new AwsClient({ ...(await credentialsOf()), service: "s3", region: "auto" });

		// What must survive: objects written whole, a multipart object, an upload in progress, another bucket's object.
		const part = patternBytes(5 * MiB, 2);
		await native.put("sweep/small.txt", "kept");
		await native.put("sweep/whole.bin", patternBytes(3 * MiB, 1));
		const done = await native.createMultipartUpload("sweep/multipart.bin");
		await done.complete([await done.uploadPart(1, part), await done.uploadPart(2, patternBytes(MiB, 3))]);
		const open = await native.createMultipartUpload("sweep/in-progress.bin");
		const firstPart = await open.uploadPart(1, part);
		const other = await s3.fetch(`${dev.url}/edgezone-logs/sweep/other.txt`, { method: "PUT", body: "other bucket" });
		expect(other.status, await other.text()).toBe(200);
		const keys = ["sweep/small.txt", "sweep/whole.bin", "sweep/multipart.bin"];
		const stored = await readBack(native, keys);
		const before = totalBytes(blobFiles(dev.persistTo));

		// Three refused 12 MiB uploads: a wrong signed SHA-256, a wrong Content-MD5, a client gone after 6 MiB.
		const wrongSha = await s3.fetch(`${dev.url}/${BUCKET}/sweep/refused-sha.bin`, {
			method: "PUT",
			body,
			headers: { "x-amz-content-sha256": sha256Hex("something else") },
		});
		expect([wrongSha.status, await wrongSha.text()]).toEqual([
			400,
			expect.stringContaining("XAmzContentSHA256Mismatch"),
		]);
		const wrongMd5 = await fetch(`${dev.url}/sweep/refused-md5.bin`, {
			method: "PUT",
			body,
			headers: { authorization: "Bearer dev-token", "content-md5": "AAAAAAAAAAAAAAAAAAAAAA==" },
		});
		expect(wrongMd5.status, await wrongMd5.text()).toBe(400);
		await disconnectAfter(dev.url, "sweep/refused-disconnect.bin", 6 * MiB);
		for (const key of ["sweep/refused-sha.bin", "sweep/refused-md5.bin", "sweep/refused-disconnect.bin"])
			expect(await native.head(key), key).toBeNull();
		// The simulator lets go of a disconnected body's blob a moment later.
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const refused = totalBytes(blobFiles(dev.persistTo));
		expect(refused - before).toBeGreaterThan(24 * MiB);

		// Stopped, and started again by npm run dev a minute later, as far as the files can tell.
		await dev.stop();
		for (const path of blobFiles(dev.persistTo).keys()) age(path, 2 * MINUTE);
		dev = await startDev(DEV_VARS_EXAMPLE, { persistTo: dev.persistTo, npmRunDev: true });
		const after = totalBytes(blobFiles(dev.persistTo));
		console.log(`blobs: ${before} bytes stored, ${refused} after the refused uploads, ${after} after the sweep`);
		const freed = /Freed 2\d\.\d MiB of (\d+) blobs left by refused uploads in (.+)\.$/m.exec(dev.logTail(200));
		expect(freed?.slice(1)).toEqual(["3", dev.persistTo]);
		expect(after).toBe(before);

		const again = nativeBucket(dev.url);
		expect(await readBack(again, keys)).toEqual(stored);
		const resumed = again.resumeMultipartUpload("sweep/in-progress.bin", open.uploadId);
		await resumed.complete([firstPart, await resumed.uploadPart(2, "last")]);
		const whole = new Uint8Array([...part, ...new TextEncoder().encode("last")]);
		expect(await readBack(again, ["sweep/in-progress.bin"])).toEqual({ "sweep/in-progress.bin": sha256Hex(whole) });
		const otherAgain = await s3.fetch(`${dev.url}/edgezone-logs/sweep/other.txt`);
		expect(await otherAgain.text()).toBe("other bucket");
	});

	it("stops wrangler and workerd when npm alone is killed (README, Running it locally)", async () => {
		if (dev === undefined) throw new Error("wrangler dev did not start");
		const pids = Object.values(dev.workerdPids()).filter((pid) => pid !== undefined);
		expect(pids).toHaveLength(3);
		process.kill(dev.pid, "SIGTERM");
		const alive = (pid: number) => {
			try {
				process.kill(pid, 0);
				return true;
			} catch {
				return false;
			}
		};
		const deadline = Date.now() + 15_000;
		while (pids.some(alive) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
		expect(pids.filter(alive)).toEqual([]);
	});
});
