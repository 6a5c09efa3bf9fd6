/**
 * The one list of the buckets edgezone serves, and the one way to find a bucket by name: the
 * buckets declared in wrangler.toml (`[[r2_buckets]]`, named in `R2_BUCKETS`:
 * `src/edge/s3/buckets.ts`), each a real binding that a user's Worker in the same `wrangler dev`
 * session sees too, then the buckets created at run time (S3 CreateBucket, the R2 buckets API),
 * which the zone registry lists (`store.ts`) and which live as namespaces of the one backing
 * binding `RUNTIME_BUCKETS` (`namespaced.ts`). A Worker binds only declared buckets: a binding
 * is fixed when the Worker starts. A declared name wins over a created one, which creation
 * refuses anyway.
 *
 * A created bucket is a `NamedBucket` like a declared one; its `binding` is its ledger's name
 * (`RUNTIME_BUCKETS/<id>`), so its multipart uploads, lifecycle and CORS rules, SSE-C and
 * storage-class records live in a `BucketLedger` of its own, which deleting it drops whole.
 */

import { bucketLedger } from "../bucket/bucket-ledger";
import { zoneRegistry } from "../common/durable-objects";
import { type NamedBucket, servedBucketNames, servedBuckets } from "../edge/s3/buckets";
import { VersionedCache } from "../edge/versioned-cache";
import type { BucketStorageClass, LocationHint } from "./names";
import { namespacedBucket } from "./namespaced";
import type { CreatedBucket } from "./store";

/** The first part of a created bucket's ledger name. */
const LEDGER_PREFIX = "RUNTIME_BUCKETS/";

/** How long an isolate answers the list of bucket names without asking the registry, in ms. */
const NAMES_TRUST_MS = 1_000;

const names = new VersionedCache<readonly string[]>(NAMES_TRUST_MS, 1);

/** A served bucket: declared (`created` undefined) or created at run time. */
export interface CatalogBucket extends NamedBucket {
	/** The registry's row of a created bucket; undefined for a declared one. */
	created?: CreatedBucket;
}

/** What the APIs tell of a bucket (R2's `Bucket`, and S3's `CreationDate`). */
export interface BucketInfo {
	name: string;
	/** ISO 8601. */
	creationDate: string;
	location: LocationHint | null;
	storageClass: BucketStorageClass;
	declared: boolean;
}

/** The ledger name of the created bucket of id `id`. */
export const ledgerName = (id: string): string => `${LEDGER_PREFIX}${id}`;

/** A created bucket served: its namespace of `RUNTIME_BUCKETS`. */
export function createdBucketServed(env: Env, created: CreatedBucket): CatalogBucket {
	return {
		name: created.name,
		binding: ledgerName(created.id),
		bucket: namespacedBucket(env.RUNTIME_BUCKETS, `${created.id}/`),
		created,
	};
}

/**
 * The bucket called `name`, declared or created; undefined for none.
 * @throws S3Error 500 InternalError when `R2_BUCKETS` is not valid.
 */
export async function lookupBucket(env: Env, name: string): Promise<CatalogBucket | undefined> {
	const declared = servedBuckets(env).find((bucket) => bucket.name === name);
	if (declared !== undefined) return declared;
	const created = await zoneRegistry(env).createdBucket(name);
	return created === null ? undefined : createdBucketServed(env, created);
}

/** The bucket whose ledger is named `ledger` (a declared binding's name, or a created bucket's ledger name). */
export async function bucketOfLedger(env: Env, ledger: string): Promise<NamedBucket | undefined> {
	if (!ledger.startsWith(LEDGER_PREFIX)) return servedBuckets(env).find((bucket) => bucket.binding === ledger);
	const created = await zoneRegistry(env).createdBucketById(ledger.slice(LEDGER_PREFIX.length));
	return created === null ? undefined : createdBucketServed(env, created);
}

/**
 * Every bucket's name, declared then created, as an isolate saw it at most `NAMES_TRUST_MS`
 * ago (or since it created or deleted one), for what looks a name up on every request (a
 * virtual-host address).
 * @throws S3Error 500 InternalError when `R2_BUCKETS` is not valid.
 */
export async function bucketNames(env: Env, now: number): Promise<readonly string[]> {
	const declared = servedBucketNames(env);
	const created = await names.get("created", now, async () => ({
		version: 0,
		value: (await zoneRegistry(env).createdBuckets()).map((bucket) => bucket.name),
	}));
	return [...declared, ...created];
}

/** Makes this isolate's next `bucketNames` ask the registry (a bucket was created or deleted). */
export function namesChanged(): void {
	names.expire("created");
}

/**
 * Every bucket, in name order, with its creation date: a declared bucket's is the one its
 * ledger recorded when the edge first saw it (`src/edge/s3/bucket-creation.ts`), a created
 * one's the moment it was created.
 */
export async function allBuckets(env: Env): Promise<BucketInfo[]> {
	const declared = servedBuckets(env);
	const [dates, created] = await Promise.all([
		Promise.all(declared.map(({ binding }) => bucketLedger(env, binding).bucketCreated())),
		zoneRegistry(env).createdBuckets(),
	]);
	const all: BucketInfo[] = [
		...declared.map(
			({ name }, i): BucketInfo => ({
				name,
				creationDate: dates[i] ?? "",
				location: null,
				storageClass: "Standard",
				declared: true,
			}),
		),
		...created.map((bucket) => infoOf(bucket)),
	];
	return all.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** What the APIs tell of a created bucket. */
export const infoOf = (bucket: CreatedBucket): BucketInfo => ({
	name: bucket.name,
	creationDate: bucket.created,
	location: bucket.location,
	storageClass: bucket.storageClass,
	declared: false,
});

/** What the APIs tell of the bucket called `name`, declared or created; undefined for none. */
export async function bucketInfo(env: Env, name: string): Promise<BucketInfo | undefined> {
	const declared = servedBuckets(env).find((bucket) => bucket.name === name);
	if (declared !== undefined) {
		const creationDate = await bucketLedger(env, declared.binding).bucketCreated();
		return { name, creationDate, location: null, storageClass: "Standard", declared: true };
	}
	const created = await zoneRegistry(env).createdBucket(name);
	return created === null ? undefined : infoOf(created);
}
