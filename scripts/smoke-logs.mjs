// End-to-end smoke run of the edge logs (issue 9) on real files: starts `wrangler dev` (the
// project's wrangler.toml, a temporary --persist-to, a free port), configures custom log fields
// and a log-push job through the API exactly as the spec's flow does, sends gateway requests with
// headers and cookies, flushes with the emulator route, then reads the delivered objects back
// through the gateway (`x-r2-bucket: edgezone-logs`), gunzips them and prints every entry. A
// second request is then left to the Zone's alarm (LOGPUSH_MIN_INTERVAL_SECONDS in wrangler.toml)
// to show delivery without a flush, and a third is left pending while wrangler dev stops and
// starts again on the same --persist-to, to show it delivered after the restart. One line per
// step; exits non-zero on any difference.
//
//   npm run smoke:logs
import { gunzipSync } from "node:zlib";
import { startWranglerDev } from "./lib/wrangler-dev.mjs";

const GATEWAY_TOKEN = "dev-token";
const API_TOKEN = "edgezone_dev_token_000000000000000000000";
const ZONE_ID = "023e105f4ecef8ad9ca31a8372d0c353"; // DEFAULT_ZONE_ID: every other host is routed to it
const LOG_BUCKET = "edgezone-logs";
const PATH = `${ZONE_ID}/smoke-logs/${Date.now()}`; // a zone writes under its own id

let failures = 0;
let base;

function line(status, text) {
	console.log(`${status.padEnd(4)} ${text}`);
}

async function step(title, fn) {
	try {
		const detail = await fn();
		line("ok", `${title}${detail ? ` — ${detail}` : ""}`);
		return true;
	} catch (error) {
		failures++;
		line("FAIL", `${title} — ${error.message}`);
		return false;
	}
}

function expect(what, actual, expected) {
	if (JSON.stringify(actual) !== JSON.stringify(expected))
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

async function api(method, path, body) {
	const response = await fetch(`${base}/client/v4${path}`, {
		method,
		headers: { authorization: `Bearer ${API_TOKEN}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const envelope = await response.json();
	if (!response.ok || !envelope.success)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(envelope.errors)}`);
	return envelope.result;
}

async function gw(method, path, { headers = {}, body } = {}) {
	const response = await fetch(`${base}${path}`, {
		method,
		headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, ...headers },
		body,
	});
	const bytes = Buffer.from(await response.arrayBuffer());
	return { status: response.status, ray: (response.headers.get("cf-ray") ?? "").split("-")[0], bytes, response };
}

/** Every delivered object under `prefix`, read through the gateway and gunzipped. */
async function delivered(prefix) {
	const listed = await gw("GET", `/?list&prefix=${encodeURIComponent(prefix)}`, {
		headers: { "x-r2-bucket": LOG_BUCKET },
	});
	if (listed.status !== 200) throw new Error(`list ${prefix}: ${listed.status} ${listed.bytes}`);
	const objects = [];
	for (const { key, size } of JSON.parse(listed.bytes.toString("utf8")).objects) {
		const got = await gw("GET", `/${key.split("/").map(encodeURIComponent).join("/")}`, {
			headers: { "x-r2-bucket": LOG_BUCKET, "accept-encoding": "identity" },
		});
		const text = gunzipSync(got.bytes).toString("utf8");
		objects.push({
			key,
			size,
			entries: text
				.split("\n")
				.filter(Boolean)
				.map((l) => JSON.parse(l)),
		});
	}
	return objects;
}

async function main() {
	console.log(`edgezone smoke run of the edge logs — node ${process.version}`);
	await import("./dev-vars.mjs");
	let dev = await startWranglerDev();
	base = dev.url;
	line("ok", `wrangler dev ready on ${dev.url} (pid ${dev.pid}, persistence ${dev.persistTo})`);
	try {
		let rulesetId;
		await step("configure custom fields (spec flow: list rulesets, create the entrypoint, PUT the rule)", async () => {
			const rulesets = await api("GET", `/zones/${ZONE_ID}/rulesets`);
			rulesetId = rulesets.find((r) => r.kind === "zone" && r.phase === "http_log_custom_fields")?.id;
			if (rulesetId === undefined) {
				rulesetId = (
					await api("POST", `/zones/${ZONE_ID}/rulesets`, {
						name: "Zone-level phase entry point",
						kind: "zone",
						description: "This ruleset configures custom log fields.",
						phase: "http_log_custom_fields",
					})
				).id;
			}
			const ruleset = await api("PUT", `/zones/${ZONE_ID}/rulesets/${rulesetId}`, {
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
			return `ruleset ${ruleset.id} version ${ruleset.version}`;
		});
		let job;
		await step(`create an enabled job into r2://${LOG_BUCKET}/${PATH}/{DATE}`, async () => {
			job = await api("POST", `/zones/${ZONE_ID}/logpush/jobs`, {
				name: "smoke-logs",
				destination_conf: `r2://${LOG_BUCKET}/${PATH}/{DATE}`,
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
			return `job ${job.id}`;
		});

		const sent = [];
		await step("gateway requests with headers and cookies", async () => {
			const put = await gw("PUT", "/smoke-logs/hello.txt", {
				headers: { "content-type": "text/plain", "x-forwarded-for": "198.51.100.7" },
				body: "hello, logs",
			});
			expect("PUT status", put.status, 200);
			const get = await gw("GET", "/smoke-logs/hello.txt", {
				headers: { cookie: "__ga=GA1.2.3; accountNumber=12345; other=x" },
			});
			expect("GET status", get.status, 200);
			const missing = await gw("GET", "/smoke-logs/missing.txt");
			expect("GET missing status", missing.status, 404);
			sent.push(put, get, missing);
			return `PUT 200, GET 200, GET 404; rays ${sent.map((s) => s.ray).join(", ")}`;
		});

		let deliveries;
		await step("POST .../emulator/logs/flush", async () => {
			deliveries = (await api("POST", `/zones/${ZONE_ID}/emulator/logs/flush`)).deliveries;
			const mine = deliveries.find((d) => d.job_id === job.id);
			if (!mine || mine.records < 3) throw new Error(`delivered ${JSON.stringify(deliveries)}`);
			return `job ${job.id}: ${mine.records} records in ${mine.objects.join(", ")}`;
		});

		await step("read the delivered objects back (gateway, x-r2-bucket), gunzip, find every request", async () => {
			const objects = await delivered(`${PATH}/`);
			const entries = objects.flatMap((o) => o.entries);
			for (const o of objects) line("", `${o.key} (${o.size} bytes gzip, ${o.entries.length} entries)`);
			for (const e of entries) line("", JSON.stringify(e));
			const byRay = new Map(entries.map((e) => [e.RayID, e]));
			const [put, get, missing] = sent;
			expect("PUT RequestHeaders", byRay.get(put.ray)?.RequestHeaders, {
				"content-type": "text/plain",
				"x-forwarded-for": "198.51.100.7",
			});
			expect("GET Cookies", byRay.get(get.ray)?.Cookies, { __ga: "GA1.2.3", accountNumber: "12345" });
			expect("GET ResponseHeaders content-type", byRay.get(get.ray)?.ResponseHeaders?.["content-type"], "text/plain");
			expect("404 status", byRay.get(missing.ray)?.EdgeResponseStatus, 404);
			return `${entries.length} entries, each request found with its configured fields`;
		});

		await step("delivery by the alarm alone (no flush), within LOGPUSH_MIN_INTERVAL_SECONDS", async () => {
			const late = await gw("GET", "/smoke-logs/hello.txt", { headers: { cookie: "accountNumber=999" } });
			const started = Date.now();
			for (;;) {
				const entries = (await delivered(`${PATH}/`)).flatMap((o) => o.entries);
				const found = entries.find((e) => e.RayID === late.ray);
				if (found)
					return `found after ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(found.Cookies)}`;
				if (Date.now() - started > 15_000) throw new Error("not delivered within 15 s");
				await new Promise((r) => setTimeout(r, 500));
			}
		});

		await step("the job's delivery status", async () => {
			const read = await api("GET", `/zones/${ZONE_ID}/logpush/jobs/${job.id}`);
			if (read.last_complete === null || read.last_error !== null) throw new Error(JSON.stringify(read));
			const status = await api("GET", `/zones/${ZONE_ID}/emulator/logs`);
			return `last_complete ${read.last_complete}, last_error null; pending log ${JSON.stringify(status)}`;
		});

		await step("a pending entry survives a restart of wrangler dev (same --persist-to)", async () => {
			// A restart with the default 30 s interval, so the entry is still pending at the stop.
			await dev.stop();
			dev = await startWranglerDev({ persistTo: dev.persistTo, args: ["--var", "LOGPUSH_MIN_INTERVAL_SECONDS:300"] });
			base = dev.url;
			const kept = await gw("GET", "/smoke-logs/hello.txt", { headers: { cookie: "accountNumber=restart" } });
			// With 300 s intervals the edge holds entries 5 s (HOLD_MAX_MS) before handing them to the Zone.
			for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 500))) {
				const held = await api("GET", `/zones/${ZONE_ID}/emulator/logs`);
				if (held.entries > 0 && held.waiting_in_isolate === 0) break;
				if (Date.now() - started > 15_000)
					throw new Error(`not in the pending log within 15 s: ${JSON.stringify(held)}`);
			}
			const before = (await delivered(`${PATH}/`)).flatMap((o) => o.entries);
			if (before.some((e) => e.RayID === kept.ray)) throw new Error("delivered before the stop");
			await dev.stop();
			dev = await startWranglerDev({ persistTo: dev.persistTo });
			base = dev.url;
			const flushed = (await api("POST", `/zones/${ZONE_ID}/emulator/logs/flush`)).deliveries;
			const after = (await delivered(`${PATH}/`)).flatMap((o) => o.entries);
			const found = after.find((e) => e.RayID === kept.ray);
			if (found === undefined) throw new Error(`not delivered after the restart: ${JSON.stringify(flushed)}`);
			return `pending at the stop, delivered by the flush after the restart: ${JSON.stringify(found.Cookies)}`;
		});
	} finally {
		await dev.stop();
	}
	console.log(failures === 0 ? "\nsmoke:logs passed" : `\nsmoke:logs: ${failures} step(s) failed`);
	process.exit(failures === 0 ? 0 : 1);
}

try {
	await main();
} catch (error) {
	console.error(`smoke:logs: ${error.stack ?? error}`);
	process.exit(1);
}
