import { describe, expect, it } from "vitest";
import { BUCKETS, expectR2Error, scope } from "./buckets";

const TEXT = "0123456789";

/** One row per range form: what `get` is given, the bytes served, and the range it reports. */
const RANGES: {
	name: string;
	range: () => R2Range | Headers;
	text: string;
	served: { offset: number; length: number };
}[] = [
	{ name: "offset", range: () => ({ offset: 2 }), text: "23456789", served: { offset: 2, length: 8 } },
	{ name: "offset and length", range: () => ({ offset: 2, length: 3 }), text: "234", served: { offset: 2, length: 3 } },
	{ name: "length", range: () => ({ length: 4 }), text: "0123", served: { offset: 0, length: 4 } },
	{
		name: "offset + length past the end (clamped)",
		range: () => ({ offset: 8, length: 10 }),
		text: "89",
		served: { offset: 8, length: 2 },
	},
	{ name: "suffix", range: () => ({ suffix: 3 }), text: "789", served: { offset: 7, length: 3 } },
	{
		name: "suffix longer than the object",
		range: () => ({ suffix: 20 }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{ name: "last byte", range: () => ({ offset: 9 }), text: "9", served: { offset: 9, length: 1 } },
	{
		name: "Headers bytes=a-b",
		range: () => new Headers({ range: "bytes=1-3" }),
		text: "123",
		served: { offset: 1, length: 3 },
	},
	{
		name: "Headers bytes=a-",
		range: () => new Headers({ range: "bytes=7-" }),
		text: "789",
		served: { offset: 7, length: 3 },
	},
	{
		name: "Headers bytes=-n",
		range: () => new Headers({ range: "bytes=-2" }),
		text: "89",
		served: { offset: 8, length: 2 },
	},
	{
		name: "Headers bytes=a-b past the end",
		range: () => new Headers({ range: "bytes=5-50" }),
		text: "56789",
		served: { offset: 5, length: 5 },
	},
	// A Range header R2 cannot honour gives the whole object on the binding, never an error
	// (Miniflare `workers/shared/range.ts`), where the gateway's own HTTP answer is a 400 or a 416.
	{
		name: "Headers, start past the end",
		range: () => new Headers({ range: "bytes=10-" }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{
		name: "Headers, inverted",
		range: () => new Headers({ range: "bytes=5-2" }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{
		name: "Headers, several ranges",
		range: () => new Headers({ range: "bytes=0-1,4-5" }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{
		name: "Headers, bytes=-0",
		range: () => new Headers({ range: "bytes=-0" }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{
		name: "Headers, malformed",
		range: () => new Headers({ range: "lines=1-2" }),
		text: TEXT,
		served: { offset: 0, length: 10 },
	},
	{ name: "Headers without Range", range: () => new Headers(), text: TEXT, served: { offset: 0, length: 10 } },
];

describe.each(BUCKETS)("ranges on $name", ({ bucket }) => {
	const prefix = scope("ranges");
	const key = `${prefix}digits`;

	it.each(RANGES)("serves $name", async ({ range, text, served }) => {
		await bucket.put(key, TEXT);
		const object = await bucket.get(key, { range: range() });
		expect(object?.size).toBe(10);
		expect(object?.range).toEqual(served);
		expect(await object?.text()).toBe(text);
	});

	it("reports the whole object as the range of a get without one, and of head", async () => {
		await bucket.put(key, TEXT);
		const get = await bucket.get(key);
		expect(get?.range).toEqual({ offset: 0, length: 10 });
		await get?.arrayBuffer();
		expect((await bucket.head(key))?.range).toEqual({ offset: 0, length: 10 });
	});

	it.each([
		{ name: "an offset at the end", range: { offset: 10 } },
		{ name: "an offset past the end", range: { offset: 42 } },
		{ name: "a zero length", range: { length: 0 } },
		{ name: "a zero suffix", range: { suffix: 0 } },
	])("refuses $name with 10039", async ({ range }) => {
		await bucket.put(key, TEXT);
		await expectR2Error(bucket.get(key, { range }), "get", 10039);
	});

	it("refuses any range on an empty object with 10039", async () => {
		const empty = `${prefix}empty`;
		await bucket.put(empty, "");
		await expectR2Error(bucket.get(empty, { range: { offset: 0 } }), "get", 10039);
		await expectR2Error(bucket.get(empty, { range: { suffix: 1 } }), "get", 10039);
	});

	it("checks range arguments before any request, as workerd does", async () => {
		await expect(bucket.get(key, { range: { offset: -1 } })).rejects.toThrow(RangeError);
		await expect(bucket.get(key, { range: { offset: 1, suffix: 2 } as unknown as R2Range })).rejects.toThrow(TypeError);
	});

	it("serves a range of a binary object byte for byte", async () => {
		const binary = `${prefix}binary`;
		const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
		await bucket.put(binary, bytes);
		const object = await bucket.get(binary, { range: { offset: 120, length: 16 } });
		expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes.subarray(120, 136));
	});
});
