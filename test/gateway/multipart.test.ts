import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bytesOf, errorOf, expectError, gw, sha256Hex, streamOf } from "./helpers";

const MiB = 1024 * 1024;

const create = async (key: string, headers: HeadersInit = {}) => {
	const response = await gw(`/${key}?uploads`, { method: "POST", headers });
	expect(response.status).toBe(200);
	return response.json<{ key: string; uploadId: string }>();
};

const uploadPart = (
	key: string,
	uploadId: string,
	partNumber: number | string,
	body: BodyInit,
	headers: HeadersInit = {},
) => gw(`/${key}?uploadId=${encodeURIComponent(uploadId)}&partNumber=${partNumber}`, { method: "PUT", body, headers });

/** The base64 Content-MD5 of `bytes`. */
const md5Of = async (bytes: Uint8Array) =>
	btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("MD5", bytes))));

const complete = (key: string, uploadId: string, parts: unknown) =>
	gw(`/${key}?uploadId=${encodeURIComponent(uploadId)}`, { method: "POST", body: JSON.stringify({ parts }) });

describe("multipart uploads", () => {
	it("creates with metadata, uploads parts with gaps in their numbers, and serves the whole", async () => {
		const { key, uploadId } = await create("mp/whole.bin", {
			"content-type": "application/x-test",
			"x-amz-meta-origin": "multipart",
			"x-amz-storage-class": "STANDARD",
		});
		expect(key).toBe("mp/whole.bin");
		const first = bytesOf(5 * MiB, 1);
		const second = bytesOf(1000, 2);
		const part1 = await (await uploadPart(key, uploadId, 1, first)).json<{ partNumber: number; etag: string }>();
		const part3 = await (await uploadPart(key, uploadId, 3, second)).json<{ partNumber: number; etag: string }>();
		expect(part1.partNumber).toBe(1);
		expect(part3.partNumber).toBe(3);
		// Miniflare checks part sizes in the order given, so parts go in ascending order (workers-sdk
		// `packages/miniflare/src/workers/r2/`).
		const response = await complete(key, uploadId, [part1, part3]);
		expect(response.status).toBe(200);
		const object = await response.json<{ size: number; etag: string; httpMetadata: object; customMetadata: object }>();
		expect(object.size).toBe(5 * MiB + 1000);
		expect(object.etag).toMatch(/-2$/);
		expect(object.httpMetadata).toEqual({ contentType: "application/x-test" });
		expect(object.customMetadata).toEqual({ origin: "multipart" });
		const whole = new Uint8Array(5 * MiB + 1000);
		whole.set(first);
		whole.set(second, 5 * MiB);
		expect(await sha256Hex(await (await gw("/mp/whole.bin")).arrayBuffer())).toBe(await sha256Hex(whole));
	});

	it("aborts an upload; its parts can no longer be used", async () => {
		const { key, uploadId } = await create("mp/aborted");
		expect((await uploadPart(key, uploadId, 1, "x")).status).toBe(200);
		expect((await gw(`/${key}?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" })).status).toBe(204);
		const after = await uploadPart(key, uploadId, 2, "y");
		expect(after.status).toBe(404);
		expect((await errorOf(after)).code).toBe(10024);
		expect(await env.BUCKET.head(key)).toBeNull();
	});

	it("answers an unknown upload as the binding does: 404 (10024) on part, 500 (10001) on complete and abort", async () => {
		const part = await uploadPart("mp/unknown", "no-such-upload", 1, "x");
		expect(part.status).toBe(404);
		expect((await errorOf(part)).code).toBe(10024);
		const done = await complete("mp/unknown", "no-such-upload", [{ partNumber: 1, etag: "x" }]);
		expect(done.status).toBe(500);
		expect((await errorOf(done)).code).toBe(10001);
		const abort = await gw("/mp/unknown?uploadId=no-such-upload", { method: "DELETE" });
		expect(abort.status).toBe(500);
		expect((await errorOf(abort)).code).toBe(10001);
	});

	it("answers 400 (10011) when a part other than the last is under 5 MiB, storing nothing", async () => {
		const { key, uploadId } = await create("mp/small");
		const p1 = await (await uploadPart(key, uploadId, 1, "tiny")).json();
		const p2 = await (await uploadPart(key, uploadId, 2, "tiny")).json();
		const response = await complete(key, uploadId, [p1, p2]);
		expect(response.status).toBe(400);
		expect((await errorOf(response)).code).toBe(10011);
		expect(await env.BUCKET.head(key)).toBeNull();
	});

	it("answers 400 (10025) to a wrong part etag", async () => {
		const { key, uploadId } = await create("mp/wrong-etag");
		await uploadPart(key, uploadId, 1, "only part");
		const response = await complete(key, uploadId, [{ partNumber: 1, etag: "not-the-etag" }]);
		expect(response.status).toBe(400);
		expect((await errorOf(response)).code).toBe(10025);
	});

	it.each(["0", "10001", "1.5", "-1", "one", ""])(
		"answers 400 to partNumber=%s, storing nothing",
		async (partNumber) => {
			const { key, uploadId } = await create("mp/bad-number");
			await expectError(await uploadPart(key, uploadId, partNumber, "x"), 400, 400);
			expect(await env.BUCKET.head(key)).toBeNull();
		},
	);

	it.each([
		["not JSON", "{parts"],
		["no parts", "{}"],
		["a part without etag", JSON.stringify({ parts: [{ partNumber: 1 }] })],
	])("answers 400 to a complete body with %s, storing nothing", async (_, body) => {
		const { key, uploadId } = await create("mp/bad-body");
		const response = await gw(`/${key}?uploadId=${encodeURIComponent(uploadId)}`, { method: "POST", body });
		await expectError(response, 400, 400);
		expect(await env.BUCKET.head(key)).toBeNull();
	});

	it("needs Content-Length on a part (411)", async () => {
		const { key, uploadId } = await create("mp/chunked-part");
		const body = streamOf(new Uint8Array([1, 2, 3]));
		const response = await gw(`/${key}?uploadId=${encodeURIComponent(uploadId)}&partNumber=1`, {
			method: "PUT",
			body,
			duplex: "half",
		} as RequestInit);
		await expectError(response, 411, 10033);
	});

	it("answers 400 to a part upload without its uploadId or partNumber, storing nothing", async () => {
		await expectError(await gw("/mp/x?partNumber=1", { method: "PUT", body: "x" }), 400, 400);
		await expectError(await gw("/mp/x?uploadId=abc", { method: "PUT", body: "x" }), 400, 400);
		expect(await env.BUCKET.head("mp/x")).toBeNull();
	});
});

describe("Content-MD5 of a part", () => {
	// Each refused part is sent under the number of a part already stored: completing with that
	// part's etag then shows the binding kept it, where a stored part would have replaced it
	// (with a new etag, which the complete would refuse with 10025).
	it("refuses a part that does not match its Content-MD5 as a PUT is refused (400 10037), storing no part; takes one that matches", async () => {
		const { key, uploadId } = await create("mp/md5-checked");
		const kept = bytesOf(5 * MiB, 3);
		const part1 = await (await uploadPart(key, uploadId, 1, kept)).json<{ partNumber: number; etag: string }>();
		// Over a block of the body loop (1 MiB), so blocks reached the binding before the check failed.
		const other = bytesOf(5 * MiB, 4);
		const wrong = await md5Of(kept);
		const refused = await uploadPart(key, uploadId, 1, other, { "content-md5": wrong });
		expect(refused.status).toBe(400);
		const error = await errorOf(refused);
		expect(error.code).toBe(10037);
		const put = await gw("/mp/md5-checked-put", { method: "PUT", body: other, headers: { "content-md5": wrong } });
		expect(put.status).toBe(400);
		expect(error).toEqual(await errorOf(put));
		expect(await env.BUCKET.head("mp/md5-checked-put")).toBeNull();

		const tail = bytesOf(1000, 5);
		const matching = await uploadPart(key, uploadId, 2, tail, { "content-md5": await md5Of(tail) });
		expect(matching.status).toBe(200);
		const part2 = await matching.json<{ partNumber: number; etag: string }>();
		const completed = await complete(key, uploadId, [part1, part2]);
		expect(completed.status).toBe(200);
		const whole = new Uint8Array(5 * MiB + 1000);
		whole.set(kept);
		whole.set(tail, 5 * MiB);
		expect(await sha256Hex(await (await gw(`/${key}`)).arrayBuffer())).toBe(await sha256Hex(whole));
	});

	it.each([
		["not base64", "not base64!"],
		["base64 of 15 bytes", btoa("x".repeat(15))],
	])("answers 400 (10014) to a Content-MD5 that is %s, as a PUT does, storing no part", async (_, value) => {
		const { key, uploadId } = await create("mp/md5-malformed", { "content-type": "text/plain" });
		const part1 = await (await uploadPart(key, uploadId, 1, "kept")).json<{ partNumber: number; etag: string }>();
		await expectError(await uploadPart(key, uploadId, 1, "other", { "content-md5": value }), 400, 10014);
		await expectError(
			await gw("/mp/md5-malformed-put", { method: "PUT", body: "other", headers: { "content-md5": value } }),
			400,
			10014,
		);
		expect((await complete(key, uploadId, [part1])).status).toBe(200);
		expect(await (await gw(`/${key}`)).text()).toBe("kept");
	});
});
