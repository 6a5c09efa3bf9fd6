import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BUCKETS, bytesOf, concat, hexDigest, lengthlessRemoteBucket, scope, store } from "./buckets";

/** Reads a stream to the end, chunk by chunk. */
async function drain(stream: ReadableStream<Uint8Array>): Promise<Uint8Array<ArrayBuffer>> {
	const chunks: Uint8Array[] = [];
	const reader = stream.getReader();
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return concat(...chunks);
		chunks.push(value);
	}
}

/** Gzip of `text`, as a client would upload a pre-compressed object. */
async function gzip(text: string): Promise<Uint8Array<ArrayBuffer>> {
	return drain(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip")));
}

describe.each(BUCKETS)("reading objects back on $name", ({ bucket }) => {
	const prefix = scope("bodies");
	const document = { name: "edgezone", list: [1, 2, 3], nested: { ok: true }, text: "grüße" };

	it("text() decodes UTF-8", async () => {
		await store(bucket, `${prefix}text`, "grüße, 世界");
		expect(await (await bucket.get(`${prefix}text`))?.text()).toBe("grüße, 世界");
	});

	it("json() parses the body", async () => {
		await store(bucket, `${prefix}json`, JSON.stringify(document), {
			httpMetadata: { contentType: "application/json" },
		});
		expect(await (await bucket.get(`${prefix}json`))?.json()).toEqual(document);
	});

	it("arrayBuffer() and bytes() give the bytes", async () => {
		const bytes = bytesOf(4096);
		await store(bucket, `${prefix}binary`, bytes);
		expect(new Uint8Array((await (await bucket.get(`${prefix}binary`))?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(
			bytes,
		);
		expect(await (await bucket.get(`${prefix}binary`))?.bytes()).toEqual(bytes);
	});

	it("blob() is typed with the object's Content-Type, and untyped without one", async () => {
		await store(bucket, `${prefix}typed`, "<p>hi</p>", { httpMetadata: { contentType: "text/html" } });
		const typed = await (await bucket.get(`${prefix}typed`))?.blob();
		expect(typed?.type).toBe("text/html");
		expect(await typed?.text()).toBe("<p>hi</p>");
		await store(bucket, `${prefix}untyped`, "raw");
		const untyped = await (await bucket.get(`${prefix}untyped`))?.blob();
		expect(untyped?.type).toBe("");
		expect(untyped?.size).toBe(3);
	});

	it("body streams a large object chunk by chunk", async () => {
		const bytes = bytesOf(3 * 1024 * 1024 + 7, 5);
		await store(bucket, `${prefix}large`, bytes);
		const object = await bucket.get(`${prefix}large`);
		const read = await drain(object?.body ?? new ReadableStream());
		expect(read.byteLength).toBe(bytes.byteLength);
		expect(await hexDigest("SHA-256", read)).toBe(await hexDigest("SHA-256", bytes));
	});

	it("body of an empty object is an empty stream", async () => {
		await store(bucket, `${prefix}empty`, "");
		const object = await bucket.get(`${prefix}empty`);
		expect(object?.body).toBeInstanceOf(ReadableStream);
		expect((await drain(object?.body ?? new ReadableStream())).byteLength).toBe(0);
	});

	it("bodyUsed turns true once the body is read, and the body cannot be read twice", async () => {
		await store(bucket, `${prefix}once`, "once");
		const object = await bucket.get(`${prefix}once`);
		expect(object?.bodyUsed).toBe(false);
		expect(await object?.text()).toBe("once");
		expect(object?.bodyUsed).toBe(true);
		await expect(object?.text()).rejects.toThrow(TypeError);
	});

	it("bodyUsed turns true when read through body", async () => {
		await store(bucket, `${prefix}stream-used`, "stream");
		const object = await bucket.get(`${prefix}stream-used`);
		expect(object?.body).toBe(object?.body);
		await drain(object?.body ?? new ReadableStream());
		expect(object?.bodyUsed).toBe(true);
	});

	it("a body can be stored again under another key, as a stream of known length", async () => {
		await store(bucket, `${prefix}source`, "copy me");
		const source = await bucket.get(`${prefix}source`);
		const copy = await store(bucket, `${prefix}copy`, source?.body ?? null, { httpMetadata: source?.httpMetadata });
		expect(copy.size).toBe(7);
		expect(await (await bucket.get(`${prefix}copy`))?.text()).toBe("copy me");
	});

	// RemoteBucket asks for raw bodies, so no front line and no fetch decodes them (docs/gateway.md,
	// "Raw bodies"); http.test.ts runs these through an emulated front line, and
	// test/node/remote-bucket.node.ts through wrangler dev's from Node.
	it("serves an object stored with Content-Encoding as stored, never decoded", async () => {
		const compressed = await gzip("compressed ".repeat(100));
		await store(bucket, `${prefix}gzip`, compressed, {
			httpMetadata: { contentEncoding: "gzip", contentType: "text/plain" },
		});
		const object = await bucket.get(`${prefix}gzip`);
		expect(object?.httpMetadata?.contentEncoding).toBe("gzip");
		expect(object?.size).toBe(compressed.byteLength);
		expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(compressed);
	});

	it("serves an object stored as gzip whose bytes are not gzip, as stored", async () => {
		const bytes = new TextEncoder().encode("plain text, labelled gzip");
		await store(bucket, `${prefix}not-gzip`, bytes, {
			httpMetadata: { contentEncoding: "gzip", contentType: "text/plain" },
		});
		const object = await bucket.get(`${prefix}not-gzip`);
		expect(object?.httpMetadata).toEqual({ contentEncoding: "gzip", contentType: "text/plain" });
		expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(bytes);
		expect((await bucket.head(`${prefix}not-gzip`))?.httpMetadata?.contentEncoding).toBe("gzip");
	});

	it("custom metadata values keep their leading and trailing spaces", async () => {
		const key = `${prefix}spaces`;
		await store(bucket, key, "s", { customMetadata: { padded: "  two spaces  ", tab: "\tx" } });
		expect((await bucket.head(key))?.customMetadata).toEqual({ padded: "  two spaces  ", tab: "\tx" });
	});
});

/** Past the 8 MiB a stream of unknown length is stored in as one put: beyond it, a multipart upload. */
const PAST_ONE_PART = 9 * 1024 * 1024;

// A body read back and stored again arrives as the binding's own does: in one put, with the same
// MD5 etag and checksum, and whole as a part. The RemoteBucket here reads answers that carry no
// length, as Node's fetch gives them: the length of its `body` comes from the answer's size.
describe.each([
	{ name: "env.BUCKET", bucket: env.BUCKET as R2Bucket },
	{ name: "RemoteBucket, answers without a length", bucket: lengthlessRemoteBucket() as R2Bucket },
])("storing a body read back, on $name", ({ bucket }) => {
	const bytes = bytesOf(PAST_ONE_PART, 7);

	it("stores a whole body again as the same object: one put, same etag and MD5", async () => {
		const prefix = scope("bodies-copy");
		const original = await store(bucket, `${prefix}source`, bytes);
		const source = await bucket.get(`${prefix}source`);
		const copy = await store(bucket, `${prefix}copy`, source?.body ?? null);
		expect(copy.size).toBe(PAST_ONE_PART);
		expect(copy.etag).toBe(original.etag);
		expect(copy.checksums.toJSON()).toEqual({ md5: original.etag });
	});

	it("stores a range's body again as those bytes, in one put", async () => {
		const prefix = scope("bodies-copy-range");
		await store(bucket, `${prefix}source`, bytes);
		const range = await bucket.get(`${prefix}source`, { range: { offset: 1, length: PAST_ONE_PART - 2 } });
		const copy = await store(bucket, `${prefix}copy`, range?.body ?? null);
		const expected = bytes.subarray(1, PAST_ONE_PART - 1);
		expect(copy.size).toBe(expected.byteLength);
		expect(copy.etag).toBe(await hexDigest("MD5", expected));
	});

	it("uploads a body read back as a part", async () => {
		const prefix = scope("bodies-part");
		await store(bucket, `${prefix}source`, "a part");
		const source = await bucket.get(`${prefix}source`);
		const upload = await bucket.createMultipartUpload(`${prefix}joined`);
		const object = await upload.complete([await upload.uploadPart(1, source?.body ?? "")]);
		expect(object.size).toBe(6);
		expect(await (await bucket.get(`${prefix}joined`))?.text()).toBe("a part");
	});
});
