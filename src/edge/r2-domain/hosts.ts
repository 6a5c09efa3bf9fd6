/**
 * The isolate's copy of the hosts that serve an R2 bucket publicly: enabled custom domains and
 * the `pub-<id>.r2.dev` hosts of buckets whose r2.dev URL is on (`src/zone/r2-custom-domains.ts`).
 *
 * Read whole from the one `ZoneRegistry` at most every PUBLIC_HOSTS_TTL_MS per isolate, so the
 * registry is not on every request's path (`../versioned-cache.ts`); the API forgets the copy in
 * its own isolate after it connected, changed or removed one, so locally (one isolate) the next
 * request sees the change; a deployed edge's other isolates see it within PUBLIC_HOSTS_TTL_MS.
 */
import { zoneRegistry } from "../../common/durable-objects";
import { andThen, type MaybePromise } from "../../common/maybe-promise";
import type { CreatedBucket } from "../../runtime-buckets/store";
import { VersionedCache } from "../versioned-cache";
import { ZONE_NAMES_TTL_MS } from "../zone-names";

/** The bucket a host serves: its name, and its row when it was created at run time (null: declared). */
export interface PublicBucket {
	name: string;
	created: CreatedBucket | null;
}

/** How long an isolate keeps the hosts, in ms: as long as the zone names, which route the same requests. */
const PUBLIC_HOSTS_TTL_MS = ZONE_NAMES_TTL_MS;

/** The one entry: the hosts are the account's, not a zone's. */
const KEY = "hosts";
const cache = new VersionedCache<ReadonlyMap<string, PublicBucket>>(PUBLIC_HOSTS_TTL_MS);

/**
 * The bucket `host` (lower case, no port) serves publicly, or undefined; at once while the
 * isolate's copy is fresh (one map lookup on every request's path, and none of the registry for
 * a bucket created at run time: its row comes with the host).
 * @param now the time of the request, in ms since the epoch.
 */
export function publicBucketOf(env: Env, host: string, now: number): MaybePromise<PublicBucket | undefined> {
	const hosts = cache.read(KEY, now, async () => {
		const rows = await zoneRegistry(env).r2PublicHosts();
		// The registry keeps no version of the list: every read takes it whole.
		return { version: 0, value: new Map(rows.map(({ host, bucket, created }) => [host, { name: bucket, created }])) };
	});
	return andThen(hosts, (known) => known.get(host));
}

/**
 * Makes this isolate's next request read the hosts again: call after writing a custom domain or
 * r2.dev, or deleting a bucket.
 */
export function forgetPublicHosts(): void {
	cache.expire(KEY);
}
