/**
 * Where the dashboard answers (src/index.ts): on DASHBOARD_HOST only, with /client/v4 still the
 * API there; other hosts keep the gateway. And what it shows without a session: nothing.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "../api/credentials";
import { cookiesOf, csrfOf, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

describe("the dashboard host", () => {
	it("serves the sign-in page on DASHBOARD_HOST, with its security headers", async () => {
		const response = await exports.default.fetch(`${DASH}/sign-in`);
		expect(response.status).toBe(200);
		expect((await seen(await response.text())).h1).toBe("Sign in to edgezone");
		expect(response.headers.get("content-security-policy")).toBe(
			"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; media-src 'self' blob:; " +
				"connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
		);
		expect(response.headers.get("x-content-type-options")).toBe("nosniff");
		expect(response.headers.get("referrer-policy")).toBe("same-origin");
		expect(response.headers.get("cache-control")).toBe("no-store");
		// Only those: none of the other headers a security-header library may add by default.
		for (const name of [
			"x-frame-options",
			"strict-transport-security",
			"cross-origin-opener-policy",
			"x-xss-protection",
		]) {
			expect(response.headers.has(name), name).toBe(false);
		}
		expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
	});

	it("serves the pages' style sheets and scripts from their files, on the dashboard host only", async () => {
		const assets = [
			["dash.css", "text/css", ":focus-visible"],
			["ssl.css", "text/css", "dl.facts"],
			["dash.js", "text/javascript", "data-confirm"],
			["expression-check.js", "text/javascript", "textarea[data-validate]"],
			["bucket.js", "text/javascript", "XMLHttpRequest"],
		];
		for (const [name, type, sample] of assets) {
			const response = await exports.default.fetch(`${DASH}/assets/${name}`);
			expect(response.status, name).toBe(200);
			expect(response.headers.get("content-type"), name).toBe(`${type}; charset=utf-8`);
			expect(await response.text(), name).toContain(sample);
			// On the gateway's host the same path is an object key.
			const gateway = await exports.default.fetch(`http://localhost/assets/${name}`, {
				headers: { Authorization: "Bearer test-rw" },
			});
			expect(gateway.status, name).toBe(404);
			await gateway.body?.cancel();
		}
		expect((await exports.default.fetch(`${DASH}/assets/none.js`, { redirect: "manual" })).status).toBe(303);
	});

	it("answers the API v4 under /client/v4 on the dashboard host", async () => {
		const response = await exports.default.fetch(`${DASH}/client/v4/zones`, {
			headers: { Authorization: `Bearer ${TOKEN}` },
		});
		expect(response.status).toBe(200);
		expect(((await response.json()) as { success: boolean }).success).toBe(true);
	});

	it("leaves every other host to the gateway: /sign-in there is an object key", async () => {
		const response = await exports.default.fetch("http://localhost/sign-in", {
			headers: { Authorization: "Bearer test-rw" },
		});
		expect(response.status).toBe(404);
		expect((await seen(await response.text())).headings).toEqual([]);
	});

	it("redirects every page to /sign-in without a session, and shows nothing", async () => {
		for (const path of ["/", "/zones/023e105f4ecef8ad9ca31a8372d0c353/logpush", "/no-such-page"]) {
			const response = await exports.default.fetch(`${DASH}${path}`, { redirect: "manual" });
			expect(response.status, path).toBe(303);
			expect(response.headers.get("location"), path).toBe("/sign-in");
		}
	});

	it("refuses a sign-in whose CSRF token does not match its nonce cookie", async () => {
		const page = await exports.default.fetch(`${DASH}/sign-in`);
		const response = await post({ cookie: cookiesOf(page), csrf: "forged" }, "/sign-in", { token: TOKEN });
		expect(response.status).toBe(403);
		expect(response.headers.get("set-cookie")).not.toContain("edgezone_session=");
	});

	it("signs in with the form's token, then refuses a POST without the session's CSRF token", async () => {
		const { response, browser } = await signIn(TOKEN);
		expect(response.status).toBe(303);
		expect(response.headers.get("location")).toBe("/");
		expect(browser.cookie).toMatch(/^edgezone_session=/);
		const zones = await exports.default.fetch(`${DASH}/`, { headers: { cookie: browser.cookie } });
		expect(await zones.text()).toContain("example.com");
		const page = await exports.default.fetch(`${DASH}/sign-in`);
		// A token of another binding (the sign-in nonce's) is not the session's.
		const forged = await post({ ...browser, csrf: csrfOf(await page.text()) }, "/sign-out", {});
		expect(forged.status).toBe(403);
		expect((await post(browser, "/sign-out", {})).status).toBe(303);
	});
});
