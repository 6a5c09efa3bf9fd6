/**
 * The HTTP side of RemoteBucket: URLs, the bearer token, the `fetch` it was given, and errors.
 *
 * The gateway's wire reference is docs/gateway.md; this file knows its addressing (the path is
 * the key, the query picks the operation) and its error body `{"error": {"code", "message"}}`,
 * and nothing about R2 objects. Error messages take the binding's form from src/wire/error-codes.ts.
 */
import { BUCKET_HEADER } from "../wire/buckets.ts";
import { decodeMetadataValue } from "../wire/encoded-words.ts";
import { bindingMessage, ERROR_CODE_HEADER, ERROR_MESSAGE_HEADER } from "../wire/error-codes.ts";
import { askForRawBody } from "../wire/http-metadata.ts";

/**
 * A `fetch` the client can use: `globalThis.fetch` in Node 22 or a Worker, a service binding's
 * `fetch`, or a test's `exports.default.fetch`.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

/** What a RemoteBucket talks to. */
export interface RemoteBucketOptions {
	/** Base URL of the gateway, e.g. `http://localhost:8787`; a trailing `/` is ignored. */
	url: string | URL;
	/** Bearer token (`Authorization: Bearer {token}`); none for a PUBLIC_READ gateway's reads. */
	token?: string;
	/** The fetch to send requests with; `globalThis.fetch` by default. */
	fetch?: FetchLike;
	/** The bound bucket to use by name (`x-r2-bucket`), e.g. `edgezone-logs`; the gateway's own by default. */
	bucket?: string;
}

/** The binding's action names, the `<op>` of its error messages (workerd `r2-rpc.c++`). */
export type Action =
	| "head"
	| "get"
	| "put"
	| "delete"
	| "list"
	| "createMultipartUpload"
	| "uploadPart"
	| "completeMultipartUpload"
	| "abortMultipartUpload";

/**
 * An error the gateway answered, thrown as the binding throws its own: the message is
 * `"<action>: <message> (<code>)"` (workerd `R2Result::throwIfError`), so code that parses
 * binding errors with `/\((\d+)\)$/` works unchanged. `code` is the R2 v4 code, or the HTTP status
 * where the gateway had none to give.
 *
 * The binding throws a plain `Error`, with no own enumerable properties; the fields here are
 * getters on the prototype, so this error compares equal to the binding's (vitest's `toThrow`
 * and Node's `assert.deepStrictEqual` compare name, message and own enumerable properties).
 */
export class RemoteBucketError extends Error {
	readonly #action: Action;
	readonly #code: number;
	readonly #detail: string;
	readonly #status: number;

	/**
	 * @param action binding action that failed.
	 * @param code R2 v4 error code, or the HTTP status.
	 * @param detail the gateway's message, without action and code.
	 * @param status HTTP status of the answer.
	 */
	constructor(action: Action, code: number, detail: string, status: number) {
		super(bindingMessage(action, detail, code));
		this.#action = action;
		this.#code = code;
		this.#detail = detail;
		this.#status = status;
	}

	/** The binding action that failed, the `<op>` of the message. */
	get action(): Action {
		return this.#action;
	}

	/** The R2 v4 error code, or the HTTP status where the gateway had none. */
	get code(): number {
		return this.#code;
	}

	/** The gateway's message, without action and code. */
	get detail(): string {
		return this.#detail;
	}

	/** The HTTP status of the answer. */
	get status(): number {
		return this.#status;
	}
}

/** The body of a gateway error answer; 412 answers to reads also carry the object (see objects.ts). */
export interface ErrorBody {
	error?: { code?: unknown; message?: unknown };
	object?: unknown;
}

/** Reads a non-2xx answer's JSON body, or an empty one when it has none (HEAD) or is not JSON. */
export async function errorBody(response: Response): Promise<ErrorBody> {
	if (!response.headers.get("content-type")?.includes("application/json")) {
		await response.body?.cancel();
		return {};
	}
	try {
		return await response.json<ErrorBody>();
	} catch {
		return {};
	}
}

/**
 * The error a failed answer stands for, from its body when it has one; answers to HEAD have none
 * and carry the code and message in headers (docs/gateway.md, "Errors").
 */
export function errorOf(action: Action, response: Response, body: ErrorBody): RemoteBucketError {
	const { code, message } = body.error ?? {};
	const headerCode = Number(response.headers.get(ERROR_CODE_HEADER) ?? Number.NaN);
	const headerMessage = response.headers.get(ERROR_MESSAGE_HEADER);
	const detail =
		typeof message === "string"
			? message
			: headerMessage !== null
				? decodeMetadataValue(headerMessage)
				: `HTTP ${response.status} ${response.statusText}`.trim();
	return new RemoteBucketError(
		action,
		typeof code === "number" ? code : Number.isInteger(headerCode) ? headerCode : response.status,
		detail,
		response.status,
	);
}

/** A request to the gateway: the key (or none for bucket operations) and the query. */
export interface GatewayRequest {
	method: "HEAD" | "GET" | "PUT" | "POST" | "DELETE";
	/** The object key, percent-encoded as one path segment; undefined for `/`. */
	key?: string;
	query?: Record<string, string>;
	headers?: Headers;
	body?: BodyInit | null;
}

/** Node's fetch sends a stream body only when told it is half duplex; workerd ignores the field. */
type StreamingInit = RequestInit & { duplex?: "half" };

/** The segments that URL parsing removes from a path, however escaped (WHATWG URL, dot segments). */
const DOT_SEGMENTS = new Set([".", ".."]);

/**
 * Whether a URL path can carry `key`: not when a segment of it is `.` or `..`, which URL parsing
 * removes, nor under `client/v4`, the API's path (docs/gateway.md, "Keys").
 */
function pathHolds(key: string): boolean {
	if (key === "client/v4" || key.startsWith("client/v4/")) return false;
	return !key.split("/").some((segment) => DOT_SEGMENTS.has(segment));
}

/** Sends requests to one gateway with one token. */
export class Transport {
	readonly #base: string;
	readonly #token: string | undefined;
	readonly #bucket: string | undefined;
	readonly #fetch: FetchLike;

	constructor(options: RemoteBucketOptions) {
		this.#base = String(options.url).replace(/\/+$/, "");
		this.#token = options.token;
		this.#bucket = options.bucket;
		this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	}

	/**
	 * The URL of `key` with `query`. A key no URL path can hold (`pathHolds`) goes in `?key=` on `/`
	 * (docs/gateway.md, "Keys").
	 */
	url(key: string | undefined, query: Record<string, string> = {}): string {
		if (key !== undefined && !pathHolds(key)) return this.url(undefined, { ...query, key });
		const search = new URLSearchParams(query).toString();
		return `${this.#base}/${key === undefined ? "" : encodeKey(key)}${search === "" ? "" : `?${search}`}`;
	}

	/** Sends one request; the answer is the caller's to read, whatever its status. */
	send(request: GatewayRequest): Promise<Response> {
		const headers = new Headers(request.headers);
		// The bytes as stored, never compressed on the way: the front line gzips compressible
		// answers for a client that accepts it, which drops Content-Length (the object's size) and,
		// on HEAD and 304, adds a Content-Encoding the object does not have.
		headers.set("accept-encoding", "identity");
		// And never decoded on the way: the stored Content-Encoding comes in a header of the
		// gateway's own, so no front line or fetch (Node's has no switch against it) decodes the body.
		askForRawBody(headers);
		if (this.#token !== undefined) headers.set("authorization", `Bearer ${this.#token}`);
		if (this.#bucket !== undefined) headers.set(BUCKET_HEADER, this.#bucket);
		const init: StreamingInit = { method: request.method, headers };
		if (request.body !== undefined && request.body !== null) {
			init.body = request.body;
			if (request.body instanceof ReadableStream) init.duplex = "half";
		}
		return this.#fetch(this.url(request.key, request.query), init);
	}
}

/**
 * A key as a URL path (docs/gateway.md, "Keys"): its `/` as `/`, which the gateway takes as the
 * key's (never `%2F`, so the zone's rules read the path the object has), and each segment with
 * `encodeURIComponent`, which escapes `?`, `#` and `%`, so the gateway's single percent-decoding
 * gives the key back.
 */
function encodeKey(key: string): string {
	return key.split("/").map(encodeURIComponent).join("/");
}
