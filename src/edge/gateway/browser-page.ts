/**
 * The gateway's 401 as a page, for a person who opens the gateway's address in a browser: a GET
 * or HEAD with no `Authorization` header at all whose `Accept` prefers `text/html`
 * (`src/common/accept.ts`). The status, `WWW-Authenticate` and error code stay the JSON answer's,
 * so nothing is told that the JSON 401 does not tell and no object key is shadowed; any other
 * request (curl's `*\/*`, an API client's JSON, a wrong token, another method) keeps the JSON 401.
 * The page says what the address is and links to the dashboard (`DASHBOARD_HOST` on the request's
 * scheme and port). It has no script, and its Content-Security-Policy allows nothing to load.
 */
import { html } from "hono/html";
import { prefersHtml } from "../../common/accept";
import { ERROR_CODE_HEADER } from "../../wire/error-codes";
import type { GatewayError } from "./errors";

/** Nothing loads, nothing is framed, no form posts, no base: the page is its text and one link. */
const PAGE_CSP = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Whether `error` is answered with the page: a browser's navigation sent with no credentials. */
export function wantsPage(error: GatewayError, request: Request): boolean {
	return (
		error.kind === "Unauthorized" &&
		!request.headers.has("authorization") &&
		(request.method === "GET" || request.method === "HEAD") &&
		prefersHtml(request.headers.get("accept"))
	);
}

/** The dashboard's address on the request's scheme and port, or undefined when DASHBOARD_HOST names no host. */
function dashboardUrl(url: URL, env: Env): string | undefined {
	if (env.DASHBOARD_HOST === "") return undefined;
	try {
		const dashboard = new URL(`${url.protocol}//${env.DASHBOARD_HOST}/`);
		dashboard.port = url.port;
		return dashboard.href;
	} catch {
		return undefined;
	}
}

/**
 * The 401 page for `error` (its status and headers, `text/html`); for HEAD the same headers and
 * no body (RFC 9110 §9.3.2).
 */
export async function unauthorizedPage(error: GatewayError, request: Request, url: URL, env: Env): Promise<Response> {
	const dashboard = dashboardUrl(url, env);
	const page = await html`<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>edgezone: bucket gateway</title></head>
<body>
<h1>edgezone's bucket gateway</h1>
<p>This address is the bucket gateway of edgezone, for HTTP clients that send a token: ${error.message}</p>
${
	dashboard === undefined
		? html`<p>The dashboard is off: DASHBOARD_HOST is not set.</p>`
		: html`<p>To look at the zone and its bucket in a browser, open the dashboard: <a href="${dashboard}">${dashboard}</a>.</p>`
}
<p>How to call the gateway, the S3 API and the zone's API: README.md, "Running it locally".</p>
</body>
</html>
`;
	const headers = new Headers(error.headers);
	headers.set(ERROR_CODE_HEADER, String(error.code));
	headers.set("content-type", "text/html; charset=utf-8");
	headers.set("content-security-policy", PAGE_CSP);
	headers.set("x-content-type-options", "nosniff");
	// The answer depends on Accept: a cache must not give a browser's page to an API client.
	headers.append("vary", "Accept");
	return new Response(request.method === "HEAD" ? null : page.toString(), { status: error.status, headers });
}
