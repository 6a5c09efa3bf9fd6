/** How long the isolate holds a batch of entries before handing it to the zone on its own. */
import { describe, expect, it } from "vitest";
import { CONFIG_CHECK_INTERVAL_MS } from "../../src/edge/config-checks";
import { HOLD_MAX_MS, HOLD_MIN_MS, holdMs } from "../../src/edge/log-buffer";

describe("holdMs", () => {
	it("is a sixth of the shortest interval of the jobs that read the entries", () => {
		expect(holdMs([18_000])).toBe(3_000);
		expect(holdMs([300_000, 24_000])).toBe(4_000);
	});

	it("stays within HOLD_MIN_MS and HOLD_MAX_MS", () => {
		// Longer than the config check's interval, so a zone with traffic hands entries over on its check.
		expect(HOLD_MIN_MS).toBe(2 * CONFIG_CHECK_INTERVAL_MS);
		expect(HOLD_MAX_MS).toBe(5_000);
		// npm run dev caps intervals at 2 s; Cloudflare's default interval is 30 s.
		expect(holdMs([2_000])).toBe(HOLD_MIN_MS);
		expect(holdMs([30_000])).toBe(HOLD_MAX_MS);
	});

	it("is the longest when no job reads them (Logpull only: its reads take the isolate's entries first)", () => {
		expect(holdMs([])).toBe(HOLD_MAX_MS);
	});
});
