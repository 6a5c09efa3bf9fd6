/**
 * Logpull through HTTP (issue 9, "Beyond the seed"): the retention flag, what the zone keeps with
 * and without it, `logs/received` with its window, count, sample, fields, timestamps and
 * redaction, `logs/rayids`, bad queries, and trimming once the retention window has passed.
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { HOLD_MIN_MS } from "../../src/edge/log-buffer";
import type { LogEntry } from "../../src/logs/entry";
import { LOGPULL_DEFAULT_FIELDS } from "../../src/logs/logpull";
import type { Zone } from "../../src/zone/zone";
import { edgeRequest, flush, zoneWithHost } from "../edge/logs-helpers";
import { LOGS_READ_TOKEN, TOKEN } from "./credentials";
import { BASE, call } from "./http";

/** A raw GET of the API (Logpull answers ndjson, not the envelope). */
async function get(path: string, token = TOKEN): Promise<{ status: number; type: string; text: string }> {
	const res = await exports.default.fetch(`${BASE}${path}`, { headers: { Authorization: `Bearer ${token}` } });
	// Decoded by hand: workerd warns on `.text()` of a type it does not know as text.
	const text = new TextDecoder().decode(await res.arrayBuffer());
	return { status: res.status, type: res.headers.get("content-type") ?? "", text };
}

/** The ndjson records of an answer. */
const lines = (text: string): Record<string, unknown>[] =>
	text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);

/** `logs/received` of `zone_id` with `query`; expects 200. */
async function received(zone_id: string, query: Record<string, string | number>): Promise<Record<string, unknown>[]> {
	const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
	const res = await get(`/zones/${zone_id}/logs/received?${search}`);
	expect(res.status, res.text).toBe(200);
	expect(res.type).toBe("application/x-ndjson; charset=utf-8");
	return lines(res.text);
}

/** The last minute up to now, in unix nanoseconds. */
async function lastMinute(): Promise<{ start: string; end: string }> {
	// Entries are stored at the zone's `Date.now()`; let the clock move past them.
	await scheduler.wait(5);
	const now = Date.now();
	return { start: `${now - 60_000}000000`, end: `${now}000000` };
}

async function setRetention(zone_id: string, flag: boolean): Promise<void> {
	const res = await call("POST", `/zones/${zone_id}/logs/control/retention/flag`, { flag });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	expect(res.body.result).toStrictEqual({ flag });
}

/** Entries appended straight to the zone's log, then given receipt times (`stored_at`, ms) by RayID. */
async function stored(zone_id: string, times: Record<string, number>, extra: Partial<LogEntry> = {}): Promise<void> {
	const entries = Object.keys(times).map((RayID) => ({ RayID, EdgeStartTimestamp: Date.now(), ...extra }));
	await runInDurableObject(zoneState(env, zone_id), async (zone: Zone, state) => {
		await zone.appendLog(entries as LogEntry[]);
		// One statement per time: `ray_id` has no index of its own, so each UPDATE scans the log.
		const byTime = Map.groupBy(Object.entries(times), ([, at]) => at);
		for (const [at, rays] of byTime)
			state.storage.sql.exec(
				"UPDATE edge_log SET stored_at = ? WHERE ray_id IN (SELECT value FROM json_each(?))",
				at,
				JSON.stringify(rays.map(([ray]) => ray)),
			);
	});
}

const ray = (i: number) => i.toString(16).padStart(16, "0");

async function logSize(zone_id: string): Promise<number> {
	return runInDurableObject(
		zoneState(env, zone_id),
		(_z, state) => state.storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM edge_log").one().n,
	);
}

describe("the retention flag", () => {
	it("is off by default, and POST turns it on and off", async () => {
		const { zone_id } = await zoneWithHost("flag");
		const first = await call("GET", `/zones/${zone_id}/logs/control/retention/flag`);
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ success: true, result: { flag: false } });
		await setRetention(zone_id, true);
		expect((await call("GET", `/zones/${zone_id}/logs/control/retention/flag`)).body.result).toStrictEqual({
			flag: true,
		});
		await setRetention(zone_id, false);
		expect((await call("GET", `/zones/${zone_id}/logs/control/retention/flag`)).body.result).toStrictEqual({
			flag: false,
		});
	});

	it.each([
		["no flag", {}],
		["a string", { flag: "true" }],
		["another key", { flag: true, days: 7 }],
	])("refuses a body with %s, changing nothing", async (_label, body) => {
		const { zone_id } = await zoneWithHost("flagbad");
		const res = await call("POST", `/zones/${zone_id}/logs/control/retention/flag`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.code).toBe(1002);
		expect((await call("GET", `/zones/${zone_id}/logs/control/retention/flag`)).body.result).toStrictEqual({
			flag: false,
		});
	});

	it("is read with Logs Read, and written only with Logs Edit", async () => {
		const { zone_id } = await zoneWithHost("flagperm");
		const auth = { Authorization: `Bearer ${LOGS_READ_TOKEN}`, "Content-Type": "application/json" };
		expect((await call("GET", `/zones/${zone_id}/logs/control/retention/flag`, undefined, auth)).status).toBe(200);
		expect((await call("POST", `/zones/${zone_id}/logs/control/retention/flag`, { flag: true }, auth)).status).toBe(
			403,
		);
		const { start, end } = await lastMinute();
		expect((await get(`/zones/${zone_id}/logs/received?start=${start}&end=${end}`, LOGS_READ_TOKEN)).status).toBe(200);
	});
});

describe("what the zone keeps", () => {
	it("keeps nothing without retention and without a job: logs/received answers no record", async () => {
		const { zone_id, host } = await zoneWithHost("off");
		await edgeRequest(host, "/a");
		await flush(zone_id);
		expect(await logSize(zone_id)).toBe(0);
		expect(await received(zone_id, await lastMinute())).toStrictEqual([]);
	});

	it("with retention on, serves the edge's requests with the default fields in unixnano", async () => {
		const { zone_id, host } = await zoneWithHost("on");
		await setRetention(zone_id, true);
		const a = await edgeRequest(host, "/first?x=1", { headers: { "user-agent": "probe/1" } });
		const b = await edgeRequest(host, "/second", { method: "HEAD" });
		await flush(zone_id);
		const records = await received(zone_id, await lastMinute());
		expect(records.map((r) => r.RayID)).toStrictEqual([a.ray, b.ray]);
		for (const record of records) expect(Object.keys(record)).toStrictEqual([...LOGPULL_DEFAULT_FIELDS]);
		expect(records[0]).toMatchObject({
			ClientRequestHost: host,
			ClientRequestMethod: "GET",
			ClientRequestURI: "/first?x=1",
			EdgeResponseStatus: a.status,
		});
		expect(records[1]).toMatchObject({ ClientRequestMethod: "HEAD", ClientRequestURI: "/second" });
		expect(String(records[0]?.EdgeStartTimestamp)).toMatch(/^\d{19}$/);
		// A client that parses numbers exactly sees the nanoseconds: the text holds the integer.
		const raw = (await get(`/zones/${zone_id}/logs/received?${new URLSearchParams(await lastMinute())}`)).text;
		expect(raw).toMatch(/"EdgeStartTimestamp":\d{13}000000[,}]/);
	});

	it("the flow of docs/logs.md: requests, then a read in unix seconds once their second is over, answers each of them", async () => {
		const { zone_id, host } = await zoneWithHost("readme");
		await setRetention(zone_id, true);
		const startedIn = Math.floor(Date.now() / 1000);
		const put = await edgeRequest(host, "/hello.txt", { method: "PUT", body: "hello" });
		const hello = await edgeRequest(host, "/hello.txt");
		const missing = await edgeRequest(host, "/missing.txt");
		expect([put.status, hello.status, missing.status]).toStrictEqual([200, 200, 404]);
		// `end` is exclusive (Cloudflare's docs): `end=$(date +%s)` in the requests' own second leaves them out.
		expect(await received(zone_id, { start: startedIn - 300, end: startedIn })).toStrictEqual([]);
		// The `sleep 1` of docs/logs.md: the second the requests were made in is over.
		await scheduler.wait(1000 * (Math.floor(Date.now() / 1000) + 1) - Date.now());
		const end = Math.floor(Date.now() / 1000);
		const records = await received(zone_id, { start: end - 300, end });
		expect(
			records.map((r) => [r.ClientRequestMethod, r.ClientRequestURI, r.EdgeResponseStatus, r.RayID]),
		).toStrictEqual([
			["PUT", "/hello.txt", 200, put.ray],
			["GET", "/hello.txt", 200, hello.ray],
			["GET", "/missing.txt", 404, missing.ray],
		]);
	});

	it("reads a request the isolate still holds: without a job it waits HOLD_MAX_MS, Logpull takes it first", async () => {
		const { zone_id, host } = await zoneWithHost("held");
		await setRetention(zone_id, true);
		const a = await edgeRequest(host, "/held");
		await scheduler.wait(HOLD_MIN_MS + 200);
		const status = await call("GET", `/zones/${zone_id}/emulator/logs`);
		expect(status.body.result).toMatchObject({ entries: 0, waiting_in_isolate: 1 });
		expect((await received(zone_id, await lastMinute())).map((r) => r.RayID)).toStrictEqual([a.ray]);
		expect((await call("GET", `/zones/${zone_id}/emulator/logs`)).body.result).toMatchObject({
			entries: 1,
			waiting_in_isolate: 0,
		});
	});

	it("keeps retained entries after retention is turned off, and no new ones", async () => {
		const { zone_id, host } = await zoneWithHost("turnoff");
		await setRetention(zone_id, true);
		const kept = await edgeRequest(host, "/kept");
		await flush(zone_id);
		await setRetention(zone_id, false);
		await edgeRequest(host, "/dropped");
		await flush(zone_id);
		const records = await received(zone_id, await lastMinute());
		expect(records.map((r) => r.RayID)).toStrictEqual([kept.ray]);
	});

	it("does not serve entries kept only for a log-push job", async () => {
		const { zone_id, host } = await zoneWithHost("jobonly");
		const job = await call("POST", `/zones/${zone_id}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone_id}/jobonly-${crypto.randomUUID().slice(0, 8)}`,
			enabled: true,
		});
		expect(job.status).toBe(200);
		await edgeRequest(host, "/pending");
		// The read hands the isolate's buffer to the zone, where the entry waits for the job: no delivery ran.
		expect(await received(zone_id, await lastMinute())).toStrictEqual([]);
		expect(await logSize(zone_id)).toBe(1);
	});

	it("keeps a retained entry after a job delivered it", async () => {
		const { zone_id, host } = await zoneWithHost("both");
		await setRetention(zone_id, true);
		await call("POST", `/zones/${zone_id}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone_id}/both-${crypto.randomUUID().slice(0, 8)}`,
			enabled: true,
		});
		const a = await edgeRequest(host, "/a");
		const [delivery] = await flush(zone_id);
		expect(delivery?.records).toBe(1);
		expect((await received(zone_id, await lastMinute())).map((r) => r.RayID)).toStrictEqual([a.ray]);
	});
});

describe("logs/received", () => {
	it("selects by the time the zone received an entry: start inclusive, end exclusive, in every format", async () => {
		const { zone_id } = await zoneWithHost("window");
		await setRetention(zone_id, true);
		const t = Math.floor(Date.now() / 1000) * 1000 - 120_000;
		await stored(zone_id, { [ray(1)]: t - 1, [ray(2)]: t, [ray(3)]: t + 29_999, [ray(4)]: t + 30_000 });
		const want = [ray(2), ray(3)];
		const iso = (ms: number) => new Date(ms).toISOString();
		for (const [start, end] of [
			[t / 1000, t / 1000 + 30],
			[`${t}000000`, `${t + 30_000}000000`],
			[iso(t).replace(".000Z", "Z"), iso(t + 30_000).replace(".000Z", "Z")],
			[new Date(t).toISOString().replace("Z", "+00:00"), iso(t + 30_000)],
		]) {
			const records = await received(zone_id, { start: String(start), end: String(end), fields: "RayID" });
			expect(
				records.map((r) => r.RayID),
				`${start} ${end}`,
			).toStrictEqual(want);
		}
		// A nanosecond bound one past a millisecond leaves that millisecond out.
		const ns = await received(zone_id, { start: `${t}000001`, end: `${t + 30_000}000001`, fields: "RayID" });
		expect(ns.map((r) => r.RayID)).toStrictEqual([ray(3), ray(4)]);
	});

	it("answers at most count records", async () => {
		const { zone_id } = await zoneWithHost("count");
		await setRetention(zone_id, true);
		const t = Date.now() - 60_000;
		await stored(zone_id, { [ray(1)]: t, [ray(2)]: t, [ray(3)]: t });
		const window = { start: Math.floor(t / 1000) - 1, end: Math.floor(t / 1000) + 10, fields: "RayID" };
		expect(await received(zone_id, { ...window, count: 2 })).toStrictEqual([{ RayID: ray(1) }, { RayID: ray(2) }]);
		expect(await received(zone_id, { ...window, count: 5 })).toHaveLength(3);
	});

	it("samples by RayID: about the rate, the same records every time, count applied after sampling", async () => {
		const { zone_id } = await zoneWithHost("sample");
		await setRetention(zone_id, true);
		const t = Date.now() - 60_000;
		await stored(zone_id, Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [ray(i * 7919), t])));
		const window = { start: Math.floor(t / 1000) - 1, end: Math.floor(t / 1000) + 10, fields: "RayID" };
		expect(await received(zone_id, window)).toHaveLength(1500);
		const first = await received(zone_id, { ...window, sample: 0.1 });
		expect(first.length).toBeGreaterThan(90);
		expect(first.length).toBeLessThan(210);
		expect(await received(zone_id, { ...window, sample: 0.1 })).toStrictEqual(first);
		expect(await received(zone_id, { ...window, sample: 0.1, count: 7 })).toStrictEqual(first.slice(0, 7));
	});

	it("writes the fields asked for, in name order, with timestamps in unix or rfc3339, redacted on request", async () => {
		const { zone_id, host } = await zoneWithHost("fields");
		await setRetention(zone_id, true);
		const agent = ["$", "{jndi:ldap://x}"].join("");
		const a = await edgeRequest(host, "/f", { headers: { "user-agent": agent } });
		await flush(zone_id);
		const window = await lastMinute();
		const fields = "RayID,EdgeStartTimestamp,ClientRequestUserAgent,ClientRequestPath,RayID";
		const [unix] = await received(zone_id, { ...window, fields, timestamps: "unix" });
		expect(Object.keys(unix ?? {})).toStrictEqual([
			"ClientRequestPath",
			"ClientRequestUserAgent",
			"EdgeStartTimestamp",
			"RayID",
		]);
		expect(unix).toMatchObject({ RayID: a.ray, ClientRequestPath: "/f", ClientRequestUserAgent: agent });
		expect(String(unix?.EdgeStartTimestamp)).toMatch(/^\d{10}$/);
		expect(Math.abs(Number(unix?.EdgeStartTimestamp) - Date.now() / 1000)).toBeLessThan(120);
		const [rfc] = await received(zone_id, { ...window, fields, timestamps: "rfc3339", "CVE-2021-44228": "true" });
		expect(rfc?.EdgeStartTimestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
		expect(rfc?.ClientRequestUserAgent).toBe("x{jndi:ldap://x}");
		// A field the edge has nothing for is written with its documented absent value.
		const [absent] = await received(zone_id, { ...window, fields: "BotScore,ClientIPClass,RayID" });
		expect(absent).toStrictEqual({ BotScore: 0, ClientIPClass: "unknown", RayID: a.ray });
	});

	it.each([
		["no start", { end: "E" }, "start is required"],
		["no end", { start: "S" }, "end is required"],
		["a start that is no time", { start: "yesterday", end: "E" }, "error parsing time"],
		["an end that is no time", { start: "S", end: "2024-13-01" }, "error parsing time"],
		["an end before the start", { start: "E", end: "S" }, "end must be later than start"],
		["an end equal to the start", { start: "S", end: "S" }, "end must be later than start"],
		["more than one hour", { start: "OLD", end: "E" }, "invalid time range: too long"],
		["a start past retention", { start: "ANCIENT", end: "ANCIENT_END" }, "too early: logs older than 168h0m0s"],
		["an end after now", { start: "S", end: "FUTURE" }, "too late"],
		["count 0", { start: "S", end: "E", count: "0" }, "count must be an integer > 0"],
		["count 1.5", { start: "S", end: "E", count: "1.5" }, "count must be an integer > 0"],
		["sample 0", { start: "S", end: "E", sample: "0" }, "sample must be"],
		["sample 2", { start: "S", end: "E", sample: "2" }, "sample must be"],
		["sample x", { start: "S", end: "E", sample: "x" }, "sample must be"],
		["timestamps rfc3339ms", { start: "S", end: "E", timestamps: "rfc3339ms" }, "timestamps must be"],
		["an unknown field", { start: "S", end: "E", fields: "RayID,Nope" }, "unknown fields: Nope"],
		["fields with a space", { start: "S", end: "E", fields: "RayID, ClientIP" }, "without whitespace"],
		["CVE-2021-44228 yes", { start: "S", end: "E", "CVE-2021-44228": "yes" }, "CVE-2021-44228 must be"],
		["an unknown argument", { start: "S", end: "E", start_id: "x" }, "query arguments are limited to"],
	])("refuses %s with a 400 in the envelope", async (_label, query, message) => {
		const { zone_id } = await zoneWithHost("bad");
		const now = Math.floor(Date.now() / 1000);
		const times: Record<string, string> = {
			S: String(now - 600),
			E: String(now - 300),
			OLD: String(now - 3601 - 300),
			ANCIENT: String(now - 169 * 3600),
			ANCIENT_END: String(now - 169 * 3600 + 60),
			FUTURE: String(now + 120),
		};
		const search = new URLSearchParams(
			Object.entries(query).map(([k, v]) => [k, k === "start" || k === "end" ? (times[v] ?? v) : v]),
		);
		const res = await call("GET", `/zones/${zone_id}/logs/received?${search}`);
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
		expect(res.body.errors?.[0]?.code).toBe(1002);
		expect(res.body.errors?.[0]?.message).toContain(message);
	});
});

describe("logs/received/fields and logs/rayids", () => {
	it("lists the dataset's fields as a bare object", async () => {
		const { zone_id } = await zoneWithHost("fieldlist");
		const res = await get(`/zones/${zone_id}/logs/received/fields`);
		expect(res.status).toBe(200);
		const fields = JSON.parse(res.text) as Record<string, string>;
		expect(fields).not.toHaveProperty("result");
		expect(Object.keys(fields)).toEqual(expect.arrayContaining([...LOGPULL_DEFAULT_FIELDS, "RequestHeaders"]));
	});

	it("finds a request by its Ray ID, with fields and timestamps; none for another", async () => {
		const { zone_id, host } = await zoneWithHost("rayid");
		await setRetention(zone_id, true);
		const a = await edgeRequest(host, "/by-ray");
		await edgeRequest(host, "/other");
		await flush(zone_id);
		const res = await get(`/zones/${zone_id}/logs/rayids/${a.ray}?fields=RayID,ClientRequestPath&timestamps=rfc3339`);
		expect(res.status).toBe(200);
		expect(lines(res.text)).toStrictEqual([{ ClientRequestPath: "/by-ray", RayID: a.ray }]);
		const [full] = lines((await get(`/zones/${zone_id}/logs/rayids/${a.ray}`)).text);
		expect(Object.keys(full ?? {})).toStrictEqual([...LOGPULL_DEFAULT_FIELDS]);
		expect((await get(`/zones/${zone_id}/logs/rayids/${ray(42)}`)).text).toBe("");
	});

	it.each([
		["a CF-Ray value with its colo", "0123456789abcdef-LCL", ""],
		["an unknown argument", "0123456789abcdef", "?start=1"],
		["an unknown field", "0123456789abcdef", "?fields=Nope"],
	])("refuses %s", async (_label, id, query) => {
		const { zone_id } = await zoneWithHost("raybad");
		const res = await call("GET", `/zones/${zone_id}/logs/rayids/${id}${query}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.code).toBe(1002);
	});
});

describe("trimming", () => {
	it("the alarm deletes retained entries older than the window, and keeps the others", async () => {
		const { zone_id } = await zoneWithHost("trim");
		await setRetention(zone_id, true);
		const now = Date.now();
		const hour = 3_600_000;
		await stored(zone_id, { [ray(1)]: now - 169 * hour, [ray(2)]: now - 168 * hour - 1, [ray(3)]: now - 167 * hour });
		expect(await logSize(zone_id)).toBe(3);
		const stub = zoneState(env, zone_id);
		// appendLog set the alarm: it runs without any request.
		expect(await runInDurableObject(stub, (_z, state) => state.storage.getAlarm())).not.toBeNull();
		expect(await runDurableObjectAlarm(stub)).toBe(true);
		const left = await runInDurableObject(stub, (_z, state) =>
			state.storage.sql.exec<{ ray_id: string }>("SELECT ray_id FROM edge_log").toArray(),
		);
		expect(left.map((r) => r.ray_id)).toStrictEqual([ray(3)]);
		// The next alarm is when the remaining entry leaves the window.
		const next = await runInDurableObject(stub, (_z, state) => state.storage.getAlarm());
		expect(next).not.toBeNull();
		expect(Math.abs((next ?? 0) - (now - 167 * hour + 168 * hour))).toBeLessThan(60_000);
	});

	it("trims in bounded steps, waking again at once while more is left", async () => {
		const { zone_id } = await zoneWithHost("trimsteps");
		await setRetention(zone_id, true);
		const old = Date.now() - 200 * 3_600_000;
		await stored(zone_id, Object.fromEntries(Array.from({ length: 10_050 }, (_, i) => [ray(i), old])));
		const stub = zoneState(env, zone_id);
		await runDurableObjectAlarm(stub);
		expect(await logSize(zone_id)).toBe(50);
		const next = await runInDurableObject(stub, (_z, state) => state.storage.getAlarm());
		expect((next ?? Number.POSITIVE_INFINITY) - Date.now()).toBeLessThan(1000);
		await runDurableObjectAlarm(stub);
		expect(await logSize(zone_id)).toBe(0);
		expect(await runInDurableObject(stub, (_z, state) => state.storage.getAlarm())).toBeNull();
		// Ten thousand entries and more take seconds to write on a loaded machine.
	}, 30_000);
});
