import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { errorOf, expectError, gw } from "./helpers";

interface Page {
	objects: { key: string; httpMetadata?: object; customMetadata?: object }[];
	truncated: boolean;
	cursor?: string;
	delimitedPrefixes: string[];
}

const list = async (query: string): Promise<Page> => {
	const response = await gw(`/?list&${query}`);
	expect(response.status).toBe(200);
	return response.json();
};

const KEYS = ["ls/a.txt", "ls/b.txt", "ls/dir/c.txt", "ls/dir/d.txt", "ls/dir/sub/e.txt", "ls/z.txt"];

beforeAll(async () => {
	for (const key of KEYS) {
		await env.BUCKET.put(key, key, { httpMetadata: { contentType: "text/plain" }, customMetadata: { k: key } });
	}
});

describe("GET /?list", () => {
	it("lists by prefix in lexicographic order", async () => {
		const page = await list("prefix=ls/");
		expect(page.objects.map((o) => o.key)).toEqual(KEYS);
		expect(page.truncated).toBe(false);
		expect(page.cursor).toBeUndefined();
	});

	it("groups by delimiter into delimitedPrefixes", async () => {
		const page = await list("prefix=ls/&delimiter=/");
		expect(page.objects.map((o) => o.key)).toEqual(["ls/a.txt", "ls/b.txt", "ls/z.txt"]);
		expect(page.delimitedPrefixes).toEqual(["ls/dir/"]);
	});

	it("pages with limit and cursor until truncated is false", async () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		do {
			const page: Page = await list(`prefix=ls/&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
			seen.push(...page.objects.map((o) => o.key));
			if (page.truncated) expect(page.cursor).toBeTruthy();
			cursor = page.truncated ? page.cursor : undefined;
		} while (cursor);
		expect(seen).toEqual(KEYS);
	});

	it("starts after a key with startAfter", async () => {
		const page = await list("prefix=ls/&startAfter=ls/dir/d.txt");
		expect(page.objects.map((o) => o.key)).toEqual(["ls/dir/sub/e.txt", "ls/z.txt"]);
	});

	it.each([
		["include=httpMetadata", true, false],
		["include=customMetadata", false, true],
		["include=httpMetadata,customMetadata", true, true],
		["include=httpMetadata&include=customMetadata", true, true],
		["", false, false],
	])(
		"with %j has the metadata asked for, and what the binding gives for the rest ({} on Miniflare)",
		async (query, http, custom) => {
			const page = await list(`prefix=ls/a&${query}`);
			const [object] = page.objects;
			expect(object?.httpMetadata).toEqual(http ? { contentType: "text/plain" } : {});
			expect(object?.customMetadata).toEqual(custom ? { k: "ls/a.txt" } : {});
		},
	);

	it.each(["0", "1001", "-1", "1.5", "ten", ""])("answers 400 (10022) to limit=%s", async (limit) => {
		const response = await gw(`/?list&limit=${limit}`);
		expect(response.status).toBe(400);
		expect((await errorOf(response)).code).toBe(10022);
	});

	it("answers 400 to an unknown include", async () => {
		await expectError(await gw("/?list&include=everything"), 400, 400);
	});
});

describe("POST /?delete", () => {
	const post = (body: string) =>
		gw("/?delete", { method: "POST", body, headers: { "content-type": "application/json" } });

	it("deletes many keys at once, missing ones included", async () => {
		await env.BUCKET.put("bulk/1", "1");
		await env.BUCKET.put("bulk/2", "2");
		const response = await post(JSON.stringify({ keys: ["bulk/1", "bulk/2", "bulk/never-existed"] }));
		expect(response.status).toBe(204);
		expect((await env.BUCKET.list({ prefix: "bulk/" })).objects).toEqual([]);
	});

	it.each([
		["not JSON", "{keys"],
		["no keys", "{}"],
		["an empty list", JSON.stringify({ keys: [] })],
		["over 1000 keys", JSON.stringify({ keys: Array.from({ length: 1001 }, (_, i) => `k${i}`) })],
		["a key that is not a string", JSON.stringify({ keys: ["bulk/keep", 7] })],
	])("answers 400 to %s and deletes nothing", async (_, body) => {
		await env.BUCKET.put("bulk/keep", "kept");
		await expectError(await post(body), 400, 400);
		expect(await env.BUCKET.head("bulk/keep")).not.toBeNull();
	});

	it("validates every key before deleting any", async () => {
		await env.BUCKET.put("bulk/keep", "kept");
		const response = await post(JSON.stringify({ keys: ["bulk/keep", "x".repeat(1025)] }));
		expect(response.status).toBe(400);
		expect((await errorOf(response)).code).toBe(10020);
		expect(await env.BUCKET.head("bulk/keep")).not.toBeNull();
	});
});
