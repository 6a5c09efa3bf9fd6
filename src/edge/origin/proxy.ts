/**
 * Sends a request to its origin and hands back the origin's answer, or the edge's error page when
 * there is none (`errors.ts`), with what the log records of the origin (`OriginFacts`).
 *
 * Bodies are streamed both ways, never buffered: the visitor's body is the fetch's body, the
 * origin's body the answer's. Redirects are the visitor's to follow (`redirect: "manual"`). A
 * WebSocket upgrade passes through: the origin's 101 and its socket are handed back as they are.
 *
 * The connect timeout (`ORIGIN_CONNECT_TIMEOUT_SECONDS`, 19 by default, the time Cloudflare waits
 * for the origin's SYN+ACK before its 522: developers.cloudflare.com/support/troubleshooting/
 * http-status-codes/cloudflare-5xx-errors/error-522/) runs until the origin's response headers
 * arrive: the runtime's fetch does not tell the connection from the wait for an answer, so an
 * origin that accepts but answers later than that is a 522 here where Cloudflare would wait 100 s
 * and answer 524. A refused connection is a 521; a name the runtime cannot resolve a 530/1016; any
 * other failure to reach an address a 523.
 */
import { isIpLiteral, type OriginAddress } from "./address";
import { type OriginFailure, originErrorAnswer } from "./errors";
import { dropOriginOnlyHeaders } from "./headers";

/** The `http_requests` fields about the origin that the edge knows (docs `http_requests` dataset). */
export interface OriginFacts {
	/** OriginResponseStatus: the origin's status, 0 when it gave none. */
	status: number;
	/** OriginIP: the origin's address when it is an IP literal, else "". */
	ip: string;
	/** OriginResponseDurationMs: from sending the request to the origin's response headers (or the failure). */
	durationMs: number;
	/** OriginResponseHTTPExpires / OriginResponseHTTPLastModified: the origin's headers, "" when absent. */
	expires: string;
	lastModified: string;
}

/** An answer and what it tells of the origin. */
export interface Proxied {
	response: Response;
	origin: OriginFacts;
}

const DEFAULT_CONNECT_TIMEOUT_SECONDS = 19;

/** The connect timeout in ms, from the var (a positive number of seconds), else the default. */
function connectTimeoutMs(env: Env): number {
	const seconds = Number(env.ORIGIN_CONNECT_TIMEOUT_SECONDS);
	return (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_CONNECT_TIMEOUT_SECONDS) * 1000;
}

/** The failure a rejected fetch stands for (see the header). */
function failureOf(error: unknown, host: string): OriginFailure {
	const message = error instanceof Error ? error.message : String(error);
	// workerd's text for ECONNREFUSED (and a reset before any answer).
	if (/connection lost|refused/i.test(message)) return "refused";
	// workerd rejects a failed name lookup with an opaque "internal error"; an IP literal needs no lookup.
	return isIpLiteral(host) ? "unreachable" : "unresolved";
}

/** An error page for `failure`, with the facts the log keeps of it. */
export function failed(failure: OriginFailure, rayId: string, ip: string, durationMs: number): Proxied {
	return {
		response: originErrorAnswer(failure, rayId),
		origin: { status: 0, ip, durationMs, expires: "", lastModified: "" },
	};
}

/** Resolves with undefined after `ms` milliseconds: the connect timeout the origin's fetch races. */
function expiry(ms: number): Promise<undefined> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Sends `request` (its method, body and `headers`) to the origin's address and answers the
 * origin's response. Not an async function: the race's one continuation is the whole wait.
 * @param address where to (`address.ip`, the origin's IP for the log, "" when it is a name).
 */
export function proxy(
	request: Request,
	{ url, host, ip }: Extract<OriginAddress, { kind: "url" }>,
	headers: Headers,
	env: Env,
	rayId: string,
): Promise<Proxied> {
	const started = Date.now();
	const answered = fetch(url, {
		method: request.method,
		headers,
		body: request.body,
		redirect: "manual",
		// The origin's bytes as they come: a compressed body is passed on compressed, not decoded and encoded again.
		encodeResponseBody: "manual",
	});
	// A race with a timer rather than an abort signal: by the Fetch standard a signal that fires
	// later errors the answer's body still streaming ("abort fetch"). The timer is the global
	// `setTimeout`, never cleared (a timer left pending is dropped with the request): under callgrind
	// it costs half what `scheduler.wait` does, and slightly less than an AbortSignal.timeout with a
	// listener (BENCHMARKS.md, "The edge's own work, call by call"). The timer wins with undefined,
	// the fetch only ever with a Response. The losing fetch is cancelled with the request once its
	// 522 is sent.
	return Promise.race([answered, expiry(connectTimeoutMs(env))]).then(
		(response) =>
			response === undefined ? failed("timeout", rayId, ip, Date.now() - started) : answer(response, ip, started),
		(error: unknown) => failed(failureOf(error, host), rayId, ip, Date.now() - started),
	);
}

/** The visitor's answer made of the origin's `response`, with what the log keeps of it. */
function answer(response: Response, ip: string, started: number): Proxied {
	const durationMs = Date.now() - started;
	// The origin's response as the init: the runtime copies its status, its headers (into the
	// answer's own, mutable) and its body encoding, "manual" from the fetch (a compressed body stays
	// compressed, with its Content-Encoding), without reading the fields of an init object one by one.
	const copy = new Response(response.body, response);
	// The origin's headers are read from the copy: one object fewer for the runtime to make and collect.
	const headers = copy.headers;
	const origin: OriginFacts = {
		status: response.status,
		ip,
		durationMs,
		expires: headers.get("expires") ?? "",
		lastModified: headers.get("last-modified") ?? "",
	};
	dropOriginOnlyHeaders(headers);
	return { response: copy, origin };
}
