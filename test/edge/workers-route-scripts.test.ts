/**
 * The Workers route step called directly (src/edge/workers-route/route.ts) with a deployment's
 * WORKER_SCRIPTS that is not valid: the route's requests answer the Workers error 1022 naming the
 * var, never an exception out of the edge. (The test pool's own WORKER_SCRIPTS is valid, so this
 * is not reachable through the front door.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { rankedRoutes, workersRoute } from "../../src/edge/workers-route/route";
import type { EdgeConfig } from "../../src/zone/edge-config";

const url = new URL("http://app.example.com/a");
const config = { workersRoutes: [{ id: "0".repeat(32), pattern: "app.example.com/*", script: "echo" }] } as EdgeConfig;

describe("WORKER_SCRIPTS not valid", () => {
	it.each(["not json", '["echo"]', '{"echo": 1}'])("answers 1022 naming the var for %s", async (value) => {
		const answer = await workersRoute(
			new Request(url),
			url,
			url,
			{ ...env, WORKER_SCRIPTS: value },
			{
				routes: rankedRoutes(config),
				cf: () => ({}),
				cfRay: "0000000000000000-LCL",
				scheme: "http",
				rayId: "0000000000000000",
			},
		);
		expect(answer?.status).toBe(500);
		const text = (await answer?.text()) ?? "";
		expect(text).toContain("Error 1022");
		expect(text).toContain("WORKER_SCRIPTS is not valid");
	});

	it("runs the Worker when it is valid (the same call, the pool's WORKER_SCRIPTS)", async () => {
		const answer = await workersRoute(new Request(url), url, url, env, {
			routes: rankedRoutes(config),
			cf: () => ({}),
			cfRay: "0000000000000000-LCL",
			scheme: "http",
			rayId: "0000000000000000",
		});
		expect(answer?.headers.get("x-echo-worker")).toBe("echo");
	});
});
