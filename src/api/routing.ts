/**
 * The routing errors of `/client/v4`, decided before authentication as Cloudflare's
 * edge router does: a path no route has is 400 7000; a path that exists for other
 * methods is 405 7001 ("Method PUT not available for that URI."), cloudflare-api-v4.md §2.3.
 */
import type { MiddlewareHandler } from "hono";
import { PatternRouter } from "hono/router/pattern-router";
import type { RouterRoute } from "hono/types";
import { methodNotAllowed, noRoute } from "./errors";

/**
 * Middleware answering 7000 / 7001 for requests no endpoint serves. `routes` is read on
 * the first request, once the app has all its endpoints; middleware entries (method
 * `ALL`) are not endpoints and are left out.
 */
export function routeGuard(routes: () => RouterRoute[]): MiddlewareHandler {
	let byMethod: PatternRouter<true> | undefined;
	let anyMethod: PatternRouter<true> | undefined;
	return async (c, next) => {
		if (byMethod === undefined || anyMethod === undefined) {
			byMethod = new PatternRouter<true>();
			anyMethod = new PatternRouter<true>();
			for (const route of routes()) {
				if (route.method === "ALL") continue;
				byMethod.add(route.method, route.path, true);
				anyMethod.add("ALL", route.path, true);
			}
		}
		// Hono serves HEAD with the GET handler.
		const method = c.req.method === "HEAD" ? "GET" : c.req.method;
		if (byMethod.match(method, c.req.path)[0].length === 0) {
			throw anyMethod.match(method, c.req.path)[0].length > 0 ? methodNotAllowed(c.req.method) : noRoute();
		}
		await next();
	};
}
