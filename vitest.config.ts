import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { API_CREDENTIALS } from "./test/api/credentials.ts";

/** Tokens the tests authenticate with; `npm run dev` uses .dev.vars instead. */
export const TEST_BINDINGS = {
	GATEWAY_TOKENS: JSON.stringify({ "test-rw": "read-write", "test-ro": "read-only" }),
	API_CREDENTIALS: JSON.stringify(API_CREDENTIALS),
};

export default defineConfig({
	plugins: [
		cloudflareTest({
			wrangler: { configPath: "./wrangler.toml" },
			miniflare: { bindings: TEST_BINDINGS },
		}),
	],
});
