/**
 * The wrangler configuration edgezone runs with in a user's project, generated into its state
 * directory from the one the package ships (`wrangler.toml`, read with wrangler's
 * `unstable_readConfig`, so every binding, Durable Object migration and var it declares comes
 * along) and the project's options: the user's buckets become R2 bindings and the var
 * `R2_BUCKETS` from the same list, the user's Workers `[[services]]` bindings named in the var
 * `WORKER_SCRIPTS`, the origin the var `DEFAULT_ORIGIN_URL`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_readConfig } from "wrangler";

/** The package's own wrangler configuration: the template. */
const TEMPLATE = fileURLToPath(new URL("../wrangler.toml", import.meta.url));
/**
 * The package's TypeScript settings, which the Worker's build needs (the dashboard's JSX is Hono's).
 * It is given to wrangler by absolute path (`--tsconfig`, `build.tsconfig`): esbuild does not read a
 * tsconfig.json under node_modules by itself, and a relative `tsconfig` in a config outside the
 * working directory is resolved against the wrong directory by wrangler 4.156.
 */
export const TSCONFIG = fileURLToPath(new URL("../tsconfig.json", import.meta.url));

/** wrangler's CLI proper (`wrangler-dist/cli.js`, which its launcher `bin/wrangler.js` starts). */
export const WRANGLER = join(
	createRequire(import.meta.url).resolve("wrangler/package.json"),
	"..",
	"wrangler-dist",
	"cli.js",
);

/** The R2 binding the gateway serves when a request names no bucket (src/edge/gateway/buckets.ts). */
const GATEWAY_BINDING = "BUCKET";

/** The template's binding fields carried into the generated configuration as they are. */
const BINDING_FIELDS = /** @type {const} */ ([
	"durable_objects",
	"kv_namespaces",
	"d1_databases",
	"analytics_engine_datasets",
	"version_metadata",
]);

/**
 * @typedef {object} GeneratedConfig
 * @property {string} configPath the generated `wrangler.json`.
 * @property {string[]} workerConfigs the user's Workers' wrangler configs, absolute, for a multi-config `wrangler dev`.
 */

/**
 * Writes `<dir>/wrangler.json` for `buckets`, `workers` (paths to wrangler configs, relative to
 * `cwd`) and `origin`.
 * @param {string} dir edgezone's directory in the project (created when missing).
 * @param {{ buckets: string[], workers: string[], origin?: string }} options
 * @param {string} cwd
 * @returns {GeneratedConfig}
 * @throws Error for a Worker config without a `name`, or a bucket name the template uses already.
 */
export function writeEdgezoneConfig(dir, { buckets, workers, origin }, cwd = process.cwd()) {
	mkdirSync(dir, { recursive: true });
	// Generated files, secrets and state: never committed with the project.
	writeFileSync(join(dir, ".gitignore"), "*\n");
	const template = unstable_readConfig({ config: TEMPLATE });
	const workerConfigs = workers.map((path) => resolve(cwd, path));
	const scripts = workerConfigs.map((config) => {
		const { name } = unstable_readConfig({ config });
		if (!name) throw new Error(`${config}: a Worker run behind the zone needs a name`);
		return name;
	});
	const config = edgezoneConfig(template, { buckets, scripts, origin });
	const configPath = join(dir, "wrangler.json");
	writeFileSync(configPath, `${JSON.stringify(config, null, "\t")}\n`);
	return { configPath, workerConfigs };
}

/**
 * The generated configuration: the template's, with the user's buckets (the first bound as
 * `BUCKET`, the gateway's default; the others `BUCKET_2`, `BUCKET_3`, ...), the template's other
 * R2 bindings (log-push destinations), a `[[services]]` binding `WORKER_<n>` per script, and the
 * vars that name them.
 * @param {import("wrangler").Unstable_Config} template
 * @param {{ buckets: string[], scripts: string[], origin?: string }} options
 * @returns {Record<string, unknown>}
 */
function edgezoneConfig(template, { buckets, scripts, origin }) {
	const kept = template.r2_buckets.filter((bucket) => bucket.binding !== GATEWAY_BINDING);
	for (const name of buckets)
		if (kept.some((bucket) => bucket.bucket_name === name)) throw new Error(`buckets: "${name}" is edgezone's own`);
	const userBuckets = buckets.map((name, i) => ({
		binding: i === 0 ? GATEWAY_BINDING : `${GATEWAY_BINDING}_${i + 1}`,
		bucket_name: name,
	}));
	const r2 = [...userBuckets, ...kept];
	// The template's served buckets but its gateway bucket, which the user's first one replaces.
	const served = Object.fromEntries(
		Object.entries(JSON.parse(String(template.vars.R2_BUCKETS ?? "{}"))).filter(([, b]) => b !== GATEWAY_BINDING),
	);
	const services = scripts.map((service, i) => ({ binding: `WORKER_${i + 1}`, service }));
	/** @type {Record<string, unknown>} */
	const config = {
		name: template.name,
		main: template.main,
		compatibility_date: template.compatibility_date,
		compatibility_flags: template.compatibility_flags,
		send_metrics: false,
		// `fallthrough: false` is what a rule without it does; said, it silences wrangler's warning at every start.
		rules: template.rules.map((rule) => ({ fallthrough: false, ...rule })),
		migrations: template.migrations,
		r2_buckets: r2,
		services: [...(template.services ?? []), ...services],
		vars: {
			...template.vars,
			R2_BUCKETS: JSON.stringify({
				...Object.fromEntries(userBuckets.map((b) => [b.bucket_name, b.binding])),
				...served,
			}),
			WORKER_SCRIPTS: JSON.stringify(Object.fromEntries(services.map((s) => [s.service, s.binding]))),
			DEFAULT_ORIGIN_URL: origin ?? "",
		},
	};
	for (const field of BINDING_FIELDS) {
		const value = template[field];
		if (value !== undefined && !(Array.isArray(value) && value.length === 0)) config[field] = value;
	}
	return config;
}
