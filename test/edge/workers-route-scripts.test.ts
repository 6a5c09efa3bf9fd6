/**
 * The Workers route step called directly (src/edge/workers-route/route.ts) with a deployment's
 * WORKER_SCRIPTS that is not valid: the route's requests answer the Workers error 1022 naming the
 * var, never an exception out of the edge. (The test pool's own WORKER_SCRIPTS is valid, so this
 * is not reachable through the front door.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { workersRoute } from "../../src/edge/workers-route/route";

const url = new URL("http://app.example.com/a");

describe("WORKER_SCRIPTS not valid", () => {
	it.each(["not json", '["echo"]', '{"echo": 1}'])("answers 1022 naming the var for %s", async (value) => {
		const { response } = await workersRoute(
			new Request(url),
			url,
			{ ...env, WORKER_SCRIPTS: value },
			{ script: "echo", geo: {}, cfRay: "0000000000000000-LCL", scheme: "http", rayId: "0000000000000000" },
		);
		expect(response.status).toBe(500);
		const text = await response.text();
		expect(text).toContain("Error 1022");
		expect(text).toContain("WORKER_SCRIPTS is not valid");
	});

	it("runs the Worker when it is valid (the same call, the pool's WORKER_SCRIPTS)", async () => {
		const { response } = await workersRoute(new Request(url), url, env, {
			script: "echo",
			geo: {},
			cfRay: "0000000000000000-LCL",
			scheme: "http",
			rayId: "0000000000000000",
		});
		expect(response.headers.get("x-echo-worker")).toBe("echo");
	});
});
