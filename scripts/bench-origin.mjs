// Proxied-origin benchmark: a local Node origin behind a proxied record of a zone, through
// edgezone (`GET /{path}` with `Host: app.<zone>:<origin port>`: the zone by Host, its firewall
// (no rules), the destination step, the proxy of src/edge/origin/) against the floor, a bare
// Worker route that only forwards the request to the same origin and returns its answer
// (`/__forward/{port}/{path}` of scripts/bench/floor.ts), and against the minimal proxy, what
// Cloudflare's proxy must do on the way there in edgezone's own functions, without its pipeline
// (`/__minimal-proxy/{port}/{path}`), in ONE `wrangler dev` (the bench config of
// scripts/bench/config.mjs). After an untimed slot of 1 KiB GETs each (the JIT's warm-up),
// interleaving the three round by round, it measures
//   (a) requests/s for GET of 1 KiB,
//   (b) MB/s (10^6 bytes/s) for GET of 64 MiB (streamed by the origin with its Content-Length),
// with the CPU per 1 KiB GET of the server (both workerd processes and wrangler's Node) and of the
// user workerd alone, the process that runs the Worker and the busiest of them,
// and prints the medians and the median of the per-round ratios with its 95% bootstrap interval
// (`pairInterval`), edgezone against the minimal proxy too, then writes them into
// BENCHMARKS.md between the `bench-origin:begin`/`bench-origin:end` markers. Loopback only;
// bounded loops; stops by itself.
//
// With `--instructions N`, seconds give way to instructions (`callgrindWorkerd` of
// scripts/lib/bench.mjs: both workerd processes under callgrind, whatever else the machine does):
// per round and contender (order alternating) N sequential 1 KiB GETs, and the instructions the
// user workerd (edgezone) and wrangler's proxy workerd executed for them, per GET; written into
// the `bench-origin-instructions` block.
//
// With `--profile N`, a V8 CPU profile (scripts/lib/v8-profiles.mjs) of edgezone's Worker over N
// 1 KiB GETs of each contender, printed per function in µs per GET: where the edge's JavaScript
// time goes (nothing written). With `--heap N`, a sampled heap profile instead: the bytes the
// Worker's JavaScript allocates per GET, per function (what the garbage collector has to take).
//
// With `--ip-geolocation off`, the zone's IP Geolocation setting is turned off first (no
// `CF-IPCountry`, so `request.cf` is not read): what that header costs, printed, not written.
//
//   node scripts/bench-origin.mjs [--rounds 9 --seconds 2 --large-gets 2 --concurrency 8 --no-write]
//   node scripts/bench-origin.mjs --instructions 200 [--rounds 3 --no-write]
//   npx node scripts/bench-origin.mjs --profile 20000
//   npx node scripts/bench-origin.mjs --heap 4000

import { mkdtempSync } from "node:fs";
import { Agent, createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeBenchConfig } from "./bench/config.mjs";
import {
	callgrindWorkerd,
	fmt,
	inFlight,
	machine,
	median,
	pairInterval,
	pairRatio,
	timedLoops,
	versions,
	writeBenchmarks,
} from "./lib/bench.mjs";
import { MiB } from "./lib/fixtures.mjs";
import { apiV4, DEV_ACCOUNT_ID } from "./lib/http.mjs";
import { cpuProfile, heapProfile, heaviest } from "./lib/v8-profiles.mjs";
import { cpuSecondsOf, freePort, removeOnExit, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string", default: "9" },
		seconds: { type: "string", default: "2" },
		"large-gets": { type: "string", default: "2" },
		concurrency: { type: "string", default: "8" },
		instructions: { type: "string" },
		profile: { type: "string" },
		heap: { type: "string" },
		"ip-geolocation": { type: "string", default: "on" },
		"no-write": { type: "boolean", default: false },
	},
});
const ROUNDS = Number(opts.rounds);
const SLOT_MS = Number(opts.seconds) * 1000;
const LARGE_GETS = Number(opts["large-gets"]);
const CONCURRENCY = Number(opts.concurrency);
const SMALL = 1024;
const LARGE = 64 * MiB;
const ZONE = "bench-origin.example";
const INSTRUCTIONS = opts.instructions === undefined ? 0 : Number(opts.instructions);
const PROFILED = opts.profile === undefined ? 0 : Number(opts.profile);
const HEAP_PROFILED = opts.heap === undefined ? 0 : Number(opts.heap);
if (!["on", "off"].includes(opts["ip-geolocation"])) throw new Error("--ip-geolocation is on or off");
// Only the default zone's figures are BENCHMARKS.md's blocks.
const WRITE = !opts["no-write"] && opts["ip-geolocation"] === "on";

/** The origin: `/small` answers 1 KiB, `/large` 64 MiB in 1 MiB writes, each with its length. */
async function startOrigin() {
	const small = Buffer.alloc(SMALL, 7);
	const block = Buffer.alloc(MiB, 9);
	const server = createServer(async (req, res) => {
		const large = req.url.startsWith("/large");
		res.writeHead(200, { "content-type": "application/octet-stream", "content-length": large ? LARGE : SMALL });
		if (!large) return res.end(small);
		for (let sent = 0; sent < LARGE; sent += MiB)
			if (!res.write(block)) await new Promise((resolve) => res.once("drain", resolve));
		res.end();
	});
	await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
	return { server, port: server.address().port };
}

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** One GET with node:http (so `Host` can be set), the body drained; answers its byte count. */
function get(url, host) {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { agent, headers: host === undefined ? {} : { host } }, (res) => {
			if (res.statusCode !== 200) reject(new Error(`${url} (${host}): ${res.statusCode}`));
			let bytes = 0;
			res.on("data", (chunk) => {
				bytes += chunk.length;
			});
			res.on("end", () => resolve(bytes));
			res.on("error", reject);
		});
		req.on("error", reject);
		req.end();
	});
}

/** A ratio's 95% interval (`pairInterval`), as `(0.91–0.99)`. */
function interval(results, a, b, kind) {
	const [low, high] = pairInterval(results, a, b, kind);
	return `(${fmt(low, 2)}–${fmt(high, 2)})`;
}

/** Requests/s and MB/s, round by round, and their block (module header). */
async function timed(contenders) {
	// The server's CPU as the gateway benchmark counts it: both workerd processes and wrangler's Node.
	const pids = dev.workerdPids();
	const cpuSeconds = () => cpuSecondsOf(pids.user) + cpuSecondsOf(pids.proxy) + cpuSecondsOf(pids.node);
	const results = Object.fromEntries(contenders.map((c) => [c.name, { small: [], large: [], cpu: [], userCpu: [] }]));
	// One untimed slot each first: without it the first round measured the JIT's warm-up, and
	// edgezone, first in it and with more code to compile, paid the most (some 0.8x of its later rounds).
	for (const c of contenders)
		await timedLoops({ slotMs: SLOT_MS, concurrency: CONCURRENCY, once: () => c.get("small"), cpuSeconds });
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? contenders : [...contenders].reverse();
		for (const c of order) {
			const userBefore = cpuSecondsOf(pids.user);
			const slot = await timedLoops({
				slotMs: SLOT_MS,
				concurrency: CONCURRENCY,
				once: () => c.get("small"),
				cpuSeconds,
			});
			results[c.name].small.push(slot.rate);
			results[c.name].cpu.push(slot.cpu);
			results[c.name].userCpu.push(((cpuSecondsOf(pids.user) - userBefore) / slot.requests) * 1e6);
			const started = performance.now();
			for (let k = 0; k < LARGE_GETS; k++) await c.get("large");
			results[c.name].large.push((LARGE * LARGE_GETS) / 1e6 / ((performance.now() - started) / 1000));
		}
		console.log(
			`round ${round + 1}/${ROUNDS}: ${contenders
				.map((c) => `${c.name} ${fmt(results[c.name].small.at(-1))} req/s, ${fmt(results[c.name].large.at(-1))} MB/s`)
				.join("; ")}`,
		);
	}
	const rows = [
		["1 KiB GET, req/s", "small"],
		["1 KiB GET, server CPU per request, µs", "cpu"],
		["1 KiB GET, the user workerd's CPU per request, µs", "userCpu"],
		["64 MiB GET, MB/s", "large"],
	].map(
		([label, kind]) =>
			`| ${label} | ${fmt(median(results.edgezone[kind]))} | ${fmt(median(results.minimal[kind]))} | ${fmt(median(results.floor[kind]))} | **${fmt(pairRatio(results, "edgezone", "floor", kind), 2)}x** ${interval(results, "edgezone", "floor", kind)} | ${fmt(pairRatio(results, "minimal", "floor", kind), 2)}x ${interval(results, "minimal", "floor", kind)} | ${fmt(pairRatio(results, "edgezone", "minimal", kind), 2)}x ${interval(results, "edgezone", "minimal", kind)} |`,
	);
	const v = versions();
	const block = [
		`Run ${new Date().toISOString().slice(0, 10)}: after an untimed ${opts.seconds} s of 1 KiB GETs each, ${ROUNDS} rounds of ${opts.seconds} s (1 KiB, ${CONCURRENCY} in flight) and ${LARGE_GETS} GETs of 64 MiB per contender; ${machine()}; Node ${v.node}, wrangler ${v.wrangler}, workerd ${v.workerd}.`,
		"",
		"| what | edgezone (median) | minimal proxy (median) | floor (median) | edgezone / floor (median of per-round ratios, 95% interval) | minimal proxy / floor | edgezone / minimal proxy |",
		"|---|---|---|---|---|---|---|",
		...rows,
	].join("\n");
	console.log(`\n${block}`);
	if (WRITE) writeBenchmarks("bench-origin", block);
}

/** Instructions per 1 KiB GET, round by round, and their block (`--instructions`, module header). */
async function instructions(contenders, callgrind) {
	const { user, proxy } = dev.workerdPids();
	// Warm the isolates up uninstrumented, then a few more once instrumentation retranslates the code.
	for (const c of contenders) for (let k = 0; k < 100; k++) await c.get("small");
	for (const pid of [user, proxy]) callgrind.on(pid);
	for (const c of contenders) for (let k = 0; k < 20; k++) await c.get("small");
	const results = Object.fromEntries(contenders.map((c) => [c.name, { user: [], both: [] }]));
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? contenders : [...contenders].reverse();
		for (const c of order) {
			const [ofUser, ofProxy] = await callgrind.perRequest([user, proxy], INSTRUCTIONS, () => c.get("small"));
			results[c.name].user.push(ofUser);
			results[c.name].both.push(ofUser + ofProxy);
		}
		console.log(
			`round ${round + 1}/${ROUNDS}, instructions per GET: ${contenders
				.map(
					(c) =>
						`${c.name} ${fmt(results[c.name].user.at(-1) / 1e6, 3)} M (+ proxy ${fmt((results[c.name].both.at(-1) - results[c.name].user.at(-1)) / 1e6, 3)} M)`,
				)
				.join("; ")}`,
		);
	}
	const millions = (values) => `${fmt(median(values) / 1e6, 3)} M`;
	const v = versions();
	const block = [
		`Run ${new Date().toISOString().slice(0, 10)}: ${ROUNDS} rounds of ${INSTRUCTIONS} sequential 1 KiB GETs per contender, both workerd processes under callgrind (${callgrind.valgrind}); ${machine()}; Node ${v.node}, wrangler ${v.wrangler}, workerd ${v.workerd}.`,
		"",
		"| instructions per 1 KiB GET | edgezone (median) | minimal proxy (median) | floor (median) | edgezone / floor (median of per-round ratios) | minimal proxy / floor |",
		"|---|---|---|---|---|---|",
		...[
			["user workerd (edgezone)", "user"],
			["both workerd (+ wrangler's proxy)", "both"],
		].map(
			([label, kind]) =>
				`| ${label} | ${millions(results.edgezone[kind])} | ${millions(results.minimal[kind])} | ${millions(results.floor[kind])} | **${fmt(pairRatio(results, "edgezone", "floor", kind), 3)}x** | ${fmt(pairRatio(results, "minimal", "floor", kind), 3)}x |`,
		),
	].join("\n");
	console.log(`\n${block}`);
	if (WRITE) writeBenchmarks("bench-origin-instructions", block);
}

/** `count` 1 KiB GETs of contender `c`, `CONCURRENCY` in flight, as work to run later. */
function getsOf(c, count) {
	return () => inFlight(count, CONCURRENCY, () => c.get("small"));
}

/** The CPU profile of each contender's 1 KiB GETs (`--profile`, module header): printed, not written. */
async function profiles(contenders, inspectorPort) {
	for (const c of contenders) {
		const profile = await cpuProfile(inspectorPort, PROFILED, getsOf(c, PROFILED));
		console.log(`\n${c.name}: ${PROFILED} GETs of 1 KiB, a sample every ${fmt(profile.sampleUs)} µs; µs per GET`);
		console.log(`-- self (in the function itself)\n${heaviest(profile.self, 30)}`);
		console.log(`-- total (with what it called)\n${heaviest(profile.total, 30)}`);
	}
}

/** The heap profile of each contender's 1 KiB GETs (`--heap`, module header): printed, not written. */
async function heapProfiles(contenders, inspectorPort) {
	// Warm: a profile of code still compiling counts the compiler's allocations too.
	for (const c of contenders) await getsOf(c, 2000)();
	for (const c of contenders) {
		const profile = await heapProfile(inspectorPort, HEAP_PROFILED, getsOf(c, HEAP_PROFILED));
		console.log(
			`\n${c.name}: ${HEAP_PROFILED} GETs of 1 KiB, ${fmt(profile.total)} bytes allocated per GET; by function:`,
		);
		console.log(heaviest(profile.self, 30));
	}
}

const origin = await startOrigin();
const dir = mkdtempSync(join(tmpdir(), "edgezone-bench-origin-"));
removeOnExit(dir);
const callgrind = INSTRUCTIONS > 0 ? callgrindWorkerd(dir) : undefined;
const inspectorPort = PROFILED > 0 || HEAP_PROFILED > 0 ? await freePort() : undefined;
const dev = await startWranglerDev({
	config: writeBenchConfig(dir),
	args: ["--env-file", ".dev.vars.example", ...(inspectorPort ? ["--inspector-port", String(inspectorPort)] : [])],
	// Under callgrind workerd starts some 50 times slower.
	timeoutMs: callgrind === undefined ? 120_000 : 600_000,
});
try {
	const zone = await apiV4(dev.url, "POST", "/zones", { name: ZONE, account: { id: DEV_ACCOUNT_ID } });
	await apiV4(dev.url, "POST", `/zones/${zone.id}/dns_records`, {
		type: "A",
		name: "app",
		content: "127.0.0.1",
		proxied: true,
	});
	await apiV4(dev.url, "PATCH", `/zones/${zone.id}/settings/ip_geolocation`, { value: opts["ip-geolocation"] });
	const host = `app.${ZONE}:${origin.port}`;
	const contenders = [
		{ name: "edgezone", get: (path) => get(`${dev.url}/${path}`, host) },
		{ name: "minimal", get: (path) => get(`${dev.url}/__minimal-proxy/${origin.port}/${path}`) },
		{ name: "floor", get: (path) => get(`${dev.url}/__forward/${origin.port}/${path}`) },
	];
	for (const c of contenders) {
		if ((await c.get("small")) !== SMALL || (await c.get("large")) !== LARGE) throw new Error(`${c.name}: wrong size`);
	}
	if (callgrind !== undefined) await instructions(contenders, callgrind);
	else if (PROFILED > 0 && inspectorPort !== undefined) await profiles(contenders, inspectorPort);
	else if (inspectorPort !== undefined) await heapProfiles(contenders, inspectorPort);
	else await timed(contenders);
} finally {
	agent.destroy();
	origin.server.closeAllConnections();
	origin.server.close();
	await dev.stop();
}
