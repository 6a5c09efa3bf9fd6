/**
 * Middleware of every `/zones/{zone_id}` path: a malformed id is 7003, a zone the caller
 * may not reach is 403 10000 (before existence, so a scoped credential learns nothing
 * about other zones), an unknown zone is 404; otherwise `c.var.zone` and
 * `c.var.zoneState` are set. After a request that may have written to the zone, this
 * isolate's edge asks the zone for its configuration again (`edge/zone-view.ts`, `forgetConfigCheck`).
 */
import { createMiddleware } from "hono/factory";
import { zoneRegistry, zoneState } from "../common/durable-objects";
import { forgetConfigCheck } from "../edge/zone-view";
import { forbidden, unwrap } from "./errors";
import type { ApiEnv } from "./types";
import { HEX_ID, parseParam } from "./validate";

/** Checks the zone of the path and stores it, and its Durable Object stub, in `c.var`. */
export const zoneAccess = createMiddleware<ApiEnv>(async (c, next) => {
	const zoneId = parseParam(c, "zone_id", HEX_ID);
	if (!c.var.caller.canReach(zoneId)) throw forbidden();
	c.set("zone", unwrap(await zoneRegistry(c.env).get(zoneId)));
	c.set("zoneState", zoneState(c.env, zoneId));
	try {
		await next();
	} finally {
		if (c.req.method !== "GET" && c.req.method !== "HEAD") forgetConfigCheck(zoneId);
	}
});
