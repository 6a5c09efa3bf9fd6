import { describe, expect, it } from "vitest";
import { type Versioned, VersionedCache } from "../../src/edge/versioned-cache";

/** A source that counts its reads and hands back `held` while its version stays the same. */
function source(initial: string) {
	const state = { version: 1, value: initial, reads: 0, asked: [] as (number | undefined)[] };
	const load = async (held: Versioned<string> | undefined): Promise<Versioned<string>> => {
		state.reads++;
		state.asked.push(held?.version);
		return held?.version === state.version ? held : { version: state.version, value: state.value };
	};
	return { state, load };
}

describe("VersionedCache", () => {
	it("answers the kept value without asking its source within the TTL", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		expect(await cache.get("zone", 0, load)).toBe("a");
		state.value = "b";
		state.version = 2;
		expect(await cache.get("zone", 999, load)).toBe("a");
		expect(state.reads).toBe(1);
	});

	it("reads a fresh value at once, without a promise, and a stale one through its source", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		const first = cache.read("zone", 0, load);
		expect(first).toBeInstanceOf(Promise);
		expect(await first).toBe("a");
		expect(cache.read("zone", 999, load)).toBe("a");
		state.value = "b";
		state.version = 2;
		const stale = cache.read("zone", 1_000, load);
		expect(stale).toBeInstanceOf(Promise);
		expect(await stale).toBe("b");
		expect(cache.read("zone", 1_001, load)).toBe("b");
		expect(state.reads).toBe(2);
	});

	it("asks the source again once the TTL has passed, handing it the version it keeps", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		await cache.get("zone", 0, load);
		expect(await cache.get("zone", 1_000, load)).toBe("a");
		expect(state.asked).toEqual([undefined, 1]);
		state.value = "b";
		state.version = 2;
		expect(await cache.get("zone", 1_500, load)).toBe("a");
		expect(await cache.get("zone", 2_000, load)).toBe("b");
	});

	it("keeps an unchanged value for another TTL from the check that found it unchanged", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		await cache.get("zone", 0, load);
		await cache.get("zone", 1_200, load);
		await cache.get("zone", 2_100, load);
		expect(state.reads).toBe(2);
	});

	it("asks again at once after expire, and when the clock goes back", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		await cache.get("zone", 5_000, load);
		cache.expire("zone");
		state.value = "b";
		state.version = 2;
		expect(await cache.get("zone", 5_001, load)).toBe("b");
		expect(state.asked).toEqual([undefined, 1]);
		expect(await cache.get("zone", 4_000, load)).toBe("b");
		expect(state.asked).toEqual([undefined, 1, 2]);
	});

	it("keeps each key apart: expiring one leaves the other fresh", async () => {
		const cache = new VersionedCache<string>(1_000);
		const first = source("a");
		const second = source("x");
		await cache.get("one", 0, first.load);
		await cache.get("two", 0, second.load);
		cache.expire("one");
		await cache.get("one", 10, first.load);
		await cache.get("two", 10, second.load);
		expect([first.state.reads, second.state.reads]).toEqual([2, 1]);
	});

	it("keeps what it held when the source fails, and asks again on the next read", async () => {
		const cache = new VersionedCache<string>(1_000);
		const { state, load } = source("a");
		await cache.get("zone", 0, load);
		await expect(cache.get("zone", 1_000, () => Promise.reject(new Error("down")))).rejects.toThrow("down");
		expect(await cache.get("zone", 1_001, load)).toBe("a");
		expect(state.asked).toEqual([undefined, 1]);
	});

	it("keeps at most maxEntries keys, forgetting the one read from its source longest ago", async () => {
		const cache = new VersionedCache<string>(1_000, 2);
		const { state, load } = source("a");
		await cache.get("one", 0, load);
		await cache.get("two", 0, load);
		await cache.get("one", 2_000, load); // read again from the source: now the newest
		await cache.get("three", 2_000, load);
		expect(state.reads).toBe(4);
		await cache.get("one", 2_500, load);
		await cache.get("three", 2_500, load);
		expect(state.reads).toBe(4);
		await cache.get("two", 2_500, load);
		expect(state.reads).toBe(5);
	});
});
