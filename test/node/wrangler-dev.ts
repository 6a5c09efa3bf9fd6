/**
 * `wrangler dev` for the tests that run in Node: started once per vitest project by its global
 * setup, on a free port with a temporary `--persist-to` (scripts/lib/wrangler-dev.mjs, which the
 * benchmarks use too), and stopped with the run. Both Node projects use it:
 *
 * - "node" (this file's default export): the checks of the Worker from outside (test/node/*.node.ts:
 *   the gateway on real files, the API's example requests, log delivery, RemoteBucket from Node, the
 *   examples and every shell block of the README and docs/), against the secrets a newcomer's `npm
 *   run dev` gets: `.dev.vars.example`, passed with `--env-file`, so the tokens of the README and
 *   docs/ work as written.
 * - "e2e" (test/dash/e2e/global-setup.ts): the dashboard's browser tests, with the unit tests' secrets.
 *
 * `--env-file` keeps a developer's own `.dev.vars` out of it, and the secrets vitest.config.ts puts
 * in process.env for the workerd tests are taken out of wrangler's environment, so the env file alone
 * decides.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { removeOnExit, startWranglerDev } from "../../scripts/lib/wrangler-dev.mjs";

/** What the Node tests are given (`inject("dev")`). */
export interface DevContext {
	/** The Worker by loopback address: `http://127.0.0.1:<port>`. */
	url: string;
	port: number;
	/** Its `--persist-to` directory. */
	persistTo: string;
}

declare module "vitest" {
	export interface ProvidedContext {
		dev: DevContext;
	}
}

/** A wrangler dev started by {@link startDev}. */
export interface RunningDev extends DevContext {
	/** The process started: npx, or npm under `npmRunDev`. */
	pid: number;
	/** The processes under it: wrangler (`node`) and its two workerd. */
	workerdPids(): { user?: number; proxy?: number; node?: number };
	stop(): Promise<void>;
	logTail(lines?: number): string;
}

// The .mjs helper's options as it documents them (its inferred types say `args: never[]`).
const start = startWranglerDev as (options: {
	persistTo?: string;
	args?: string[];
	env?: Record<string, string | undefined>;
	npmRunDev?: boolean;
}) => ReturnType<typeof startWranglerDev>;

/** The secrets of wrangler.toml's `[secrets]`: never inherited from this process (see above). */
const SECRETS = ["GATEWAY_TOKENS", "API_CREDENTIALS"];

/**
 * Starts `wrangler dev` with the secrets and vars of `envFile` (a dotenv file) and state in
 * `persistTo` (a fresh temporary directory, removed at exit, when not given). `args` go to
 * `wrangler dev` as they are (e.g. `["--var", "LOGPUSH_MIN_INTERVAL_SECONDS:300"]`). `npmRunDev`
 * starts it through the project's `npm run dev` script.
 */
export async function startDev(
	envFile: string,
	{ persistTo, args = [], npmRunDev = false }: { persistTo?: string; args?: string[]; npmRunDev?: boolean } = {},
) {
	let directory = persistTo;
	if (directory === undefined) {
		const dir = mkdtempSync(join(tmpdir(), "edgezone-node-"));
		removeOnExit(dir);
		directory = join(dir, "state");
	}
	const dev = await start({
		persistTo: directory,
		args: ["--env-file", envFile, ...args],
		env: Object.fromEntries(SECRETS.map((name) => [name, undefined])),
		npmRunDev,
	});
	// Spawned and answering HTTP, so it has one; the type says a spawn that failed has none.
	const { pid } = dev;
	if (pid === undefined) throw new Error("wrangler dev has no process id");
	return {
		url: dev.url,
		port: dev.port,
		persistTo: dev.persistTo,
		pid,
		workerdPids: dev.workerdPids,
		stop: dev.stop,
		logTail: dev.logTail,
	} satisfies RunningDev as RunningDev;
}

/** The secrets `npm run dev` seeds `.dev.vars` with: the tokens of the README and docs/. */
export const DEV_VARS_EXAMPLE = join(import.meta.dirname, "..", "..", ".dev.vars.example");

/** Global setup of the "node" project: one wrangler dev with `.dev.vars.example`'s secrets. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const dev = await startDev(DEV_VARS_EXAMPLE);
	project.provide("dev", { url: dev.url, port: dev.port, persistTo: dev.persistTo });
	return async () => {
		await dev.stop();
	};
}
