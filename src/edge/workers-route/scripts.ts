/**
 * The account's Workers and the binding that runs each: the var `WORKER_SCRIPTS`, JSON, script
 * name -> the name of a service binding (`[[services]]` in wrangler's configuration,
 * developers.cloudflare.com/workers/runtime-apis/bindings/service-bindings/). Locally a route's
 * Worker is another Worker of the same `wrangler dev` (its multi-config mode,
 * developers.cloudflare.com/workers/development-testing/multi-workers/), which edgezone reaches
 * only through a binding; a Worker sees its bindings but not the names of the Workers behind
 * them, so the names are said here, as `R2_BUCKETS` says the buckets' (`src/edge/s3/buckets.ts`).
 * The names it lists are the Workers the emulated account has: the routes API refuses a route to
 * any other (`src/api/workers-routes.ts`). Unset or empty: the account has no Worker.
 */
import { z } from "zod";
import { jsonVar } from "../../common/config";

const SCRIPTS = z.record(z.string().min(1), z.string().min(1));

/** Script name -> binding name; empty when the var is unset. @throws ConfigError when it is not a JSON object of names. */
function scriptsOf(env: Env): Record<string, string> {
	const raw = env.WORKER_SCRIPTS;
	return raw === undefined || raw === "" ? {} : jsonVar("WORKER_SCRIPTS", raw, SCRIPTS);
}

/**
 * The account's Workers: the names `WORKER_SCRIPTS` lists, bound or not, in its order.
 * @throws ConfigError when `WORKER_SCRIPTS` is set but not a JSON object of names.
 */
export function accountWorkers(env: Env): string[] {
	return Object.keys(scriptsOf(env));
}

/**
 * Whether the account has Worker `script`: `WORKER_SCRIPTS` lists it, bound or not.
 * @throws ConfigError when `WORKER_SCRIPTS` is set but not a JSON object of names.
 */
export function isAccountWorker(env: Env, script: string): boolean {
	return Object.hasOwn(scriptsOf(env), script);
}

/**
 * The binding that runs Worker `script`, or undefined when `WORKER_SCRIPTS` names none or the
 * binding is not a service (no `fetch`).
 * @throws ConfigError when `WORKER_SCRIPTS` is set but not a JSON object of names.
 */
export function workerBinding(env: Env, script: string): Fetcher | undefined {
	const scripts = scriptsOf(env);
	if (!Object.hasOwn(scripts, script)) return undefined;
	const binding = (env as unknown as Record<string, unknown>)[scripts[script] as string];
	return isFetcher(binding) ? binding : undefined;
}

function isFetcher(value: unknown): value is Fetcher {
	return typeof value === "object" && value !== null && typeof (value as { fetch?: unknown }).fetch === "function";
}
