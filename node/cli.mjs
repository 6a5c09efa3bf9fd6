#!/usr/bin/env node
/**
 * `npx edgezone`: edgezone in a user's project. Reads flags and `edgezone.jsonc`, generates the
 * wrangler config and secrets under `.edgezone/` (or `--persist-to`), runs `wrangler dev` on it
 * (with the user's Workers' configs in the same session: wrangler's multi-config dev), waits until
 * the API answers the generated token, and prints what a user needs next. Ctrl-C stops wrangler
 * and everything under it; the next start finds the same state and the same tokens.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { parseArgs } from "node:util";

const HELP = `Usage: npx edgezone [options]

Runs edgezone, a local emulator of a Cloudflare zone (bucket gateway, S3, API v4, dashboard),
with state in .edgezone/. Options also come from ./edgezone.jsonc; flags win.

  --port <n>          port to listen on (default 8787)
  --ip <address>      address to listen on (default 127.0.0.1)
  --persist-to <dir>  directory of config, secrets and state (default .edgezone)
  --bucket <name>     a bucket to serve; repeat for more (default edgezone-bucket)
  --worker <config>   a Worker's wrangler config, run behind the zone; repeat for more
  --origin <url>      default origin of proxied DNS records (DEFAULT_ORIGIN_URL)
  --config <file>     the options file (default edgezone.jsonc, when it exists)
  -h, --help          this text
  -- <args>           the rest goes to wrangler dev as is (e.g. -- --inspector-port 0)
`;

// wrangler supports Node 22 or later: its launcher (bin/wrangler.js) refuses an older Node, while
// wrangler itself runs on Node 20 and warns. edgezone starts wrangler itself (below), so a project
// on Node 20 runs it too, told why wrangler warns.
const major = Number(process.versions.node.split(".")[0]);
if (major < 20) {
	console.error(`edgezone needs Node.js 20 or later; this is ${process.version}.`);
	process.exit(1);
}
if (major < 22)
	console.warn(`edgezone: wrangler supports Node.js 22 or later and warns on ${process.version}; it runs.`);

// Everything after `--` is wrangler dev's.
const end = process.argv.indexOf("--", 2);
const ours = end === -1 ? process.argv.slice(2) : process.argv.slice(2, end);
const wranglerArgs = end === -1 ? [] : process.argv.slice(end + 1);
let values;
try {
	({ values } = parseArgs({
		args: ours,
		options: {
			port: { type: "string" },
			ip: { type: "string" },
			"persist-to": { type: "string" },
			bucket: { type: "string", multiple: true },
			worker: { type: "string", multiple: true },
			origin: { type: "string" },
			config: { type: "string" },
			help: { type: "boolean", short: "h" },
		},
	}));
} catch (error) {
	fail(error);
}
if (values.help) {
	process.stdout.write(HELP);
	process.exit(0);
}

const [{ parseJsonc, resolveOptions }, { loadOrCreateSecrets }, { TSCONFIG, WRANGLER, writeEdgezoneConfig }] =
	await Promise.all([import("./options.mjs"), import("./secrets.mjs"), import("./wrangler-config.mjs")]);

let options;
let configPath;
let workerConfigs;
let credentials;
try {
	const file = values.config ?? (existsSync("edgezone.jsonc") ? "edgezone.jsonc" : undefined);
	const fromFile = file === undefined ? undefined : parseJsonc(readFileSync(file, "utf8"));
	options = resolveOptions(
		fromFile,
		{
			port: values.port === undefined ? undefined : Number(values.port),
			ip: values.ip,
			persistTo: values["persist-to"],
			buckets: values.bucket,
			workers: values.worker,
			origin: values.origin,
		},
		file,
	);
	const dir = resolve(options.persistTo ?? ".edgezone");
	({ configPath, workerConfigs } = writeEdgezoneConfig(dir, options));
	credentials = loadOrCreateSecrets(dir);
	options.persistTo = dir;
} catch (error) {
	fail(error);
}

const port = options.port ?? 8787;
const ip = options.ip ?? "127.0.0.1";
// A port another server holds would answer the readiness check below for it: refuse it first.
await new Promise((resolve) => {
	const server = createServer();
	server.once("error", (error) =>
		fail(new Error(`${ip}:${port} is in use (${error.message}); choose another with --port`)),
	);
	server.listen(port, ip, () => server.close(resolve));
});
const child = spawn(
	process.execPath,
	[
		// As wrangler's launcher starts it, without its refusal of Node 20.
		"--no-warnings",
		WRANGLER,
		"dev",
		...[configPath, ...workerConfigs].flatMap((config) => ["--config", config]),
		"--ip",
		ip,
		"--port",
		String(port),
		"--persist-to",
		join(options.persistTo, "state"),
		"--tsconfig",
		TSCONFIG,
		"--show-interactive-dev-session=false",
		...wranglerArgs,
	],
	{
		// Its own process group (wrangler, the process it starts, workerd, esbuild), signalled as one below.
		detached: true,
		stdio: ["ignore", "inherit", "inherit"],
		// No download of the Request.cf object (offline; wrangler's placeholder is used), no metrics.
		env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false" },
	},
);
let exited = false;
/** Sends `signal` to wrangler's process group. @param {NodeJS.Signals} signal */
const signalGroup = (signal) => {
	try {
		if (child.pid !== undefined) process.kill(-child.pid, signal);
	} catch {
		// the group is gone
	}
};
child.once("exit", (code, signal) => {
	exited = true;
	// Nothing of the group outlives wrangler (a workerd it did not stop).
	signalGroup("SIGKILL");
	process.exit(code ?? (signal === "SIGINT" ? 130 : 1));
});
// Ctrl-C (or a signal sent to this process) is passed on to wrangler's group; wrangler stops
// workerd and exits, and this process with it. Whatever is left 10 s later is killed.
for (const signal of /** @type {const} */ (["SIGINT", "SIGTERM", "SIGHUP"])) {
	process.on(signal, () => {
		if (!exited) signalGroup(signal);
		setTimeout(() => signalGroup("SIGKILL"), 10_000).unref();
	});
}

const host = ip === "127.0.0.1" || ip === "0.0.0.0" || ip === "localhost" ? "localhost" : ip;
const url = `http://${host}:${port}`;
// Ready when the API answers the generated token: the Worker, its Durable Objects and its secrets all work.
for (;;) {
	try {
		const response = await fetch(`http://${ip === "0.0.0.0" ? "127.0.0.1" : ip}:${port}/client/v4/user/tokens/verify`, {
			headers: { authorization: `Bearer ${credentials.apiToken}` },
			signal: AbortSignal.timeout(2000),
		});
		await response.body?.cancel();
		if (response.ok) break;
	} catch {
		// not listening yet
	}
	await sleep(250);
}

const bucket = options.buckets[0];
const { apiToken, gatewayToken, accessKeyId, secretAccessKey } = credentials;
process.stdout.write(`
edgezone is ready on ${url}  (state in ${options.persistTo}; Ctrl-C to stop)

  Buckets      ${options.buckets.join(", ")}  (the gateway's default: ${bucket})
  Gateway      ${url}/<key>   Authorization: Bearer ${gatewayToken}
  API base URL ${url}/client/v4
  API token    ${apiToken}
  S3 endpoint  ${url}  (path-style, region auto)
  S3 key id    ${accessKeyId}
  S3 secret    ${secretAccessKey}
  Dashboard    http://dash.localhost:${port}  (sign in with the API token)

For the README's examples, in another shell:
  export B=${url} GATEWAY_TOKEN=${gatewayToken} API_TOKEN=${apiToken} S3_ACCESS_KEY_ID=${accessKeyId} S3_SECRET_ACCESS_KEY=${secretAccessKey}
Try:
  curl -X PUT --data-binary 'hello' -H 'Authorization: Bearer ${gatewayToken}' ${url}/hello.txt
  curl -H 'Authorization: Bearer ${apiToken}' ${url}/client/v4/zones

`);

/** Prints an error's message and exits 1. @param {unknown} error @returns {never} */
function fail(error) {
	console.error(`edgezone: ${error instanceof Error ? error.message : String(error)}`);
	process.exit(1);
}
