/**
 * `Headers` that are not the runtime's own (a polyfill's, another realm's) as `range`, `onlyIf`
 * and `httpMetadata`. The binding recognises only the runtime's `Headers`
 * (workerd unwraps `jsg::Ref<Headers>`); any other object is read as the R2Range, R2Conditional
 * or R2HTTPMetadata it would be as a plain object, whose fields such a class does not have. This
 * pins that RemoteBucket reads them exactly so, rather than failing or reading them as headers.
 */
import { describe, expect, it } from "vitest";
import { BUCKETS, hasBody, scope, store } from "./buckets";

/** A Headers polyfill in the shape of whatwg-fetch's: the interface, with its store in an own `map` field. */
class PolyfillHeaders {
	map: Record<string, string> = {};

	constructor(init: Record<string, string>) {
		for (const [name, value] of Object.entries(init)) this.map[name.toLowerCase()] = value;
	}

	get(name: string): string | null {
		return this.map[name.toLowerCase()] ?? null;
	}

	has(name: string): boolean {
		return name.toLowerCase() in this.map;
	}

	set(name: string, value: string): void {
		this.map[name.toLowerCase()] = value;
	}

	forEach(callback: (value: string, name: string) => void): void {
		for (const [name, value] of Object.entries(this.map)) callback(value, name);
	}

	*[Symbol.iterator](): IterableIterator<[string, string]> {
		yield* Object.entries(this.map);
	}
}

/** A polyfill instance where the binding's types want the runtime's Headers. */
const foreign = (init: Record<string, string>) => new PolyfillHeaders(init) as unknown as Headers;

describe.each(BUCKETS)("Headers of another realm on $name", ({ bucket }) => {
	it("reads a foreign range as an R2Range without fields: the whole object", async () => {
		const key = `${scope("foreign-range")}r`;
		await store(bucket, key, "0123456789");
		const object = await bucket.get(key, { range: foreign({ range: "bytes=2-4" }) });
		expect(object?.range).toMatchObject({ offset: 0, length: 10 });
		expect(await object?.text()).toBe("0123456789");
	});

	// In Node, Miniflare's binding takes a Headers that names itself so (another copy of undici's),
	// and RemoteBucket does there too (test/node/remote-bucket.node.ts); workerd's binding does not.
	it("reads a foreign range that names itself Headers as an R2Range in workerd: the whole object", async () => {
		const key = `${scope("foreign-tagged")}r`;
		await store(bucket, key, "0123456789");
		const tagged = Object.assign(new PolyfillHeaders({ range: "bytes=2-4" }), {
			[Symbol.toStringTag]: "Headers",
			entries: () => Object.entries({ range: "bytes=2-4" })[Symbol.iterator](),
		});
		const object = await bucket.get(key, { range: tagged as unknown as Headers });
		expect(object?.range).toMatchObject({ offset: 0, length: 10 });
		expect(await object?.text()).toBe("0123456789");
	});

	it("reads a foreign onlyIf as an R2Conditional without fields: no condition", async () => {
		const key = `${scope("foreign-only-if")}c`;
		await store(bucket, key, "c");
		const object = await bucket.get(key, { onlyIf: foreign({ "if-none-match": "*" }) });
		expect(hasBody(object)).toBe(true);
		if (hasBody(object)) expect(await object.text()).toBe("c");
		expect(await bucket.put(key, "d", { onlyIf: foreign({ "if-none-match": "*" }) })).not.toBeNull();
	});

	it("reads a foreign httpMetadata as R2HTTPMetadata without fields: none stored", async () => {
		const key = `${scope("foreign-metadata")}m`;
		await store(bucket, key, "m", { httpMetadata: foreign({ "content-type": "text/plain" }) });
		expect((await bucket.head(key))?.httpMetadata).toEqual({});
	});
});
