/**
 * Request and answer shapes the filters and firewall rules APIs share (cloudflare-api-v4.md
 * §5.2, §5.3): bodies that are a JSON array or, for old and quirky clients, one object; ids
 * repeated in the query (`?id=a&id=b`, as the SDK's `qs` sends arrays, §1.4); page-based lists
 * (`page`, `per_page` 5–100, default 25) with `result_info`, `result: []` past the last page.
 */
import type { Context } from "hono";
import { z } from "zod";
import { fromZod } from "../zone/failure";
import type { Entry } from "../zone/filters";
import type { PageInfo } from "./envelope";
import { fromFailures } from "./errors";
import { HEX_ID, parseBody } from "./validate";

/**
 * The body as entries of `item`: a non-empty array (pointers `/0`, `/1`, ...) or one object
 * (pointer ""), which SDK v4's `filters.create` and v7's `firewall.rules.create` send (§5.5).
 */
export async function parseBatch<S extends z.ZodType>(
	c: Context,
	item: S,
	code: number,
): Promise<Entry<z.output<S>>[]> {
	const raw = await parseBody(c, z.unknown(), code);
	const many = Array.isArray(raw);
	const parsed = (many ? z.array(item).min(1) : item).safeParse(raw);
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code));
	const items = (many ? parsed.data : [parsed.data]) as z.output<S>[];
	return items.map((input, i) => ({ input, pointer: many ? `/${i}` : "" }));
}

/** Like `parseBody`, for endpoints whose body may be absent (a DELETE): no body parses as `{}`. */
export async function parseOptionalBody<S extends z.ZodType>(
	c: Context,
	schema: S,
	code: number,
): Promise<z.output<S>> {
	return parseBody(c, schema, code, { whenEmpty: {} });
}

/** The `id` query parameters of a bulk DELETE: at least one, each 32 hex (400 at `/id` otherwise). */
export function parseIds(c: Context, code: number): string[] {
	const parsed = z
		.array(HEX_ID)
		.min(1, "at least one id query parameter is required")
		.safeParse(c.req.queries("id") ?? []);
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code, "/id"));
	return parsed.data;
}

/** A boolean query parameter: `true` or `false`. */
export const BOOLEAN_QUERY = z.enum(["true", "false"]).transform((value) => value === "true");

/** `page` (from 1) and `per_page` (5–100, default 25) of the filters and firewall rules lists ([SPEC-2024]). */
export const PAGE_QUERY = {
	page: z.coerce.number().int().min(1).default(1),
	per_page: z.coerce.number().int().min(5).max(100).default(25),
};

/** Page-based `result_info` of one page of `count` items out of `total`. */
export function pageInfo(page: number, perPage: number, count: number, total: number): PageInfo {
	return { page, per_page: perPage, count, total_count: total, total_pages: Math.ceil(total / perPage) };
}
