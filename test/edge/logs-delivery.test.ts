/**
 * Delivery of the pending log: several jobs with their own cursors and output options,
 * disabled and newly enabled jobs, no job at all, a failed delivery retried, a restart, the
 * alarm's batch limits.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { CONFIG_CHECK_INTERVAL_MS } from "../../src/edge/config-checks";
import { HOLD_MIN_MS } from "../../src/edge/log-buffer";
import type { LogEntry } from "../../src/logs/entry";
import { Zone } from "../../src/zone/zone";
import { call } from "../api/http";
import { configure, edgeRequest, flush, gunzipped, records, uniquePath, zoneWithHost } from "./logs-helpers";

async function job(zone_id: string, body: Record<string, unknown>): Promise<{ id: number; path: string }> {
	const path = uniquePath(zone_id, "job");
	const res = await call("POST", `/zones/${zone_id}/logpush/jobs`, {
		destination_conf: `r2://edgezone-logs/${path}`,
		enabled: true,
		...body,
	});
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return { id: (res.body.result as { id: number }).id, path };
}

async function status(zone_id: string): Promise<{ entries: number; jobs: { job_id: number; pending: number }[] }> {
	const res = await call("GET", `/zones/${zone_id}/emulator/logs`);
	expect(res.status).toBe(200);
	return res.body.result as { entries: number; jobs: { job_id: number; pending: number }[] };
}

/** Entries as the edge makes them, appended straight to the zone's pending log. */
function synthetic(count: number, extra: Partial<Record<string, LogEntry[string]>> = {}): LogEntry[] {
	const now = Date.now();
	return Array.from({ length: count }, (_, i) => ({
		RayID: `${i.toString(16).padStart(12, "0")}beef`,
		EdgeStartTimestamp: now,
		EdgeResponseStatus: 200,
		...extra,
	})) as LogEntry[];
}

describe("several jobs", () => {
	it("each delivers the same entries in its own output options, from its own cursor", async () => {
		const { zone_id, host } = await zoneWithHost("multi");
		await configure(zone_id, { request_fields: [{ name: "x-a" }] }, { output_options: { field_names: ["RayID"] } });
		const csv = await job(zone_id, {
			output_options: {
				field_names: ["RayID", "EdgeResponseStatus", "EdgeStartTimestamp"],
				output_type: "csv",
				timestamp_format: "unix",
				batch_prefix: "RayID,EdgeResponseStatus,EdgeStartTimestamp\n",
				field_delimiter: ";",
			},
		});
		const templated = await job(zone_id, {
			filter: JSON.stringify({ where: { key: "ClientRequestPath", operator: "startsWith", value: "/keep" } }),
			output_options: {
				field_names: ["RayID", "ClientRequestPath", "RequestHeaders"],
				record_template: '"ray":{{.RayID}},"path":{{.ClientRequestPath}},"h":{{.RequestHeaders}}',
				record_delimiter: "\n",
				record_suffix: "}",
				batch_prefix: "[",
				batch_suffix: "]",
				"CVE-2021-44228": true,
			},
		});
		const keep = await edgeRequest(host, "/keep", { headers: { "x-a": ["$", "{jndi:x}"].join("") } });
		const drop = await edgeRequest(host, "/drop");
		const deliveries = await flush(zone_id);
		expect(deliveries.map((d) => [d.entries, d.records])).toStrictEqual([
			[2, 2],
			[2, 2],
			[2, 1],
		]);
		// The first job lists no custom-field output: no custom fields.
		const first = await records(deliveries[0]?.objects ?? []);
		expect(first).toStrictEqual([{ RayID: keep.ray }, { RayID: drop.ray }]);
		const csvText = await gunzipped(deliveries[1]?.objects[0] ?? "");
		const lines = csvText.split("\n");
		expect(lines[0]).toBe("RayID,EdgeResponseStatus,EdgeStartTimestamp");
		expect(lines[1]).toMatch(new RegExp(`^"${keep.ray}";404;\\d{10}$`));
		expect(lines[2]).toMatch(new RegExp(`^"${drop.ray}";404;\\d{10}$`));
		expect(await gunzipped(deliveries[2]?.objects[0] ?? "")).toBe(
			`[{"ray":"${keep.ray}","path":"/keep","h":{"x-a":"x{jndi:x}"}}]`,
		);
		expect(deliveries[1]?.objects[0]).toMatch(new RegExp(`^${csv.path}/`));
		expect(deliveries[2]?.objects[0]).toMatch(new RegExp(`^${templated.path}/`));
		expect((await flush(zone_id)).map((d) => d.entries)).toStrictEqual([0, 0, 0]);
	});

	it("samples with sample_rate", async () => {
		const { zone_id } = await zoneWithHost("sample");
		await job(zone_id, { output_options: { field_names: ["RayID"], sample_rate: 0.1 } });
		await runInDurableObject(zoneState(env, zone_id), (zone: Zone) => zone.appendLog(synthetic(1000)));
		const [delivery] = await flush(zone_id);
		expect(delivery?.entries).toBe(1000);
		expect(delivery?.records).toBeGreaterThan(50);
		expect(delivery?.records).toBeLessThan(150);
	});
});

describe("what is kept", () => {
	it("keeps nothing without an enabled job, and a disabled job delivers nothing", async () => {
		const { zone_id, host } = await zoneWithHost("nojob");
		const disabled = await job(zone_id, { enabled: false });
		await edgeRequest(host, "/a");
		await runInDurableObject(zoneState(env, zone_id), (zone: Zone) => zone.appendLog(synthetic(50)));
		expect(await status(zone_id)).toMatchObject({ entries: 0, jobs: [] });
		expect(await flush(zone_id)).toStrictEqual([]);
		const listed = await env.LOGS.list({ prefix: `${disabled.path}/` });
		expect(listed.objects).toStrictEqual([]);
	});

	it("stops keeping entries as soon as the last job is disabled, and keeps them again once one is enabled", async () => {
		const { zone_id } = await zoneWithHost("toggle");
		const { id } = await job(zone_id, { output_options: { field_names: ["RayID"] } });
		const append = (count: number) =>
			runInDurableObject(zoneState(env, zone_id), (zone: Zone) => zone.appendLog(synthetic(count)));
		expect(await append(3)).toBe(3);
		expect((await call("PUT", `/zones/${zone_id}/logpush/jobs/${id}`, { enabled: false })).status).toBe(200);
		// The zone knew an enabled job a moment ago: it must not keep appending on that knowledge.
		expect(await append(4)).toBe(0);
		expect((await status(zone_id)).entries).toBe(0);
		expect((await call("PUT", `/zones/${zone_id}/logpush/jobs/${id}`, { enabled: true })).status).toBe(200);
		expect(await append(5)).toBe(5);
		expect((await status(zone_id)).jobs).toMatchObject([{ job_id: id, pending: 5 }]);
	});

	it("a job enabled later delivers only entries logged after it was enabled", async () => {
		const { zone_id, host } = await zoneWithHost("later");
		const first = await job(zone_id, { output_options: { field_names: ["RayID"] } });
		const second = await job(zone_id, { enabled: false, output_options: { field_names: ["RayID"] } });
		const before = await edgeRequest(host, "/before");
		await flushEntries(zone_id);
		expect((await call("PUT", `/zones/${zone_id}/logpush/jobs/${second.id}`, { enabled: true })).status).toBe(200);
		const after = await edgeRequest(host, "/after");
		await flush(zone_id);
		// The alarm may have delivered `before` already: read what each job wrote, not the flush's answer.
		const [one, two] = await Promise.all([first, second].map((j) => delivered(j.path)));
		expect(one?.map((e) => e.RayID).sort()).toStrictEqual([before.ray, after.ray].sort());
		expect(two?.map((e) => e.RayID)).toStrictEqual([after.ray]);
		expect(first.id).toBeLessThan(second.id);
		// Both delivered everything: the pending log is empty.
		expect((await status(zone_id)).entries).toBe(0);
	});
});

/** Lets the isolate hand what it holds to the pending log by its own timer (the zone's alarm may then deliver it). */
async function flushEntries(zone_id: string): Promise<void> {
	// wrangler.toml caps job intervals at 2 s: the isolate holds entries HOLD_MIN_MS.
	await scheduler.wait(HOLD_MIN_MS + 100);
	const res = await call("GET", `/zones/${zone_id}/emulator/logs`);
	expect(res.body.result).toMatchObject({ waiting_in_isolate: 0 });
}

/** The records a job's objects hold (objects in key order: two of the same second in any order). */
async function delivered(path: string): Promise<Record<string, unknown>[]> {
	const listed = await env.LOGS.list({ prefix: `${path}/` });
	return records(listed.objects.map((object) => object.key));
}

describe("failed deliveries", () => {
	it("records the error, loses nothing, and delivers everything once the destination is fixed", async () => {
		const { zone_id, host } = await zoneWithHost("fail");
		// R2 refuses keys over 1,024 bytes: every put of this job throws.
		const long = `r2://edgezone-logs/${zone_id}/${"d".repeat(1100)}`;
		const failing = await job(zone_id, { destination_conf: long, output_options: { field_names: ["RayID"] } });
		const rays = [];
		for (let i = 0; i < 3; i++) rays.push((await edgeRequest(host, `/f${i}`)).ray);
		const [failed] = await flush(zone_id);
		expect(failed?.error).toMatch(/writing .* failed/);
		expect(failed?.records).toBe(0);
		const broken = (await call("GET", `/zones/${zone_id}/logpush/jobs/${failing.id}`)).body.result;
		expect(broken).toMatchObject({ last_error: expect.stringMatching(/^\d{4}-/), error_message: expect.any(String) });
		const pending = await status(zone_id);
		expect(pending.jobs).toMatchObject([{ job_id: failing.id, pending: 3, failures: 1 }]);
		// The alarm waits for the back-off; nothing is delivered or dropped meanwhile.
		await runDurableObjectAlarm(zoneState(env, zone_id));
		expect((await status(zone_id)).jobs[0]?.pending).toBe(3);

		const path = uniquePath(zone_id, "fixed");
		const fix = await call("PUT", `/zones/${zone_id}/logpush/jobs/${failing.id}`, {
			destination_conf: `r2://edgezone-logs/${path}`,
		});
		expect(fix.status).toBe(200);
		rays.push((await edgeRequest(host, "/f3")).ray);
		const [delivered] = await flush(zone_id);
		expect(delivered?.error).toBeUndefined();
		expect((await records(delivered?.objects ?? [])).map((e) => e.RayID)).toStrictEqual(rays);
		const fixed = (await call("GET", `/zones/${zone_id}/logpush/jobs/${failing.id}`)).body.result;
		expect(fixed).toMatchObject({
			last_error: null,
			error_message: null,
			last_complete: expect.stringMatching(/^\d{4}-/),
		});
		expect((await status(zone_id)).entries).toBe(0);
	});
});

describe("handing entries to the zone", () => {
	it("the next config check carries what the isolate holds, before the batch's own timer", async () => {
		const { zone_id, host } = await zoneWithHost("checkin");
		await job(zone_id, { output_options: { field_names: ["RayID"] } });
		const first = await edgeRequest(host, "/first");
		expect((await status(zone_id)).entries).toBe(0);
		// Past the check's interval, short of the hold: only the check can have taken `first` along.
		await scheduler.wait(CONFIG_CHECK_INTERVAL_MS + 100);
		const second = await edgeRequest(host, "/second");
		const now = await call("GET", `/zones/${zone_id}/emulator/logs`);
		expect(now.body.result).toMatchObject({ entries: 1, waiting_in_isolate: 1 });
		expect(CONFIG_CHECK_INTERVAL_MS + 100).toBeLessThan(HOLD_MIN_MS);
		const [delivery] = await flush(zone_id);
		expect((await records(delivery?.objects ?? [])).map((e) => e.RayID)).toStrictEqual([first.ray, second.ray]);
	});
});

describe("restarts", () => {
	it("entries survive: a new Zone instance on the same storage delivers them", async () => {
		const { zone_id } = await zoneWithHost("restart");
		await job(zone_id, { output_options: { field_names: ["RayID"] } });
		const entries = synthetic(5);
		const stub = zoneState(env, zone_id);
		await runInDurableObject(stub, (zone: Zone) => zone.appendLog(entries));
		const delivered = await runInDurableObject(stub, async (_zone: Zone, state) => {
			const fresh = new Zone(state, env);
			return fresh.flushLogs();
		});
		expect((await records(delivered[0]?.objects ?? [])).map((e) => e.RayID)).toStrictEqual(entries.map((e) => e.RayID));
	});
});

describe("batch limits, by the alarm", () => {
	it("waits for the interval, then delivers", async () => {
		const { zone_id } = await zoneWithHost("interval");
		const { path } = await job(zone_id, { output_options: { field_names: ["RayID"] } });
		const stub = zoneState(env, zone_id);
		await runInDurableObject(stub, (zone: Zone) => zone.appendLog(synthetic(3)));
		await runDurableObjectAlarm(stub);
		expect((await env.LOGS.list({ prefix: `${path}/` })).objects).toHaveLength(0);
		// wrangler.toml: LOGPUSH_MIN_INTERVAL_SECONDS = 2.
		await scheduler.wait(2100);
		await runDurableObjectAlarm(stub);
		expect((await env.LOGS.list({ prefix: `${path}/` })).objects).toHaveLength(1);
	});

	it("delivers max_upload_records entries per object as soon as that many wait", async () => {
		const { zone_id } = await zoneWithHost("records");
		const { path } = await job(zone_id, { max_upload_records: 1000, output_options: { field_names: ["RayID"] } });
		const stub = zoneState(env, zone_id);
		await runInDurableObject(stub, (zone: Zone) => zone.appendLog(synthetic(2500)));
		await runDurableObjectAlarm(stub);
		const listed = await env.LOGS.list({ prefix: `${path}/` });
		expect(listed.objects).toHaveLength(2);
		const counts = await Promise.all(listed.objects.map(async (o) => (await gunzipped(o.key)).split("\n").length - 1));
		expect(counts).toStrictEqual([1000, 1000]);
		expect((await status(zone_id)).jobs[0]?.pending).toBe(500);
	});

	it("splits objects at max_upload_bytes, uncompressed", async () => {
		const { zone_id } = await zoneWithHost("bytes");
		const { path } = await job(zone_id, {
			max_upload_bytes: 5_000_000,
			output_options: { field_names: ["RayID", "RequestHeaders"] },
		});
		const stub = zoneState(env, zone_id);
		const big = { RequestHeaders: { "x-big": "z".repeat(8000) } };
		await runInDurableObject(stub, (zone: Zone) => zone.appendLog(synthetic(800, big)));
		await runDurableObjectAlarm(stub);
		const listed = await env.LOGS.list({ prefix: `${path}/` });
		expect(listed.objects).toHaveLength(2);
		const sizes = await Promise.all(
			listed.objects.map(async (o) => new TextEncoder().encode(await gunzipped(o.key)).length),
		);
		for (const size of sizes) expect(size).toBeLessThanOrEqual(5_000_000);
		expect(sizes.reduce((a, b) => a + b)).toBeGreaterThan(6_000_000);
		expect((await status(zone_id)).jobs[0]?.pending).toBe(0);
	});
});
