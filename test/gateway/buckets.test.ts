/** Other bound buckets through the gateway: `x-r2-bucket` names a bucket of LOGPUSH_BUCKETS (docs/gateway.md, "Buckets"). */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { RemoteBucket } from "../../src/client";
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
});
