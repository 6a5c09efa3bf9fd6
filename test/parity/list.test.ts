import { describe, expect, it } from "vitest";
import { BUCKETS, expectR2Error, listAll, scope, store } from "./buckets";

/** Puts `names` under `prefix` and returns the full keys, in the byte order list() answers. */
async function seed(bucket: R2Bucket, prefix: string, names: string[], options?: R2PutOptions): Promise<string[]> {
	const keys = names.map((name) => `${prefix}${name}`);
	for (const key of keys) await store(bucket, key, key, options);
	return [...keys].sort();
}

const keysOf = (pages: R2Objects[]) => pages.flatMap((page) => page.objects.map((object) => object.key));
const prefixesOf = (pages: R2Objects[]) => pages.flatMap((page) => page.delimitedPrefixes);

describe.each(BUCKETS)("list on $name", ({ bucket }) => {
	it("lists the keys under a prefix in byte order, with their sizes and etags", async () => {
		const prefix = scope("list-prefix");
		const keys = await seed(bucket, prefix, ["b", "a", "c/d", "B", "ü", "a b"]);
		await store(bucket, `${prefix.slice(0, -1)}-sibling`, "not under the prefix");
		const page = await bucket.list({ prefix });
		expect(page.truncated).toBe(false);
		expect(page.objects.map((object) => object.key)).toEqual(keys);
		expect(page.delimitedPrefixes).toEqual([]);
		const first = page.objects[0];
		expect(first?.size).toBe(keys[0]?.length);
		expect(first?.etag).toMatch(/^[0-9a-f]{32}$/);
		expect(first?.uploaded).toBeInstanceOf(Date);
		expect(first?.range).toBeUndefined();
	});

	it("groups keys by delimiter into delimitedPrefixes", async () => {
		const prefix = scope("list-delimiter");
		await seed(bucket, prefix, ["top.txt", "photos/a.jpg", "photos/b.jpg", "photos/2024/c.jpg", "docs/x.md", "z"]);
		const page = await bucket.list({ prefix, delimiter: "/" });
		expect(page.objects.map((object) => object.key)).toEqual([`${prefix}top.txt`, `${prefix}z`]);
		expect(page.delimitedPrefixes).toEqual([`${prefix}docs/`, `${prefix}photos/`]);
		const photos = await bucket.list({ prefix: `${prefix}photos/`, delimiter: "/" });
		expect(photos.objects.map((object) => object.key)).toEqual([`${prefix}photos/a.jpg`, `${prefix}photos/b.jpg`]);
		expect(photos.delimitedPrefixes).toEqual([`${prefix}photos/2024/`]);
	});

	it("pages with cursor until truncated is false, each key once", async () => {
		const prefix = scope("list-cursor");
		const keys = await seed(
			bucket,
			prefix,
			Array.from({ length: 23 }, (_, i) => `k${String(i).padStart(2, "0")}`),
		);
		const pages = await listAll(bucket, { prefix, limit: 5 });
		expect(keysOf(pages)).toEqual(keys);
		for (const page of pages) expect(page.objects.length).toBeLessThanOrEqual(5);
		expect(pages.length).toBeGreaterThan(1);
		const last = pages.at(-1);
		expect(last?.truncated).toBe(false);
		for (const page of pages.slice(0, -1)) {
			expect(page.truncated).toBe(true);
			expect(page.truncated && typeof page.cursor).toBe("string");
		}
	});

	it("pages through delimited prefixes with cursor too", async () => {
		const prefix = scope("list-cursor-delimiter");
		await seed(bucket, prefix, ["a/1", "a/2", "b/1", "c", "d/1", "e", "f/1/2"]);
		const pages = await listAll(bucket, { prefix, delimiter: "/", limit: 2 });
		expect(keysOf(pages)).toEqual([`${prefix}c`, `${prefix}e`]);
		expect(prefixesOf(pages)).toEqual([`${prefix}a/`, `${prefix}b/`, `${prefix}d/`, `${prefix}f/`]);
	});

	it("starts after startAfter, exclusively", async () => {
		const prefix = scope("list-start-after");
		const keys = await seed(bucket, prefix, ["a", "b", "c", "d"]);
		const page = await bucket.list({ prefix, startAfter: `${prefix}b` });
		expect(page.objects.map((object) => object.key)).toEqual(keys.slice(2));
		const between = await bucket.list({ prefix, startAfter: `${prefix}bb` });
		expect(between.objects.map((object) => object.key)).toEqual(keys.slice(2));
		const paged = await listAll(bucket, { prefix, startAfter: `${prefix}a`, limit: 1 });
		expect(keysOf(paged)).toEqual(keys.slice(1));
	});

	it("takes limits from 1 to 1000 and refuses others with 10022", async () => {
		const prefix = scope("list-limit");
		const keys = await seed(bucket, prefix, ["a", "b", "c"]);
		const one = await bucket.list({ prefix, limit: 1 });
		expect(one.objects.length).toBeLessThanOrEqual(1);
		expect(keysOf(await listAll(bucket, { prefix, limit: 1 }))).toEqual(keys);
		expect((await bucket.list({ prefix, limit: 1000 })).objects.map((object) => object.key)).toEqual(keys);
		await expectR2Error(bucket.list({ prefix, limit: 0 }), "list", 10022);
		await expectR2Error(bucket.list({ prefix, limit: 1001 }), "list", 10022);
	});

	it("includes httpMetadata and customMetadata when asked, each on its own", async () => {
		const prefix = scope("list-include");
		const httpMetadata = {
			contentType: "image/png",
			cacheControl: "no-cache",
			cacheExpiry: new Date("2031-05-06T07:08:09Z"),
		};
		const customMetadata = { camera: "x100", place: "Genève" };
		await seed(bucket, prefix, ["photo.png"], { httpMetadata, customMetadata });
		const both = (await bucket.list({ prefix, include: ["httpMetadata", "customMetadata"] })).objects[0];
		expect(both?.httpMetadata).toEqual(httpMetadata);
		expect(both?.customMetadata).toEqual(customMetadata);
		const headers = new Headers();
		both?.writeHttpMetadata(headers);
		expect(headers.get("content-type")).toBe("image/png");
		const http = (await bucket.list({ prefix, include: ["httpMetadata"] })).objects[0];
		expect(http?.httpMetadata).toEqual(httpMetadata);
		const custom = (await bucket.list({ prefix, include: ["customMetadata"] })).objects[0];
		expect(custom?.customMetadata).toEqual(customMetadata);
	});

	it("pages with include follow the cursor (R2 may answer fewer than limit)", async () => {
		const prefix = scope("list-include-pages");
		const keys = await seed(
			bucket,
			prefix,
			Array.from({ length: 12 }, (_, i) => `m${i}`),
			{ customMetadata: { n: "v" } },
		);
		const pages = await listAll(bucket, { prefix, limit: 4, include: ["customMetadata"] });
		expect(keysOf(pages).sort()).toEqual(keys);
		for (const page of pages) for (const object of page.objects) expect(object.customMetadata).toEqual({ n: "v" });
	});

	it("refuses an unknown include value, as workerd does", async () => {
		await expect(bucket.list({ include: ["everything" as "httpMetadata"] })).rejects.toThrow(RangeError);
	});

	// workerd's binding (compatibility date after 2022-08-04, flag r2_list_honor_include) over
	// Miniflare answers {} for metadata not included; the gateway's JSON carries what the binding
	// gave, so RemoteBucket answers the same.
	it("without include, entries carry the binding's empty metadata", async () => {
		const prefix = scope("list-no-include");
		await seed(bucket, prefix, ["x"], { customMetadata: { a: "b" }, httpMetadata: { contentType: "text/plain" } });
		const entry = (await bucket.list({ prefix })).objects[0];
		expect(entry?.customMetadata).toEqual({});
		expect(entry?.httpMetadata).toEqual({});
		const headers = new Headers();
		entry?.writeHttpMetadata(headers);
		expect([...headers]).toEqual([]);
	});
});
