/**
 * The routing errors of `/client/v4`, decided before authentication as Cloudflare's
 * edge router does: a path no route has is 400 7000; a path that exists for other
 * methods is 405 7001 ("Method PUT not available for that URI.", as public reports quote it;
 * the status is edgezone's choice, no public source shows it).
 */
import type { MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL, type Router } from "hono/router";
import type { RouterRoute } from "hono/types";
import { methodNotAllowed, noRoute } from "./errors";

/** What the guard reads of the app: its own router and its routes. */
interface Routed {
	readonly router: Router<[unknown, RouterRoute]>;
	readonly routes: RouterRoute[];
}

/** Whether one of `routes` is an endpoint, not middleware (method `ALL`). */
const hasEndpoint = (routes: readonly RouterRoute[]): boolean =>
	routes.some((route) => route.method !== METHOD_NAME_ALL);

/**
 * Middleware answering 7000 / 7001 for requests no endpoint of `app` serves. Whether one does
 * is the app's own match of the request (`matchedRoutes`; Hono serves HEAD with GET's); only
 * for a request none serves is the app's router asked for the path under the other methods its
 * endpoints use, read from `app.routes` on the first such request, once every route is added.
 */
export function routeGuard(app: Routed): MiddlewareHandler {
	let methods: string[] | undefined;
	return async (c, next) => {
		if (!hasEndpoint(matchedRoutes(c))) {
			methods ??= [...new Set(app.routes.map((route) => route.method))].filter((m) => m !== METHOD_NAME_ALL);
			const elsewhere = methods.some((method) =>
				hasEndpoint(app.router.match(method, c.req.path)[0].map(([[, route]]) => route)),
			);
			throw elsewhere ? methodNotAllowed(c.req.method) : noRoute();
		}
		await next();
	};
}
