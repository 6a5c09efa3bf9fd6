/**
 * Edge logs delivered by log-push, end to end against wrangler dev: custom log fields and a job
 * configured through the API as Cloudflare's docs show it, gateway requests with headers and
 * cookies, then the delivered objects read back through the gateway (`x-r2-bucket`), gunzipped and
 * matched by Ray ID: after the emulator's flush, after the Zone's alarm alone, and after a restart
 * of wrangler dev with an entry still pending.
 */
import { gunzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { DEV_VARS_EXAMPLE, startDev } from "./wrangler-dev";

/** The read-write gateway token and the all-zones API token of .dev.vars.example. */
const GATEWAY_TOKEN = "dev-token";
const API_TOKEN = "edgezone_dev_token_000000000000000000000";
/** DEFAULT_ZONE_ID (wrangler.toml): the zone of every host no zone is named after, 127.0.0.1's too. */
const ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353";
const LOG_BUCKET = "edgezone-logs";

type Entry = Record<string, unknown>;

/** Calls the API v4 at `base`; answers the envelope's `result`, throwing on an error envelope. */
async function api<T = unknown>(base: string, method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${base}/client/v4${path}`, {
		method,
		headers: { authorization: `Bearer ${API_TOKEN}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const envelope = (await response.json()) as { success: boolean; errors: unknown; result: T };
	if (!response.ok || !envelope.success)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(envelope.errors)}`);
	return envelope.result;
}

/** A gateway request: its status, its Ray ID (CF-Ray without the data center) and its body's bytes. */
async function gateway(base: string, method: string, path: string, init: { headers?: object; body?: string } = {}) {
	const response = await fetch(`${base}${path}`, {
		method,
		headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, ...init.headers },
		body: init.body,
	});
	const bytes = Buffer.from(await response.arrayBuffer());
	return { status: response.status, ray: (response.headers.get("cf-ray") ?? "").split("-")[0] ?? "", bytes };
}

/** Every entry delivered under `prefix` in the log bucket, read through the gateway and gunzipped. */
async function delivered(base: string, prefix: string): Promise<Entry[]> {
	const listed = await gateway(base, "GET", `/?list&prefix=${encodeURIComponent(prefix)}`, {
		headers: { "x-r2-bucket": LOG_BUCKET },
	});
	expect(listed.status).toBe(200);
	const entries: Entry[] = [];
	for (const { key } of (JSON.parse(listed.bytes.toString("utf8")) as { objects: { key: string }[] }).objects) {
		const object = await gateway(base, "GET", `/${key.split("/").map(encodeURIComponent).join("/")}`, {
			headers: { "x-r2-bucket": LOG_BUCKET, "accept-encoding": "identity" },
		});
		for (const line of gunzipSync(object.bytes).toString("utf8").split("\n"))
			if (line !== "") entries.push(JSON.parse(line) as Entry);
	}
	return entries;
}

/** Polls `probe` every 500 ms until it answers something other than undefined, for at most `ms`. */
async function eventually<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const found = await probe();
		if (found !== undefined) return found;
		if (Date.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/**
 * Configures the zone's custom log fields (list the rulesets, create the `http_log_custom_fields`
 * entrypoint if missing, PUT its rule) and an enabled job writing under `path`; answers the job's id.
 */
async function configure(base: string, path: string): Promise<string> {
	const rulesets = await api<{ id: string; kind: string; phase: string }[]>(base, "GET", `/zones/${ZONE_ID}/rulesets`);
	let rulesetId = rulesets.find((r) => r.kind === "zone" && r.phase === "http_log_custom_fields")?.id;
	rulesetId ??= (
		await api<{ id: string }>(base, "POST", `/zones/${ZONE_ID}/rulesets`, {
			name: "Zone-level phase entry point",
			kind: "zone",
			description: "This ruleset configures custom log fields.",
			phase: "http_log_custom_fields",
		})
	).id;
	await api(base, "PUT", `/zones/${ZONE_ID}/rulesets/${rulesetId}`, {
		rules: [
			{
				action: "log_custom_field",
				expression: "true",
				description: "Set Logpush custom fields for HTTP requests",
				action_parameters: {
					request_fields: [{ name: "content-type" }, { name: "x-forwarded-for" }],
					response_fields: [{ name: "content-type" }, { name: "etag" }],
					cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }],
				},
			},
		],
	});
	const job = await api<{ id: string }>(base, "POST", `/zones/${ZONE_ID}/logpush/jobs`, {
		name: "node-log-delivery",
		destination_conf: `r2://${LOG_BUCKET}/${path}/{DATE}`,
		dataset: "http_requests",
		enabled: true,
		output_options: {
			field_names: [
				"RayID",
				"EdgeStartTimestamp",
				"ClientRequestMethod",
				"ClientRequestURI",
				"EdgeResponseStatus",
				"Cookies",
				"RequestHeaders",
				"ResponseHeaders",
			],
			timestamp_format: "rfc3339",
		},
	});
	return job.id;
}

describe("edge logs delivered by a log-push job, through wrangler dev", () => {
	const base = inject("dev").url;
	// A zone's destinations lie under its own id.
	const path = `${ZONE_ID}/node-log-delivery/${Date.now()}`;
	let jobId: string;
	let sent: { ray: string }[] = [];

	it("delivers each request with its configured headers and cookies on the emulator's flush", async () => {
		jobId = await configure(base, path);
		const put = await gateway(base, "PUT", "/node-logs/hello.txt", {
			headers: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.7" },
			body: "hello, logs",
		});
		const get = await gateway(base, "GET", "/node-logs/hello.txt", {
			headers: { cookie: "__ga=GA1.2.3; accountNumber=12345; other=x" },
		});
		const missing = await gateway(base, "GET", "/node-logs/missing.txt");
		expect([put.status, get.status, missing.status]).toEqual([200, 200, 404]);
		sent = [put, get, missing];

		const { deliveries } = await api<{ deliveries: { job_id: string; records: number }[] }>(
			base,
			"POST",
			`/zones/${ZONE_ID}/emulator/logs/flush`,
		);
		expect(deliveries.find((d) => d.job_id === jobId)?.records).toBeGreaterThanOrEqual(3);

		const byRay = new Map((await delivered(base, `${path}/`)).map((entry) => [entry.RayID, entry]));
		expect(byRay.get(put.ray)?.RequestHeaders).toEqual({
			"content-type": "text/plain",
			"x-forwarded-for": "198.51.100.7",
		});
		expect(byRay.get(get.ray)?.Cookies).toEqual({ __ga: "GA1.2.3", accountNumber: "12345" });
		expect((byRay.get(get.ray)?.ResponseHeaders as Entry | undefined)?.["content-type"]).toBe("text/plain");
		expect(byRay.get(missing.ray)?.EdgeResponseStatus).toBe(404);
	});

	it("delivers a request by the Zone's alarm alone, within LOGPUSH_MIN_INTERVAL_SECONDS", async () => {
		expect(sent).toHaveLength(3);
		const late = await gateway(base, "GET", "/node-logs/hello.txt", { headers: { cookie: "accountNumber=999" } });
		const found = await eventually("the entry delivered by the alarm", 15_000, async () =>
			(await delivered(base, `${path}/`)).find((entry) => entry.RayID === late.ray),
		);
		expect(found.Cookies).toEqual({ accountNumber: "999" });
	});

	it("reports the job's last delivery, without an error", async () => {
		const job = await api<{ last_complete: string | null; last_error: string | null }>(
			base,
			"GET",
			`/zones/${ZONE_ID}/logpush/jobs/${jobId}`,
		);
		expect(job.last_complete).not.toBeNull();
		expect(job.last_error).toBeNull();
	});
});

describe("a pending log entry across a restart of wrangler dev", () => {
	it("is delivered by a flush after wrangler dev stops and starts again on the same state", async () => {
		const path = `${ZONE_ID}/node-log-restart/${Date.now()}`;
		// 300 s intervals, so the entry is still pending when wrangler dev stops.
		let dev = await startDev(DEV_VARS_EXAMPLE, { args: ["--var", "LOGPUSH_MIN_INTERVAL_SECONDS:300"] });
		try {
			await configure(dev.url, path);
			const kept = await gateway(dev.url, "GET", "/node-logs/restart.txt", {
				headers: { cookie: "accountNumber=restart" },
			});
			// With 300 s intervals the edge holds entries 5 s before handing them to the Zone's pending log.
			const base = dev.url;
			await eventually("the entry in the Zone's pending log", 15_000, async () => {
				const held = await api<{ entries: number; waiting_in_isolate: number }>(
					base,
					"GET",
					`/zones/${ZONE_ID}/emulator/logs`,
				);
				return held.entries > 0 && held.waiting_in_isolate === 0 ? held : undefined;
			});
			expect((await delivered(dev.url, `${path}/`)).map((entry) => entry.RayID)).not.toContain(kept.ray);

			await dev.stop();
			dev = await startDev(DEV_VARS_EXAMPLE, { persistTo: dev.persistTo });
			await api(dev.url, "POST", `/zones/${ZONE_ID}/emulator/logs/flush`);
			const found = (await delivered(dev.url, `${path}/`)).find((entry) => entry.RayID === kept.ray);
			expect(found?.Cookies).toEqual({ accountNumber: "restart" });
		} finally {
			await dev.stop();
		}
	});
});
