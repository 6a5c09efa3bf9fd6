/**
 * An R2 binding that keeps the storage class of what it writes, as R2 does, where the binding
 * forgets it (Miniflare's simulator answers `""` for every object: `store.ts`). Both dialects use
 * the bucket through it (the S3 dialect's served bucket and a copy's source, `withRecordedClasses`
 * in `../app.ts` and `../copy.ts`; the gateway's, `../../gateway/buckets.ts`), so HeadObject, GetObject, ListObjects(V2), CopyObject's source and
 * the native gateway's headers and JSON all report the class an object was written with:
 * - a `put` given a class that its answer does not carry, and a multipart upload completed with one
 *   (the class given at its creation: the upload's ledger row, or the options of a
 *   `createMultipartUpload` made through this binding), is recorded in the bucket's ledger under
 *   the object's version;
 * - `head`, `get` and `list` answer an object whose version has a row with the row's class.
 *
 * What a read costs (the SSE-C records' way, `../ssec/recorded.ts`): whether the bucket has any row
 * is kept per isolate for `BUCKET_TRUST_MS`, so in a bucket where nothing was written with a class
 * the binding forgot, a read asks nothing more; otherwise a `head` or `get` asks its key's row
 * (kept a second) beside the binding's call, and a `list` page asks its keys' rows in one call.
 * This isolate forgets what it kept as soon as it records a class.
 */

import { bucketLedger } from "../../../bucket/bucket-ledger";
import type { StoredStorageClass } from "../../../bucket/storage-class/store";
import { CONFIG_CHECK_INTERVAL_MS } from "../../config-checks";
import { VersionedCache } from "../../versioned-cache";
import type { NamedBucket } from "../buckets";

/** How long a bucket's "a class was recorded" is answered without asking again, in ms. */
const BUCKET_TRUST_MS = 60_000;

/** How many keys (of every bucket) an isolate keeps rows of. */
const MAX_KEYS = 4096;

const buckets = new VersionedCache<boolean>(BUCKET_TRUST_MS);
const rows = new VersionedCache<StoredStorageClass | null>(CONFIG_CHECK_INTERVAL_MS, MAX_KEYS);

/** The binding's storage class no record is needed for: what R2 reports of an object written without one. */
const DEFAULT_CLASS = "Standard";

/** Which bucket: its binding's name in wrangler.toml, and the environment its ledger is found in. */
interface Ledgered {
	env: Env;
	binding: string;
}

const rowKey = (at: Ledgered, key: string) => `${at.binding}\n${key}`;

/** Whether `at`'s bucket may hold an object with a recorded class. */
function anyRecorded(at: Ledgered, now: number): Promise<boolean> {
	return buckets.get(at.binding, now, async () => ({
		version: 0,
		value: await bucketLedger(at.env, at.binding).hasStorageClasses(),
	}));
}

/** The row of `key`, or null (none, or a bucket with none). */
async function recordedClass(at: Ledgered, key: string): Promise<StoredStorageClass | null> {
	const now = Date.now();
	try {
		if (!(await anyRecorded(at, now))) return null;
		return await rows.get(rowKey(at, key), now, async () => {
			const found = await bucketLedger(at.env, at.binding).storedStorageClasses([key]);
			return { version: 0, value: found.get(key) ?? null };
		});
	} catch (error) {
		// A read the binding answered is answered, with the class the binding reports.
		console.error("storage class: the bucket's ledger could not be read", error);
		return null;
	}
}

/** Records `object`'s class when the binding did not keep `storageClass`, which it was written with. */
async function record<T extends R2Object | null>(
	at: Ledgered,
	object: T,
	storageClass: string | undefined,
): Promise<T> {
	if (object === null || storageClass === undefined || storageClass === DEFAULT_CLASS) return object;
	if (object.storageClass === storageClass) return object;
	await bucketLedger(at.env, at.binding).storageClassStored(object.key, object.version, storageClass);
	rows.expire(rowKey(at, object.key));
	buckets.expire(at.binding);
	return reported(object, { version: object.version, storageClass });
}

/**
 * `object` as R2 reports it: with the recorded class when the row describes its version. The
 * binding's object is kept whole (its getters and its body read from it), only `storageClass` answered anew.
 */
function reported<T extends R2Object | null>(object: T, row: StoredStorageClass | null | undefined): T {
	if (object === null || row === null || row === undefined || row.version !== object.version) return object;
	if (object.storageClass === row.storageClass) return object;
	return new Proxy(object, {
		get(target, property) {
			if (property === "storageClass") return row.storageClass;
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/** An upload through which a completion records the class `classOf` gives (the upload's). */
function recordingUpload(
	at: Ledgered,
	upload: R2MultipartUpload,
	classOf: () => Promise<string | undefined>,
): R2MultipartUpload {
	return new Proxy(upload, {
		get(target, property) {
			if (property === "complete") {
				return async (parts: R2UploadedPart[]) => record(at, await target.complete(parts), await classOf());
			}
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/**
 * `bucket` (the R2 binding named `binding`) keeping the storage classes it writes (module comment).
 * Every other member is the binding's own.
 */
export function withStorageClasses(bucket: R2Bucket, env: Env, binding: string): R2Bucket {
	const at: Ledgered = { env, binding };
	const members: Partial<R2Bucket> = {
		async head(key) {
			const [object, row] = await Promise.all([bucket.head(key), recordedClass(at, key)]);
			return reported(object, row);
		},
		get: (async (key: string, options?: R2GetOptions) => {
			const [object, row] = await Promise.all([bucket.get(key, options), recordedClass(at, key)]);
			return reported(object, row);
		}) as R2Bucket["get"],
		async put(key, value, options) {
			return record(at, await bucket.put(key, value, options), options?.storageClass);
		},
		list: (async (options?: R2ListOptions) => {
			const page = await bucket.list(options);
			if (page.objects.length === 0 || !(await anyRecorded(at, Date.now()))) return page;
			const found = await bucketLedger(env, binding).storedStorageClasses(page.objects.map((object) => object.key));
			if (found.size === 0) return page;
			return { ...page, objects: page.objects.map((object) => reported(object, found.get(object.key))) };
		}) as R2Bucket["list"],
		async createMultipartUpload(key, options) {
			const upload = await bucket.createMultipartUpload(key, options);
			return recordingUpload(at, upload, async () => options?.storageClass);
		},
		resumeMultipartUpload(key, uploadId) {
			return recordingUpload(at, bucket.resumeMultipartUpload(key, uploadId), async () => {
				const upload = await bucketLedger(env, binding).upload(uploadId);
				return upload?.storageClass;
			});
		},
	};
	return new Proxy(bucket, {
		get(target, property) {
			if (typeof property === "string" && property in members) return members[property as keyof R2Bucket];
			const value: unknown = Reflect.get(target, property, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/** A served bucket (`../buckets.ts`) whose binding keeps the storage classes it writes. */
export function withRecordedClasses(served: NamedBucket, env: Env): NamedBucket {
	return { ...served, bucket: withStorageClasses(served.bucket, env, served.binding) };
}
