/**
 * The Bucket page's proxy answers so that no stored object runs as the dashboard
 * (src/dash/bucket/containment.ts): every answer sandboxed and `nosniff`, downloaded
 * (`attachment`) unless it is a type the page previews, and previews by Range unchanged.
 * The browser's side of it is test/dash/e2e/bucket-containment.e2e.ts.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { dispositionOf } from "../../src/dash/bucket/containment";
import { DEFAULT_ZONE_ID, TOKEN } from "../api/credentials";
import { type Browser, cookiesOf, DASH, post, signIn } from "./dash-http";

const PROXY = `/zones/${DEFAULT_ZONE_ID}/bucket/o/`;
const FOLDER = "containment/";
const SANDBOX = "sandbox; default-src 'none'";

let browser: Browser;

const proxied = (key: string, init: RequestInit = {}) =>
	exports.default.fetch(`${DASH}${PROXY}?${new URLSearchParams({ key: `${FOLDER}${key}` })}`, {
		redirect: "manual",
		...init,
		headers: { cookie: browser.cookie, ...init.headers },
	});

beforeAll(async () => {
	({ browser } = await signIn(TOKEN));
	const saved = await post(browser, `/zones/${DEFAULT_ZONE_ID}/bucket/token`, { token: "test-rw" });
	expect(saved.status).toBe(303);
	browser = { ...browser, cookie: cookiesOf(saved) };
	const put = (key: string, body: string, contentType?: string, contentDisposition?: string) =>
		env.BUCKET.put(`${FOLDER}${key}`, body, { httpMetadata: { contentType, contentDisposition } });
	await put("x.html", '<script src="?key=containment%2Fx.js"></script>', "text/html");
	await put("x.js", "document.title = 'ran';", "text/javascript");
	await put("x.svg", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml");
	await put("inline.html", "<p>hi</p>", "text/html; charset=utf-8", 'inline; filename="page.html"');
	await put("x.png", "not a real png, 32 bytes of text", "image/png");
	await put("shown.png", "an image shown inline", "image/png", "inline");
	await put("x.txt", "plain text", "text/plain");
	await put("x.mp4", "not really a video", "video/mp4");
	await put("untyped", "<script>document.title = 'ran'</script>");
	// A file's first requests start its isolate: seconds on a loaded machine, past vitest's 10 s hook default.
}, 30_000);

describe("the bucket proxy's answers", () => {
	it.each([
		// [key, Content-Disposition expected]
		["x.html", "attachment"],
		["x.js", "attachment"],
		["x.svg", "attachment"],
		["inline.html", 'attachment; filename="page.html"'],
		["untyped", "attachment"],
		["x.png", null],
		["shown.png", "inline"],
		["x.txt", null],
		["x.mp4", null],
	])("%s: sandboxed, nosniff, Content-Disposition %s", async (key, disposition) => {
		for (const method of ["GET", "HEAD"]) {
			const response = await proxied(key, { method });
			expect(response.status, method).toBe(200);
			expect(response.headers.get("content-security-policy"), method).toBe(SANDBOX);
			expect(response.headers.get("x-content-type-options"), method).toBe("nosniff");
			expect(response.headers.get("content-disposition"), method).toBe(disposition);
			await response.arrayBuffer();
		}
	});

	it("keeps previews by Range: a 206 of the asked bytes, with the same headers", async () => {
		const response = await proxied("x.png", { headers: { range: "bytes=0-7" } });
		expect(response.status).toBe(206);
		expect(response.headers.get("content-range")).toBe("bytes 0-7/32");
		// Decoded by hand: workerd warns on `.text()` of a body typed image/png, which these bytes are not.
		expect(new TextDecoder().decode(await response.arrayBuffer())).toBe("not a re");
		expect(response.headers.get("content-security-policy")).toBe(SANDBOX);
		expect(response.headers.get("x-content-type-options")).toBe("nosniff");
		expect(response.headers.get("content-disposition")).toBeNull();
	});

	it("sandboxes the gateway's errors too, and the dashboard's pages keep their own policy", async () => {
		const missing = await proxied("missing.html");
		expect(missing.status).toBe(404);
		expect(missing.headers.get("content-security-policy")).toBe(SANDBOX);
		const page = await exports.default.fetch(`${DASH}/`, { headers: { cookie: browser.cookie } });
		expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
	});
});

describe("the disposition of a type", () => {
	it.each([
		["Image/SVG+XML; charset=utf-8", null, "attachment"],
		["IMAGE/PNG", null, null],
		["video/x-custom+xml", null, "attachment"],
		["text/plain, text/html", null, "attachment"],
		["text/html", "  INLINE ; filename=a.html", "attachment; filename=a.html"],
		["text/html", "attachment; filename=b.html", "attachment; filename=b.html"],
		[null, null, "attachment"],
	])("%s with %s: %s", (type, stored, expected) => {
		expect(dispositionOf(type, stored)).toBe(expected);
	});
});
