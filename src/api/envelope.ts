/**
 * The Cloudflare API v4 envelope: every answer of `/client/v4` is built here.
 *
 * `{result, success, errors, messages}` (Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas, `api-response-common`) with
 * the newer key order (`result` first), `result_info` on lists, and
 * `Content-Type: application/json` always, because the SDK only parses JSON when
 * that header says so (cloudflare-typescript `src/internal/parse.ts`).
 */

/** One entry of `errors` (or `messages`): the SDK's `ResponseInfo` plus the auth `error_chain`. */
export interface ResponseInfo {
	code: number;
	message: string;
	source?: { pointer: string };
	error_chain?: { code: number; message: string }[];
	/** Facts of the error: 10102 names the existing filter in `meta.id` (third-party scripts read `errors[].meta.id`; edgezone answers what they read). */
	meta?: Record<string, string>;
}

/** Page-based `result_info` (zones): the SDK's V4PagePaginationArray reads `page` and `per_page`. */
export interface PageInfo {
	page: number;
	per_page: number;
	count: number;
	total_count: number;
	total_pages: number;
}

/** Cursor `result_info` (rulesets): the SDK's CursorPagination stops when `cursor` is absent. */
export interface CursorInfo {
	count: number;
	per_page: number;
	cursor?: string;
}

const JSON_HEADERS = { "Content-Type": "application/json" } as const;

/** `200 {result, success: true, errors: [], messages: []}`, plus `result_info` when given. */
export function ok(result: unknown, resultInfo?: PageInfo | CursorInfo): Response {
	const body =
		resultInfo === undefined
			? { result, success: true, errors: [], messages: [] }
			: { result, success: true, errors: [], messages: [], result_info: resultInfo };
	return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS });
}

/**
 * `200` with `messages`, as a few endpoints answer (`/user/tokens/verify`'s 10000 "This API Token is
 * valid and active", with `type`; a DNS import's records left out, without).
 */
export function okWithMessages(result: unknown, messages: (ResponseInfo & { type?: string | null })[]): Response {
	const body = { result, success: true, errors: [], messages };
	return new Response(JSON.stringify(body), { status: 200, headers: JSON_HEADERS });
}

/** `204` with no body: what `DELETE .../rulesets/{id}` answers (Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas, `deleteZoneRuleset`). */
export function noContent(): Response {
	return new Response(null, { status: 204 });
}

/**
 * A failure envelope. `bare` leaves out `result` and `messages`, as the real API does
 * for 9106 and 10000 (cloudflare-python#2678, BeeHiveSafety/CloudflareToAbuseIPDB#5).
 */
export function failure(status: number, errors: ResponseInfo[], bare = false): Response {
	const body = bare ? { success: false, errors } : { result: null, success: false, errors, messages: [] };
	return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}
