/**
 * RemoteBucket from Node, end to end: src/client/index.ts imported by Node (no bundler) against
 * wrangler dev, through the front line the parity suite (test/parity) cannot reach from inside
 * workerd. The binding's behaviours on the wire: raw bodies and their `contentEncoding`, errors
 * equal to the binding's, list metadata, foreign Headers, metadata size, the keys `.` and `..`;
 * and what only Node shows: Miniflare's own Headers, and bodies read back (Node's fetch gives
 * them no length) stored again.
 */
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";

/**
 * What these checks use of RemoteBucket (an `R2Bucket`). The client's own types are the Worker's
 * (`R2Object`, `FixedLengthStream`), which this Node-typed project does not load, so the module is
 * imported by a computed name (not type-checked here; `npm run typecheck` checks it with the Worker's
 * types) and read through this shape.
 */
interface StoredObject {
	key: string;
	size: number;
	etag: string;
	httpMetadata: unknown;
	customMetadata: unknown;
	range: unknown;
	checksums: { toJSON(): unknown };
	body: ReadableStream;
	text(): Promise<string>;
	arrayBuffer(): Promise<ArrayBuffer>;
}
interface Upload {
	uploadPart(partNumber: number, body: unknown): Promise<unknown>;
	complete(parts: unknown[]): Promise<StoredObject>;
	abort(): Promise<void>;
}
interface Bucket {
	put(key: string, value: unknown, options?: object): Promise<StoredObject | null>;
	head(key: string): Promise<StoredObject | null>;
	get(key: string, options?: object): Promise<StoredObject | null>;
	list(options?: object): Promise<{ objects: StoredObject[] }>;
	delete(keys: string | string[]): Promise<void>;
	createMultipartUpload(key: string): Promise<Upload>;
	resumeMultipartUpload(key: string, uploadId: string): Upload;
}
const CLIENT = "../../src/client/index.ts";
const { RemoteBucket } = (await import(CLIENT)) as {
	RemoteBucket: new (options: { url: string; token: string }) => Bucket;
};

const dev = inject("dev");
/** The read-write gateway token of .dev.vars.example. */
const TOKEN = "dev-token";
const bucket = new RemoteBucket({ url: dev.url, token: TOKEN });

// Miniflare's own Headers (its copy of undici), as Miniflare's R2 tests pass them: the copy wrangler runs.
const miniflare = createRequire(createRequire(import.meta.url).resolve("wrangler/package.json")).resolve("miniflare");
const { Headers: MiniflareHeaders } = (await import(miniflare)) as { Headers: typeof Headers };

/** The binding's error for `action`, as workerd formats it. */
const r2Error = (action: string, message: string, code: number) => new Error(`${action}: ${message} (${code})`);
const INTERNAL = "We encountered an internal error. Please try again.";

/** The bytes of an object, read whole. */
const bytesOf = async (object: { arrayBuffer(): Promise<ArrayBuffer> } | null) => {
	if (object === null) throw new Error("no object");
	return new Uint8Array(await object.arrayBuffer());
};

describe("RemoteBucket from Node against wrangler dev", () => {
	it("puts, heads, gets, lists and deletes a key", async () => {
		const put = await bucket.put("node/a.txt", "hello", { customMetadata: { from: "node" } });
		expect(put?.etag).toBe("5d41402abc4b2a76b9719d911017c592");
		expect((await bucket.head("node/a.txt"))?.size).toBe(5);
		expect(await (await bucket.get("node/a.txt"))?.text()).toBe("hello");
		expect((await bucket.list({ prefix: "node/" })).objects.map((object) => object.key)).toEqual(["node/a.txt"]);
		await bucket.delete("node/a.txt");
		expect(await bucket.head("node/a.txt")).toBeNull();
	});

	const httpMetadata = { contentEncoding: "gzip", contentType: "text/plain" };
	it("gives a gzip-stored object back as stored, with its contentEncoding", async () => {
		const gzip = new Uint8Array(gzipSync("compressed ".repeat(200)));
		await bucket.put("node/gzip.txt", gzip, { httpMetadata });
		const object = await bucket.get("node/gzip.txt");
		expect(object?.httpMetadata).toEqual(httpMetadata);
		expect(object?.size).toBe(gzip.byteLength);
		expect(await bytesOf(object)).toEqual(gzip);
		expect((await bucket.head("node/gzip.txt"))?.httpMetadata).toEqual(httpMetadata);
	});

	it("gives a gzip-labelled object whose bytes are not gzip back as stored", async () => {
		const plain = new TextEncoder().encode("labelled gzip, but plain text");
		await bucket.put("node/not-gzip.txt", plain, { httpMetadata });
		const object = await bucket.get("node/not-gzip.txt");
		expect(object?.httpMetadata).toEqual(httpMetadata);
		expect(await bytesOf(object)).toEqual(plain);
	});

	it("throws the binding's errors, head's included", async () => {
		const invalidName = "The specified object name is not valid.";
		await expect(bucket.head("ü".repeat(513))).rejects.toThrow(r2Error("head", invalidName, 10020));
		await expect(bucket.put("ü".repeat(513), "x")).rejects.toThrow(r2Error("put", invalidName, 10020));
		const denied = new RemoteBucket({ url: dev.url, token: "not-a-token" });
		await expect(denied.head("node/a.txt")).rejects.toThrow(r2Error("head", "The token is not valid.", 10002));
	});

	it("lists entries with the binding's empty metadata when include is not given", async () => {
		await bucket.put("node/list/x", "x", { customMetadata: { a: "b" } });
		const [entry] = (await bucket.list({ prefix: "node/list/" })).objects;
		expect([entry?.httpMetadata, entry?.customMetadata]).toEqual([{}, {}]);
	});

	it("refuses list limits out of range and duplicate parts with the binding's errors", async () => {
		const maxKeys = r2Error("list", "MaxKeys params must be positive integer <= 1000.", 10022);
		await expect(bucket.list({ limit: 0 })).rejects.toThrow(maxKeys);
		await expect(bucket.list({ limit: 1001 })).rejects.toThrow(maxKeys);
		const upload = await bucket.createMultipartUpload("node/mp");
		const part = await upload.uploadPart(1, "abc");
		await expect(upload.complete([part, part])).rejects.toThrow(r2Error("completeMultipartUpload", INTERNAL, 10001));
		await upload.abort();
	});

	it("reads a Headers that is not Node's as the binding reads it: not as headers", async () => {
		await bucket.put("node/range", "0123456789");
		const map: Record<string, string> = { range: "bytes=2-4" };
		const polyfill = { map, get: (name: string) => map[name] ?? null };
		expect(await (await bucket.get("node/range", { range: polyfill }))?.text()).toBe("0123456789");
		expect(await (await bucket.get("node/range", { range: new Headers({ range: "bytes=2-4" }) }))?.text()).toBe("234");
	});

	it("reads Miniflare's Headers as headers, as the binding Miniflare hands to Node does", async () => {
		await bucket.put("node/range", "abcdefghijklmnopqrstuvwxyz");
		const object = await bucket.get("node/range", { range: new MiniflareHeaders({ Range: "bytes=3-6" }) });
		expect([await object?.text(), object?.range]).toEqual(["defg", { offset: 3, length: 4 }]);
	});

	it("stores a body it read back as the binding does: in one put with the same etag, and as a part", async () => {
		const bytes = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 255);
		const original = await bucket.put("node/big", bytes);
		const read = await bucket.get("node/big");
		const copy = await bucket.put("node/big-copy", read?.body ?? null);
		expect([copy?.etag, copy?.checksums.toJSON()]).toEqual([original?.etag, { md5: original?.etag }]);
		const upload = await bucket.createMultipartUpload("node/joined");
		const head = await bucket.get("node/big", { range: { length: 6 } });
		const part = await upload.uploadPart(1, head?.body ?? "");
		expect((await upload.complete([part])).size).toBe(6);
	});

	it("fails complete and abort of an unknown upload with the binding's 10001", async () => {
		const unknown = bucket.resumeMultipartUpload("node/mp", "no-such-upload");
		await expect(unknown.complete([])).rejects.toThrow(r2Error("completeMultipartUpload", INTERNAL, 10001));
		await expect(unknown.abort()).rejects.toThrow(r2Error("abortMultipartUpload", INTERNAL, 10001));
	});

	it("refuses custom metadata over the binding's limit, storing nothing", async () => {
		const tooLarge = r2Error("put", "Your metadata headers exceed the maximum allowed metadata size.", 10012);
		await expect(bucket.put("node/meta", "x", { customMetadata: { a: "x".repeat(8192) } })).rejects.toThrow(tooLarge);
		await expect(
			bucket.put("node/meta", "x", { customMetadata: { A: "x".repeat(5000), a: "y".repeat(5000) } }),
		).rejects.toThrow(tooLarge);
		expect(await bucket.head("node/meta")).toBeNull();
	});

	it("stores the keys . and .. apart from the empty key", async () => {
		await bucket.put("", "empty");
		for (const key of [".", ".."]) {
			expect((await bucket.put(key, `is ${key}`))?.key).toBe(key);
			expect(await (await bucket.get(key))?.text()).toBe(`is ${key}`);
		}
		expect(await (await bucket.get(""))?.text()).toBe("empty");
		await bucket.delete([".", "..", ""]);
		expect(await bucket.head("..")).toBeNull();
	});
});
