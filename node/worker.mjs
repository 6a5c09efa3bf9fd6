/**
 * edgezone as an auxiliary Worker of a `@cloudflare/vitest-plugin` test pool: the Worker built
 * once (wrangler's own bundler, `wrangler deploy --dry-run --outdir`) and described as Miniflare
 * worker options (wrangler's `unstable_getMiniflareWorkerOptions` of the generated config: its
 * Durable Objects, R2 buckets, vars and secrets), so a test pool runs it beside the Worker under
 * test, which reaches it through a service binding. Types: index.d.ts.
 */
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join, resolve } from "node:path";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { resolveOptions } from "./options.mjs";
import { loadOrCreateSecrets } from "./secrets.mjs";
import { TSCONFIG, WRANGLER, writeEdgezoneConfig } from "./wrangler-config.mjs";

/**
 * Builds edgezone into `<persistTo>/worker/` and answers its Miniflare worker options (named
 * `edgezone`) with its credentials (see index.d.ts).
 * @param {import("./index.d.ts").EdgezoneWorkerOptions} [options]
 * @returns {import("./index.d.ts").EdgezoneWorker}
 * @throws Error for an option that is not valid, or when the build fails (wrangler's output in the message).
 */
export function edgezoneWorker(options = {}) {
	const { buckets, origin } = resolveOptions(undefined, { buckets: options.buckets, origin: options.origin });
	const dir = resolve(options.persistTo ?? ".edgezone/vitest");
	const { configPath } = writeEdgezoneConfig(dir, { buckets, workers: [], origin });
	const credentials = loadOrCreateSecrets(dir);
	const outdir = join(dir, "worker");
	// Absolute paths: wrangler 4.156 resolves relative ones against the config's directory and the
	// working directory inconsistently (wrangler-config.mjs, TSCONFIG).
	execFileSync(
		process.execPath,
		[
			"--no-warnings",
			WRANGLER,
			"deploy",
			"--dry-run",
			"--outdir",
			outdir,
			"--config",
			configPath,
			"--tsconfig",
			TSCONFIG,
		],
		{ stdio: "pipe", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" } },
	);
	// Read as the fields taken below: wrangler types them with Miniflare's, which this package does not name.
	const { workerOptions } =
		/** @type {{ workerOptions: Omit<import("./index.d.ts").EdgezoneWorker["worker"], "name" | "modulesRoot" | "modules"> }} */ (
			/** @type {unknown} */ (unstable_getMiniflareWorkerOptions(configPath))
		);
	// The bundle, and the modules its Text rules kept apart (the dashboard's style sheets and scripts).
	const modules = readdirSync(outdir)
		.filter((file) => file !== "index.js" && !file.endsWith(".map") && file !== "README.md")
		.map((file) => ({ type: /** @type {const} */ ("Text"), path: join(outdir, file) }));
	return {
		worker: {
			name: "edgezone",
			modulesRoot: outdir,
			modules: [{ type: "ESModule", path: join(outdir, "index.js") }, ...modules],
			compatibilityDate: workerOptions.compatibilityDate,
			compatibilityFlags: workerOptions.compatibilityFlags,
			bindings: workerOptions.bindings,
			r2Buckets: workerOptions.r2Buckets,
			durableObjects: workerOptions.durableObjects,
		},
		apiToken: credentials.apiToken,
		gatewayToken: credentials.gatewayToken,
		s3: { region: "auto", accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
		buckets,
	};
}
