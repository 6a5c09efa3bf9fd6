import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PART_SIZE } from "../../src/edge/gateway/chunked";
import { bytesOf, errorOf, gw, sha256Hex, streamOf } from "./helpers";

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/** PUT a body without Content-Length: a stream body is sent chunked. */
const putChunked = (key: string, bytes: Uint8Array, headers: HeadersInit = {}) =>
	gw(`/${key}`, { method: "PUT", body: streamOf(bytes), headers, duplex: "half" } as RequestInit);

describe("PUT without Content-Length", () => {
	it("sends the test body without Content-Length", async () => {
		const request = new Request("http://x/", {
			method: "PUT",
			body: streamOf(bytesOf(10)),
			duplex: "half",
		} as RequestInit);
		expect(request.headers.get("content-length")).toBeNull();
	});

	it("stores a short body with one put: plain etag and stored checksum", async () => {
		const bytes = bytesOf(100_000);
		const response = await putChunked("chunked/short", bytes, { "content-type": "application/octet-stream" });
		expect(response.status).toBe(200);
		const json = await response.json<{ etag: string; size: number; checksums: Record<string, string> }>();
		expect(json.size).toBe(100_000);
		expect(json.etag).toMatch(/^[0-9a-f]{32}$/);
		expect(json.checksums.md5).toBe(json.etag);
		const stored = await env.BUCKET.get("chunked/short");
		expect(stored).not.toBeNull();
		expect(await sha256Hex((await stored?.arrayBuffer()) ?? new ArrayBuffer(0))).toBe(await sha256Hex(bytes));
		expect(stored?.httpMetadata?.contentType).toBe("application/octet-stream");
	});

	it("streams a long body into equal parts and stores it whole, with a multipart etag", async () => {
		const size = 2 * PART_SIZE + 12345;
		const bytes = bytesOf(size, 7);
		const response = await putChunked("chunked/long", bytes, { "x-amz-meta-source": "stream" });
		expect(response.status).toBe(200);
		const json = await response.json<{ etag: string; size: number; checksums: object; customMetadata: object }>();
		expect(json.size).toBe(size);
		expect(json.etag).toMatch(/^[0-9a-f]{32}-3$/);
		expect(json.checksums).toEqual({});
		expect(json.customMetadata).toEqual({ source: "stream" });
		const get = await gw("/chunked/long");
		expect(get.headers.get("content-length")).toBe(String(size));
		expect(await sha256Hex(await get.arrayBuffer())).toBe(await sha256Hex(bytes));
	});

	it("stores a body of exactly one part as one put", async () => {
		const response = await putChunked("chunked/one-part", bytesOf(PART_SIZE, 3));
		const json = await response.json<{ etag: string; size: number }>();
		expect(json.size).toBe(PART_SIZE);
		expect(json.etag).toMatch(/^[0-9a-f]{32}$/);
	});

	it("verifies a checksum of a long body while streaming", async () => {
		const bytes = bytesOf(PART_SIZE + 1, 9);
		const sum = await crypto.subtle.digest("SHA-256", bytes);
		const response = await putChunked("chunked/checked", bytes, { "x-amz-checksum-sha256": base64(sum) });
		expect(response.status).toBe(200);
		expect((await env.BUCKET.head("chunked/checked"))?.size).toBe(PART_SIZE + 1);
	});

	it("aborts on a checksum mismatch and stores nothing, leaving an older object in place", async () => {
		await env.BUCKET.put("chunked/kept", "older");
		const bytes = bytesOf(PART_SIZE + 1, 11);
		const wrong = await crypto.subtle.digest("MD5", new Uint8Array([1]));
		const response = await putChunked("chunked/kept", bytes, { "content-md5": base64(wrong) });
		expect(response.status).toBe(400);
		const error = await errorOf(response);
		expect(error.code).toBe(10037);
		expect(error.message).toMatch(/^The MD5 checksum you specified did not match what we received/);
		expect(await (await env.BUCKET.get("chunked/kept"))?.text()).toBe("older");
	});

	it("refuses a conditional PUT without Content-Length with 411", async () => {
		const response = await putChunked("chunked/conditional", bytesOf(10), { "if-none-match": "*" });
		expect(response.status).toBe(411);
		expect((await errorOf(response)).code).toBe(10033);
		expect(await env.BUCKET.head("chunked/conditional")).toBeNull();
	});
});
