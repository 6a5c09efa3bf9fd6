/**
 * The bucket gateway: the `BUCKET` binding over HTTP (docs/gateway.md).
 *
 * Order per request: the CORS rules of the request's bucket, when it has an Origin and the bucket
 * has rules (`../s3/cors/cached-rules.ts`); a CORS preflight ends at once (browsers send it without credentials, Fetch
 * standard §3.2.2); otherwise who is calling (a 401 before anything that would tell the route
 * table: which methods, paths and queries exist), the operation from method and query, whether
 * the caller may do it, the key, the handler, and CORS headers on its answer. Every error,
 * thrown by a handler or by the binding, becomes `{"error": {"code", "message"}}` with its status
 * here; a binding error keeps its own status, which is 500 only for the binding's own 10001. A
 * browser's navigation sent without credentials gets its 401 as a page instead (`browser-page.ts`).
 *
 * The dispatch is the operation table of `operations.ts`, not a router: a router that re-creates
 * the handler's Response (as Hono does for HEAD and after middleware) drops its
 * `encodeBody: "manual"`, which keeps object bodies as stored on the wire.
 */
import { encodeMetadataValue } from "../../wire/encoded-words";
import { ERROR_CODE_HEADER, ERROR_MESSAGE_HEADER } from "../../wire/error-codes";
import { gatewayCorsRules } from "../s3/cors/cached-rules";
import { authenticate, authorize } from "./auth";
import { unauthorizedPage, wantsPage } from "./browser-page";
import { bucketOf } from "./buckets";
import { preflight, withCors } from "./cors";
import { fromBindingError, type GatewayError, internalError } from "./errors";
import { jsonAnswer } from "./json-answer";
import { keyFromUrl } from "./keys";
import { METHODS, operationOf } from "./operations";

/**
 * The JSON error answer. An answer to HEAD has no body (RFC 9110 §9.3.2), so it carries the code
 * and the message in headers, which RemoteBucket reads to throw the binding's error.
 */
export function gatewayErrorAnswer(error: GatewayError, method: string): Response {
	const headers = new Headers(error.headers);
	headers.set(ERROR_CODE_HEADER, String(error.code));
	if (method === "HEAD") {
		headers.set(ERROR_MESSAGE_HEADER, encodeMetadataValue(error.message));
		return new Response(null, { status: error.status, headers, encodeBody: "manual" });
	}
	const body: { error: { code: number; message: string }; object?: unknown } = {
		error: { code: error.code, message: error.message },
	};
	if (error.object !== undefined) body.object = error.object;
	return jsonAnswer(body, { status: error.status, headers });
}

/** Runs the operation a request asks for; errors of any kind come back as their answer. */
async function dispatch(request: Request, url: URL, env: Env): Promise<Response> {
	try {
		const caller = authenticate(request, env);
		const operation = operationOf(request.method, url);
		authorize(caller, operation.access, env);
		const key = keyFromUrl(url);
		const bucket = await bucketOf(request, env);
		return await operation.handle({ request, url, key, bucket, env });
	} catch (error) {
		const known = fromBindingError(error);
		if (known) {
			// A browser opening the gateway's address gets the same 401 as a page naming the dashboard.
			if (wantsPage(known, request)) return await unauthorizedPage(known, request, url, env);
			return gatewayErrorAnswer(known, request.method);
		}
		console.error("gateway: unexpected error", error);
		return gatewayErrorAnswer(internalError(), request.method);
	}
}

/**
 * Answers one request to the gateway.
 * @param url the request's URL, parsed once by the caller.
 * @returns the answer; never throws.
 */
export async function gateway(request: Request, url: URL, env: Env): Promise<Response> {
	const rules = await gatewayCorsRules(request, url, env);
	return preflight(request, env, METHODS, rules) ?? withCors(request, env, await dispatch(request, url, env), rules);
}
