/**
 * Where the dashboard answers (src/index.ts): on DASHBOARD_HOST only, with /client/v4 still the
 * API there; other hosts keep the gateway. And what it shows without a session: nothing.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "../api/credentials";

const DASH = "http://dash.localhost";

/** The cookies a response sets, as one Cookie header. */
const cookiesOf = (response: Response) =>
	response.headers
		.getSetCookie()
		.map((c) => c.split(";")[0])
		.join("; ");

describe("the dashboard host", () => {
	it("serves the sign-in page on DASHBOARD_HOST, with its security headers", async () => {
		const response = await exports.default.fetch(`${DASH}/sign-in`);
		expect(response.status).toBe(200);
		expect(await response.text()).toContain("<h1>Sign in to edgezone</h1>");
		expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
		expect(response.headers.get("set-cookie")).toMatch(/HttpOnly; SameSite=Strict/);
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
		expect(await response.text()).not.toContain("<h1>");
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
		const response = await exports.default.fetch(`${DASH}/sign-in`, {
			method: "POST",
			redirect: "manual",
			headers: { cookie: cookiesOf(page), "content-type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams({ csrf: "forged", token: TOKEN }),
		});
		expect(response.status).toBe(403);
		expect(response.headers.get("set-cookie")).not.toContain("edgezone_session=");
	});

	it("signs in with the form's token, then refuses a POST without the session's CSRF token", async () => {
		const page = await exports.default.fetch(`${DASH}/sign-in`);
		const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? "";
		const signedIn = await exports.default.fetch(`${DASH}/sign-in`, {
			method: "POST",
			redirect: "manual",
			headers: { cookie: cookiesOf(page), "content-type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams({ csrf, token: TOKEN }),
		});
		expect(signedIn.status).toBe(303);
		const session = cookiesOf(signedIn);
		expect(session).toMatch(/^edgezone_session=/);

		const zones = await exports.default.fetch(`${DASH}/`, { headers: { cookie: session } });
		expect(await zones.text()).toContain("example.com");
		const forged = await exports.default.fetch(`${DASH}/sign-out`, {
			method: "POST",
			redirect: "manual",
			headers: { cookie: session, "content-type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams({ csrf }),
		});
		expect(forged.status).toBe(403);
	});
});
