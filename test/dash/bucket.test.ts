/**
 * The Bucket page through HTTP, as a browser would drive it: the gateway token asked once and
 * checked by the gateway, the listing by folder and cursor, an object's details, the proxy of the
 * page's script (CSRF header, Range, multipart, the bucket choice), deletes of one and many.
 * The gateway's own behaviour is tested in test/gateway; here, that the page reaches it and only
 * through its front door.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { zoneRegistry } from "../../src/common/durable-objects";
import { createBucket } from "../../src/runtime-buckets/manage";
import { DEFAULT_ZONE_ID, TOKEN } from "../api/credentials";
import { seen } from "./seen";

const DASH = "http://dash.localhost";
const PAGE = `${DASH}/zones/${DEFAULT_ZONE_ID}/bucket`;
const PROXY = `${PAGE}/o/`;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** A signed-in browser: its cookies and the session's CSRF token; `fetch` keeps cookies up to date. */
interface Browser {
	cookies: Map<string, string>;
	csrf: string;
	fetch: (url: string, init?: RequestInit) => Promise<Response>;
}

async function signIn(): Promise<Browser> {
	const cookies = new Map<string, string>();
	const fetch = async (url: string, init: RequestInit = {}) => {
		const headers = new Headers(init.headers);
		headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
		const response = await exports.default.fetch(url, { redirect: "manual", ...init, headers });
		for (const cookie of response.headers.getSetCookie()) {
			const [pair = ""] = cookie.split(";");
			const [name = "", value = ""] = pair.split("=");
			cookies.set(name, value);
		}
		return response;
	};
	const form = await (await fetch(`${DASH}/sign-in`)).text();
	const signInCsrf = /name="csrf" value="([^"]+)"/.exec(form)?.[1] ?? "";
	const signedIn = await fetch(`${DASH}/sign-in`, {
		method: "POST",
		headers: FORM,
		body: new URLSearchParams({ csrf: signInCsrf, token: TOKEN }),
	});
	expect(signedIn.status).toBe(303);
	const zones = await (await fetch(`${DASH}/`)).text();
	const csrf = /name="csrf" value="([^"]+)"/.exec(zones)?.[1] ?? "";
	return { cookies, csrf, fetch };
}

/** Gives the page a gateway token through its form; answers the form's answer. */
const giveToken = (browser: Browser, token: string) =>
	browser.fetch(`${PAGE}/token`, {
		method: "POST",
		headers: FORM,
		body: new URLSearchParams({ csrf: browser.csrf, token }),
	});

const keyUrl = (key: string, extra = "") => `${PROXY}?${new URLSearchParams({ key })}${extra}`;

describe("the Bucket page", () => {
	let browser: Browser;
	beforeAll(async () => {
		browser = await signIn();
		await env.BUCKET.put("docs/readme.txt", "hello bucket", {
			httpMetadata: { contentType: "text/plain" },
			customMetadata: { owner: "ops" },
		});
		await env.BUCKET.put("docs/guide/one.md", "# one");
		for (const n of [1, 2, 3]) await env.BUCKET.put(`page/${n}.txt`, `page ${n}`);
		await env.BUCKET.put("top.bin", new Uint8Array(10));
	});

	it("asks for a gateway token first, and keeps none the gateway refuses", async () => {
		const page = await browser.fetch(PAGE);
		expect(page.status).toBe(200);
		const shown = await seen(await page.text());
		expect(shown.field("Gateway token").value).toBe("");
		expect(shown.text).not.toContain("readme.txt");

		const refused = await giveToken(browser, "not-a-token");
		expect(refused.status).toBe(401);
		const text = await refused.text();
		expect(text).toMatch(/aria-invalid="true"/);
		expect(text).toContain("The token is not valid.");
		// The proxy has no token either: the gateway's own 401.
		expect((await browser.fetch(keyUrl("docs/readme.txt"))).status).toBe(401);
	});

	it("keeps a valid token in the session, then lists the root's folders and objects", async () => {
		const saved = await giveToken(browser, "test-rw");
		expect(saved.status).toBe(303);
		const html = await (await browser.fetch(`${DASH}${saved.headers.get("location")}`)).text();
		expect(html).toContain("Gateway token saved for this session.");
		expect(html).toContain(`href="/zones/${DEFAULT_ZONE_ID}/bucket?prefix=docs%2F"`);
		expect(html).toContain(`href="/zones/${DEFAULT_ZONE_ID}/bucket?prefix=page%2F"`);
		expect(html).toContain('aria-label="Select top.bin"');
		expect(html).not.toContain("readme.txt");
		// The cookie holds the token sealed, never in clear.
		expect([...browser.cookies.values()].join(";")).not.toContain("test-rw");
	});

	it("opens a folder: its objects and subfolders, with the crumbs", async () => {
		const html = await (await browser.fetch(`${PAGE}?prefix=docs%2F`)).text();
		expect(html).toContain("Objects in docs/");
		expect(html).toContain('aria-label="Select docs/readme.txt"');
		expect(html).toContain(">guide/</a>");
		expect(html).toMatch(/aria-current="page"[^>]*>docs<\/a>|>docs<\/a>/);
	});

	it("pages with the list's cursor: Next page, then the rest", async () => {
		const first = await (await browser.fetch(`${PAGE}?prefix=page%2F&limit=2`)).text();
		expect(first).toContain("page/1.txt");
		expect(first).toContain("page/2.txt");
		expect(first).not.toContain("page/3.txt");
		const next = /href="([^"]+)">Next page</.exec(first)?.[1]?.replaceAll("&amp;", "&");
		expect(next).toBeDefined();
		const second = await (await browser.fetch(`${DASH}${next}`)).text();
		expect(second).toContain("page/3.txt");
		expect(second).not.toContain("page/1.txt");
		expect(second).not.toContain(">Next page<");
		expect(second).toContain(">First page<");
	});

	it("shows an object's details: size, etag, metadata, checksums, and a text preview by Range", async () => {
		const object = await env.BUCKET.head("docs/readme.txt");
		const shown = await seen(await (await browser.fetch(`${PAGE}/object?key=docs%2Freadme.txt`)).text());
		expect(shown.h1).toBe("readme.txt");
		expect(shown.text).toContain("12 B (12 bytes)");
		expect(shown.text).toContain(`${object?.etag}`);
		expect(shown.rows).toContainEqual(["contentType", "text/plain"]);
		expect(shown.rows).toContainEqual(["owner", "ops"]);
		expect(shown.rows.find((row) => row[0] === "md5")?.[1]).toMatch(/^[0-9a-f]{32}$/);
		expect(shown.text).toContain("read with Range: bytes=0-65535");
		expect(shown.text).toContain("hello bucket");
		const [download] = shown.links("Download");
		expect(download?.get("href")).toBe(`/zones/${DEFAULT_ZONE_ID}/bucket/o/?key=docs%2Freadme.txt`);
		expect(download?.get("download")).toBe("readme.txt");
	});

	it("says a missing object is missing, with the gateway's 404", async () => {
		const response = await browser.fetch(`${PAGE}/object?key=nope`);
		expect(response.status).toBe(404);
		expect(await response.text()).toContain("The specified key does not exist.");
	});

	it("proxies reads with Range: 206 and the range's bytes", async () => {
		const response = await browser.fetch(keyUrl("docs/readme.txt"), { headers: { range: "bytes=6-11" } });
		expect(response.status).toBe(206);
		expect(response.headers.get("content-range")).toBe("bytes 6-11/12");
		expect(await response.text()).toBe("bucket");
	});

	it("refuses a write through the proxy without the session's CSRF token, storing nothing", async () => {
		for (const csrf of [undefined, "forged"]) {
			const headers: Record<string, string> = { "content-type": "text/plain" };
			if (csrf !== undefined) headers["x-csrf-token"] = csrf;
			const response = await browser.fetch(keyUrl("csrf.txt"), { method: "PUT", headers, body: "x" });
			expect(response.status).toBe(403);
		}
		expect(await env.BUCKET.head("csrf.txt")).toBeNull();
	});

	it("streams a PUT through the proxy with its metadata headers, and never the browser's Authorization", async () => {
		const response = await browser.fetch(keyUrl("up/note.txt"), {
			method: "PUT",
			headers: {
				"x-csrf-token": browser.csrf,
				"content-type": "text/markdown",
				"x-amz-meta-source": "dash",
				authorization: "Bearer test-ro",
				cookie: "ignored",
			},
			body: "note",
		});
		expect(response.status).toBe(200);
		const stored = await env.BUCKET.get("up/note.txt");
		expect(await stored?.text()).toBe("note");
		expect(stored?.httpMetadata?.contentType).toBe("text/markdown");
		expect(stored?.customMetadata).toEqual({ source: "dash" });
	});

	it("runs a multipart upload through the proxy: create, parts, complete", async () => {
		const headers = { "x-csrf-token": browser.csrf };
		const created = await browser.fetch(keyUrl("big/two-parts.bin", "&uploads"), {
			method: "POST",
			headers: { ...headers, "content-type": "application/x-test" },
		});
		expect(created.status).toBe(200);
		const { uploadId } = (await created.json()) as { uploadId: string };
		const part1 = new Uint8Array(5 * 1024 * 1024).fill(1);
		const part2 = new Uint8Array(100).fill(2);
		const parts = [];
		for (const [n, body] of [part1, part2].entries()) {
			const response = await browser.fetch(keyUrl("big/two-parts.bin", `&uploadId=${uploadId}&partNumber=${n + 1}`), {
				method: "PUT",
				headers: { ...headers, "content-length": String(body.byteLength) },
				body,
			});
			expect(response.status).toBe(200);
			parts.push((await response.json()) as { partNumber: number; etag: string });
		}
		const completed = await browser.fetch(keyUrl("big/two-parts.bin", `&uploadId=${uploadId}`), {
			method: "POST",
			headers: { ...headers, "content-type": "application/json" },
			body: JSON.stringify({ parts }),
		});
		expect(completed.status).toBe(200);
		const stored = await env.BUCKET.head("big/two-parts.bin");
		expect(stored?.size).toBe(part1.byteLength + part2.byteLength);
		expect(stored?.httpMetadata?.contentType).toBe("application/x-test");
	});

	it("reaches a log bucket of LOGPUSH_BUCKETS by the bucket choice, in the page and the proxy", async () => {
		await env.LOGS.put("challenges/log.txt", "in the logs");
		const shown = await seen(await (await browser.fetch(`${PAGE}?bucket=edgezone-logs`)).text());
		expect(shown.field("Bucket").value).toBe("edgezone-logs");
		expect(shown.links("challenges/")).toHaveLength(1);
		const read = await browser.fetch(`${keyUrl("challenges/log.txt")}&bucket=edgezone-logs`);
		// Decoded by hand: workerd warns on `.text()` of a body typed application/octet-stream.
		expect(new TextDecoder().decode(await read.arrayBuffer())).toBe("in the logs");
		expect((await browser.fetch(keyUrl("challenges/log.txt"))).status).toBe(404);
	});

	it("lists a bucket created at run time among the choices, and browses it in the page and the proxy", async () => {
		const name = `dash-${crypto.randomUUID().slice(0, 8)}`;
		expect((await createBucket(env, { name, location: null, storageClass: "Standard" })).ok).toBe(true);
		const row = await zoneRegistry(env).createdBucket(name);
		await env.RUNTIME_BUCKETS.put(`${row?.id}/made/here.txt`, "in a created bucket");
		const first = await seen(await (await browser.fetch(PAGE)).text());
		expect(first.field("Bucket").options.some((label) => label.startsWith(`${name} (created `))).toBe(true);
		const shown = await seen(await (await browser.fetch(`${PAGE}?bucket=${name}`)).text());
		expect(shown.field("Bucket").value).toBe(name);
		expect(shown.links("made/")).toHaveLength(1);
		const read = await browser.fetch(`${keyUrl("made/here.txt")}&bucket=${name}`);
		expect(new TextDecoder().decode(await read.arrayBuffer())).toBe("in a created bucket");
	});

	it("deletes one object, then many, and says how many", async () => {
		const one = await browser.fetch(`${PAGE}/delete`, {
			method: "POST",
			headers: FORM,
			body: new URLSearchParams({ csrf: browser.csrf, bucket: "", prefix: "docs/", key: "docs/readme.txt" }),
		});
		expect(one.status).toBe(303);
		expect(await env.BUCKET.head("docs/readme.txt")).toBeNull();
		const listed = await (await browser.fetch(`${DASH}${one.headers.get("location")}`)).text();
		expect(listed).toContain("Deleted 1 object.");

		const body = new URLSearchParams({ csrf: browser.csrf, bucket: "", prefix: "page/" });
		for (const n of [1, 2, 3]) body.append("key", `page/${n}.txt`);
		const many = await browser.fetch(`${PAGE}/delete`, { method: "POST", headers: FORM, body });
		expect(many.status).toBe(303);
		expect((await env.BUCKET.list({ prefix: "page/" })).objects).toEqual([]);
		expect(await (await browser.fetch(`${DASH}${many.headers.get("location")}`)).text()).toContain(
			"Deleted 3 objects.",
		);
	});

	it("asks to choose when a delete names no object", async () => {
		const response = await browser.fetch(`${PAGE}/delete`, {
			method: "POST",
			headers: FORM,
			body: new URLSearchParams({ csrf: browser.csrf, bucket: "", prefix: "" }),
		});
		expect(await response.text()).toContain("Choose the objects to delete.");
	});

	it("forgets the token on request: the page asks again", async () => {
		const forgot = await browser.fetch(`${PAGE}/token/forget`, {
			method: "POST",
			headers: FORM,
			body: new URLSearchParams({ csrf: browser.csrf }),
		});
		expect(forgot.status).toBe(303);
		const shown = await seen(await (await browser.fetch(`${DASH}${forgot.headers.get("location")}`)).text());
		expect(shown.text).toContain("Gateway token forgotten.");
		expect(shown.field("Gateway token").value).toBe("");
	});
});
