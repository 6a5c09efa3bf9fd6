/**
 * Global setup of the browser tests (vitest project "e2e"): finds Chromium, starts `wrangler dev`
 * as the Node tests do (test/node/wrangler-dev.ts) and hands the tests its address. The Worker's
 * secrets are the unit tests' (`TEST_BINDINGS`, put in process.env by vitest.config.ts), written to
 * an env file passed with `--env-file`, with the account's Workers of `workers.ts`. Without Chromium: in CI (`CI=true`) a failure saying how to
 * install it; elsewhere the browser tests are skipped, loudly.
 */
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { removeOnExit } from "../../../scripts/lib/wrangler-dev.mjs";
import { startDev } from "../../node/wrangler-dev";
import { E2E_WORKERS } from "./workers";

/** What the browser tests are given (`inject("e2e")`). */
export interface E2eContext {
	/** Chromium's executable, or null when the tests are skipped. */
	chromium: string | null;
	/** The dashboard: `http://dash.localhost:<port>`. */
	dashUrl: string;
	/** The same wrangler dev by loopback address (API, gateway): `http://127.0.0.1:<port>`. */
	baseUrl: string;
	/** A read-write gateway token of GATEWAY_TOKENS. */
	gatewayToken: string;
}

declare module "vitest" {
	export interface ProvidedContext {
		e2e: E2eContext;
	}
}

const INSTALL = "apt-get install -y chromium";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
	const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
	if (!existsSync(chromium)) {
		const why = `Chromium not found at ${chromium}: the dashboard's browser tests (test/dash/e2e) need it. Install it with \`${INSTALL}\` (Debian), or set CHROMIUM_PATH.`;
		if (process.env.CI === "true") throw new Error(why);
		const bar = "!".repeat(100);
		console.warn(`\n${bar}\n!! SKIPPING THE BROWSER TESTS. ${why}\n${bar}\n`);
		project.provide("e2e", { chromium: null, dashUrl: "", baseUrl: "", gatewayToken: "" });
		return undefined;
	}

	const { GATEWAY_TOKENS, API_CREDENTIALS } = process.env;
	if (GATEWAY_TOKENS === undefined || API_CREDENTIALS === undefined)
		throw new Error("GATEWAY_TOKENS and API_CREDENTIALS are unset: run the browser tests through vitest.config.ts");
	const gatewayToken = Object.entries(JSON.parse(GATEWAY_TOKENS) as Record<string, string>).find(
		([, access]) => access === "read-write",
	)?.[0];
	if (gatewayToken === undefined) throw new Error("GATEWAY_TOKENS has no read-write token");

	const dir = mkdtempSync(join(tmpdir(), "edgezone-e2e-"));
	removeOnExit(dir);
	const envFile = join(dir, "e2e.env");
	writeFileSync(
		envFile,
		`GATEWAY_TOKENS='${GATEWAY_TOKENS}'\nAPI_CREDENTIALS='${API_CREDENTIALS}'\nWORKER_SCRIPTS='${JSON.stringify(E2E_WORKERS)}'\n`,
	);
	const dev = await startDev(envFile, { persistTo: join(dir, "state") });
	project.provide("e2e", {
		chromium,
		dashUrl: `http://dash.localhost:${dev.port}`,
		baseUrl: dev.url,
		gatewayToken,
	});
	return async () => {
		await dev.stop();
	};
}
