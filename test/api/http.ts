/** Helpers of the API tests: requests through the Worker's front door, with credentials. */
import { exports } from "cloudflare:workers";
import { DEFAULT_ZONE_ID, TOKEN } from "./credentials";

/** Base URL of the API inside the tests. */
export const BASE = "http://localhost/client/v4";

/** A response with its parsed JSON body (`null` for an empty body). */
export interface Answer {
	status: number;
	headers: Headers;
	// The envelope is read loosely: each test asserts the fields it cares about.
	body: Envelope;
}

/** The Cloudflare envelope as tests read it. */
export interface Envelope {
	result?: unknown;
	success?: boolean;
	errors?: {
		code: number;
		message: string;
		source?: { pointer: string };
		error_chain?: { code: number; message: string }[];
	}[];
	messages?: unknown[];
	result_info?: Record<string, unknown>;
}

/**
 * Sends `method path` (path relative to /client/v4) with a JSON body; authenticates
 * with the all-zones token unless `headers` are given.
 */
export async function call(
	method: string,
	path: string,
	body?: unknown,
	headers?: Record<string, string>,
): Promise<Answer> {
	const init: RequestInit = {
		method,
		headers: headers ?? {
			Authorization: `Bearer ${TOKEN}`,
			...(body === undefined ? {} : { "Content-Type": "application/json" }),
		},
		...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
	};
	const res = await exports.default.fetch(`${BASE}${path}`, init);
	// Decoded by hand: workerd warns on `.text()` of a type it does not know as text (Logpull's ndjson).
	const text = new TextDecoder().decode(await res.arrayBuffer());
	return { status: res.status, headers: res.headers, body: text === "" ? {} : (JSON.parse(text) as Envelope) };
}

/** Path of the default zone, plus `rest`. */
export const zonePath = (rest = "") => `/zones/${DEFAULT_ZONE_ID}${rest}`;

/** Creates a fresh zone (unique name) and returns its id: isolates tests sharing one storage. */
export async function freshZone(): Promise<string> {
	const name = `z${crypto.randomUUID().slice(0, 8)}.example.net`;
	const res = await call("POST", "/zones", { name, account: {} });
	if (res.status !== 200) throw new Error(`zone create failed: ${JSON.stringify(res.body)}`);
	return (res.body.result as { id: string }).id;
}
