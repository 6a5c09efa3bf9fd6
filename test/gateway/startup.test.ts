import { afterEach, describe, expect, it, vi } from "vitest";
import { withVars } from "./helpers";

describe("start-up check of the secrets", () => {
	afterEach(() => vi.restoreAllMocks());

	// A Worker has no start-up hook: the first request of an isolate is its start-up, and the
	// missing secrets are logged then, once, whatever the requests that follow.
	it("logs each missing secret once per isolate", async () => {
		const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
		for (const path of ["/a", "/b", "/client/v4/zones"]) {
			const response = await withVars({ GATEWAY_TOKENS: "", API_CREDENTIALS: undefined }, path);
			await response.body?.cancel();
		}
		expect(warn.mock.calls.map(([message]) => message)).toEqual([
			"edgezone: GATEWAY_TOKENS is not configured; run npm run dev or see .dev.vars.example (every request needing it is refused until it is set).",
			"edgezone: API_CREDENTIALS is not configured; run npm run dev or see .dev.vars.example (every request needing it is refused until it is set).",
		]);
	});
});
