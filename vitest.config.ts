import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

/** Tokens the tests authenticate with; `npm run dev` uses .dev.vars instead. */
export const TEST_BINDINGS = {
	GATEWAY_TOKENS: JSON.stringify({ "test-rw": "read-write", "test-ro": "read-only" }),
};

export default defineConfig({
	plugins: [
		cloudflareTest({
			wrangler: { configPath: "./wrangler.toml" },
			miniflare: { bindings: TEST_BINDINGS },
		}),
	],
});
