/**
 * The dashboard: server-rendered pages on the host `DASHBOARD_HOST` (`src/index.ts` sends that
 * host here, except `/client/v4`, which the pages call in process through `api-call.ts`).
 *
 * Order for every request: security headers; the static assets and sign-in, open to anyone;
 * then the session (no valid session: a redirect to `/sign-in`, clearing the cookie only when
 * one was sent: a link from another site arrives without the SameSite=Strict cookie, and must
 * not sign the browser out), the CSRF token of every request
 * but GET and HEAD (`session.ts`; the form's `csrf` field, or the `X-CSRF-Token` header a page
 * script sends), and on `/zones/{zone_id}/...` the zone as the API answers it for this
 * credential (out of reach or unknown: the API's error, nothing of the zone shown).
 * A page is one file in `pages/`, mounted with one `dash.route(...)` line, plus its entry in
 * `ZONE_PAGES` (`layout.tsx`).
 */
import type { Zone } from "cloudflare/resources/zones/zones";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { secureHeaders } from "hono/secure-headers";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { boundedBody } from "../common/bounded-body";
import { callApi, messagesOf } from "./api-call";
import { ASSETS } from "./assets";
import { ErrorSummary } from "./components/form";
import { Layout } from "./layout";
import { bucket } from "./pages/bucket";
import { bucketDomains } from "./pages/bucket-domains";
import { dns } from "./pages/dns";
import { logpush } from "./pages/logpush";
import { network } from "./pages/network";
import { rules } from "./pages/rules";
import { rulesSettings } from "./pages/rules-settings";
import { security } from "./pages/security";
import { signIn } from "./pages/sign-in";
import { ssl } from "./pages/ssl";
import { workersRoutes } from "./pages/workers-routes";
import { zones } from "./pages/zones";
import { render } from "./render";
import {
	CSRF_HEADER,
	checkSessionToken,
	clearSession,
	endEverySession,
	endSession,
	readSession,
	sessionToken,
} from "./session";
import type { DashEnv } from "./types";

// Only the headers named below: hono/secure-headers turns on others by default.
const NO_DEFAULTS = {
	crossOriginResourcePolicy: false,
	crossOriginOpenerPolicy: false,
	originAgentCluster: false,
	referrerPolicy: false,
	strictTransportSecurity: false,
	xContentTypeOptions: false,
	xDnsPrefetchControl: false,
	xDownloadOptions: false,
	xFrameOptions: false,
	xPermittedCrossDomainPolicies: false,
	xXssProtection: false,
	removePoweredBy: false,
} as const;

/** The largest form the dashboard reads, in bytes: a zone file of 256 KiB and its form fit well inside. */
const MAX_FORM_BYTES = 1024 * 1024;

/** The dashboard app; `fetch(request, env, ctx)` serves every path of the dashboard host outside `/client/v4`. */
export const dash = new Hono<DashEnv>();

dash.use("*", secureHeaders({ ...NO_DEFAULTS, xContentTypeOptions: true, referrerPolicy: "same-origin" }));
// Pages load only their own assets and post only to themselves; bucket previews may show blobs.
// An answer with a policy of its own keeps it: the bucket proxy's is stricter (bucket/containment.ts).
dash.use(
	"*",
	secureHeaders({
		...NO_DEFAULTS,
		overwrite: false,
		contentSecurityPolicy: {
			defaultSrc: ["'self'"],
			scriptSrc: ["'self'"],
			styleSrc: ["'self'"],
			imgSrc: ["'self'", "data:", "blob:"],
			mediaSrc: ["'self'", "blob:"],
			connectSrc: ["'self'"],
			formAction: ["'self'"],
			frameAncestors: ["'none'"],
			baseUri: ["'none'"],
			objectSrc: ["'none'"],
		},
	}),
);
dash.use("*", async (c, next) => {
	await next();
	if (!c.req.path.startsWith("/assets/")) c.header("Cache-Control", "no-store");
});

dash.get("/assets/:name", async (c, next) => {
	const asset = Object.hasOwn(ASSETS, c.req.param("name")) ? ASSETS[c.req.param("name")] : undefined;
	if (asset === undefined) return next();
	return c.body(asset.body, 200, { "Content-Type": asset.type });
});
// A form (the sign-in form too, before any session) is read whole to be parsed: no further than
// MAX_FORM_BYTES, and once, as every later read takes it from Hono's cache of the body. A page
// script's request carries the CSRF header and streams its body on (an upload): not read here.
dash.use("*", async (c, next) => {
	if (c.req.method === "GET" || c.req.method === "HEAD" || c.req.header(CSRF_HEADER) !== undefined) return next();
	const bytes = await boundedBody(c.req.raw, MAX_FORM_BYTES);
	if (bytes === undefined) {
		return errorPage(c, "Form too large", [`A form may send at most ${MAX_FORM_BYTES / 1024} KiB.`], 413);
	}
	// Hono keeps each body read as a promise under its kind and parses a form from it (its
	// `HonoRequest.#cachedBody`, hono 4.13); its `BodyCache` type names the resolved value instead.
	(c.req.bodyCache as { arrayBuffer?: Promise<ArrayBuffer> }).arrayBuffer = Promise.resolve(
		bytes.buffer as ArrayBuffer,
	);
	return next();
});
dash.route("/", signIn);

/** An error page in the frame: the messages, and the status they came with. */
function errorPage(c: Parameters<typeof render>[0], title: string, messages: string[], status: number) {
	return render(
		c,
		<Layout title={title} csrf={c.get("csrf")}>
			<h1>{title}</h1>
			<ErrorSummary messages={messages} />
			<p>
				<a href="/">Back to the zones</a>
			</p>
		</Layout>,
		status as ContentfulStatusCode,
	);
}

// Everything below needs a session; every request below but GET and HEAD carries the session's CSRF token.
dash.use(
	"*",
	createMiddleware<DashEnv>(async (c, next) => {
		const read = await readSession(c);
		if (read.state !== "active") {
			if (read.state === "ended") clearSession(c);
			return c.redirect("/sign-in", 303);
		}
		const session = read.session;
		c.set("session", session);
		c.set("csrf", await sessionToken(c, session));
		if (c.req.method !== "GET" && c.req.method !== "HEAD") {
			// A page script sends the token in a header, and its body (an upload) is never parsed here.
			const token = c.req.header(CSRF_HEADER) ?? (await c.req.parseBody({ all: true })).csrf;
			if (typeof token !== "string" || !(await checkSessionToken(c, session, token))) {
				return errorPage(
					c,
					"Form expired",
					["The form expired or came from another site; reload the page and try again."],
					403,
				);
			}
		}
		await next();
	}),
);

dash.post("/sign-out", async (c) => {
	await endSession(c, c.var.session);
	return c.redirect("/sign-in", 303);
});
dash.post("/sign-out/everywhere", async (c) => {
	await endEverySession(c, c.var.session);
	return c.redirect("/sign-in", 303);
});

dash.route("/", zones);

dash.use(
	"/zones/:zone_id/*",
	createMiddleware<DashEnv>(async (c, next) => {
		const id = c.req.param("zone_id") ?? "";
		const answer = await callApi<Zone>(c, c.var.session.credential, "GET", `/zones/${encodeURIComponent(id)}`);
		if (!answer.ok) return errorPage(c, "Zone not available", messagesOf(answer.errors), answer.status);
		c.set("zone", { id: answer.result.id, name: answer.result.name });
		await next();
	}),
);
dash.get("/zones/:zone_id", (c) => c.redirect(`/zones/${encodeURIComponent(c.req.param("zone_id"))}/logpush`, 303));
dash.route("/zones/:zone_id/logpush", logpush);
dash.route("/zones/:zone_id/dns", dns);
dash.route("/zones/:zone_id/security", security);
dash.route("/zones/:zone_id/ssl", ssl);
dash.route("/zones/:zone_id/network", network);
dash.route("/zones/:zone_id/bucket", bucket);
dash.route("/zones/:zone_id/bucket-domains", bucketDomains);
dash.route("/zones/:zone_id/workers-routes", workersRoutes);
dash.route("/zones/:zone_id/rules", rules);
dash.route("/zones/:zone_id/rules-settings", rulesSettings);

dash.notFound((c) => errorPage(c, "Page not found", ["There is no dashboard page at this address."], 404));
