/**
 * `import { startEdgezone } from "edgezone"`: edgezone for a Node test, on a free port with fresh
 * state, started with wrangler's documented programmatic API (`unstable_startWorker`), never by
 * reading its console. Types: index.d.ts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unstable_startWorker } from "wrangler";
import { resolveOptions } from "./options.mjs";
import { loadOrCreateSecrets } from "./secrets.mjs";
import { TSCONFIG, writeEdgezoneConfig } from "./wrangler-config.mjs";

/**
 * Starts edgezone (see index.d.ts for the options and the answer).
 * @param {import("./index.d.ts").StartEdgezoneOptions} [options]
 * @returns {Promise<import("./index.d.ts").Edgezone>}
 */
export async function startEdgezone(options = {}) {
	const { buckets, origin } = resolveOptions(undefined, {
		buckets: options.buckets,
		origin: options.origin,
	});
	const temporary = options.persistTo === undefined;
	const dir = options.persistTo ?? mkdtempSync(join(tmpdir(), "edgezone-"));
	try {
		const { configPath } = writeEdgezoneConfig(dir, { buckets, workers: [], origin });
		const credentials = loadOrCreateSecrets(dir);
		const port = options.port ?? (await freePort());
		const worker = await unstable_startWorker({
			config: configPath,
			build: { tsconfig: TSCONFIG },
			dev: {
				server: { hostname: "127.0.0.1", port },
				persist: join(dir, "state"),
				inspector: false,
				watch: false,
				logLevel: options.logLevel ?? "warn",
			},
		});
		await worker.ready;
		const url = new URL(await worker.url).origin;
		return {
			url,
			apiBaseUrl: `${url}/client/v4`,
			apiToken: credentials.apiToken,
			gatewayToken: credentials.gatewayToken,
			s3: {
				endpoint: url,
				region: "auto",
				accessKeyId: credentials.accessKeyId,
				secretAccessKey: credentials.secretAccessKey,
			},
			buckets,
			async stop() {
				await worker.dispose();
				if (temporary) rmSync(dir, { recursive: true, force: true });
			},
		};
	} catch (error) {
		if (temporary) rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}

/** A TCP port free on 127.0.0.1 a moment ago. @returns {Promise<number>} */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address !== null ? address.port : 0;
			server.close(() => resolve(port));
		});
	});
}

export { edgezoneWorker } from "./worker.mjs";
