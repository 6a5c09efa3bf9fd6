/**
 * What RemoteBucket does that the binding has no counterpart for: tokens, streams of unknown
 * length, and the gateway's refusals. The binding half of the parity suite cannot run these.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RemoteBucket, RemoteBucketError } from "../../src/client";
import { streamOf } from "../gateway/helpers";
import { bytesOf, expectR2Error, hexDigest, remoteBucket, scope, store } from "./buckets";
import { throughFrontLine } from "./front-line";

describe("RemoteBucket over HTTP only", () => {
	const bucket = remoteBucket();

	it("reads with a read-only token and is refused writes with 10003, storing nothing", async () => {
		const key = `${scope("read-only")}k`;
		await store(bucket, key, "v");
		const readOnly = remoteBucket("test-ro");
		expect(await (await readOnly.get(key))?.text()).toBe("v");
		expect((await readOnly.list({ prefix: key })).objects).toHaveLength(1);
		await expectR2Error(readOnly.put(`${key}-2`, "w"), "put", 10003);
		await expectR2Error(readOnly.delete(key), "delete", 10003);
		await expectR2Error(readOnly.createMultipartUpload(key), "createMultipartUpload", 10003);
		expect(await env.BUCKET.head(`${key}-2`)).toBeNull();
		expect(await env.BUCKET.head(key)).not.toBeNull();
	});

	it("without a token or with a wrong one, every call is refused with 10002", async () => {
		for (const client of [remoteBucket(null), remoteBucket("wrong")]) {
			await expectR2Error(client.head("k"), "head", 10002, 401);
			await expectR2Error(client.get("k"), "get", 10002);
			await expectR2Error(client.list(), "list", 10002);
			await expectR2Error(client.put("k", "v"), "put", 10002);
		}
	});

	it("throws RemoteBucketError with the action, the R2 code and the HTTP status", async () => {
		const error = await bucket.list({ limit: 0 }).catch((reason: unknown) => reason);
		expect(error).toBeInstanceOf(RemoteBucketError);
		expect(error).toMatchObject({ action: "list", code: 10022, status: 400 });
	});

	it("stores a stream of unknown length, which the binding refuses", async () => {
		const key = `${scope("chunked")}small`;
		const bytes = bytesOf(300 * 1024);
		await expect(env.BUCKET.put(key, streamOf(bytes))).rejects.toThrow(TypeError);
		const object = await store(bucket, key, streamOf(bytes), { customMetadata: { how: "chunked" } });
		expect(object.size).toBe(bytes.byteLength);
		// A body that ends within the first 8 MiB is stored with one put(): an md5 etag.
		expect(object.etag).toBe(await hexDigest("MD5", bytes));
		expect((await bucket.head(key))?.customMetadata).toEqual({ how: "chunked" });
	});

	it("stores a stream of unknown length over 8 MiB as a multipart object (docs/gateway.md, Writing)", async () => {
		const key = `${scope("chunked")}large`;
		const bytes = bytesOf(9 * 1024 * 1024, 7);
		const object = await store(bucket, key, streamOf(bytes));
		expect(object.size).toBe(bytes.byteLength);
		expect(object.etag).toMatch(/^[0-9a-f]{32}-2$/);
		const read = new Uint8Array((await (await bucket.get(key))?.arrayBuffer()) ?? new ArrayBuffer(0));
		expect(await hexDigest("SHA-256", read)).toBe(await hexDigest("SHA-256", bytes));
	});

	it("refuses a conditional put of a stream of unknown length with 10033", async () => {
		const key = `${scope("chunked")}conditional`;
		await expectR2Error(bucket.put(key, streamOf(bytesOf(10)), { onlyIf: { etagDoesNotMatch: "*" } }), "put", 10033);
		expect(await env.BUCKET.head(key)).toBeNull();
	});

	it("refuses a storage class R2 does not have, storing nothing", async () => {
		const key = `${scope("class")}x`;
		await expectR2Error(bucket.put(key, "x", { storageClass: "Glacier" }), "put", 400);
		expect(await bucket.head(key)).toBeNull();
	});

	it("refuses SSE-C keys, which the native dialect cannot carry, pointing to the S3 dialect", async () => {
		const ssecKey = "00".repeat(32);
		await expect(bucket.get("k", { ssecKey })).rejects.toThrow(TypeError);
		await expect(bucket.put("k", "v", { ssecKey })).rejects.toThrow(/its S3 dialect takes it/);
	});

	it("encodes a key's slashes as slashes and the rest of it segment by segment; ?key= for what no path holds", async () => {
		const requested: string[] = [];
		const spy = new RemoteBucket({
			url: "http://gateway.test/",
			token: "test-rw",
			fetch: async (input, init) => {
				requested.push(`${init?.method} ${input}`);
				return init?.method === "HEAD"
					? new Response(null, { status: 404 })
					: Response.json({ objects: [], truncated: false, delimitedPrefixes: [] });
			},
		});
		await spy.head("a b/ü/%/?#&+");
		await spy.head("x/../y");
		await spy.head("client/v4/zones");
		await spy.list({ prefix: "p/", include: ["customMetadata"] });
		expect(requested).toEqual([
			"HEAD http://gateway.test/a%20b/%C3%BC/%25/%3F%23%26%2B",
			"HEAD http://gateway.test/?key=x%2F..%2Fy",
			"HEAD http://gateway.test/?key=client%2Fv4%2Fzones",
			"GET http://gateway.test/?list=&prefix=p%2F&include=customMetadata",
		]);
	});
	it("reads gzip-stored objects as stored through a front line that decodes for identity clients", async () => {
		const prefix = scope("front-line");
		const direct = (input: string, init?: RequestInit) => exports.default.fetch(input, init);
		const behindFrontLine = new RemoteBucket({
			url: "http://gateway.test",
			token: "test-rw",
			fetch: throughFrontLine(direct),
		});
		const text = "compressed ".repeat(50);
		const gzip = new Uint8Array(
			await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"))).arrayBuffer(),
		);
		const notGzip = new TextEncoder().encode("labelled gzip, but plain");
		const httpMetadata = { contentEncoding: "gzip", contentType: "text/plain" };
		for (const [name, bytes] of [
			["gzip", gzip],
			["not-gzip", notGzip],
		] as const) {
			await store(bucket, `${prefix}${name}`, bytes, { httpMetadata });
			const object = await behindFrontLine.get(`${prefix}${name}`);
			expect(object?.httpMetadata, name).toEqual(httpMetadata);
			expect(object?.size, name).toBe(bytes.byteLength);
			expect(new Uint8Array((await object?.arrayBuffer()) ?? new ArrayBuffer(0)), name).toEqual(bytes);
		}
		// The emulation is the front line's: a standard identity request for the same object is decoded.
		const standard = await throughFrontLine(direct)(`http://gateway.test/${prefix}gzip`, {
			headers: { authorization: "Bearer test-rw", "accept-encoding": "identity" },
			// The bytes as the gateway sent them: workerd's fetch would decode them itself.
			encodeResponseBody: "manual",
		});
		expect(standard.headers.get("content-encoding")).toBeNull();
		expect(new TextDecoder().decode(await standard.arrayBuffer())).toBe(text);
	});
});
