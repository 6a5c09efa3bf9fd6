import { describe, expect, it } from "vitest";
import { BUCKETS, bytesOf, hexDigest, scope, store } from "./buckets";

/** All six httpMetadata fields; Expires is an HTTP date, so whole seconds. */
const HTTP_METADATA = {
	contentType: "text/markdown; charset=utf-8",
	contentLanguage: "de-CH",
	contentDisposition: 'attachment; filename="notes.md"',
	contentEncoding: "identity",
	cacheControl: "public, max-age=600",
	cacheExpiry: new Date("2030-01-02T03:04:05.000Z"),
} satisfies R2HTTPMetadata;

/** The six headers `writeHttpMetadata` writes for HTTP_METADATA. */
const HTTP_HEADERS = {
	"content-type": "text/markdown; charset=utf-8",
	"content-language": "de-CH",
	"content-disposition": 'attachment; filename="notes.md"',
	"content-encoding": "identity",
	"cache-control": "public, max-age=600",
	expires: "Wed, 02 Jan 2030 03:04:05 GMT",
};

/** Custom metadata with lower-case names (HTTP carries no case) and non-ASCII values. */
const CUSTOM_METADATA = { owner: "ops", city: "Zürich ☃", empty: "", "x-y_z": "a=b; c" };

describe.each(BUCKETS)("objects on $name", ({ kind, bucket }) => {
	it("put answers the stored object: key, size, md5 etag, version, upload time, no range", async () => {
		const key = `${scope("put")}hello.txt`;
		const before = Date.now();
		const object = await store(bucket, key, "hello");
		const after = Date.now();
		expect(object.key).toBe(key);
		expect(object.size).toBe(5);
		expect(object.etag).toBe("5d41402abc4b2a76b9719d911017c592");
		expect(object.httpEtag).toBe('"5d41402abc4b2a76b9719d911017c592"');
		expect(object.checksums.toJSON()).toEqual({ md5: "5d41402abc4b2a76b9719d911017c592" });
		expect(object.version).toMatch(/^[0-9a-f]{32}$/);
		expect(object.uploaded).toBeInstanceOf(Date);
		expect(object.uploaded.getTime()).toBeGreaterThanOrEqual(before - 1000);
		expect(object.uploaded.getTime()).toBeLessThanOrEqual(after + 1000);
		expect(object.range).toBeUndefined();
		// Miniflare reports no storage class (""), where R2 reports "Standard": see the storage-class case.
		expect(object.storageClass).toBe("");
		expect(object.customMetadata).toEqual({});
	});

	it("head and get give back the version, etag and upload time put answered", async () => {
		const key = `${scope("identity")}a`;
		const put = await store(bucket, key, "abc");
		const head = await bucket.head(key);
		const get = await bucket.get(key);
		for (const object of [head, get]) {
			expect(object?.version).toBe(put.version);
			expect(object?.etag).toBe(put.etag);
			expect(object?.httpEtag).toBe(put.httpEtag);
			expect(object?.uploaded.getTime()).toBe(put.uploaded.getTime());
			expect(object?.size).toBe(3);
			expect(object?.checksums.toJSON()).toEqual(put.checksums.toJSON());
		}
		expect(head).not.toHaveProperty("body");
		await get?.arrayBuffer();
	});

	it("a new put of the key replaces the object with a new version", async () => {
		const key = `${scope("overwrite")}k`;
		const first = await store(bucket, key, "one", { customMetadata: { v: "1" } });
		const second = await store(bucket, key, "two!");
		expect(second.version).not.toBe(first.version);
		expect(second.etag).not.toBe(first.etag);
		const head = await bucket.head(key);
		expect(head?.size).toBe(4);
		expect(head?.customMetadata).toEqual({});
	});

	it("round-trips all six httpMetadata fields and custom metadata through put, head, get and list", async () => {
		const prefix = scope("metadata");
		const key = `${prefix}notes.md`;
		const put = await store(bucket, key, "# notes", { httpMetadata: HTTP_METADATA, customMetadata: CUSTOM_METADATA });
		expect(put.httpMetadata).toEqual(HTTP_METADATA);
		expect(put.customMetadata).toEqual(CUSTOM_METADATA);
		const head = await bucket.head(key);
		const get = await bucket.get(key);
		const listed = (await bucket.list({ prefix, include: ["httpMetadata", "customMetadata"] })).objects[0];
		for (const object of [head, get, listed]) {
			expect(object?.httpMetadata).toEqual(HTTP_METADATA);
			expect(object?.httpMetadata?.cacheExpiry).toBeInstanceOf(Date);
			expect(object?.customMetadata).toEqual(CUSTOM_METADATA);
		}
		expect(await get?.text()).toBe("# notes");
	});

	it("takes httpMetadata as Headers, reading the six headers and nothing else", async () => {
		const key = `${scope("metadata-headers")}h`;
		const headers = new Headers({ ...HTTP_HEADERS, "x-other": "ignored", "content-md5": "ignored" });
		await bucket.put(key, "x", { httpMetadata: headers });
		const head = await bucket.head(key);
		expect(head?.httpMetadata).toEqual(HTTP_METADATA);
		expect(head?.customMetadata).toEqual({});
	});

	it("stores no httpMetadata the caller did not give: no Content-Type from a string or a Blob", async () => {
		const prefix = scope("no-default-type");
		await bucket.put(`${prefix}s`, "text");
		await bucket.put(`${prefix}b`, new Blob(["blob"], { type: "text/x-blob" }));
		expect((await bucket.head(`${prefix}s`))?.httpMetadata).toEqual({});
		expect((await bucket.head(`${prefix}b`))?.httpMetadata).toEqual({});
	});

	it("writeHttpMetadata writes the six headers of head and get objects", async () => {
		const key = `${scope("write-http")}w`;
		await bucket.put(key, "w", { httpMetadata: HTTP_METADATA });
		const head = await bucket.head(key);
		const get = await bucket.get(key);
		for (const object of [head, get]) {
			const headers = new Headers();
			object?.writeHttpMetadata(headers);
			expect(Object.fromEntries(headers)).toEqual(HTTP_HEADERS);
		}
		await get?.arrayBuffer();
	});

	it("accepts every value type put takes", async () => {
		const prefix = scope("values");
		const bytes = bytesOf(1000);
		const values: [string, () => Parameters<R2Bucket["put"]>[1], Uint8Array][] = [
			["string", () => "héllo", new TextEncoder().encode("héllo")],
			["ArrayBuffer", () => bytes.buffer, bytes],
			// A view into the middle of a larger buffer: only its own bytes are stored.
			["ArrayBufferView", () => bytes.subarray(100, 300), bytes.subarray(100, 300)],
			["DataView", () => new DataView(bytes.buffer, 10, 20), bytes.subarray(10, 30)],
			["Blob", () => new Blob([bytes]), bytes],
			["null", () => null, new Uint8Array()],
			// The binding needs a stream of known length, such as a response body.
			["ReadableStream", () => new Response(bytes).body, bytes],
		];
		for (const [name, value, expected] of values) {
			const put = await store(bucket, `${prefix}${name}`, value());
			expect(put.size, name).toBe(expected.byteLength);
			const get = await bucket.get(`${prefix}${name}`);
			expect(new Uint8Array((await get?.arrayBuffer()) ?? new ArrayBuffer(1)), name).toEqual(expected);
			expect(put.etag, name).toBe(await hexDigest("MD5", expected.slice()));
		}
	});

	it("stores an empty object and reads it back empty", async () => {
		const key = `${scope("empty")}e`;
		const put = await store(bucket, key, "");
		expect(put.size).toBe(0);
		expect(put.etag).toBe("d41d8cd98f00b204e9800998ecf8427e");
		const get = await bucket.get(key);
		expect(get?.size).toBe(0);
		expect(get?.range).toEqual({ offset: 0, length: 0 });
		expect(await get?.text()).toBe("");
	});

	it("head and get answer null for a missing key", async () => {
		const key = `${scope("missing")}nothing`;
		expect(await bucket.head(key)).toBeNull();
		expect(await bucket.get(key)).toBeNull();
		expect(await bucket.get(key, { range: { offset: 1 } })).toBeNull();
	});

	it("delete removes one key, and a missing key is not an error", async () => {
		const key = `${scope("delete")}d`;
		await bucket.put(key, "d");
		await bucket.delete(key);
		expect(await bucket.head(key)).toBeNull();
		await expect(bucket.delete(key)).resolves.toBeUndefined();
	});

	it("delete removes many keys at once, ignoring missing ones; an empty list deletes nothing", async () => {
		const prefix = scope("delete-many");
		const keys = ["a", "b", "c/d", "ü"].map((name) => `${prefix}${name}`);
		for (const key of keys) await bucket.put(key, key);
		await bucket.put(`${prefix}keep`, "keep");
		await bucket.delete([]);
		expect((await bucket.list({ prefix })).objects).toHaveLength(5);
		await bucket.delete([...keys, `${prefix}never-existed`]);
		const left = await bucket.list({ prefix });
		expect(left.objects.map((object) => object.key)).toEqual([`${prefix}keep`]);
	});

	// Miniflare's binding accepts a storage class but stores none, and reports "" for every object
	// (workers-sdk `packages/miniflare/src/workers/r2/`), where R2 reports the class written. The
	// gateway records InfrequentAccess in the bucket's ledger (src/edge/s3/storage-class/) and
	// reports it as R2 does, so RemoteBucket sees it; Standard, never recorded, reads as the binding says.
	it("accepts both storage classes; through the gateway InfrequentAccess reads back as on R2", async () => {
		const prefix = scope("storage-class");
		for (const storageClass of ["Standard", "InfrequentAccess"]) {
			const put = await store(bucket, `${prefix}${storageClass}`, "s", { storageClass });
			const head = await bucket.head(`${prefix}${storageClass}`);
			const expected = kind === "remote" && storageClass === "InfrequentAccess" ? storageClass : "";
			expect(put.storageClass).toBe(expected);
			expect(head?.storageClass).toBe(expected);
		}
	});

	it("serialises objects as the binding does: checksums as hex, no methods", async () => {
		const key = `${scope("json")}j`;
		await bucket.put(key, "hello", { customMetadata: { a: "b" } });
		const head = await bucket.head(key);
		const json = JSON.parse(JSON.stringify(head)) as Record<string, unknown>;
		expect(json).toMatchObject({
			key,
			size: 5,
			etag: "5d41402abc4b2a76b9719d911017c592",
			checksums: { md5: "5d41402abc4b2a76b9719d911017c592" },
			customMetadata: { a: "b" },
			range: { offset: 0, length: 5 },
		});
		expect(json).not.toHaveProperty("writeHttpMetadata");
	});

	// HTTP cannot carry these distinctions; each case pins down the documented HTTP behaviour.
	it("custom metadata names keep their case on the binding and arrive lower case over HTTP", async () => {
		const key = `${scope("meta-case")}c`;
		await bucket.put(key, "c", { customMetadata: { Owner: "Ops" } });
		const head = await bucket.head(key);
		// docs/gateway.md: header names are case-insensitive, so names are lower case over HTTP.
		expect(head?.customMetadata).toEqual(kind === "binding" ? { Owner: "Ops" } : { owner: "Ops" });
	});

	it("cacheExpiry keeps milliseconds on the binding and whole seconds over HTTP (Expires is an HTTP date)", async () => {
		const key = `${scope("expiry-ms")}e`;
		const cacheExpiry = new Date("2030-01-02T03:04:05.678Z");
		await bucket.put(key, "e", { httpMetadata: { cacheExpiry } });
		const head = await bucket.head(key);
		const expected = kind === "binding" ? cacheExpiry : new Date("2030-01-02T03:04:05.000Z");
		expect(head?.httpMetadata?.cacheExpiry).toEqual(expected);
	});
});
