/** Helpers of the dashboard's workerd tests: its pages through the Worker's front door, as a browser sends them. */
import { exports } from "cloudflare:workers";

/** The dashboard's origin in the tests (DASHBOARD_HOST of wrangler.toml). */
export const DASH = "http://dash.localhost";

/** The cookies a response sets, as one Cookie header. */
export const cookiesOf = (response: Response) =>
	response.headers
		.getSetCookie()
		.map((c) => c.split(";")[0])
		.join("; ");

/** The CSRF token of the first form of a page. */
export const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";

/** A signed-in browser: its session cookie and the CSRF token of its forms. */
export interface Browser {
	cookie: string;
	csrf: string;
}

/** POSTs a form to `path` with the browser's cookie and `csrf` (the browser's unless `form` sets one). */
export function post(browser: Browser, path: string, form: Record<string, string>): Promise<Response> {
	return exports.default.fetch(`${DASH}${path}`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: browser.cookie, "content-type": "application/x-www-form-urlencoded" },
		body: new URLSearchParams({ csrf: browser.csrf, ...form }),
	});
}

/** Signs in through the sign-in form with `token`; the answer of the POST and the signed-in browser. */
export async function signIn(token: string): Promise<{ response: Response; browser: Browser }> {
	const page = await exports.default.fetch(`${DASH}/sign-in`);
	const response = await post({ cookie: cookiesOf(page), csrf: csrfOf(await page.text()) }, "/sign-in", { token });
	const cookie = cookiesOf(response);
	const zones = await exports.default.fetch(`${DASH}/`, { headers: { cookie } });
	return { response, browser: { cookie, csrf: csrfOf(await zones.text()) } };
}
