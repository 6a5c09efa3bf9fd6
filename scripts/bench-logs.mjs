// Edge-log benchmark (issue 9): what logging costs a 1 KiB GET, how fast a flush delivers, and
// whether the pending log stays empty without a job. In ONE `wrangler dev` (the project's
// wrangler.toml, loopback, a temporary --persist-to, LOGPUSH_MIN_INTERVAL_SECONDS raised to 300 so
// only the jobs' own intervals apply), it creates three zones through the API:
// - logoff.example.net: no log-push job (the edge keeps nothing);
// - logon.example.net: custom fields (3 request headers, 2 response headers, 2 cookies) and an
//   enabled http_requests job listing them, with Cloudflare's default 30 s interval, so the
//   Zone's alarm delivers during the rounds as it would;
// - bulk.example.net: the same job with a 300 s interval, filled with requests, then flushed and
//   timed (delivery throughput in entries/s: read, filter, format, gzip, put).
// Rounds interleave 1 KiB GETs with `Host:` each of logoff/logon (node:http, keep-alive, same
// headers and cookies for both) and report req/s and server CPU per GET, and their ratios.
// Writes the figures into BENCHMARKS.md between `logs:begin`/`logs:end`.
//
//   npm run bench:logs [-- --rounds 20 --seconds 2 --concurrency 8 --bulk 5000 --no-write]
import { createHash } from "node:crypto";
import { Agent, request as httpRequest } from "node:http";
import { parseArgs } from "node:util";
import {
	fmt,
	machine as machineSummary,
	median,
	pairRatio,
	timedLoops,
	versions,
	writeBenchmarks,
} from "./lib/bench.mjs";
import { prngBytes } from "./lib/prng.mjs";
import { cpuSecondsOf, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string", default: "20" },
		seconds: { type: "string", default: "2" },
		concurrency: { type: "string", default: "8" },
		bulk: { type: "string", default: "5000" },
		"no-write": { type: "boolean", default: false },
	},
});
const ROUNDS = Number(opts.rounds);
const SLOT_MS = Number(opts.seconds) * 1000;
const CONCURRENCY = Number(opts.concurrency);
const BULK = Number(opts.bulk);
const GATEWAY_TOKEN = "dev-token";
const API_TOKEN = "edgezone_dev_token_000000000000000000000";
const ACCOUNT_ID = "01a7362d577a6c3019a474fd6f485823";
const SIZE = 1024;
const KEY = "bench/logs-1k.bin";
const TARGET_COST = 0.05;
const REQUEST_HEADERS = {
	"x-request-id": "bench-0123456789",
	"x-forwarded-for": "198.51.100.7",
	"user-agent": "edgezone-bench/1",
	cookie: "__ga=GA1.2.3456; accountNumber=12345; theme=dark",
};

const log = (text) => console.log(text);

async function api(base, method, path, body) {
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

/** A zone, with custom fields and an enabled job when `job` is given. */
async function benchZone(base, name, job) {
	const zone = await api(base, "POST", "/zones", { name, account: { id: ACCOUNT_ID } });
	if (job) {
		await api(base, "PUT", `/zones/${zone.id}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					action_parameters: {
						request_fields: [{ name: "x-request-id" }, { name: "x-forwarded-for" }, { name: "user-agent" }],
						response_fields: [{ name: "content-type" }, { name: "etag" }],
						cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }],
					},
				},
			],
		});
		await api(base, "POST", `/zones/${zone.id}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/bench/${name}/{DATE}`,
			enabled: true,
			max_upload_interval_seconds: job.interval,
			output_options: {
				field_names: [
					"RayID",
					"EdgeStartTimestamp",
					"ClientIP",
					"ClientRequestHost",
					"ClientRequestMethod",
					"ClientRequestURI",
					"EdgeResponseStatus",
					"EdgeResponseBytes",
					"Cookies",
					"RequestHeaders",
					"ResponseHeaders",
				],
			},
		});
	}
	return { name, id: zone.id };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

function get(base, host) {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			`${base}/${KEY}`,
			{ headers: { host, authorization: `Bearer ${GATEWAY_TOKEN}`, ...REQUEST_HEADERS }, agent },
			(res) => {
				const hash = createHash("sha256");
				let bytes = 0;
				res.on("data", (chunk) => {
					hash.update(chunk);
					bytes += chunk.length;
				});
				res.on("end", () => resolve({ status: res.statusCode, bytes, sha256: hash.digest("hex") }));
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		req.end();
	});
}

async function getObject(base, zone) {
	const response = await get(base, zone.name);
	if (response.status !== 200 || response.bytes !== SIZE)
		throw new Error(`GET /${KEY} with Host ${zone.name}: status ${response.status}, ${response.bytes} bytes`);
}

async function main() {
	const vers = versions();
	const machine = machineSummary();
	log(`edgezone edge-log benchmark — ${machine}`);
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev({ args: ["--var", "LOGPUSH_MIN_INTERVAL_SECONDS:300"] });
	log(`wrangler dev ready on ${dev.url}`);
	const results = { off: { rate: [], cpu: [] }, on: { rate: [], cpu: [] } };
	let bulk;
	let growth;
	let onStatus;
	try {
		const off = await benchZone(dev.url, "logoff.example.net");
		const on = await benchZone(dev.url, "logon.example.net", { interval: 30 });
		const bulkZone = await benchZone(dev.url, "bulk.example.net", { interval: 300 });
		const body = prngBytes("bench/logs-1k", SIZE);
		const put = await fetch(`${dev.url}/${KEY}`, {
			method: "PUT",
			headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, "content-type": "application/octet-stream" },
			body,
		});
		if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
		for (const zone of [off, on]) for (let i = 0; i < 100; i++) await getObject(dev.url, zone);
		const { user, proxy, node } = dev.workerdPids();
		const cpuSeconds = () => cpuSecondsOf(user) + cpuSecondsOf(proxy) + cpuSecondsOf(node);
		const zones = { off, on };
		for (let round = 0; round < ROUNDS; round++) {
			const order = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
			const parts = [];
			for (const which of order) {
				const { rate, cpu } = await timedLoops({
					slotMs: SLOT_MS,
					concurrency: CONCURRENCY,
					once: () => getObject(dev.url, zones[which]),
					cpuSeconds,
				});
				results[which].rate.push(rate);
				results[which].cpu.push(cpu);
				parts.push(`${which} ${fmt(rate)} req/s ${fmt(cpu)} µs`);
			}
			log(`round ${round + 1}/${ROUNDS}: ${parts.join(", ")}`);
		}
		growth = await api(dev.url, "GET", `/zones/${off.id}/emulator/logs`);
		onStatus = await api(dev.url, "GET", `/zones/${on.id}/emulator/logs`);
		log(`pending log without a job: ${JSON.stringify(growth)}; with the job: ${JSON.stringify(onStatus)}`);

		log(`filling bulk.example.net with ${BULK} requests…`);
		let sent = 0;
		await Promise.all(
			Array.from({ length: CONCURRENCY }, async () => {
				while (sent < BULK) {
					sent++;
					await getObject(dev.url, bulkZone);
				}
			}),
		);
		await new Promise((r) => setTimeout(r, 200));
		const before = await api(dev.url, "GET", `/zones/${bulkZone.id}/emulator/logs`);
		const started = performance.now();
		const flushed = await api(dev.url, "POST", `/zones/${bulkZone.id}/emulator/logs/flush`);
		const seconds = (performance.now() - started) / 1000;
		const [delivery] = flushed.deliveries;
		bulk = { pending: before.jobs[0]?.pending ?? 0, delivery, seconds };
		log(`flush: ${delivery.entries} entries in ${delivery.objects.length} objects in ${fmt(seconds, 2)} s`);
	} finally {
		agent.destroy();
		await dev.stop();
	}
	const cost = {
		throughput: 1 - pairRatio(results, "on", "off", "rate"),
		cpu: pairRatio(results, "on", "off", "cpu") - 1,
	};
	const pct = (x) => `${x >= 0 ? "" : "−"}${fmt(Math.abs(x) * 100, 1)}%`;
	const cell = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
	const lines = [
		`Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; Node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}.`,
		`${ROUNDS} rounds in one \`wrangler dev\`; per round and zone (order alternating): ${CONCURRENCY} concurrent loops of \`GET /${KEY}\` (1 KiB) for ${SLOT_MS / 1000} s, keep-alive node:http, the same request headers and cookies to both zones. Figures: median over rounds (min–max); ratios: median of the per-round ratios.`,
		"",
		"| zone | logging | 1 KiB GET, req/s | req/s, on / off | server CPU per GET | CPU, on / off |",
		"|---|---|---:|---:|---:|---:|",
		`| logoff.example.net | no job | ${cell(results.off.rate)} |  | ${fmt(median(results.off.cpu))} µs |  |`,
		`| logon.example.net | job with 7 custom fields, 30 s interval | ${cell(results.on.rate)} | ${fmt(pairRatio(results, "on", "off", "rate"), 3)}x | ${fmt(median(results.on.cpu))} µs | ${fmt(pairRatio(results, "on", "off", "cpu"), 3)}x |`,
		"",
		`**Logging on against off: ${pct(cost.throughput)} fewer requests/s, ${pct(cost.cpu)} more server CPU per request. Target (< 5%): ${cost.throughput < TARGET_COST ? "met" : "missed"}** (by the requests/s ratio; by CPU: ${cost.cpu < TARGET_COST ? "met" : "missed"}).`,
		"",
		`- **Delivery throughput:** one flush of bulk.example.net delivered ${fmt(bulk.delivery.entries)} entries (${fmt(bulk.delivery.records)} records, ${bulk.delivery.objects.length} gzip objects) in ${fmt(bulk.seconds, 2)} s: **${fmt(bulk.delivery.entries / bulk.seconds)} entries/s** (read from SQLite, format ndjson with custom fields, gzip, put into the local R2 bucket; the flush's HTTP round trip included).`,
		`- **Pending log without a job:** after ${fmt(median(results.off.rate) * ROUNDS * (SLOT_MS / 1000))} or so requests to logoff.example.net it holds **${growth.entries} entries** (the edge keeps nothing when no enabled job reads the log). With the job, after the rounds: ${onStatus.entries} entries pending, delivered by the alarm every 30 s.`,
	];
	const block = lines.join("\n");
	log("");
	log(block);
	if (!opts["no-write"]) {
		writeBenchmarks("logs", block);
		log("\nwrote the figures into BENCHMARKS.md");
	}
}

try {
	await main();
} catch (error) {
	console.error(`bench:logs: ${error.stack ?? error}`);
	process.exit(1);
}
