/**
 * How every dashboard page reads and writes: a request to the API v4 app, in process, with the
 * signed-in credential. The API authenticates, checks permissions and reach, and validates the
 * body exactly as it does for curl, so the dashboard has no path of its own to the Zone.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { api } from "../api/app";
import type { ResponseInfo } from "../api/envelope";
import { type Credential, credentialHeaders } from "./session";
import type { DashEnv } from "./types";

/** An API answer: its `result` (and `result_info`, and `messages`), or its status and `errors`. */
export type ApiAnswer<T> =
	| { ok: true; status: number; result: T; resultInfo?: Record<string, unknown>; messages?: ResponseInfo[] }
	| { ok: false; status: number; errors: ResponseInfo[] };

/**
 * Sends `method /client/v4{path}` to the API app with `credential`, `body` as JSON (a `FormData`
 * as a multipart form, as the DNS import takes its file).
 * Answers the envelope's result or errors; a body that is not the envelope (it always is) is an
 * error entry saying so, never a throw.
 */
export async function callApi<T>(
	c: Context<DashEnv>,
	credential: Credential,
	method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
	path: string,
	body?: unknown,
): Promise<ApiAnswer<T>> {
	const response = await send(c, credential, method, path, body);
	return answerOf<T>(response.status, response.ok, await response.text());
}

/**
 * Sends `GET /client/v4{path}` to the API app with `credential` and answers the body as text,
 * for the endpoints that do not answer the envelope when they succeed (Logpull's ndjson). A
 * refusal is the envelope, answered as `callApi` answers it.
 */
export async function callApiText(
	c: Context<DashEnv>,
	credential: Credential,
	path: string,
): Promise<{ ok: true; status: number; text: string } | { ok: false; status: number; errors: ResponseInfo[] }> {
	const response = await send(c, credential, "GET", path);
	// Decoded by hand: workerd warns when .text() reads a body whose type is not text (ndjson).
	const text = new TextDecoder().decode(await response.arrayBuffer());
	if (response.ok) return { ok: true, status: response.status, text };
	const answer = answerOf<unknown>(response.status, false, text);
	return answer.ok ? { ok: false, status: response.status, errors: [] } : answer;
}

/** One request to the API app, in process. */
function send(
	c: Context<DashEnv>,
	credential: Credential,
	method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
	path: string,
	body?: unknown,
): Promise<Response> {
	const headers: Record<string, string> = { ...credentialHeaders(credential) };
	const form = body instanceof FormData;
	if (body !== undefined && !form) headers["Content-Type"] = "application/json";
	const url = new URL(`/client/v4${path}`, c.req.url);
	const request = new Request(url, {
		method,
		headers,
		body: body === undefined ? undefined : form ? body : JSON.stringify(body),
	});
	return Promise.resolve(api.fetch(request, c.env, c.executionCtx));
}

/** The envelope in `text` as an answer; not the envelope: an error entry saying so. */
function answerOf<T>(status: number, responseOk: boolean, text: string): ApiAnswer<T> {
	const response = { status, ok: responseOk };
	let envelope: {
		success?: boolean;
		result?: T;
		result_info?: Record<string, unknown>;
		errors?: ResponseInfo[];
		messages?: ResponseInfo[];
	};
	try {
		envelope = text === "" ? { success: response.ok } : JSON.parse(text);
	} catch {
		return { ok: false, status: response.status, errors: [{ code: 0, message: `unexpected answer: ${text}` }] };
	}
	if (response.ok && envelope.success !== false) {
		return {
			ok: true,
			status: response.status,
			result: envelope.result as T,
			resultInfo: envelope.result_info,
			messages: envelope.messages ?? [],
		};
	}
	return { ok: false, status: response.status, errors: envelope.errors ?? [] };
}

/** The messages of API errors, each with its `error_chain` ("Invalid request headers: ..."). */
export function messagesOf(errors: ResponseInfo[]): string[] {
	return errors.map((e) =>
		e.error_chain?.length ? `${e.message}: ${e.error_chain.map((link) => link.message).join("; ")}` : e.message,
	);
}

/** The API path of the page's zone, plus `rest` (`/zones/{zone_id}{rest}`). */
export const zonePath = (c: Context<DashEnv>, rest: string) => `/zones/${c.var.zone.id}${rest}`;

/** The status of an API answer, for the page that shows it. */
export const statusOf = (answer: { status: number }) => answer.status as ContentfulStatusCode;
