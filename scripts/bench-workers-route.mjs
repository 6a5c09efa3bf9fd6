// Workers route benchmark: what the edge costs a Worker behind a route. In ONE `wrangler dev` with
// two configs (multi-config dev, as docs/workers-routes.md runs a Worker beside edgezone): the bench
// config of scripts/bench/config.mjs (edgezone and the floor routes of scripts/bench/floor.ts) with
// a `[[services]]` binding BENCH_TARGET, and scripts/bench/target-worker.js, which answers 1 KiB
// and 64 MiB from memory. Through the API it routes bench.example.com/* to that Worker
// (WORKER_SCRIPTS by --var), checks that both ways answer the same bytes, then interleaves rounds
// of GETs: through edgezone (Host bench.example.com: zone, firewall, route, log tap, the Worker)
// and through the floor (`/__worker-floor/`: a bare Worker handing the request to the same
// binding). It reports requests/s (1 KiB, `--concurrency` loops) and MB/s (64 MiB, one at a time)
// and their ratios (median of per-round ratios), and writes them into BENCHMARKS.md between the
// `workers-route:begin`/`:end` markers. Bounded; about 2 minutes; not run by CI.
//
//   node scripts/bench-workers-route.mjs [--rounds 9 --seconds 3 --concurrency 8 --no-write]
import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { writeBenchConfig } from "./bench/config.mjs";
import { fmt, machine, median, pairRatio, timedLoops, versions, writeBenchmarks } from "./lib/bench.mjs";
import { ROOT } from "./lib/fixtures.mjs";
import { apiV4 } from "./lib/http.mjs";
import { removeOnExit, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string", default: "9" },
		seconds: { type: "string", default: "3" },
		concurrency: { type: "string", default: "8" },
		"no-write": { type: "boolean", default: false },
	},
});
const ROUNDS = Number(opts.rounds);
const SLOT_MS = Number(opts.seconds) * 1000;
const CONCURRENCY = Number(opts.concurrency);
const ZONE = "023e105f4ecef8ad9ca31a8372d0c353"; // example.com, the default zone
const HOST = "bench.example.com";
const SIZES = { "1k": 1024, "64m": 64 * 1024 * 1024 };
/** The contenders: how each asks for `/1k` or `/64m`. */
const WAYS = {
	edgezone: (size) => ({ host: HOST, path: `/${size}` }),
	floor: (size) => ({ host: "localhost", path: `/__worker-floor/${size}` }),
};
const log = (text) => console.log(text);

const dir = mkdtempSync(join(tmpdir(), "edgezone-bench-route-"));
removeOnExit(dir);
const config = writeBenchConfig(dir);
appendFileSync(config, '\n[[services]]\nbinding = "BENCH_TARGET"\nservice = "bench-target"\n');
const target = join(dir, "target.toml");
writeFileSync(
	target,
	`name = "bench-target"\nmain = ${JSON.stringify(join(ROOT, "scripts/bench/target-worker.js"))}\ncompatibility_date = "2026-10-23"\n`,
);
const dev = await startWranglerDev({
	config,
	args: [
		"-c",
		target,
		"--env-file",
		join(ROOT, ".dev.vars.example"),
		"--var",
		'WORKER_SCRIPTS:{"bench-target":"BENCH_TARGET"}',
	],
	env: { GATEWAY_TOKENS: undefined, API_CREDENTIALS: undefined },
});
const base = new URL(dev.url);
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One GET: its status and the number of body bytes, read and dropped. */
function get({ host, path }) {
	return new Promise((resolve, reject) => {
		const req = httpRequest({ host: base.hostname, port: base.port, path, headers: { host }, agent }, (res) => {
			let bytes = 0;
			res.on("data", (chunk) => {
				bytes += chunk.length;
			});
			res.on("end", () => resolve({ status: res.statusCode, bytes, encoding: res.headers["content-encoding"] }));
			res.on("error", reject);
		});
		req.on("error", reject);
		req.end();
	});
}

try {
	await apiV4(dev.url, "POST", `/zones/${ZONE}/workers/routes`, { pattern: `${HOST}/*`, script: "bench-target" });
	// Wire check: both ways answer the same bytes, uncompressed.
	for (const [size, bytes] of Object.entries(SIZES)) {
		for (const [way, ask] of Object.entries(WAYS)) {
			const answer = await get(ask(size));
			if (answer.status !== 200 || answer.bytes !== bytes || answer.encoding !== undefined)
				throw new Error(`${way} /${size}: ${JSON.stringify(answer)}, expected 200 with ${bytes} bytes, no encoding`);
		}
	}
	// Warm-up.
	for (const ask of Object.values(WAYS))
		await timedLoops({ slotMs: 1000, concurrency: CONCURRENCY, once: () => get(ask("1k")), cpuSeconds: () => 0 });

	const results = Object.fromEntries(Object.keys(WAYS).map((way) => [way, { rate: [], mbps: [] }]));
	for (let round = 0; round < ROUNDS; round++) {
		const order = round % 2 === 0 ? Object.keys(WAYS) : Object.keys(WAYS).reverse();
		for (const way of order) {
			const small = await timedLoops({
				slotMs: SLOT_MS,
				concurrency: CONCURRENCY,
				once: () => get(WAYS[way]("1k")),
				cpuSeconds: () => 0,
			});
			results[way].rate.push(small.rate);
			const large = await timedLoops({
				slotMs: SLOT_MS,
				concurrency: 1,
				once: () => get(WAYS[way]("64m")),
				cpuSeconds: () => 0,
			});
			results[way].mbps.push((large.rate * SIZES["64m"]) / 1e6);
		}
		log(
			`round ${round + 1}/${ROUNDS}: ${Object.entries(results)
				.map(([w, r]) => `${w} ${fmt(r.rate.at(-1))} req/s ${fmt(r.mbps.at(-1))} MB/s`)
				.join(", ")}`,
		);
	}
	const small = pairRatio(results, "edgezone", "floor", "rate");
	const large = pairRatio(results, "edgezone", "floor", "mbps");
	const range = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
	const v = versions();
	const block = [
		`${new Date().toISOString().slice(0, 10)}, ${ROUNDS} rounds of ${opts.seconds} s (1 KiB: ${CONCURRENCY} loops; 64 MiB: one at a time), ${machine()}; Node ${v.node}, wrangler ${v.wrangler}, miniflare ${v.miniflare}, workerd ${v.workerd}. Medians (range):`,
		"",
		"| way | 1 KiB GET, req/s | 64 MiB GET, MB/s |",
		"|---|---|---|",
		...Object.entries(results).map(([way, r]) => `| ${way} | ${range(r.rate)} | ${range(r.mbps)} |`),
		"",
		`**edgezone / floor: ${fmt(small, 2)}x (1 KiB), ${fmt(large, 2)}x (64 MiB)** (median of per-round ratios; target ≥ 0.95x).`,
	].join("\n");
	log(`\n${block}`);
	if (!opts["no-write"]) writeBenchmarks("workers-route", block);
} finally {
	agent.destroy();
	await dev.stop();
}
