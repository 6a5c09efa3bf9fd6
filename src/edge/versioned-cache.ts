/**
 * One isolate's cache of values the edge reads from the Durable Objects, so that no object sits
 * on every request's path: the zones' configurations (`zone-view.ts`), their active custom
 * hostnames (`custom-hostname-routing.ts`), the zone names (`zone-names.ts`) and the checksums
 * the bucket ledgers hold (`s3/checksums/ledger-checksums.ts`).
 *
 * What it keeps: per key (a zone id, or one key for a value of the whole Worker), the last value
 * read, the version its source gave it, and when it was read (ms since the epoch).
 * For how long: `ttlMs`. A read at `now` within `ttlMs` of the last (and not before it: a clock
 * set back) answers the kept value without a call; otherwise it asks the source again, handing it
 * what is kept, so a source whose version did not move answers that in one small call and the
 * value is kept for another `ttlMs`.
 * When it forgets: `expire(key)`, which the API calls in its own isolate after it wrote what the
 * value was read from, so locally (one isolate) a write is seen by the very next request; a
 * deployed edge's other isolates see it within `ttlMs`. A failed read keeps what was kept, and
 * the next read asks again. Nothing is evicted unless the cache is given `maxEntries` (keys a
 * visitor chooses, such as object keys): past it, the key read least recently from its source goes.
 * Concurrent reads of a stale key each ask the source (edgezone's choice: a second call costs
 * less than making a request wait on another's).
 */

import type { MaybePromise } from "../common/maybe-promise";

/** A value and the version its source gave it; the cache only hands the version back to the source. */
export interface Versioned<V> {
	readonly version: number;
	readonly value: V;
}

interface Entry<V> extends Versioned<V> {
	/** When the source was last asked, in ms since the epoch; -Infinity once expired. */
	checkedAt: number;
}

/**
 * Reads the source of a stale key: `held` is what the cache keeps of it (undefined on the first
 * read); answer `held` itself when the source says its version did not move.
 */
export type Load<V> = (held: Versioned<V> | undefined) => Promise<Versioned<V>>;

/** Values by key, each trusted for `ttlMs` after it was read, then checked with its source. */
export class VersionedCache<V> {
	readonly #entries = new Map<string, Entry<V>>();

	/**
	 * @param ttlMs how long a read value is answered without asking its source, in ms.
	 * @param maxEntries how many keys are kept at most; every key the cache is asked for when unset.
	 */
	constructor(
		readonly ttlMs: number,
		readonly maxEntries = Number.POSITIVE_INFINITY,
	) {}

	/**
	 * The value of `key` at `now` (ms since the epoch): the kept one while fresh, else what `load`
	 * answers, kept from `now`. A `load` that throws leaves the entry as it was, and the error
	 * goes to the caller.
	 */
	async get(key: string, now: number, load: Load<V>): Promise<V> {
		return this.read(key, now, load);
	}

	/**
	 * The value of `key` at `now` as `get` answers it, without a promise while the kept value is
	 * fresh: on a request's path every await of an already known value costs a turn of the
	 * microtask queue and a promise, so the edge's per-request lookups answer synchronously.
	 */
	read(key: string, now: number, load: Load<V>): MaybePromise<V> {
		const entry = this.#entries.get(key);
		if (entry !== undefined && now - entry.checkedAt < this.ttlMs && now >= entry.checkedAt) return entry.value;
		return this.#load(key, entry, now, load);
	}

	async #load(key: string, entry: Entry<V> | undefined, now: number, load: Load<V>): Promise<V> {
		const loaded = await load(entry);
		// Set anew, so the Map's order (its insertion order) is that of the reads from the source.
		this.#entries.delete(key);
		this.#entries.set(key, { version: loaded.version, value: loaded.value, checkedAt: now });
		if (this.#entries.size > this.maxEntries) {
			const [oldest] = this.#entries.keys();
			if (oldest !== undefined) this.#entries.delete(oldest);
		}
		return loaded.value;
	}

	/**
	 * Makes the next `get` of `key` ask its source again; what is kept stays, so an unchanged
	 * version costs the source no more than the check.
	 */
	expire(key: string): void {
		const entry = this.#entries.get(key);
		if (entry !== undefined) entry.checkedAt = Number.NEGATIVE_INFINITY;
	}
}
