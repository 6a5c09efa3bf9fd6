import { describe, expect, it } from "vitest";
import { BUCKETS, expectR2Error, scope, store } from "./buckets";

/** Keys with reserved URL characters, Unicode, spaces and dot segments. */
const NAMES = [
	"a b/ü/%/?#&+",
	"100%25",
	"%zz",
	"dir/./x",
	"dir/../y",
	"trailing/",
	"//double//slashes",
	"client/v4/zones",
	"emoji 🙂 and 日本語",
	"semi;colon=equals,comma'quote\"",
	"tab\tand\\backslash",
];

describe.each(BUCKETS)("keys on $name", ({ bucket }) => {
	it.each(NAMES)("stores, reads, lists and deletes %j", async (name) => {
		const prefix = scope("keys");
		const key = `${prefix}${name}`;
		const put = await store(bucket, key, name);
		expect(put.key).toBe(key);
		expect((await bucket.head(key))?.key).toBe(key);
		const get = await bucket.get(key);
		expect(get?.key).toBe(key);
		expect(await get?.text()).toBe(name);
		expect((await bucket.list({ prefix })).objects.map((object) => object.key)).toEqual([key]);
		await bucket.delete(key);
		expect(await bucket.head(key)).toBeNull();
	});

	it("takes the empty key for every operation", async () => {
		const put = await store(bucket, "", "empty key");
		expect(put.key).toBe("");
		expect((await bucket.head(""))?.size).toBe(9);
		expect(await (await bucket.get(""))?.text()).toBe("empty key");
		const upload = await bucket.createMultipartUpload("");
		expect(upload.key).toBe("");
		await upload.abort();
		await bucket.delete("");
		expect(await bucket.head("")).toBeNull();
	});

	it("takes a key of 1024 bytes of UTF-8", async () => {
		const key = `${`${scope("long")}`.padEnd(1022, "x")}ü`;
		expect(new TextEncoder().encode(key).byteLength).toBe(1024);
		await store(bucket, key, "long");
		expect((await bucket.head(key))?.size).toBe(4);
		await bucket.delete(key);
	});

	it("refuses a key over 1024 bytes with 10020 on put, get, delete and multipart", async () => {
		const key = "ü".repeat(513);
		await expectR2Error(bucket.put(key, "x"), "put", 10020);
		await expectR2Error(bucket.get(key), "get", 10020);
		await expectR2Error(bucket.delete(key), "delete", 10020);
		await expectR2Error(bucket.delete(["ok", key]), "delete", 10020);
		await expectR2Error(bucket.createMultipartUpload(key), "createMultipartUpload", 10020);
	});

	it("refuses a key over 1024 bytes with 10020 on head", async () => {
		await expectR2Error(bucket.head("ü".repeat(513)), "head", 10020);
	});

	// No URL path can hold these two keys; RemoteBucket names them with ?key= (docs/gateway.md, Keys).
	it("stores, reads, lists and deletes the keys . and .., apart from the empty key", async () => {
		await store(bucket, "", "empty");
		for (const key of [".", ".."]) {
			expect((await store(bucket, key, `is ${key}`)).key).toBe(key);
			expect((await bucket.head(key))?.key).toBe(key);
			expect(await (await bucket.get(key))?.text()).toBe(`is ${key}`);
			const upload = await bucket.createMultipartUpload(key);
			await upload.complete([await upload.uploadPart(1, `part of ${key}`)]);
			expect(await (await bucket.get(key, { range: { offset: 8 } }))?.text()).toBe(key);
		}
		expect(await (await bucket.get(""))?.text()).toBe("empty");
		const listed = (await bucket.list({ prefix: "." })).objects.map((object) => object.key);
		expect(listed).toEqual(expect.arrayContaining([".", ".."]));
		await bucket.delete(".");
		await bucket.delete([".."]);
		expect(await bucket.head(".")).toBeNull();
		expect(await bucket.head("..")).toBeNull();
		expect(await (await bucket.get(""))?.text()).toBe("empty");
		await bucket.delete("");
	});
});
