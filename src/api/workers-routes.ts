/**
 * `/zones/{zone_id}/workers/routes`: the zone's Workers routes (developers.cloudflare.com/api/
 * resources/workers/subresources/routes/; TS SDK `client.workers.routes.list/create/get/update/
 * delete`, github.com/cloudflare/cloudflare-typescript `src/resources/workers/routes.ts`).
 *
 * Emulates: list (one page, `SinglePage` in the SDK), create, get, PUT and DELETE (answering
 * `{id}`), with the body `{pattern, script?}`. The route's semantics are the Zone's
 * (`zone/workers-routes.ts`); this module checks shapes and bounds: `script` a Worker's name,
 * `^[a-z0-9_][a-z0-9-_]*$` (the OpenAPI schema's pattern, github.com/cloudflare/api-schemas) and
 * at most 63 characters (edgezone's bound: a Worker's name is the first label of its workers.dev
 * host, and a DNS label is at most 63 octets, RFC 1035 §2.3.4); `pattern` at most
 * 1,024 characters (edgezone's bound, before any parsing). Permissions: the "Workers Routes"
 * group (Read to read, Edit, the API's "Workers Routes Write", to write), the group the
 * endpoints' API reference pages accept. An invalid body is 400 10021 naming the field.
 *
 * A `script` the account has no Worker of is 400 10019 "Cannot configure a route for a Worker
 * which does not exist. Please ensure this Worker exists and try again." (the create endpoint's
 * answer, probed live: github.com/alchemy-run/distilled pull 368; code 10019 came with HTTP 400 on
 * this endpoint in github.com/cloudflare/cloudflare-go issue 554). The account's Workers are the
 * names `WORKER_SCRIPTS` lists (`edge/workers-route/scripts.ts`). A PUT is checked the same way,
 * edgezone's choice: no public source shows its answer. The check comes after the body's shape
 * and before the Zone's checks of the pattern, also edgezone's order.
 */
import type {
	RouteCreateResponse,
	RouteDeleteResponse,
	RouteGetResponse,
	RouteListResponse,
	RouteUpdateResponse,
} from "cloudflare/resources/workers/routes";
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { ConfigError } from "../common/config";
import { isAccountWorker } from "../edge/workers-route/scripts";
import { ROUTE_CODES } from "../zone/workers-routes";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam } from "./validate";

const ROUTE = z.strictObject({
	pattern: z.string().min(1, "pattern is required").max(1024, "a pattern is at most 1024 characters"),
	script: z
		.string()
		.max(63, "a Worker's name is at most 63 characters")
		.regex(/^[a-z0-9_][a-z0-9-_]*$/, "script must be a Worker's name: lower-case letters, digits, - and _")
		.optional(),
});

/** The route body of the request, its `script` a Worker the account has (module header). */
async function routeOf(c: Context<ApiEnv>): Promise<z.output<typeof ROUTE>> {
	const body = await parseBody(c, ROUTE, ROUTE_CODES.invalid);
	if (body.script !== undefined && !hasWorker(c.env, body.script)) {
		throw new ApiError(400, [
			{
				code: ROUTE_CODES.noSuchScript,
				message:
					"Cannot configure a route for a Worker which does not exist. Please ensure this Worker exists and try again.",
				source: { pointer: "/script" },
			},
		]);
	}
	return body;
}

/** Whether the account has Worker `script`; a `WORKER_SCRIPTS` that is not valid is a logged 500 naming it. */
function hasWorker(env: Env, script: string): boolean {
	try {
		return isAccountWorker(env, script);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		console.error(`edgezone API: ${error.message}`);
		throw new ApiError(500, [{ code: 10001, message: error.message }]);
	}
}

/** The route id of the path (32 hex; 7003 otherwise). */
const idOf = (c: Context<ApiEnv>) => parseParam(c, "route_id", HEX_ID);

/** Routes under `/zones/{zone_id}/workers/routes`. */
export const workersRoutes = new Hono<ApiEnv>()
	.get("/", reads("Workers Routes"), async (c) =>
		ok(unwrap(await c.var.zoneState.listWorkersRoutes()) satisfies RouteListResponse[]),
	)
	.post("/", writes("Workers Routes"), async (c) => {
		const body = await routeOf(c);
		return ok(unwrap(await c.var.zoneState.createWorkersRoute(body, c.var.zone.name)) satisfies RouteCreateResponse);
	})
	.get("/:route_id", reads("Workers Routes"), async (c) =>
		ok(unwrap(await c.var.zoneState.getWorkersRoute(idOf(c))) satisfies RouteGetResponse),
	)
	.put("/:route_id", writes("Workers Routes"), async (c) => {
		const id = idOf(c);
		const body = await routeOf(c);
		return ok(
			unwrap(await c.var.zoneState.updateWorkersRoute(id, body, c.var.zone.name)) satisfies RouteUpdateResponse,
		);
	})
	.delete("/:route_id", writes("Workers Routes"), async (c) =>
		ok(unwrap(await c.var.zoneState.deleteWorkersRoute(idOf(c))) satisfies RouteDeleteResponse),
	);
