/**
 * Workers routes of one zone (`/zones/{zone_id}/workers/routes`,
 * developers.cloudflare.com/api/resources/workers/subresources/routes/; TS SDK
 * `client.workers.routes.*`): storage, run inside the Zone's transactions. The patterns' syntax
 * and matching are `src/common/route-patterns.ts`.
 *
 * Emulates: the route object `{id, pattern, script?}` (`script` absent for a route that disables
 * Workers where it matches, developers.cloudflare.com/workers/configuration/routing/routes/), list
 * (one page, in creation order), create, get, PUT (replaces pattern and script: a PUT without
 * `script` makes a no-script route), delete. Errors: a pattern outside the zone is 400 10022
 * "Route pattern must include zone name: <pattern>" (observed, github.com/cloudflare/
 * wrangler-legacy/issues/920); a pattern of another route (the host compared without case) is
 * 409 10020 `workers.api.error.duplicate_route` (the code observed on the account's routes
 * endpoint, github.com/cloudflare/workers-sdk/issues/1585; the zone endpoint's is not public, nor
 * the status); an unknown id 404 10007 ("Resource not found (similar to HTTP 404)", the Workers
 * API's `x-cfLinkErrors` in the OpenAPI schema, github.com/cloudflare/api-schemas); a pattern of
 * bad syntax, and a route past MAX_ROUTES, 400 10021 (the Workers API's "Validation Error",
 * developers.cloudflare.com/workers/observability/errors/; its use here is edgezone's choice).
 */

import { randomHexId } from "../common/ids";
import { isPattern, parsePattern, patternKey } from "../common/route-patterns";
import { conflict, invalid, notFound } from "./failure";

/** Error codes of the routes (module header). */
export const ROUTE_CODES = {
	notFound: 10007,
	/** A route's `script` names no Worker of the account (checked by the API, `src/api/workers-routes.ts`). */
	noSuchScript: 10019,
	duplicate: 10020,
	invalid: 10021,
	outsideZone: 10022,
} as const;

/** "Routes per zone: 1,000" (developers.cloudflare.com/workers/platform/limits/, "Routes"). */
const MAX_ROUTES = 1000;

/** A route as the API answers it and the edge reads it. */
export interface WorkersRoute {
	/** 32 hex digits. */
	id: string;
	pattern: string;
	/** The Worker's name; absent: Workers are disabled where the route matches. */
	script?: string;
}

/** What a create or PUT writes. */
export interface WorkersRouteInput {
	pattern: string;
	script?: string | undefined;
}

type Row = { id: string; pattern: string; script: string | null };

/** The `workers_routes` table. Every method runs inside the caller's transaction; failures throw FailureSignal. */
export class WorkersRouteStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Every route, in creation order. */
	list(): WorkersRoute[] {
		return this.#sql.exec<Row>("SELECT id, pattern, script FROM workers_routes ORDER BY seq").toArray().map(toRoute);
	}

	/** One route; 404 10007 when unknown. */
	get(id: string): WorkersRoute {
		const row = this.#sql.exec<Row>("SELECT id, pattern, script FROM workers_routes WHERE id = ?", id).toArray()[0];
		if (row === undefined) notFound(ROUTE_CODES.notFound, "Route not found.");
		return toRoute(row);
	}

	/** Creates a route in zone `zone` (its name). */
	create(input: WorkersRouteInput, zone: string): WorkersRoute {
		const count = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM workers_routes").one().n;
		if (count >= MAX_ROUTES) {
			invalid(ROUTE_CODES.invalid, `The zone already holds ${MAX_ROUTES} Workers routes, Cloudflare's limit.`, "/");
		}
		const key = this.#checkedKey(input.pattern, zone, undefined);
		const route = routeOf(randomHexId(), input);
		this.#sql.exec(
			"INSERT INTO workers_routes (id, pattern, pattern_key, script) VALUES (?, ?, ?, ?)",
			route.id,
			route.pattern,
			key,
			route.script ?? null,
		);
		return route;
	}

	/** Replaces a route's pattern and script (PUT). */
	update(id: string, input: WorkersRouteInput, zone: string): WorkersRoute {
		this.get(id);
		const key = this.#checkedKey(input.pattern, zone, id);
		const route = routeOf(id, input);
		this.#sql.exec(
			"UPDATE workers_routes SET pattern = ?, pattern_key = ?, script = ? WHERE id = ?",
			route.pattern,
			key,
			route.script ?? null,
			id,
		);
		return route;
	}

	/** Deletes a route; 404 10007 when unknown. */
	delete(id: string): { id: string } {
		this.get(id);
		this.#sql.exec("DELETE FROM workers_routes WHERE id = ?", id);
		return { id };
	}

	/** The pattern's key, once it is valid in the zone and no other route (than `self`) has it. */
	#checkedKey(pattern: string, zone: string, self: string | undefined): string {
		const parsed = parsePattern(pattern, zone.toLowerCase());
		if (!isPattern(parsed)) {
			invalid(parsed.kind === "zone" ? ROUTE_CODES.outsideZone : ROUTE_CODES.invalid, parsed.message, "/pattern");
		}
		const key = patternKey(parsed);
		const other = this.#sql
			.exec<{ id: string }>("SELECT id FROM workers_routes WHERE pattern_key = ?", key)
			.toArray()[0];
		if (other !== undefined && other.id !== self) {
			conflict(ROUTE_CODES.duplicate, "workers.api.error.duplicate_route", "/pattern");
		}
		return key;
	}
}

function routeOf(id: string, input: WorkersRouteInput): WorkersRoute {
	return input.script === undefined
		? { id, pattern: input.pattern }
		: { id, pattern: input.pattern, script: input.script };
}

function toRoute(row: Row): WorkersRoute {
	return row.script === null
		? { id: row.id, pattern: row.pattern }
		: { id: row.id, pattern: row.pattern, script: row.script };
}
