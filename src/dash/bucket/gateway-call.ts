/**
 * How the Bucket page reaches the bucket: a request to the gateway app in process
 * (`gateway(request, url, env)` of src/edge/gateway/app.ts), with the gateway token the person
 * gave the page (sealed in the session). The gateway authenticates it, picks the operation and the
 * bucket (`x-r2-bucket`), and validates exactly as it does for curl: the dashboard has no path of
 * its own to the R2 bindings.
 *
 * Why `gateway()` and not `edge()`: the edge is the zone's traffic on its hostnames (firewall
 * rules, log entries); the Bucket page, like Cloudflare's R2 dashboard, manages the bucket itself
 * and is not a visitor of the zone. A rule that blocks every request to the zone must not lock its
 * owner out of the bucket, and browsing must not fill the zone's logs with the dashboard's reads.
 *
 * Every request asks for raw bodies (`x-r2-raw-body`, docs/gateway.md "Raw bodies"): the answer
 * then has no `Content-Encoding`, so the dashboard's router, which re-creates Responses, sends the
 * stored bytes as they are (a download of a gzip object is the gzip file) instead of encoding them
 * again.
 */
import { gateway } from "../../edge/gateway/app";
import { BUCKET_HEADER } from "../../wire/buckets";
import { CHECKSUMS, checksumHeader } from "../../wire/checksums";
import { HTTP_METADATA_HEADERS, RAW_BODY_HEADER } from "../../wire/http-metadata";
import { STORAGE_CLASS_HEADER } from "../../wire/storage-class";
import type { Ctx } from "../types";

/** The query parameter of a proxy URL that names the bucket; stripped before the gateway sees the query. */
export const BUCKET_PARAM = "bucket";

/** A gateway answer read as JSON: its value, or its status and the gateway's error message. */
export type GatewayAnswer<T> = { ok: true; status: number; value: T } | { ok: false; status: number; message: string };

/** What to send with a gateway request besides the token. */
export interface GatewayInit {
	/** A bucket of LOGPUSH_BUCKETS; empty or undefined for the gateway's own (`BUCKET`). */
	bucket?: string;
	headers?: HeadersInit;
	body?: BodyInit | null;
	/** Another token than the session's (checking one before keeping it). */
	token?: string;
}

/**
 * Sends `method path` (path and query as the gateway takes them, docs/gateway.md "Operations")
 * to the gateway in process with the session's gateway token. Never throws: the gateway answers
 * every error as its JSON error (a missing token is its 401).
 */
export function callGateway(c: Ctx, method: string, path: string, init: GatewayInit = {}): Promise<Response> {
	const url = new URL(path, c.req.url);
	const headers = new Headers(init.headers);
	const token = init.token ?? c.var.session.gatewayToken;
	if (token !== undefined) headers.set("authorization", `Bearer ${token}`);
	if (init.bucket) headers.set(BUCKET_HEADER, init.bucket);
	headers.set(RAW_BODY_HEADER, "true");
	headers.set("accept-encoding", "identity");
	const body = init.body ?? null;
	const request = new Request(url, { method, headers, body });
	return gateway(request, url, c.env);
}

/** The gateway's error message of an answer (`{"error": {"message"}}`), or its status when it has none. */
export async function errorMessage(response: Response): Promise<string> {
	const text = await response.text();
	try {
		const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
		if (typeof message === "string") return message;
	} catch {
		// Not JSON: fall through to the status.
	}
	return `The gateway answered ${response.status}.`;
}

/** `callGateway`, with a JSON answer read (204: `null`). */
export async function gatewayJson<T>(
	c: Ctx,
	method: string,
	path: string,
	init: GatewayInit = {},
): Promise<GatewayAnswer<T>> {
	const response = await callGateway(c, method, path, init);
	if (!response.ok) return { ok: false, status: response.status, message: await errorMessage(response) };
	const text = await response.text();
	return { ok: true, status: response.status, value: (text === "" ? null : JSON.parse(text)) as T };
}

/**
 * Request headers the proxy passes on: those the gateway reads (docs/gateway.md, "Reading" and
 * "Writing"), and no others: not the cookie, not the CSRF header, never an `Authorization` of the
 * browser's (the session's token replaces it).
 */
const FORWARDED = new Set([
	"range",
	"if-match",
	"if-none-match",
	"if-modified-since",
	"if-unmodified-since",
	"content-length",
	"content-md5",
	"x-amz-checksum-mode",
	STORAGE_CLASS_HEADER,
	...HTTP_METADATA_HEADERS,
	...CHECKSUMS.map(({ name }) => checksumHeader(name)),
]);

/**
 * The same-origin proxy of the page's script (uploads, range previews, downloads): forwards
 * `rest` (the gateway path, as received, still percent-encoded) and the query, less `bucket`
 * (which becomes `x-r2-bucket`), to the gateway with the session's token, and answers the
 * gateway's answer. Bodies stream both ways: an upload's body is handed on as a stream of the
 * length it declared, never read here.
 */
export function forward(c: Ctx, rest: string): Promise<Response> {
	const incoming = c.req.raw;
	const query = new URL(incoming.url).searchParams;
	const bucket = query.get(BUCKET_PARAM) ?? undefined;
	query.delete(BUCKET_PARAM);
	// `?uploads` comes out as `?uploads=`: the gateway asks only whether a flag is present.
	const search = query.toString();
	const headers = new Headers();
	for (const [name, value] of incoming.headers)
		if (FORWARDED.has(name) || name.startsWith("x-amz-meta-")) headers.set(name, value);
	let body: ReadableStream | null = incoming.body;
	const length = incoming.headers.get("content-length");
	// R2 stores a stream only when its length is known: a FixedLengthStream says it and checks it.
	if (body !== null && length !== null && /^\d+$/.test(length))
		body = body.pipeThrough(new FixedLengthStream(Number(length)));
	const method = incoming.method;
	return callGateway(c, method, `/${rest}${search === "" ? "" : `?${search}`}`, {
		bucket,
		headers,
		body: method === "GET" || method === "HEAD" ? null : body,
	});
}
