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
// With --instructions it counts instructions instead of seconds, as bench:firewall does: both
// workerd processes run under Valgrind's callgrind (`callgrindWorkerd` in scripts/lib/bench.mjs),
// the zones are warmed up uninstrumented, then each round sends `--requests` sequential GETs to
// each zone (order alternating) and reads the instructions both processes executed for them,
// including the isolate buffer's append RPC to the Zone (a pause after each slot lets the last
// append land in its own slot). The job's interval is 300 s there, the longest; a run lasts
// longer, so the alarm still delivers once or twice during the rounds (noise in whichever slot it
// falls). The delivery is also counted apart, by one flush of what is pending after the rounds.
// Figures go between `logs-instructions:begin`/`:end`. About 10 minutes; not run by CI.
//
//   npm run bench:logs [-- --rounds 20 --seconds 2 --concurrency 8 --bulk 5000 --no-write]
//   npm run bench:logs -- --instructions [--rounds 3 --requests 300 --warmup 600 --no-write]
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import {
	callgrindWorkerd,
	fmt,
	inFlight,
	machine as machineSummary,
	median,
	millions,
	pairRatio,
	timedLoops,
	versions,
	writeBenchmarks,
} from "./lib/bench.mjs";
import { apiV4, DEV_ACCOUNT_ID } from "./lib/http.mjs";
import { prngBytes } from "./lib/prng.mjs";
import { cpuSecondsOf, removeOnExit, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string" },
		seconds: { type: "string", default: "2" },
		concurrency: { type: "string", default: "8" },
		bulk: { type: "string", default: "5000" },
		instructions: { type: "boolean", default: false },
		requests: { type: "string", default: "300" },
		warmup: { type: "string", default: "600" },
		"no-write": { type: "boolean", default: false },
	},
});
const INSTRUCTIONS = opts.instructions;
const ROUNDS = Number(opts.rounds ?? (INSTRUCTIONS ? 3 : 20));
/** Instructions mode: sequential GETs per zone and round, and uninstrumented warm-up GETs per zone. */
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
/**
 * Instructions mode: the pause after each counted slot, longer than the isolate's hold (5 s at the
 * job's 300 s interval, HOLD_MAX_MS) under Valgrind, so each slot's last append is counted in it.
 */
const SETTLE_MS = 6500;
const SLOT_MS = Number(opts.seconds) * 1000;
const CONCURRENCY = Number(opts.concurrency);
const BULK = Number(opts.bulk);
const GATEWAY_TOKEN = "dev-token";
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

/** A zone, with custom fields and an enabled job when `job` is given. */
async function benchZone(base, name, job) {
	const zone = await apiV4(base, "POST", "/zones", { name, account: { id: DEV_ACCOUNT_ID } });
	if (job) {
		await apiV4(base, "PUT", `/zones/${zone.id}/rulesets/phases/http_log_custom_fields/entrypoint`, {
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
		await apiV4(base, "POST", `/zones/${zone.id}/logpush/jobs`, {
			destination_conf: `r2://edgezone-logs/${zone.id}/bench/${name}/{DATE}`,
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

/** The zones without and with logging, and the 1 KiB object; `interval` is the job's, in seconds. */
async function prepare(dev, interval) {
	const off = await benchZone(dev.url, "logoff.example.net");
	const on = await benchZone(dev.url, "logon.example.net", { interval });
	const put = await fetch(`${dev.url}/${KEY}`, {
		method: "PUT",
		headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, "content-type": "application/octet-stream" },
		body: prngBytes("bench/logs-1k", SIZE),
	});
	if (put.status !== 200) throw new Error(`PUT: ${put.status}`);
	return { off, on };
}

/**
 * The instruction count: per round and zone (order alternating), `REQUESTS` sequential GETs, a
 * pause for the isolate buffer's last append, and the instructions the user workerd (edgezone:
 * the worker, the Zone Durable Objects, R2) and wrangler's proxy workerd executed meanwhile, per
 * GET. Then one flush of the logging zone's pending entries, counted per entry delivered.
 */
async function counted(dev, zones, callgrind) {
	log(`warming up, uninstrumented: ${WARMUP} GETs per zone`);
	for (const zone of Object.values(zones)) for (let i = 0; i < WARMUP; i++) await getObject(dev.url, zone);
	// What the warm-up logged is delivered now, so that the counted flush holds the rounds' entries only.
	await apiV4(dev.url, "POST", `/zones/${zones.on.id}/emulator/logs/flush`);
	const { user, proxy } = dev.workerdPids();
	for (const pid of [user, proxy]) callgrind.on(pid);
	// Instrumentation retranslates all code: a few requests per zone before anything counts.
	for (const zone of Object.values(zones)) for (let i = 0; i < 10; i++) await getObject(dev.url, zone);
	await new Promise((r) => setTimeout(r, SETTLE_MS));
	const results = { off: { user: [], both: [] }, on: { user: [], both: [] } };
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? ["off", "on"] : ["on", "off"];
		const line = [];
		for (const which of order) {
			const [ofUser, ofProxy] = await callgrind.perRequest(
				[user, proxy],
				REQUESTS,
				() => getObject(dev.url, zones[which]),
				() => new Promise((r) => setTimeout(r, SETTLE_MS)),
			);
			results[which].user.push(ofUser);
			results[which].both.push(ofUser + ofProxy);
			line.push(`${which} ${fmt(ofUser / 1e6, 3)} M (+ proxy ${fmt(ofProxy / 1e6, 3)} M)`);
		}
		log(`round ${round + 1}/${ROUNDS}, instructions per GET: ${line.join(", ")}`);
	}
	// Delivery: the user workerd's instructions for one flush (read, filter, format, gzip, put), per
	// entry; the flush's own HTTP request through the proxy is a few per 1,000 entries, left out.
	const status = await apiV4(dev.url, "GET", `/zones/${zones.on.id}/emulator/logs`);
	callgrind.zero(user);
	const flushed = await apiV4(dev.url, "POST", `/zones/${zones.on.id}/emulator/logs/flush`);
	const flushInstructions = callgrind.total(user);
	const entries = flushed.deliveries.reduce((n, d) => n + d.entries, 0);
	log(`flush: ${entries} entries, ${fmt(flushInstructions / 1e6, 1)} M instructions`);
	const growth = await apiV4(dev.url, "GET", `/zones/${zones.off.id}/emulator/logs`);
	return { results, delivery: { entries, perEntry: flushInstructions / entries, pending: status }, growth };
}

function instructionsReport({ results, delivery, growth, machine, vers, date, valgrind }) {
	const pct = (x) => `${x >= 0 ? "+" : "−"}${fmt(Math.abs(x) * 100, 1)}%`;
	const cost = { user: pairRatio(results, "on", "off", "user") - 1, both: pairRatio(results, "on", "off", "both") - 1 };
	const withDelivery = (median(results.on.user) + delivery.perEntry) / median(results.off.user) - 1;
	const met = cost.user < TARGET_COST;
	const lines = [
		`Measured ${date} on ${machine}; Node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}, ${valgrind}.`,
		`Instructions, not seconds (\`npm run bench:logs -- --instructions\`): one \`wrangler dev\` with both workerd processes under callgrind; ${fmt(WARMUP)} uninstrumented GETs per zone to warm up, then ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; per round and zone (order alternating) ${fmt(REQUESTS)} sequential \`GET /${KEY}\` (1 KiB, keep-alive node:http, the same request headers and cookies to both zones) and a ${fmt(SETTLE_MS / 1000, 1)} s pause for the isolate buffer's last append, and the instructions each process executed meanwhile (all its threads), per GET. The job's interval is 300 s, the longest, so a batch the zone's config check (once a second with traffic) has not taken along waits 5 s for an append RPC of its own (a sixth of the interval, at most 5 s: as at Cloudflare's default of 30 s; under \`npm run dev\`'s 2 s cap, 2 s); a run lasts longer than 300 s, so the Zone's alarm delivers once or twice during the rounds, in whichever slot it falls (a few hundred entries at the delivery cost below); the delivery is also counted apart. Figures: median over rounds (min–max); ratios: median of the per-round ratios.`,
		"",
		"| zone | logging | user workerd (edgezone), instructions per GET | on / off | both workerd (+ wrangler's proxy) | on / off |",
		"|---|---|---:|---:|---:|---:|",
		`| logoff.example.net | no job | ${millions(results.off.user)} |  | ${millions(results.off.both)} |  |`,
		`| logon.example.net | job with 7 custom fields, 300 s interval | ${millions(results.on.user)} | ${fmt(pairRatio(results, "on", "off", "user"), 3)}x | ${millions(results.on.both)} | ${fmt(pairRatio(results, "on", "off", "both"), 3)}x |`,
		"",
		`**Logging on against off: ${pct(cost.user)} instructions per GET in the user workerd, ${pct(cost.both)} across both workerd processes. Target (< 5%): ${met ? "met" : "missed"}** (by the user workerd's count, the stricter: wrangler's proxy does the same work for both zones; by both: ${cost.both < TARGET_COST ? "met" : "missed"}).`,
		"",
		`- **Delivery, counted apart:** one flush of logon.example.net's ${fmt(delivery.entries)} pending entries (read from SQLite, filter, ndjson with custom fields, gzip, put into the local R2 bucket) cost the user workerd ${fmt(delivery.perEntry / 1e3, 1)} k instructions per entry; with it, a logged GET costs ${pct(withDelivery)} against one not logged (median of the on zone plus delivery per entry, over the median of the off zone).`,
		`- **Pending log without a job:** after the rounds logoff.example.net holds **${growth.entries} entries**.`,
	];
	return { block: lines.join("\n"), met, cost };
}

/** The instructions mode of the benchmark (--instructions). */
async function mainInstructions() {
	const vers = versions();
	const machine = machineSummary();
	log(`edgezone edge-log benchmark, instructions — ${machine}`);
	const dir = mkdtempSync(join(tmpdir(), "edgezone-callgrind-"));
	removeOnExit(dir);
	const callgrind = callgrindWorkerd(dir);
	log(`counting instructions: ${callgrind.workerd} under ${callgrind.valgrind}`);
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev({ args: ["--var", "LOGPUSH_MIN_INTERVAL_SECONDS:300"], timeoutMs: 600_000 });
	log(`wrangler dev ready on ${dev.url}, processes ${JSON.stringify(dev.workerdPids())}`);
	let counts;
	try {
		const zones = await prepare(dev, 300);
		counts = await counted(dev, zones, callgrind);
	} finally {
		agent.destroy();
		await dev.stop();
	}
	const date = new Date().toISOString().slice(0, 10);
	const { block, met, cost } = instructionsReport({ ...counts, machine, vers, date, valgrind: callgrind.valgrind });
	log("");
	log(block);
	log("");
	log(
		`target ${met ? "met" : "missed"}: logging costs ${fmt(cost.user * 100, 1)}% more instructions per GET in the user workerd (target < 5%)`,
	);
	if (!opts["no-write"]) {
		writeBenchmarks("logs-instructions", block);
		log("\nwrote the figures into BENCHMARKS.md (logs-instructions)");
	}
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
		const { off, on } = await prepare(dev, 30);
		const bulkZone = await benchZone(dev.url, "bulk.example.net", { interval: 300 });
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
		growth = await apiV4(dev.url, "GET", `/zones/${off.id}/emulator/logs`);
		onStatus = await apiV4(dev.url, "GET", `/zones/${on.id}/emulator/logs`);
		log(`pending log without a job: ${JSON.stringify(growth)}; with the job: ${JSON.stringify(onStatus)}`);

		log(`filling bulk.example.net with ${BULK} requests…`);
		await inFlight(BULK, CONCURRENCY, () => getObject(dev.url, bulkZone));
		await new Promise((r) => setTimeout(r, 200));
		const before = await apiV4(dev.url, "GET", `/zones/${bulkZone.id}/emulator/logs`);
		const started = performance.now();
		const flushed = await apiV4(dev.url, "POST", `/zones/${bulkZone.id}/emulator/logs/flush`);
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
	await (INSTRUCTIONS ? mainInstructions() : main());
} catch (error) {
	console.error(`bench:logs: ${error.stack ?? error}`);
	process.exit(1);
}
