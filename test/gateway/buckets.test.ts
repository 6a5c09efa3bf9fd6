/** Other buckets through the gateway: `x-r2-bucket` names a bucket of LOGPUSH_BUCKETS or one created at run time (docs/gateway.md, "Buckets"). */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { bucketLedger } from "../../src/bucket/bucket-ledger";
import { RemoteBucket } from "../../src/client";
import { zoneRegistry } from "../../src/common/durable-objects";
import { ledgerName } from "../../src/runtime-buckets/catalog";
import { createBucket } from "../../src/runtime-buckets/manage";
import { textOf } from "../bodies";
import { gw, RO } from "./helpers";

const LOGS = { "x-r2-bucket": "edgezone-logs" };

describe("x-r2-bucket", () => {
	it("reads, lists and writes the log-push bucket with the gateway's tokens, apart from BUCKET", async () => {
		await env.LOGS.put("buckets/challenge.txt", "token-123");
		const read = await gw("/buckets/challenge.txt", { headers: LOGS, token: RO });
		expect(read.status).toBe(200);
		expect(await textOf(read)).toBe("token-123");
		const list = await gw("/?list&prefix=buckets/", { headers: LOGS });
		expect(((await list.json()) as { objects: { key: string }[] }).objects.map((o) => o.key)).toEqual([
			"buckets/challenge.txt",
		]);
		expect((await gw("/buckets/challenge.txt")).status).toBe(404);
		expect((await gw("/buckets/written.txt", { method: "PUT", body: "w", headers: LOGS })).status).toBe(200);
		expect(await (await env.LOGS.get("buckets/written.txt"))?.text()).toBe("w");
		expect(await env.BUCKET.head("buckets/written.txt")).toBeNull();
	});

	it("answers 404 (10006) for a name that is no bound bucket, after the token", async () => {
		const response = await gw("/buckets/x", { headers: { "x-r2-bucket": "edgezone-bucket-typo" } });
		expect(response.status).toBe(404);
		expect(response.headers.get("x-r2-error-code")).toBe("10006");
		expect(await response.json()).toMatchObject({ error: { code: 10006 } });
		expect((await gw("/buckets/x", { headers: { "x-r2-bucket": "edgezone-logs" }, token: null })).status).toBe(401);
	});

	it("is what RemoteBucket sends for its bucket option", async () => {
		await env.LOGS.put("buckets/remote.txt", "from logs");
		const logs = new RemoteBucket({
			url: "http://gateway.test",
			token: "test-rw",
			bucket: "edgezone-logs",
			fetch: (input, init) => exports.default.fetch(input, init),
		});
		expect(await (await logs.get("buckets/remote.txt"))?.text()).toBe("from logs");
		expect((await logs.list({ prefix: "buckets/remote" })).objects.map((o) => o.key)).toEqual(["buckets/remote.txt"]);
	});

	it("reaches a bucket created at run time, its keys un-prefixed, multipart uploads recorded in its own ledger", async () => {
		const name = `gw-${crypto.randomUUID().slice(0, 8)}`;
		expect((await createBucket(env, { name, location: null, storageClass: "Standard" })).ok).toBe(true);
		const headers = { "x-r2-bucket": name };
		expect((await gw("/made/one.txt", { method: "PUT", body: "one", headers })).status).toBe(200);
		expect(await textOf(await gw("/made/one.txt", { headers }))).toBe("one");
		expect((await gw("/made/one.txt")).status).toBe(404);
		const started = await gw("/made/big.bin?uploads", { method: "POST", headers });
		const { key, uploadId } = await started.json<{ key: string; uploadId: string }>();
		expect(key).toBe("made/big.bin");
		const part = await gw(`/made/big.bin?uploadId=${encodeURIComponent(uploadId)}&partNumber=1`, {
			method: "PUT",
			body: "whole",
			headers,
		});
		const { etag } = await part.json<{ etag: string }>();
		const row = await zoneRegistry(env).createdBucket(name);
		expect((await bucketLedger(env, ledgerName(row?.id ?? "")).upload(uploadId))?.state).toBe("open");
		const done = await gw(`/made/big.bin?uploadId=${encodeURIComponent(uploadId)}`, {
			method: "POST",
			body: JSON.stringify({ parts: [{ partNumber: 1, etag }] }),
			headers,
		});
		expect(done.status).toBe(200);
		const list = await gw("/?list&prefix=made/", { headers });
		expect(((await list.json()) as { objects: { key: string }[] }).objects.map((o) => o.key)).toEqual([
			"made/big.bin",
			"made/one.txt",
		]);
	});
});
