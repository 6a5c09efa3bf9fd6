import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { API_CREDENTIALS } from "./test/api/credentials.ts";
import { dropExpectedRuntimeLines } from "./test/expected-runtime-lines.ts";

/** Tokens the tests authenticate with; `npm run dev` uses .dev.vars instead. */
export const TEST_BINDINGS = {
	GATEWAY_TOKENS: JSON.stringify({ "test-rw": "read-write", "test-ro": "read-only" }),
	API_CREDENTIALS: JSON.stringify(API_CREDENTIALS),
	// As `npm run dev`'s .dev.vars: requests may set their location (src/edge/geo.ts).
	TRUST_GEO_HEADERS: "true",
	// A slow origin (test/edge/origin/origin-server.ts, 4 s) times out in 2 s, not Cloudflare's 19: an
	// ordinary answer on a loaded machine (a second and more in CI once) must not.
	ORIGIN_CONNECT_TIMEOUT_SECONDS: "2",
};

/** Node's environment: this file runs in Node, while the project's types are the Worker's. */
declare const process: {
	env: Record<string, string | undefined>;
	stdout: { write(chunk: unknown, ...rest: unknown[]): boolean };
	stderr: { write(chunk: unknown, ...rest: unknown[]): boolean };
};

// wrangler.toml declares these secrets as required, and the plugin reads the config as
// `wrangler dev` does: without them in the environment it warns once per test file. The tests'
// values are given here so that check passes for real; `bindings` below still decides what the
// Worker sees, whatever a developer's .dev.vars holds.
Object.assign(process.env, TEST_BINDINGS);
// Wrangler's informational lines ("Using secrets defined in process.env", once per file) are
// left out; its warnings and errors still print.
process.env.WRANGLER_LOG ??= "warn";
// workerd's lines for what the tests do on purpose (a refused body left unread, a cancelled
// object body, the SDK reading ndjson as text) are dropped, so an unexpected one stands out.
dropExpectedRuntimeLines(process.stdout);
dropExpectedRuntimeLines(process.stderr);

// Three projects, all run by `npm test`: "workers", every *.test.ts inside workerd; "e2e", the
// dashboard's browser tests in Node, driving Chromium against a wrangler dev the global setup
// starts (test/dash/e2e/global-setup.ts; skipped loudly without Chromium, failing in CI); "node",
// the Worker checked from outside as a user reaches it (test/node/*.node.ts: real files through the
// gateway, the API's example requests, log delivery, RemoteBucket and the examples from Node, every
// shell block of the README and its docs pages), against a wrangler dev of its own started the
// same way (test/node/wrangler-dev.ts).
export default defineConfig({
	test: {
		projects: [
			{
				plugins: [
					cloudflareTest({
						wrangler: { configPath: "./wrangler.toml" },
						miniflare: {
							// The Workers routes' tests run the echo fixture behind a route, bound as ECHO
							// (src/edge/workers-route/scripts.ts); "unbound" names a binding that is absent.
							bindings: { ...TEST_BINDINGS, WORKER_SCRIPTS: JSON.stringify({ echo: "ECHO", unbound: "NOT_BOUND" }) },
							serviceBindings: { ECHO: "echo" },
							workers: [
								{
									name: "echo",
									modules: true,
									scriptPath: "./test/fixtures/workers/echo/src/index.js",
									compatibilityDate: "2026-10-23",
								},
							],
						},
					}),
				],
				// 20 s, not vitest's 5 s: on a shared 2-core machine the first test of a file (its
				// isolate's first requests) took 5 s under load once and 1.8 s idle. Tests assert
				// behaviour; speed is measured by the benchmarks under scripts/.
				test: {
					name: "workers",
					include: ["test/**/*.test.ts"],
					testTimeout: 20_000,
					// The origins behind the proxied records of test/edge/origin/ (Node HTTP servers).
					globalSetup: ["test/edge/origin/origin-server.ts"],
				},
			},
			{
				test: {
					name: "e2e",
					include: ["test/dash/e2e/**/*.e2e.ts"],
					environment: "node",
					globalSetup: ["test/dash/e2e/global-setup.ts"],
					// One wrangler dev for all files; files in turn, so the zone's state is each file's story.
					fileParallelism: false,
					testTimeout: 60_000,
					hookTimeout: 60_000,
				},
			},
			{
				test: {
					name: "node",
					include: ["test/node/**/*.node.ts"],
					environment: "node",
					globalSetup: ["test/node/wrangler-dev.ts"],
					// One wrangler dev for all files, files in turn: each file writes under keys and zones of
					// its own, and the blocks of the README and its docs pages run as one story.
					fileParallelism: false,
					// 80 MiB uploaded three ways, and wrangler dev restarted, on a shared 2-core machine.
					testTimeout: 180_000,
					hookTimeout: 180_000,
				},
			},
		],
	},
});
