/**
 * Values that are known at once on the fast path and awaited only when they are not: the edge's
 * per-request lookups answer from the isolate's caches (`src/edge/versioned-cache.ts`), and an
 * `async` function or an `await` of a value already known still costs a promise and a turn of the
 * microtask queue on every request.
 */

/** A value, or the promise of one while it is being read. */
export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`, at once when `value` is known, else once it is. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
	return value instanceof Promise ? value.then(next) : next(value);
}
