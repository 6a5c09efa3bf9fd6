/**
 * Bulk requests of the filters and firewall rules APIs (developers.cloudflare.com/firewall/api/):
 * bodies that are a JSON array or, for old and quirky clients, one object; ids repeated in the
 * query (`?id=a&id=b`, as the SDK's `qs` sends arrays, cloudflare-typescript
 * `src/internal/utils/query.ts`).
 */
import type { Context } from "hono";
import { z } from "zod";
import { fromZod } from "../zone/failure";
import type { Entry } from "../zone/filters";
import { fromFailures } from "./errors";
import { HEX_ID, parseBody } from "./validate";

/**
 * The body as entries of `item`: a non-empty array (pointers `/0`, `/1`, ...) or one object
 * (pointer ""), which SDK v4's `filters.create` and v7's `firewall.rules.create` send
 * (cloudflare-typescript v4.5.0 `src/resources/filters.ts`, v7 `src/resources/firewall/rules.ts`).
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

/** The `id` query parameters of a bulk DELETE: at least one, each 32 hex (400 at `/id` otherwise). */
export function parseIds(c: Context, code: number): string[] {
	const parsed = z
		.array(HEX_ID)
		.min(1, "at least one id query parameter is required")
		.safeParse(c.req.queries("id") ?? []);
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code, "/id"));
	return parsed.data;
}
