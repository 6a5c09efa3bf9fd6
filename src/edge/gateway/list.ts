/**
 * `GET /?list` and `POST /?delete`: `list(options)` and `delete(keys)` of the binding.
 *
 * Emulates every `R2ListOptions` field (prefix, delimiter, cursor, startAfter, limit, include).
 * A page may hold fewer than `limit` objects (R2 caps pages that include metadata), so clients
 * follow `truncated`/`cursor` and never the count
 * (developers.cloudflare.com/r2/api/workers/workers-api-reference/, `R2ListOptions`).
 */
import { z } from "zod";
import { INCLUDE_VALUES, type IncludeValue, isIncludeValue, MAX_KEYS } from "../../wire/limits";
import { objectToJson, type R2ObjectsJson } from "../../wire/object-json";
import type { GatewayContext } from "./context";
import { badRequest, invalidMaxKeys } from "./errors";
import { jsonAnswer } from "./json-answer";
import { readJsonBody } from "./json-body";
import { assertKey } from "./keys";

/** @throws GatewayError 400 (10022), with the binding's message, unless `text` is an integer from 1 to 1000. */
function parseLimit(text: string | null): number | undefined {
	if (text === null) return undefined;
	const limit = Number(text);
	if (!/^\d+$/.test(text) || limit < 1 || limit > MAX_KEYS) {
		throw invalidMaxKeys();
	}
	return limit;
}

/** `include` given as repeated parameters or comma-separated. @throws GatewayError 400 for other values. */
function parseInclude(values: string[]): IncludeValue[] {
	const names = values
		.flatMap((value) => value.split(","))
		.map((name) => name.trim())
		.filter(Boolean);
	for (const name of names) {
		if (!isIncludeValue(name)) {
			throw badRequest(`include takes ${INCLUDE_VALUES.join(" and ")}; got ${name}.`);
		}
	}
	return INCLUDE_VALUES.filter((name) => names.includes(name));
}

/** `GET /?list&prefix=&delimiter=&cursor=&startAfter=&limit=&include=`: one page of the listing as JSON. */
export async function listObjects(c: GatewayContext): Promise<Response> {
	const query = c.url.searchParams;
	const options: R2ListOptions = {
		limit: parseLimit(query.get("limit")),
		prefix: query.get("prefix") ?? undefined,
		delimiter: query.get("delimiter") ?? undefined,
		cursor: query.get("cursor") ?? undefined,
		startAfter: query.get("startAfter") ?? undefined,
		include: parseInclude(query.getAll("include")),
	};
	const page = await c.bucket.list(options);
	const body: R2ObjectsJson = {
		objects: page.objects.map((object) => objectToJson(object)),
		truncated: page.truncated,
		delimitedPrefixes: page.delimitedPrefixes,
	};
	if (page.truncated) body.cursor = page.cursor;
	return jsonAnswer(body);
}

const DeleteRequest = z.object({
	keys: z.array(z.string()).min(1).max(MAX_KEYS),
});

/**
 * `POST /?delete` with `{"keys": [...]}`: deletes 1 to 1000 keys in one `delete(keys)`.
 * Every key is validated before any is deleted; missing keys are not an error (R2). Answers 204.
 */
export async function deleteObjects(c: GatewayContext): Promise<Response> {
	const { keys } = await readJsonBody(c.request, DeleteRequest, `{"keys": [1 to ${MAX_KEYS} strings]}`);
	for (const key of keys) assertKey(key);
	await c.bucket.delete(keys);
	return new Response(null, { status: 204 });
}
