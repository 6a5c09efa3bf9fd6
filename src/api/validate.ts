/**
 * Request parsing with zod: bodies and queries become 400s in the envelope naming the
 * field (`source.pointer`), path identifiers become the routing error 7003. A body is
 * bounded in size (413) and in nesting depth (400) before it is parsed, so no client
 * JSON can exhaust the stack of the parsers or of RPC serialisation behind them.
 */
import type { Context } from "hono";
import { z } from "zod";
import { boundedBody } from "../common/bounded-body";
import { HEX_ID_PATTERN } from "../common/ids";
import { fromZod } from "../zone/failure";
import { badIdentifier, bodyTooLarge, fromFailures, malformedJson, nestedTooDeep } from "./errors";

/** 32 lower-case hex: zone, ruleset and rule ids (`^[0-9a-f]{32}$` in Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas). */
export const HEX_ID = z.string().regex(HEX_ID_PATTERN);

/** A decimal integer id in a path (log-push job ids, ruleset versions). */
// At most 15 digits, so the number is exact in a JavaScript double.
export const INT_ID = z
	.string()
	.regex(/^[1-9][0-9]{0,14}$/)
	.transform(Number);

/**
 * Largest body the API reads, in bytes. The real API's limit is not public; 1 MiB is far
 * above any ruleset, rule or log-push job a client sends.
 */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * Deepest nesting of arrays and objects in a body. The deepest valid body today is a
 * rule's `action_parameters` list entry (depth 5); 32 leaves room for later actions and
 * keeps zod and RPC serialisation, which recurse, far from the stack limit.
 */
const MAX_JSON_DEPTH = 32;

/**
 * Parses the JSON body against `schema`. Over MAX_BODY_BYTES: 413; nested deeper than
 * MAX_JSON_DEPTH or not JSON: 400 "invalid JSON"; schema violations: one 400 entry per
 * issue, each with its `source.pointer`. Size and depth are checked before anything parses.
 * `whenEmpty`, for endpoints whose body is optional, stands for an absent or empty body.
 */
export async function parseBody<S extends z.ZodType>(
	c: Context,
	schema: S,
	code: number,
	options: { whenEmpty?: unknown } = {},
): Promise<z.output<S>> {
	const text = await readText(c.req.raw, code);
	if (deeperThan(text, MAX_JSON_DEPTH)) throw nestedTooDeep(code, MAX_JSON_DEPTH);
	let raw: unknown = options.whenEmpty;
	try {
		// A proxy (wrangler dev's, Cloudflare's) may hand on an absent body as an empty one.
		if (text !== "" || options.whenEmpty === undefined) raw = JSON.parse(text);
	} catch {
		throw malformedJson(code);
	}
	const parsed = schema.safeParse(raw);
	if (!parsed.success) throw fromFailures(fromZod(parsed.error, code));
	return parsed.data;
}

/** The body as text, read no further than MAX_BODY_BYTES (413 beyond, or when Content-Length says so). */
async function readText(request: Request, code: number): Promise<string> {
	const bytes = await boundedBody(request, MAX_BODY_BYTES);
	if (bytes === undefined) throw bodyTooLarge(code, MAX_BODY_BYTES);
	return new TextDecoder().decode(bytes);
}

/** Whether arrays and objects in JSON `text` nest deeper than `limit`; one pass, strings skipped. */
function deeperThan(text: string, limit: number): boolean {
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const char = text[i];
		if (inString) {
			if (char === "\\") i++;
			else if (char === '"') inString = false;
		} else if (char === '"') inString = true;
		else if (char === "[" || char === "{") {
			depth++;
			if (depth > limit) return true;
		} else if (char === "]" || char === "}") depth--;
	}
	return false;
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

/** Like `parseBody`, for endpoints whose body may be absent (a DELETE): no body parses as `{}`. */
export async function parseOptionalBody<S extends z.ZodType>(
	c: Context,
	schema: S,
	code: number,
): Promise<z.output<S>> {
	return parseBody(c, schema, code, { whenEmpty: {} });
}

/** A boolean query parameter: `true` or `false`. */
export const BOOLEAN_QUERY = z.enum(["true", "false"]).transform((value) => value === "true");
