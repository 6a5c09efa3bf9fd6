/**
 * CORS for the gateway (Fetch standard, "CORS protocol"): browsers may call it from the origins
 * in `CORS_ORIGINS` (`*` or a comma-separated list).
 *
 * Applied to the handler's own Response, in place, rather than through a router's middleware:
 * re-creating a Response drops its `encodeBody: "manual"`, and the runtime would then compress
 * or decode object bodies on the way out (docs/gateway.md).
 */

/** Response headers a script may read without being told (Fetch, CORS-safelisted response headers). */
const SAFELISTED = new Set([
	"cache-control",
	"content-language",
	"content-length",
	"content-type",
	"expires",
	"last-modified",
]);

/** The `Access-Control-Allow-Origin` value for `origin`, or null when it is not allowed. */
function allowedOrigin(origin: string, setting: string): string | null {
	if (setting.trim() === "*") return "*";
	return setting.split(",").some((allowed) => allowed.trim() === origin) ? origin : null;
}

/**
 * The answer to a CORS preflight (`OPTIONS` with `Access-Control-Request-Method`), or null when
 * the request is not one: 204 allowing the gateway's methods and the requested headers, for a day.
 */
export function preflight(request: Request, env: Env, methods: readonly string[]): Response | null {
	const origin = request.headers.get("origin");
	if (request.method !== "OPTIONS" || origin === null || !request.headers.has("access-control-request-method")) {
		return null;
	}
	const headers = new Headers({ vary: "Origin" });
	const allowed = allowedOrigin(origin, env.CORS_ORIGINS);
	if (allowed !== null) {
		headers.set("access-control-allow-origin", allowed);
		headers.set("access-control-allow-methods", methods.join(", "));
		const requested = request.headers.get("access-control-request-headers");
		if (requested) headers.set("access-control-allow-headers", requested);
		headers.set("access-control-max-age", "86400");
	}
	return new Response(null, { status: 204, headers });
}

/**
 * Adds the CORS headers of an actual request to `response`, in place: the allowed origin, and
 * every header the answer carries as exposed (the set varies per object: ETag, x-amz-meta-*, …).
 */
export function withCors(request: Request, env: Env, response: Response): Response {
	const origin = request.headers.get("origin");
	if (origin === null) return response;
	const headers = response.headers;
	headers.append("vary", "Origin");
	const allowed = allowedOrigin(origin, env.CORS_ORIGINS);
	if (allowed === null) return response;
	headers.set("access-control-allow-origin", allowed);
	const exposed = [...headers.keys()].filter(
		(name) => !SAFELISTED.has(name) && !name.startsWith("access-control-") && name !== "vary",
	);
	if (exposed.length > 0) headers.set("access-control-expose-headers", exposed.join(", "));
	return response;
}
