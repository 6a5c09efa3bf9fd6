/**
 * Workers routes through the official `cloudflare` SDK, unchanged (`client.workers.routes.create/
 * list/get/update/delete`), with the API's errors and the "Workers Routes" permission. The
 * account's Workers are those the test pool's `WORKER_SCRIPTS` lists (vitest.config.ts): `echo`,
 * bound, and `unbound`, listed without a binding.
 */
import { env } from "cloudflare:workers";
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { DNS_READ_TOKEN, ROUTES_READ_TOKEN } from "./credentials";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

/** The status and first error code of what `request` throws (an SDK APIError). */
async function refusal(request: Promise<unknown>): Promise<{ status: number; code: number; message: string }> {
	const error = await request.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(Cloudflare.APIError);
	const api = error as InstanceType<typeof Cloudflare.APIError>;
	const first = (api.errors as { code: number; message: string }[])[0];
	return { status: api.status ?? 0, code: first?.code ?? 0, message: first?.message ?? "" };
}

describe("client.workers.routes", () => {
	it("creates, lists, gets, updates and deletes routes", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		const app = await cf.workers.routes.create({ zone_id, pattern: `app.${zone}/*`, script: "echo" });
		expect(app).toStrictEqual({
			id: expect.stringMatching(/^[0-9a-f]{32}$/),
			pattern: `app.${zone}/*`,
			script: "echo",
		});
		// No script: Workers are disabled where it matches; the answer has no `script`.
		const off = await cf.workers.routes.create({ zone_id, pattern: `app.${zone}/static/*` });
		expect(off).toStrictEqual({ id: expect.any(String), pattern: `app.${zone}/static/*` });

		const listed = [];
		for await (const route of cf.workers.routes.list({ zone_id })) listed.push(route);
		expect(listed).toStrictEqual([app, off]);
		expect(await cf.workers.routes.get(app.id, { zone_id })).toStrictEqual(app);

		// PUT replaces both fields: without `script` the route becomes a no-script route.
		const moved = await cf.workers.routes.update(app.id, { zone_id, pattern: `*.${zone}/api/*` });
		expect(moved).toStrictEqual({ id: app.id, pattern: `*.${zone}/api/*` });
		const back = await cf.workers.routes.update(app.id, { zone_id, pattern: `*.${zone}/api/*`, script: "unbound" });
		expect(back).toStrictEqual({ id: app.id, pattern: `*.${zone}/api/*`, script: "unbound" });

		expect(await cf.workers.routes.delete(off.id, { zone_id })).toStrictEqual({ id: off.id });
		expect((await cf.workers.routes.list({ zone_id })).result).toStrictEqual([back]);
		expect(await refusal(cf.workers.routes.get(off.id, { zone_id }))).toMatchObject({ status: 404, code: 10007 });
		expect(await refusal(cf.workers.routes.delete(off.id, { zone_id }))).toMatchObject({ status: 404, code: 10007 });
	});

	it("refuses a pattern outside the zone, a bad pattern, a duplicate and a bad script name", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: "example.org/*" }))).toStrictEqual({
			status: 400,
			code: 10022,
			message: "Route pattern must include zone name: example.org/*",
		});
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/*.jpg` }))).toMatchObject({
			status: 400,
			code: 10021,
		});
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/?a=*` }))).toMatchObject({
			status: 400,
			code: 10021,
		});
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/*`, script: "My App" }))).toMatchObject({
			status: 400,
			code: 10021,
		});

		const first = await cf.workers.routes.create({ zone_id, pattern: `${zone}/*`, script: "echo" });
		// The host without case: the same route.
		expect(
			await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone.toUpperCase()}/*`, script: "unbound" })),
		).toStrictEqual({ status: 409, code: 10020, message: "workers.api.error.duplicate_route" });
		const second = await cf.workers.routes.create({ zone_id, pattern: `${zone}/a/*`, script: "unbound" });
		expect(
			await refusal(cf.workers.routes.update(second.id, { zone_id, pattern: `${zone}/*`, script: "unbound" })),
		).toMatchObject({ status: 409, code: 10020 });
		// A route may keep its own pattern.
		expect(await cf.workers.routes.update(first.id, { zone_id, pattern: `${zone}/*` })).toStrictEqual({
			id: first.id,
			pattern: `${zone}/*`,
		});
		// Nothing refused was stored.
		expect((await cf.workers.routes.list({ zone_id })).result.map((r) => r.pattern)).toStrictEqual([
			`${zone}/*`,
			`${zone}/a/*`,
		]);
	});

	it("refuses a route to a Worker the account does not have (10019), on create and on PUT, storing nothing", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		const missing = {
			status: 400,
			code: 10019,
			message:
				"Cannot configure a route for a Worker which does not exist. Please ensure this Worker exists and try again.",
		};
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/*`, script: "my-app" }))).toStrictEqual(
			missing,
		);
		const route = await cf.workers.routes.create({ zone_id, pattern: `${zone}/*`, script: "echo" });
		expect(
			await refusal(cf.workers.routes.update(route.id, { zone_id, pattern: `${zone}/b/*`, script: "my-app" })),
		).toStrictEqual(missing);
		// A name is the account's exactly: not another case of it, not a prefix.
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/e/*`, script: "ech" }))).toMatchObject({
			code: 10019,
		});
		expect((await cf.workers.routes.list({ zone_id })).result).toStrictEqual([route]);
		expect((await zoneState(env, zone_id).edgeConfig()).version).toBe(1);
	});

	it("refuses a route past the zone's 1,000 (Cloudflare's limit), storing nothing", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		// Straight to the Zone, 100 at a time: the API's path is the same store, tested above.
		const state = zoneState(env, zone_id);
		for (let batch = 0; batch < 10; batch++) {
			await Promise.all(
				Array.from({ length: 100 }, (_, i) => state.createWorkersRoute({ pattern: `${zone}/${batch}/${i}` }, zone)),
			);
		}
		expect(await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/last`, script: "echo" }))).toStrictEqual(
			{
				status: 400,
				code: 10021,
				message: "The zone already holds 1000 Workers routes, Cloudflare's limit.",
			},
		);
		expect((await cf.workers.routes.list({ zone_id })).result).toHaveLength(1000);
	});

	it("asks Workers Routes Read to read and Edit to write", async () => {
		const zone_id = await freshZone();
		const reader = sdkClient(ROUTES_READ_TOKEN);
		expect((await reader.workers.routes.list({ zone_id })).result).toStrictEqual([]);
		expect(await refusal(reader.workers.routes.create({ zone_id, pattern: "x/*" }))).toMatchObject({
			status: 403,
			code: 10000,
		});
		expect(await refusal(sdkClient(DNS_READ_TOKEN).workers.routes.list({ zone_id }))).toMatchObject({
			status: 403,
			code: 10000,
		});
	});

	it("bumps the zone's configuration version with each write, not on a read or a refused one, and the edge's view holds the routes", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		const config = () => zoneState(env, zone_id).edgeConfig();
		expect((await config()).version).toBe(0);
		const route = await cf.workers.routes.create({ zone_id, pattern: `${zone}/*`, script: "echo" });
		await cf.workers.routes.list({ zone_id });
		await cf.workers.routes.get(route.id, { zone_id });
		await refusal(cf.workers.routes.create({ zone_id, pattern: `${zone}/*` }));
		expect((await config()).version).toBe(1);
		await cf.workers.routes.update(route.id, { zone_id, pattern: `${zone}/b/*`, script: "unbound" });
		expect(await config()).toMatchObject({
			version: 2,
			workersRoutes: [{ id: route.id, pattern: `${zone}/b/*`, script: "unbound" }],
		});
		await cf.workers.routes.delete(route.id, { zone_id });
		expect(await config()).toMatchObject({ version: 3, workersRoutes: [] });
	});
});
