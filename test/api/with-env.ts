/**
 * Requests through the Worker's front door with some bindings replaced: for behaviour that
 * depends on configuration the test pool fixes (credentials, `LOGPUSH_BUCKETS`), without
 * changing it for every other test.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import { TOKEN } from "./credentials";
import { type Answer, BASE, type Envelope } from "./http";

/**
 * Sends `method path` (relative to /client/v4) to the Worker with `bindings` over the test env;
 * authenticates with `token` (the all-zones token unless given).
 */
export async function callWithEnv(
	bindings: Partial<Env>,
	method: string,
	path: string,
	options: { body?: unknown; token?: string } = {},
): Promise<Answer> {
	const ctx = createExecutionContext();
	const res = await worker.fetch(
		new Request(`${BASE}${path}`, {
			method,
			headers: { Authorization: `Bearer ${options.token ?? TOKEN}`, "Content-Type": "application/json" },
			...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
		}),
		{ ...env, ...bindings },
		ctx,
	);
	await waitOnExecutionContext(ctx);
	const text = await res.text();
	return { status: res.status, headers: res.headers, body: text === "" ? {} : (JSON.parse(text) as Envelope) };
}
