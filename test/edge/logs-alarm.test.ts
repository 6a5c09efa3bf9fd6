/**
 * The zone's one alarm, shared by log-push delivery (each job's interval and back-off) and Logpull
 * retention (the trim when entries leave the window): it is always set to the earliest of what is
 * due, whichever was set first. And a job gets exactly the entries logged after it started.
 *
 * Most tests run the Zone on its storage with the jobs' intervals uncapped (wrangler.toml caps
 * them at 2 s): a job then waits its own 30 s or more, so no alarm falls due while a test runs,
 * and the test runs the alarm itself after moving entries' receipt back in time.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import type { LogEntry } from "../../src/logs/entry";
import { DEFAULT_INTERVAL_S } from "../../src/logs/job-limits";
import { BACKOFF_MS } from "../../src/zone/delivery";
import { retentionMs } from "../../src/zone/retention";
import { Zone } from "../../src/zone/zone";
import { call } from "../api/http";
import { edgeRequest, flush, records, uniquePath, zoneWithHost } from "./logs-helpers";

/** The Worker's env without the cap on job intervals. */
const uncapped = { ...env, LOGPUSH_MIN_INTERVAL_SECONDS: "0" } as Env;
const INTERVAL = DEFAULT_INTERVAL_S * 1000;
const WINDOW = retentionMs(env);

/** Runs `op` on a Zone over `zone_id`'s storage, with uncapped intervals. */
function onZone<T>(zone_id: string, op: (zone: Zone, state: DurableObjectState) => Promise<T> | T): Promise<T> {
	return runInDurableObject(zoneState(env, zone_id), (_zone: Zone, state) => op(new Zone(state, uncapped), state));
}

/** When the zone's alarm is set (ms), null when it is not. */
const alarmOf = (zone_id: string) => onZone(zone_id, (_zone, state) => state.storage.getAlarm());

/** Appends one entry received at `receivedAt` (ms), logged now; answers its receipt and logged times as stored. */
function append(
	zone_id: string,
	rayId: string,
	receivedAt = Date.now(),
): Promise<{ received: number; logged: number }> {
	const entry = { RayID: rayId, EdgeStartTimestamp: receivedAt, EdgeResponseStatus: 200 } as LogEntry;
	return onZone(zone_id, async (zone, state) => {
		await zone.appendLog([entry]);
		const row = state.storage.sql
			.exec<{ received_at: number; stored_at: number }>(
				"SELECT received_at, stored_at FROM edge_log WHERE ray_id = ?",
				rayId,
			)
			.one();
		return { received: row.received_at, logged: row.stored_at };
	});
}

/** Moves an entry's receipt `ms` back in time, as if it had waited that long; the alarm is left as it is. */
function age(zone_id: string, rayId: string, ms: number): Promise<void> {
	return onZone(zone_id, (_zone, state) => {
		state.storage.sql.exec("UPDATE edge_log SET received_at = received_at - ? WHERE ray_id = ?", ms, rayId);
	});
}

/** Runs the zone's alarm now, as the runtime would when it falls due. */
const runAlarm = (zone_id: string) => onZone(zone_id, (zone) => zone.alarm());

async function createJob(zone_id: string, body: Record<string, unknown> = {}): Promise<{ id: number; path: string }> {
	const path = uniquePath(zone_id, "alarm");
	const res = await call("POST", `/zones/${zone_id}/logpush/jobs`, {
		destination_conf: `r2://edgezone-logs/${path}`,
		enabled: true,
		output_options: { field_names: ["RayID"] },
		...body,
	});
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return { id: (res.body.result as { id: number }).id, path };
}

async function retention(zone_id: string, flag: boolean): Promise<void> {
	const res = await call("POST", `/zones/${zone_id}/logs/control/retention/flag`, { flag });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** The RayIDs a job's delivered objects hold, in the order written. */
async function deliveredTo(path: string): Promise<unknown[]> {
	const listed = await env.LOGS.list({ prefix: `${path}/` });
	return (await records(listed.objects.map((o) => o.key))).map((r) => r.RayID);
}

const ray = (label: string) => `${label}${crypto.randomUUID().replaceAll("-", "")}`.slice(0, 16);

describe("the alarm is set to the earliest of everything due", () => {
	it("retention on, then a job: the job's entries wake the zone at the job's interval, not at the retention trim", async () => {
		const { zone_id } = await zoneWithHost("ret-job");
		await retention(zone_id, true);
		const kept = await append(zone_id, ray("a"));
		expect(await alarmOf(zone_id)).toBe(kept.logged + WINDOW);
		const { path } = await createJob(zone_id);
		const entry = ray("b");
		const { received } = await append(zone_id, entry);
		expect(await alarmOf(zone_id)).toBe(received + INTERVAL);
		await age(zone_id, entry, INTERVAL);
		await runAlarm(zone_id);
		expect(await deliveredTo(path)).toStrictEqual([entry]);
		// Delivered: what is left due is the oldest retained entry leaving the window.
		expect(await alarmOf(zone_id)).toBe(kept.logged + WINDOW);
	});

	it("a job, then retention on: after a delivery, new entries still wake the zone at the job's interval", async () => {
		const { zone_id } = await zoneWithHost("job-ret");
		const { path } = await createJob(zone_id);
		await retention(zone_id, true);
		const first = ray("c");
		const kept = await append(zone_id, first);
		await age(zone_id, first, INTERVAL);
		await runAlarm(zone_id);
		expect(await deliveredTo(path)).toStrictEqual([first]);
		expect(await alarmOf(zone_id)).toBe(kept.logged + WINDOW);
		const second = ray("d");
		const { received } = await append(zone_id, second);
		expect(await alarmOf(zone_id)).toBe(received + INTERVAL);
	});

	it("two jobs with different intervals: the zone wakes for the sooner, then for the other", async () => {
		const { zone_id } = await zoneWithHost("two-jobs");
		const slow = await createJob(zone_id, { max_upload_interval_seconds: 120 });
		const fast = await createJob(zone_id, { max_upload_interval_seconds: 30 });
		const entry = ray("e");
		const { received } = await append(zone_id, entry);
		expect(await alarmOf(zone_id)).toBe(received + 30_000);
		await age(zone_id, entry, 40_000);
		await runAlarm(zone_id);
		expect(await deliveredTo(fast.path)).toStrictEqual([entry]);
		expect(await deliveredTo(slow.path)).toStrictEqual([]);
		expect(await alarmOf(zone_id)).toBe(received - 40_000 + 120_000);
	});

	it("a failing destination with retention on: the zone waits for the retry, then the mended job delivers at its interval", async () => {
		const { zone_id } = await zoneWithHost("backoff");
		await retention(zone_id, true);
		// R2 refuses keys over 1,024 bytes: every put of this job throws.
		const job = await createJob(zone_id, { destination_conf: `r2://edgezone-logs/${zone_id}/${"d".repeat(1100)}` });
		const first = ray("f");
		const kept = await append(zone_id, first);
		// Six failures in a row: the next try waits 32 s, well past this test.
		for (let i = 0; i < 6; i++) expect((await onZone(zone_id, (zone) => zone.flushLogs()))[0]?.error).toBeDefined();
		const { alarm, retryAt } = await onZone(zone_id, async (zone, state) => ({
			alarm: await state.storage.getAlarm(),
			retryAt: Date.parse(zone.logStatus().jobs[0]?.retry_at ?? ""),
		}));
		expect(retryAt - Date.now()).toBeGreaterThan(BACKOFF_MS * 2 ** 4);
		expect(alarm).toBe(retryAt);
		// An entry that waited long enough is still not tried before the back-off ends.
		await append(zone_id, ray("g"), Date.now() - 10 * INTERVAL);
		expect(await alarmOf(zone_id)).toBe(retryAt);

		const path = uniquePath(zone_id, "mended");
		const mend = await call("PUT", `/zones/${zone_id}/logpush/jobs/${job.id}`, {
			destination_conf: `r2://edgezone-logs/${path}`,
		});
		expect(mend.status).toBe(200);
		expect((await onZone(zone_id, (zone) => zone.flushLogs()))[0]).toMatchObject({ entries: 2, records: 2 });
		expect(await alarmOf(zone_id)).toBe(kept.logged + WINDOW);
		const { received } = await append(zone_id, ray("h"));
		expect(await alarmOf(zone_id)).toBe(received + INTERVAL);
	});
});

describe("delivery with Logpull retention on, through the front door", () => {
	it("a job created after Logpull read the zone's requests delivers the next ones by itself", async () => {
		const { zone_id, host } = await zoneWithHost("ret-e2e");
		await retention(zone_id, true);
		await edgeRequest(host, "/before-the-job");
		// A Logpull read hands the zone what the edge holds: the zone then waits for the retention trim.
		const read = await call("GET", `/zones/${zone_id}/logs/rayids/0000000000000000`);
		expect(read.status).toBe(200);
		const job = await createJob(zone_id);
		const after = await edgeRequest(host, "/after-the-job");
		// wrangler.toml caps the interval at 2 s, the isolate holds entries 2 s: the alarm delivers within seconds.
		let lastComplete: unknown = null;
		for (let i = 0; i < 80 && lastComplete === null; i++) {
			await scheduler.wait(250);
			lastComplete = (
				(await call("GET", `/zones/${zone_id}/logpush/jobs/${job.id}`)).body.result as {
					last_complete: unknown;
				}
			).last_complete;
		}
		expect(lastComplete).toEqual(expect.stringMatching(/^\d{4}-/));
		expect(await deliveredTo(job.path)).toStrictEqual([after.ray]);
	}, 30_000);
});

describe("a job's entries", () => {
	it("are exactly those logged after it was created, even when the edge hands earlier ones over later", async () => {
		const { zone_id, host } = await zoneWithHost("since");
		const first = await createJob(zone_id);
		const before = await edgeRequest(host, "/before");
		// `before` still waits in the isolate's buffer when the second job is created.
		const held = await call("GET", `/zones/${zone_id}/emulator/logs`);
		expect(held.body.result).toMatchObject({ waiting_in_isolate: 1 });
		// The clock moves past the moment `before` was logged.
		await scheduler.wait(2);
		const second = await createJob(zone_id);
		const after = await edgeRequest(host, "/after");
		await flush(zone_id);
		expect((await deliveredTo(first.path)).sort()).toStrictEqual([before.ray, after.ray].sort());
		expect(await deliveredTo(second.path)).toStrictEqual([after.ray]);
		// Nothing is left behind for the second job: the pending log is empty.
		const status = await call("GET", `/zones/${zone_id}/emulator/logs`);
		expect(status.body.result).toMatchObject({ entries: 0 });
	});

	it("leave out what the edge logged for Logpull before the job, handed to the zone after it", async () => {
		const { zone_id, host } = await zoneWithHost("since-first");
		await retention(zone_id, true);
		const before = await edgeRequest(host, "/before");
		await scheduler.wait(2);
		const job = await createJob(zone_id);
		// The next request's config check hands the zone `before` and learns of the job.
		const after = await edgeRequest(host, "/after");
		const deliveries = await flush(zone_id);
		expect(await deliveredTo(job.path)).toStrictEqual([after.ray]);
		expect(deliveries[0]).toMatchObject({ entries: 1, records: 1 });
		const status = await call("GET", `/zones/${zone_id}/emulator/logs`);
		// Logpull keeps both; the job has nothing pending.
		expect(status.body.result).toMatchObject({ entries: 2, jobs: [{ job_id: job.id, pending: 0 }] });
		expect(before.ray).not.toBe(after.ray);
	});
});
