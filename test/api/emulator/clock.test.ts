/**
 * The emulator's clock (`/zones/{zone_id}/emulator/clock`, zone/clock.ts): real time until set,
 * then running on from the moment set or frozen there, per zone, kept in the zone's storage.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../../src/common/durable-objects";
import { READ_TOKEN } from "../credentials";
import { call, freshZone } from "../http";

interface Reading {
	now: string;
	real: boolean;
	frozen: boolean;
	offset_seconds: number;
}

const clockOf = async (zone: string) => (await call("GET", `/zones/${zone}/emulator/clock`)).body.result as Reading;
const setClock = (zone: string, body: unknown) => call("PUT", `/zones/${zone}/emulator/clock`, body);

describe("the emulator clock", () => {
	it("is real time in a new zone", async () => {
		const zone = await freshZone();
		const before = Date.now();
		const reading = await clockOf(zone);
		expect(reading).toMatchObject({ real: true, frozen: false, offset_seconds: 0 });
		expect(Date.parse(reading.now)).toBeGreaterThanOrEqual(before);
		expect(Date.parse(reading.now)).toBeLessThanOrEqual(Date.now());
	});

	it("stands still where it is frozen, and moves forward when advanced", async () => {
		const zone = await freshZone();
		const set = await setClock(zone, { now: "2024-09-30T18:14:03Z", frozen: true });
		expect(set.status).toBe(200);
		expect(set.body.result).toMatchObject({ now: "2024-09-30T18:14:03.000Z", real: false, frozen: true });
		await scheduler.wait(5);
		expect((await clockOf(zone)).now).toBe("2024-09-30T18:14:03.000Z");
		const advanced = await call("POST", `/zones/${zone}/emulator/clock/advance`, { seconds: 86_400 });
		expect(advanced.body.result).toMatchObject({ now: "2024-10-01T18:14:03.000Z", frozen: true });
	});

	it("runs on at real speed from the moment set, and is real time again after null", async () => {
		const zone = await freshZone();
		const set = (await setClock(zone, { now: "2024-06-01T00:00:00+02:00" })).body.result as Reading;
		expect(set.frozen).toBe(false);
		const started = Date.parse(set.now);
		expect(started).toBeGreaterThanOrEqual(Date.parse("2024-05-31T22:00:00Z"));
		expect(started).toBeLessThan(Date.parse("2024-05-31T22:00:01Z"));
		await scheduler.wait(20);
		expect(Date.parse((await clockOf(zone)).now)).toBeGreaterThan(started);
		expect((await setClock(zone, { now: null })).body.result).toMatchObject({ real: true, offset_seconds: 0 });
	});

	it("belongs to one zone, and the zone reads it", async () => {
		const [a, b] = [await freshZone(), await freshZone()];
		await setClock(a, { now: "2024-01-01T00:00:00Z", frozen: true });
		expect((await clockOf(b)).real).toBe(true);
		const version = (await zoneState(env, a).edgeConfig()).version;
		await setClock(a, { now: "2024-01-02T00:00:00Z", frozen: true });
		// A clock change may change what the edge serves, so it moves the config version.
		expect((await zoneState(env, a).edgeConfig()).version).toBe(version + 1);
	});

	it("refuses bad bodies with 9400 naming the field, changing nothing", async () => {
		const zone = await freshZone();
		for (const [body, pointer] of [
			[{ now: "yesterday" }, "/now"],
			[{ now: "2024-06-01" }, "/now"],
			[{ now: "2024-06-01T00:00:00Z", frozen: "yes" }, "/frozen"],
			[{ now: "1969-12-31T23:59:59Z" }, "/now"],
			[{ now: "2024-06-01T00:00:00Z", speed: 2 }, ""],
			[{}, "/now"],
		] as const) {
			const res = await setClock(zone, body);
			expect(res.status, JSON.stringify(body)).toBe(400);
			expect(res.body.errors?.[0]).toMatchObject({ code: 9400 });
			if (pointer !== "") expect(res.body.errors?.[0]?.source?.pointer).toBe(pointer);
		}
		for (const seconds of [0, -5, 1.5, "60"]) {
			const res = await call("POST", `/zones/${zone}/emulator/clock/advance`, { seconds });
			expect(res.status, String(seconds)).toBe(400);
		}
		expect((await clockOf(zone)).real).toBe(true);
	});

	it("is authenticated and permission-checked like the API", async () => {
		const zone = await freshZone();
		const none = await call("GET", `/zones/${zone}/emulator/clock`, undefined, {});
		expect(none.status).toBe(400);
		expect(none.body.errors?.[0]?.code).toBe(9106);
		const readOnly = { Authorization: `Bearer ${READ_TOKEN}`, "Content-Type": "application/json" };
		expect((await call("GET", `/zones/${zone}/emulator/clock`, undefined, readOnly)).status).toBe(200);
		const write = await call("PUT", `/zones/${zone}/emulator/clock`, { now: null }, readOnly);
		expect(write.status).toBe(403);
		expect(write.body.errors?.[0]?.code).toBe(10000);
	});
});
