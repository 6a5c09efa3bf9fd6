/**
 * The routes API with a deployment's WORKER_SCRIPTS that is not valid (the test pool's own is):
 * a route naming a Worker answers a 500 that names the var and stores nothing; a route without
 * one is written, since no Worker is looked up. Plain requests, not the SDK: a file that loads the
 * Worker's module (`with-env.ts`) stays small.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { call, freshZone } from "./http";
import { callWithEnv } from "./with-env";

const NOT_VALID = { WORKER_SCRIPTS: '["echo"]' };

describe("workers routes with a WORKER_SCRIPTS that is not valid", () => {
	it("answers a route naming a Worker with a 500 naming the var, storing nothing; writes one without", async () => {
		const zone_id = await freshZone();
		const zone = ((await call("GET", `/zones/${zone_id}`)).body.result as { name: string }).name;
		const path = `/zones/${zone_id}/workers/routes`;
		const answer = await callWithEnv(NOT_VALID, "POST", path, { body: { pattern: `${zone}/*`, script: "echo" } });
		expect(answer.status).toBe(500);
		expect(answer.body.errors?.[0]).toMatchObject({
			code: 10001,
			message: expect.stringContaining("WORKER_SCRIPTS is not valid"),
		});
		expect((await zoneState(env, zone_id).edgeConfig()).workersRoutes).toStrictEqual([]);
		const off = await callWithEnv(NOT_VALID, "POST", path, { body: { pattern: `${zone}/*` } });
		expect(off.status).toBe(200);
		expect((await zoneState(env, zone_id).edgeConfig()).workersRoutes).toStrictEqual([off.body.result]);
	});
});
