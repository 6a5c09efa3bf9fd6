// Proxied-origin benchmark: a local Node origin behind a proxied record of a zone, through
// edgezone (`GET /{path}` with `Host: app.<zone>:<origin port>`: the zone by Host, its firewall
// (no rules), the destination step, the proxy of src/edge/origin/) against the floor, a bare
// Worker route that only forwards the request to the same origin and returns its answer
// (`/__forward/{port}/{path}` of scripts/bench/floor.ts), in ONE `wrangler dev` (the bench config
// of scripts/bench/config.mjs). Interleaving the two round by round, it measures
//   (a) requests/s for GET of 1 KiB,
//   (b) MB/s (10^6 bytes/s) for GET of 64 MiB (streamed by the origin with its Content-Length),
// and prints the medians and the median of the per-round ratios, then writes them into
// BENCHMARKS.md between the `bench-origin:begin`/`bench-origin:end` markers. Loopback only;
// bounded loops; stops by itself.
//
//   node scripts/bench-origin.mjs [--rounds 9 --seconds 2 --large-gets 2 --concurrency 8 --no-write]

import { mkdtempSync } from "node:fs";
import { Agent, createServer, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeBenchConfig } from "./bench/config.mjs";
import { fmt, machine, median, pairRatio, timedLoops, versions, writeBenchmarks } from "./lib/bench.mjs";
import { MiB } from "./lib/fixtures.mjs";
import { apiV4, DEV_ACCOUNT_ID } from "./lib/http.mjs";
import { cpuSecondsOf, removeOnExit, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string", default: "9" },
		seconds: { type: "string", default: "2" },
		"large-gets": { type: "string", default: "2" },
		concurrency: { type: "string", default: "8" },
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

const origin = await startOrigin();
const dir = mkdtempSync(join(tmpdir(), "edgezone-bench-origin-"));
removeOnExit(dir);
const dev = await startWranglerDev({ config: writeBenchConfig(dir), args: ["--env-file", ".dev.vars.example"] });
try {
	const zone = await apiV4(dev.url, "POST", "/zones", { name: ZONE, account: { id: DEV_ACCOUNT_ID } });
	await apiV4(dev.url, "POST", `/zones/${zone.id}/dns_records`, {
		type: "A",
		name: "app",
		content: "127.0.0.1",
		proxied: true,
	});
	const host = `app.${ZONE}:${origin.port}`;
	const contenders = [
		{ name: "edgezone", get: (path) => get(`${dev.url}/${path}`, host) },
		{ name: "floor", get: (path) => get(`${dev.url}/__forward/${origin.port}/${path}`) },
	];
	for (const c of contenders) {
		if ((await c.get("small")) !== SMALL || (await c.get("large")) !== LARGE) throw new Error(`${c.name}: wrong size`);
	}
	// The server's CPU as the gateway benchmark counts it: both workerd processes and wrangler's Node.
	const pids = dev.workerdPids();
	const cpuSeconds = () => cpuSecondsOf(pids.user) + cpuSecondsOf(pids.proxy) + cpuSecondsOf(pids.node);
	const results = Object.fromEntries(contenders.map((c) => [c.name, { small: [], large: [], cpu: [] }]));
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? contenders : [...contenders].reverse();
		for (const c of order) {
			const timed = await timedLoops({
				slotMs: SLOT_MS,
				concurrency: CONCURRENCY,
				once: () => c.get("small"),
				cpuSeconds,
			});
			results[c.name].small.push(timed.rate);
			results[c.name].cpu.push(timed.cpu);
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
		["64 MiB GET, MB/s", "large"],
	].map(
		([label, kind]) =>
			`| ${label} | ${fmt(median(results.edgezone[kind]))} | ${fmt(median(results.floor[kind]))} | **${fmt(pairRatio(results, "edgezone", "floor", kind), 2)}x** |`,
	);
	const v = versions();
	const block = [
		`Run ${new Date().toISOString().slice(0, 10)}: ${ROUNDS} rounds of ${opts.seconds} s (1 KiB, ${CONCURRENCY} in flight) and ${LARGE_GETS} GETs of 64 MiB per contender; ${machine()}; Node ${v.node}, wrangler ${v.wrangler}, workerd ${v.workerd}.`,
		"",
		"| what | edgezone (median) | floor (median) | edgezone / floor (median of per-round ratios) |",
		"|---|---|---|---|",
		...rows,
	].join("\n");
	console.log(`\n${block}`);
	if (!opts["no-write"]) writeBenchmarks("bench-origin", block);
} finally {
	agent.destroy();
	origin.server.closeAllConnections();
	origin.server.close();
	await dev.stop();
}
