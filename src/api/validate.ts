/**
 * Request parsing with zod: bodies and queries become 400s in the envelope naming the
 * field (`source.pointer`), path identifiers become the routing error 7003.
 */
import type { Context } from "hono";
import { z } from "zod";
import { HEX_ID_PATTERN } from "../common/ids";
import { fromZod } from "../zone/failure";
import { badIdentifier, fromFailures, malformedJson } from "./errors";

/** 32 lower-case hex: zone, ruleset and rule ids (reference §3.2). */
export const HEX_ID = z.string().regex(HEX_ID_PATTERN);

/** A decimal integer id in a path (log-push job ids, ruleset versions). */
// At most 15 digits, so the number is exact in a JavaScript double.
export const INT_ID = z
	.string()
	.regex(/^[1-9][0-9]{0,14}$/)
	.transform(Number);

/**
 * Parses the JSON body against `schema`. Not JSON: 400 "invalid JSON"; schema
 * violations: one 400 entry per issue, each with its `source.pointer`.
 */
export async function parseBody<S extends z.ZodType>(c: Context, schema: S, code: number): Promise<z.output<S>> {
	let raw: unknown;
	try {
		raw = await c.req.json();
	} catch {
		throw malformedJson(code);
	}
	const parsed = schema.safeParse(raw);
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code));
	return parsed.data;
}

/** Parses the query string (first value of each name) against `schema`; pointers name the parameter. */
export function parseQuery<S extends z.ZodType>(c: Context, schema: S, code: number): z.output<S> {
	const parsed = schema.safeParse(c.req.query());
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code));
	return parsed.data;
}

/** Parses one path parameter; a malformed identifier is the routing error 7003. */
export function parseParam<S extends z.ZodType>(c: Context, name: string, schema: S): z.output<S> {
	const parsed = schema.safeParse(c.req.param(name));
	if (!parsed.success) throw badIdentifier(new URL(c.req.url).pathname);
	return parsed.data;
}
