/**
 * Sign-out ends the session on the server (src/dash/session.ts, zone/dashboard-sessions.ts): a
 * copy of the cookie kept after sign-out opens nothing and its CSRF token writes nothing; "Sign
 * out everywhere" ends every session of the credential and no other's; and a request that
 * arrives without the cookie (a link from another site: SameSite=Strict) leaves the browser's
 * cookie alone.
 */
import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneRegistry } from "../../src/common/durable-objects";
import type { ZoneRegistry } from "../../src/zone/registry";
import { EMAIL, KEY, SCOPED_TOKEN, TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, cookiesOf, csrfOf, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

/** GETs `path` with the browser's cookie, without following a redirect. */
const get = (browser: Browser, path: string) =>
	exports.default.fetch(`${DASH}${path}`, { redirect: "manual", headers: { cookie: browser.cookie } });

/** Whether `response` sends the browser to the sign-in page. */
const toSignIn = (response: Response) => response.status === 303 && response.headers.get("location") === "/sign-in";

/** Whether `response` clears the session cookie. */
const clearsCookie = (response: Response) =>
	response.headers.getSetCookie().some((cookie) => /^edgezone_session=;.*Max-Age=0/i.test(cookie));

/** Signs in with an email and Global API key through the sign-in form. */
async function signInWithKey(email: string, key: string): Promise<Browser> {
	const page = await exports.default.fetch(`${DASH}/sign-in`);
	const answer = await post({ cookie: cookiesOf(page), csrf: csrfOf(await page.text()) }, "/sign-in", { email, key });
	expect(answer.status).toBe(303);
	const cookie = cookiesOf(answer);
	const zones = await exports.default.fetch(`${DASH}/`, { headers: { cookie } });
	return { cookie, csrf: csrfOf(await zones.text()) };
}

describe("signing out", () => {
	it("ends the session on the server: the old cookie opens no page and its CSRF token creates no filter", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const { browser: second } = await signIn(TOKEN);
		const security = await get(browser, `/zones/${zone}/security`);
		expect(security.status).toBe(200);
		const csrf = csrfOf(await security.text());

		const signedOut = await post(browser, "/sign-out", {});
		expect(toSignIn(signedOut)).toBe(true);
		expect(clearsCookie(signedOut)).toBe(true);

		// The cookie as it was before sign-out, kept by whoever copied it.
		for (const path of ["/", `/zones/${zone}/security`]) {
			const page = await get(browser, path);
			expect(toSignIn(page), path).toBe(true);
			expect(clearsCookie(page), path).toBe(true);
		}
		const created = await post({ cookie: browser.cookie, csrf }, `/zones/${zone}/security/filters`, {
			expression: 'http.request.uri.path eq "/after-sign-out"',
			description: "written with a signed-out cookie",
		});
		expect(toSignIn(created)).toBe(true);
		expect((await call("GET", `/zones/${zone}/filters`)).body.result).toEqual([]);
		// Another session of the same credential is not this one: it stays signed in.
		expect((await get(second, "/")).status).toBe(200);
	});

	it("signs out everywhere: every session of the credential ends, another credential's does not", async () => {
		const { browser: here } = await signIn(TOKEN);
		const { browser: elsewhere } = await signIn(TOKEN);
		const { browser: other } = await signIn(SCOPED_TOKEN);
		const zones = await seen(await (await get(here, "/")).text());
		expect(zones.formActions).toContain("/sign-out/everywhere");
		expect(zones.text).toContain("Sign out everywhere");

		// Without the session's CSRF token (another site's form): refused, nothing ended.
		const forged = await post({ ...here, csrf: "forged" }, "/sign-out/everywhere", {});
		expect(forged.status).toBe(403);
		expect((await get(elsewhere, "/")).status).toBe(200);

		const answer = await post(here, "/sign-out/everywhere", {});
		expect(toSignIn(answer)).toBe(true);
		expect(clearsCookie(answer)).toBe(true);
		expect(toSignIn(await get(here, "/"))).toBe(true);
		expect(toSignIn(await get(elsewhere, "/"))).toBe(true);
		expect((await get(other, "/")).status).toBe(200);

		// Signing in again afterwards works as before.
		const { browser: again } = await signIn(TOKEN);
		expect((await get(again, "/")).status).toBe(200);
	});

	it("signs out everywhere an email and key signed in with the email in any case: the API's one credential", async () => {
		const lower = await signInWithKey(EMAIL, KEY);
		const upper = await signInWithKey(EMAIL.toUpperCase(), KEY);
		expect(toSignIn(await post(upper, "/sign-out/everywhere", {}))).toBe(true);
		expect(toSignIn(await get(lower, "/"))).toBe(true);
	});

	it("stores a session by an HMAC of its credential, never the credential itself", async () => {
		await signIn(TOKEN);
		const rows = await runInDurableObject(zoneRegistry(env), (registry: ZoneRegistry, state) => {
			void registry;
			return state.storage.sql.exec("SELECT * FROM dashboard_sessions").toArray();
		});
		expect(rows.length).toBeGreaterThan(0);
		expect(JSON.stringify(rows)).not.toContain(TOKEN);
		expect(JSON.stringify(rows)).not.toContain(SCOPED_TOKEN);
	});
});

describe("a request without the session cookie", () => {
	it("goes to the sign-in page without clearing a cookie it did not send; a cookie that does not open is cleared", async () => {
		// A link followed from another site: the SameSite=Strict cookie stays in the browser, unsent.
		const response = await exports.default.fetch(`${DASH}/zones`, { redirect: "manual" });
		expect(toSignIn(response)).toBe(true);
		expect(response.headers.getSetCookie()).toEqual([]);
		// One that was sent and does not open is cleared.
		const sealedBadly = await get({ cookie: "edgezone_session=not-a-sealed-session", csrf: "" }, "/");
		expect(toSignIn(sealedBadly)).toBe(true);
		expect(clearsCookie(sealedBadly)).toBe(true);
	});
});
