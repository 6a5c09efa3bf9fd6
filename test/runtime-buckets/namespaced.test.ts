/**
 * A created bucket's namespace as an `R2Bucket` (src/runtime-buckets/namespaced.ts): keys in with
 * the prefix, out without it, in every member a dialect uses; nothing outside the namespace seen.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { namespacedBucket } from "../../src/runtime-buckets/namespaced";

/** A fresh namespace, with a neighbour holding a key of the same name. */
async function fresh(): Promise<{ bucket: R2Bucket; prefix: string }> {
	const prefix = `${crypto.randomUUID()}/`;
	await env.RUNTIME_BUCKETS.put(`${prefix.slice(0, -1)}x/a`, "neighbour");
	return { bucket: namespacedBucket(env.RUNTIME_BUCKETS, prefix), prefix };
}

describe("namespacedBucket", () => {
	it("puts, heads, gets and deletes under the prefix, answering keys without it", async () => {
		const { bucket, prefix } = await fresh();
		const put = await bucket.put("a", "one", { customMetadata: { m: "1" } });
		expect(put.key).toBe("a");
		expect((await env.RUNTIME_BUCKETS.get(`${prefix}a`))?.size).toBe(3);
		expect((await bucket.head("a"))?.key).toBe("a");
		const got = await bucket.get("a");
		expect(got?.key).toBe("a");
		expect(await got?.text()).toBe("one");
		expect(got?.customMetadata).toEqual({ m: "1" });
		const headers = new Headers();
		got?.writeHttpMetadata(headers);
		const conditional = await bucket.get("a", { onlyIf: { etagDoesNotMatch: put.etag } });
		expect(conditional !== null && !("body" in conditional)).toBe(true);
		expect(conditional?.key).toBe("a");
		await bucket.delete(["a"]);
		expect(await bucket.head("a")).toBeNull();
		expect(await env.RUNTIME_BUCKETS.head(`${prefix}a`)).toBeNull();
	});

	it("lists with prefix, delimiter, startAfter and cursor, only its own keys", async () => {
		const { bucket } = await fresh();
		for (const key of ["a/1", "a/2", "b/1", "c", "d"]) await bucket.put(key, key);
		const all = await bucket.list();
		expect(all.objects.map((o) => o.key)).toEqual(["a/1", "a/2", "b/1", "c", "d"]);
		const folders = await bucket.list({ delimiter: "/" });
		expect(folders.delimitedPrefixes).toEqual(["a/", "b/"]);
		expect(folders.objects.map((o) => o.key)).toEqual(["c", "d"]);
		expect((await bucket.list({ prefix: "a/", startAfter: "a/1" })).objects.map((o) => o.key)).toEqual(["a/2"]);
		const first = await bucket.list({ limit: 2 });
		expect(first.truncated).toBe(true);
		const rest = await bucket.list({ limit: 10, cursor: first.truncated ? first.cursor : "" });
		expect(rest.objects.map((o) => o.key)).toEqual(["b/1", "c", "d"]);
	});

	it("runs a multipart upload under the prefix: the upload and the object it makes answer keys without it", async () => {
		const { bucket, prefix } = await fresh();
		const upload = await bucket.createMultipartUpload("big");
		expect(upload.key).toBe("big");
		const resumed = bucket.resumeMultipartUpload("big", upload.uploadId);
		expect(resumed.key).toBe("big");
		const part = await resumed.uploadPart(1, "whole");
		const object = await resumed.complete([part]);
		expect(object.key).toBe("big");
		expect(await (await env.RUNTIME_BUCKETS.get(`${prefix}big`))?.text()).toBe("whole");
	});
});
