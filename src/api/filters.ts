/**
 * `/zones/{zone_id}/filters`: the Filters API (developers.cloudflare.com/firewall/api/
 * cf-filters/; SDK `client.filters.*`, deprecated there but present).
 *
 * Emulates: list (filters `id`, `ref`, `expression`, `description`, `paused`; page-based),
 * create and bulk update from a JSON array (or, for SDK v4's `create`, one object), bulk delete
 * by `?id=a&id=b`, and get / update / delete of one filter. Answers are the SDK's types: one
 * deleted filter is `{id}` (the SDK's `FilterDeleteResponse`; the docs show `[{id}]`).
 * Errors (codes in `zone/failure.ts`): an expression the Rules language refuses is 400 10014
 * (edgezone's choice) with the engine's text unchanged, as the real validate endpoint answers
 * it (developers.cloudflare.com/firewall/api/cf-filters/validation/); a duplicate expression 400 10102 `config duplicates an already existing config`
 * with `meta.id` (observed); a filter a firewall rule uses 400 10103 and a filter created by
 * a firewall rules POST 400 10104 on PUT, and on DELETE while a rule uses it; a bulk PUT naming
 * one filter twice 400 10100 (edgezone's choices); an unknown id 404 10101, except in a bulk
 * DELETE, which skips it and answers 200 as Cloudflare documents (`zone/filters.ts`).
 * A PUT changes the fields it gives and keeps the others.
 */
import type { FilterDeleteResponse, FirewallFilter } from "cloudflare/resources/filters/filters";
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../zone/failure";
import { MAX_EXPRESSION, MAX_FIREWALL_DESCRIPTION, MAX_FIREWALL_REF } from "../zone/limits";
import { parseBatch, parseIds } from "./bulk-requests";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { PAGE_QUERY, pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { BOOLEAN_QUERY, HEX_ID, parseBody, parseParam, parseQuery } from "./validate";

const CODE = CODES.filterInvalid;

/**
 * The fields of a filter a client sets (developers.cloudflare.com/firewall/api/cf-filters/
 * json-object/); the expression is checked by the Zone.
 */
export const FILTER_FIELDS = {
	expression: z.string().max(MAX_EXPRESSION),
	paused: z.boolean(),
	description: z.string().max(MAX_FIREWALL_DESCRIPTION),
	ref: z.string().max(MAX_FIREWALL_REF),
};

const NEW_FILTER = z.strictObject({
	expression: FILTER_FIELDS.expression,
	paused: FILTER_FIELDS.paused.optional(),
	description: FILTER_FIELDS.description.optional(),
	ref: FILTER_FIELDS.ref.optional(),
});

const FILTER_EDIT = NEW_FILTER.partial().extend({ id: HEX_ID });
// The SDK's `filters.update(id, {...})` sends no id: the path names the filter.
const ONE_FILTER_EDIT = FILTER_EDIT.partial({ id: true });

const LIST = z.object({
	id: HEX_ID.optional(),
	ref: z.string().max(MAX_FIREWALL_REF).optional(),
	expression: z.string().max(MAX_EXPRESSION).optional(),
	description: z.string().max(MAX_FIREWALL_DESCRIPTION).optional(),
	paused: BOOLEAN_QUERY.optional(),
	...PAGE_QUERY,
});

/** Routes under `/zones/{zone_id}/filters`. */
export const filters = new Hono<ApiEnv>()
	.get("/", reads("Firewall Services"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const page = unwrap(await c.var.zoneState.listFilters({ ...q, perPage: q.per_page }));
		return ok(page.items satisfies FirewallFilter[], pageInfo(q.page, q.per_page, page.items.length, page.total));
	})
	.post("/", writes("Firewall Services"), async (c) => {
		const entries = await parseBatch(c, NEW_FILTER, CODE);
		return ok(unwrap(await c.var.zoneState.createFilters(entries)) satisfies FirewallFilter[]);
	})
	.put("/", writes("Firewall Services"), async (c) => {
		const entries = await parseBatch(c, FILTER_EDIT, CODE);
		return ok(unwrap(await c.var.zoneState.updateFilters(entries)) satisfies FirewallFilter[]);
	})
	.delete("/", writes("Firewall Services"), async (c) => {
		const entries = parseIds(c, CODE).map((id) => ({ input: id, pointer: "/id" }));
		return ok(unwrap(await c.var.zoneState.deleteFilters(entries, "skip")) satisfies FilterDeleteResponse[]);
	})
	.get("/:filter_id", reads("Firewall Services"), async (c) => {
		const id = parseParam(c, "filter_id", HEX_ID);
		return ok(unwrap(await c.var.zoneState.getFilter(id)) satisfies FirewallFilter);
	})
	.put("/:filter_id", writes("Firewall Services"), async (c) => {
		const id = parseParam(c, "filter_id", HEX_ID);
		const body = await parseBody(c, ONE_FILTER_EDIT, CODE);
		if (body.id !== undefined && body.id !== id) throw idMismatch(CODE, id);
		const [updated] = unwrap(await c.var.zoneState.updateFilters([{ input: { ...body, id }, pointer: "" }]));
		return ok(updated satisfies FirewallFilter | undefined);
	})
	.delete("/:filter_id", writes("Firewall Services"), async (c) => {
		const id = parseParam(c, "filter_id", HEX_ID);
		const [deleted] = unwrap(await c.var.zoneState.deleteFilters([{ input: id, pointer: "" }], "refuse"));
		return ok(deleted satisfies FilterDeleteResponse | undefined);
	});

/** 400 at `/id` for a body whose id is not the one of the path. */
export function idMismatch(code: number, pathId: string): ApiError {
	return new ApiError(400, [
		{ code, message: `the id in the body must be the one in the path (${pathId})`, source: { pointer: "/id" } },
	]);
}
