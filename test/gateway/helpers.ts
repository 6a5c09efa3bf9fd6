import { createExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import worker from "../../src/index";
import { textOf } from "../bodies";

/** The read-write and read-only tokens vitest.config.ts binds in GATEWAY_TOKENS. */
const RW = "test-rw";
export const RO = "test-ro";

/** A request to the gateway through the Worker's front door, with the read-write token unless told otherwise. */
export function gw(path: string, init: RequestInit & { token?: string | null } = {}): Promise<Response> {
	const { token = RW, ...rest } = init;
	const headers = new Headers(rest.headers);
	if (token !== null) headers.set("authorization", `Bearer ${token}`);
	return exports.default.fetch(`http://gateway.test${path}`, { ...rest, headers });
}

/** A request to the Worker with some vars changed, for settings the test config does not have. */
export async function withVars(vars: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
	const request = new Request(`http://gateway.test${path}`, init) as Request<unknown, IncomingRequestCfProperties>;
	return worker.fetch(request, { ...env, ...vars }, createExecutionContext());
}

/** PUT `body` at `key` and return the stored object's JSON. */
export async function put(
	key: string,
	body: BodyInit,
	headers: HeadersInit = {},
): Promise<{ etag: string; uploaded: string; size: number }> {
	const response = await gw(`/${key}`, { method: "PUT", body, headers });
	if (response.status !== 200) throw new Error(`PUT ${key}: ${response.status} ${await textOf(response)}`);
	return response.json();
}

/** The error body of a gateway answer. */
export async function errorOf(response: Response): Promise<{ code: number; message: string }> {
	const body = await response.json<{ error: { code: number; message: string } }>();
	return body.error;
}

/**
 * Asserts an error answer: its status, and its code in `x-r2-error-code` and, but for HEAD (which
 * has no body), in the JSON body. Consumes the body.
 * @returns the message of the body, or undefined for HEAD.
 */
export async function expectError(response: Response, status: number, code: number): Promise<string | undefined> {
	expect(response.status).toBe(status);
	expect(response.headers.get("x-r2-error-code")).toBe(String(code));
	if (response.body === null) return undefined;
	const error = await errorOf(response);
	expect(error.code).toBe(code);
	return error.message;
}

/** A stream of `size` bytes in chunks of `chunk`, with no known length (sent chunked). */
export function streamOf(bytes: Uint8Array, chunk = 64 * 1024): ReadableStream<Uint8Array> {
	let offset = 0;
	return new ReadableStream({
		pull(controller) {
			if (offset >= bytes.byteLength) return controller.close();
			controller.enqueue(bytes.slice(offset, offset + chunk));
			offset += chunk;
		},
	});
}

/** `size` deterministic pseudo-random bytes. */
export function bytesOf(size: number, seed = 1): Uint8Array {
	const bytes = new Uint8Array(size);
	let x = seed;
	for (let i = 0; i < size; i++) {
		x = (x * 1103515245 + 12345) >>> 0;
		bytes[i] = x >>> 24;
	}
	return bytes;
}

/** Lower-case hex SHA-256 of `bytes`. */
export async function sha256Hex(bytes: ArrayBuffer | Uint8Array): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", bytes);
	return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}
