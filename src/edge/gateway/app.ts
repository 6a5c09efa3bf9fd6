/**
 * The bucket gateway: the `BUCKET` binding over HTTP (docs/gateway.md).
 *
 * Order per request: CORS (a preflight ends there), the operation from method and query, the
 * key, authorization, the handler. Every error, thrown by a handler or by the binding, leaves
 * through `onError` as `{"error": {"code", "message"}}` with its status; a binding error is
 * never a 500.
 */
import { Hono } from "hono";
import { cors } from "hono/cors";
import { authorize } from "./auth";
import type { GatewayEnv } from "./context";
import { GatewayError, fromBindingError } from "./errors";
import { keyFromUrl } from "./keys";
import { METHODS, operationOf } from "./operations";

/** Response headers a browser script may read without being told (Fetch, CORS-safelisted). */
const SAFELISTED = new Set([
	"cache-control",
	"content-language",
	"content-length",
	"content-type",
	"expires",
	"last-modified",
]);

/** `CORS_ORIGINS`: `*`, or a comma-separated list of allowed origins. */
function allowedOrigin(origin: string, setting: string): string | null {
	if (setting.trim() === "*") return "*";
	return setting.split(",").some((allowed) => allowed.trim() === origin) ? origin : null;
}

/** The JSON error answer; answers to HEAD carry none, as HEAD has no body. */
function errorResponse(error: GatewayError, method: string): Response {
	const headers = new Headers(error.headers);
	if (method === "HEAD") return new Response(null, { status: error.status, headers });
	headers.set("content-type", "application/json");
	const body: { error: { code: number; message: string }; object?: unknown } = {
		error: { code: error.code, message: error.message },
	};
	if (error.object !== undefined) body.object = error.object;
	return new Response(JSON.stringify(body), { status: error.status, headers });
}

export const gateway = new Hono<GatewayEnv>();

gateway.use(
	cors({
		origin: (origin, c) => allowedOrigin(origin, (c.env as Env).CORS_ORIGINS),
		allowMethods: METHODS,
		maxAge: 86400,
	}),
);

// Expose every header the answer carries (ETag, x-amz-meta-*, …): the set varies per object,
// so it is listed per response rather than configured.
gateway.use(async (c, next) => {
	await next();
	if (!c.res.headers.has("access-control-allow-origin")) return;
	const exposed = [...c.res.headers.keys()].filter((name) => !SAFELISTED.has(name) && !name.startsWith("access-control-"));
	if (exposed.length > 0) c.res.headers.set("access-control-expose-headers", exposed.join(", "));
});

gateway.all("*", async (c) => {
	const url = new URL(c.req.url);
	const operation = operationOf(c.req.method, url);
	c.set("key", keyFromUrl(url));
	await authorize(c.req.raw, c.env, operation.access);
	try {
		return await operation.handle(c);
	} catch (error) {
		throw fromBindingError(error) ?? error;
	}
});

gateway.onError((error, c) => {
	const known = fromBindingError(error);
	if (known) return errorResponse(known, c.req.method);
	console.error("gateway: unexpected error", error);
	return errorResponse(new GatewayError(500, 10001, "We encountered an internal error."), c.req.method);
});
