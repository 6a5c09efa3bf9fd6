// Firewall benchmark: what a zone's rules cost a gateway GET. In ONE `wrangler dev` (the project's
// wrangler.toml, loopback, a temporary --persist-to), it creates three zones through the API,
// bench0/bench10/bench100.example.net, with 0, 10 and 100 rules (half firewall rules made by the
// spec's flow, filters then rules by filter.id, half WAF custom rules; mixed operators, none
// matching the benchmark request, so every rule is evaluated: scripts/bench/firewall-rules.mjs),
// puts one 1 KiB object, checks that a request matching a rule is refused, then interleaves rounds
// of 1 KiB GETs of the object with `Host:` set to each zone's name (node:http: Node's fetch sends
// the URL's host whatever Host header it is given), and reports requests/s and server CPU per
// request for each zone, and their ratios to the zone without rules (median of per-round ratios).
// Before that, with no wrangler dev running, it times the Rules language in Node 22
// (scripts/bench/rules-timing.mjs): compile() and matches() of a 4,096-character expression and of
// the 100 rules. Bounded loops; stops by itself. Prints a table and writes it into BENCHMARKS.md
// between the `firewall:begin`/`firewall:end` markers.
//
// With --instructions it counts instructions instead of seconds, which a shared, loaded machine
// does not disturb: both workerd processes of the same `wrangler dev` run under Valgrind's
// callgrind (Debian's valgrind package; `callgrindWorkerd` in scripts/lib/bench.mjs), the zones
// are warmed up uninstrumented, then each round sends `--requests` sequential GETs to each zone
// (order rotating) and reads the instructions both processes executed for them. Figures go
// between the `firewall-instructions:begin`/`:end` markers. About 10 minutes; not run by CI.
//
//   npm run bench:firewall [-- --rounds 25 --seconds 2 --concurrency 8 --samples 400 --no-write]
//   npm run bench:firewall -- --instructions [--rounds 3 --requests 300 --warmup 600 --no-write]
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { MATCHING_PATH, OBJECT_KEY, zoneRules } from "./bench/firewall-rules.mjs";
import {
	callgrindWorkerd,
	fmt,
	machine as machineSummary,
	median,
	millions,
	pairRatio,
	timedLoops,
	versions,
	writeBenchmarks,
} from "./lib/bench.mjs";
import { ROOT } from "./lib/fixtures.mjs";
import { apiV4, DEV_ACCOUNT_ID } from "./lib/http.mjs";
import { prngBytes } from "./lib/prng.mjs";
import { cpuSecondsOf, removeOnExit, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		rounds: { type: "string" },
		seconds: { type: "string", default: "2" },
		concurrency: { type: "string", default: "8" },
		samples: { type: "string", default: "400" },
		instructions: { type: "boolean", default: false },
		requests: { type: "string", default: "300" },
		warmup: { type: "string", default: "600" },
		"no-write": { type: "boolean", default: false },
	},
});
const INSTRUCTIONS = opts.instructions;
const ROUNDS = Number(opts.rounds ?? (INSTRUCTIONS ? 3 : 25));
/** Instructions mode: sequential GETs per zone and round, and uninstrumented warm-up GETs per zone. */
const REQUESTS = Number(opts.requests);
const WARMUP = Number(opts.warmup);
const SLOT_MS = Number(opts.seconds) * 1000;
const CONCURRENCY = Number(opts.concurrency);
const GATEWAY_TOKEN = "dev-token";
const SIZE = 1024;
/** The contenders: zones with this many rules. */
const RULE_COUNTS = [0, 10, 100];
/** The target of issue 8: 100 rules cost less than 5% against none. */
const TARGET_COST = 0.05;

const log = (text) => console.log(text);

/** The Rules language timed in a child Node (TypeScript sources need --experimental-transform-types). */
function rulesTiming() {
	const child = spawnSync(
		process.execPath,
		[
			"--experimental-transform-types",
			"--disable-warning=ExperimentalWarning",
			join(ROOT, "scripts/bench/rules-timing.mjs"),
			"--samples",
			opts.samples,
		],
		{ cwd: ROOT, encoding: "utf8", timeout: 300_000 },
	);
	if (child.status !== 0)
		throw new Error(`rules-timing.mjs failed (${child.status ?? child.signal}):\n${child.stderr}`);
	return JSON.parse(child.stdout);
}

/** A zone named `bench{n}.example.net` with `n` rules: filters, firewall rules by filter.id, custom rules. */
async function benchZone(base, n) {
	const name = `bench${n}.example.net`;
	const zone = await apiV4(base, "POST", "/zones", { name, account: { id: DEV_ACCOUNT_ID } });
	const { filters, customRules } = zoneRules(n);
	if (filters.length > 0) {
		const created = await apiV4(
			base,
			"POST",
			`/zones/${zone.id}/filters`,
			filters.map(({ expression, description }) => ({ expression, description })),
		);
		await apiV4(
			base,
			"POST",
			`/zones/${zone.id}/firewall/rules`,
			created.map((filter, i) => ({
				filter: { id: filter.id },
				action: filters[i].action,
				description: filters[i].description,
			})),
		);
	}
	if (customRules.length > 0) {
		await apiV4(base, "PUT", `/zones/${zone.id}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: customRules,
		});
	}
	return { name, id: zone.id, rules: n, firewallRules: filters.length, customRules: customRules.length };
}

/** Keep-alive connections for every timed request, as fetch would pool them. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** One GET with node:http (which sends the Host header it is given): status, headers, body bytes and SHA-256. */
function get(base, host, path) {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			`${base}${path}`,
			{ headers: { host, authorization: `Bearer ${GATEWAY_TOKEN}` }, agent },
			(res) => {
				const hash = createHash("sha256");
				const chunks = [];
				let bytes = 0;
				res.on("data", (chunk) => {
					hash.update(chunk);
					bytes += chunk.length;
					if (bytes <= 4096) chunks.push(chunk);
				});
				res.on("end", () =>
					resolve({
						status: res.statusCode,
						headers: res.headers,
						bytes,
						sha256: hash.digest("hex"),
						text: () => Buffer.concat(chunks).toString("utf8"),
					}),
				);
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		req.end();
	});
}

/** A timed GET of the object: throws unless it is a 200 with the whole object. */
async function getObject(base, zone) {
	const response = await get(base, zone.name, `/${OBJECT_KEY}`);
	if (response.status !== 200 || response.bytes !== SIZE) {
		throw new Error(`GET /${OBJECT_KEY} with Host ${zone.name}: status ${response.status}, ${response.bytes} bytes`);
	}
}

/** CPU seconds used so far by wrangler dev's processes: both workerd and wrangler's node. */
let serverCpu = () => 0;

/** Requests/s of `CONCURRENCY` loops of GETs for `SLOT_MS`, and server CPU per request (µs). */
function requestsPerSecond(base, zone) {
	return timedLoops({
		slotMs: SLOT_MS,
		concurrency: CONCURRENCY,
		once: () => getObject(base, zone),
		cpuSeconds: serverCpu,
	});
}

/** Requests that must be refused or served, once each: the firewall is on, and routes by Host. */
async function sanity(base, zones) {
	const lines = [];
	const expect = async (zone, path, status, what) => {
		const response = await get(base, zone.name, path);
		const ray = response.headers["cf-ray"];
		const line = `\`GET ${path}\` with \`Host: ${zone.name}\` (${zone.rules} rules): **${response.status}** ${what(response)}, \`CF-Ray: ${ray}\``;
		if (response.status !== status || !/^[0-9a-f]{16}-[A-Z]{3}$/.test(ray ?? ""))
			throw new Error(`sanity check failed (expected ${status}): ${line}`);
		lines.push(line);
	};
	const [none, , hundred] = zones;
	await expect(hundred, MATCHING_PATH, 403, (r) =>
		r.text().includes("Sorry, you have been blocked") ? "Cloudflare's block page" : "NOT the block page",
	);
	await expect(hundred, "/admin/50", 429, (r) => `the custom rule's response \`${r.text()}\``);
	await expect(none, MATCHING_PATH, 404, () => "from the gateway (no such key): that zone has no rules");
	return lines;
}

/** What 100 rules cost against none, from throughput (1 − req/s ratio) and from CPU (CPU ratio − 1). */
function costs(results) {
	return {
		throughput: 1 - pairRatio(results, 100, 0, "rate"),
		cpu: pairRatio(results, 100, 0, "cpu") - 1,
	};
}

function report({ results, zones, checks, timing, machine, vers, date }) {
	const pct = (x) => `${x >= 0 ? "" : "−"}${fmt(Math.abs(x) * 100, 1)}%`;
	const cell = (xs) => `${fmt(median(xs))} (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
	const us = (t) => `${fmt(t.median, t.median < 100 ? 1 : 0)} µs`;
	const lines = [];
	lines.push(
		`Measured ${date} on ${machine}; Node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}.`,
	);
	lines.push(
		`${ROUNDS} rounds in one \`wrangler dev\`; per round and zone (order rotating): ${CONCURRENCY} concurrent loops of \`GET /${OBJECT_KEY}\` (1 KiB) for ${SLOT_MS / 1000} s, keep-alive node:http, \`Host:\` the zone's name. Figures: median over rounds (min–max); ratios: median of the per-round ratios.`,
	);
	lines.push("");
	lines.push(
		"| zone | rules (firewall + custom) | 1 KiB GET, req/s | req/s, this / 0 rules | server CPU per GET | CPU, this / 0 rules |",
	);
	lines.push("|---|---|---:|---:|---:|---:|");
	for (const zone of zones) {
		const r = results[zone.rules];
		const vs = (kind) => (zone.rules === 0 ? "" : `${fmt(pairRatio(results, zone.rules, 0, kind), 3)}x`);
		lines.push(
			`| ${zone.name} | ${zone.rules} (${zone.firewallRules} + ${zone.customRules}) | ${cell(r.rate)} | ${vs("rate")} | ${fmt(median(r.cpu))} µs | ${vs("cpu")} |`,
		);
	}
	const cost = costs(results);
	const met = cost.throughput < TARGET_COST;
	lines.push("");
	lines.push(
		`**100 rules against 0 rules: ${pct(cost.throughput)} fewer requests/s, ${pct(cost.cpu)} more server CPU per request. Target (< 5%): ${met ? "met" : "missed"}** (by the requests/s ratio; by CPU: ${cost.cpu < TARGET_COST ? "met" : "missed"}).`,
	);
	lines.push("");
	lines.push("Requests that match a rule, sent once each before the rounds:");
	lines.push("");
	for (const line of checks) lines.push(`- ${line}`);
	lines.push("");
	lines.push(
		`The Rules language in Node ${timing.node} (the module of \`src/rules-language\`, V8 like workerd), median of ${timing.samples} samples (min–max); a \`matches\` sample is ${timing.batch} calls:`,
	);
	lines.push("");
	lines.push("| what | parse + compile | matches, the benchmark request |");
	lines.push("|---|---:|---:|");
	const range = (t) => `${us(t)} (${fmt(t.min, t.min < 100 ? 1 : 0)}–${fmt(t.max, t.max < 100 ? 1 : 0)})`;
	lines.push(
		`| one expression of ${fmt(timing.long.characters)} characters (${timing.long.fields} fields, ${"`or`"} of every template) | ${range(timing.long.compile)} | ${range(timing.long.matches)} |`,
	);
	lines.push(
		`| the ${timing.rules.count} rules of bench100, one by one | ${range(timing.rules.compile)} | ${range(timing.rules.matches)} |`,
	);
	lines.push(
		`| the request's fields the 100 rules read (\`requestFields\`, once per request to a zone with rules) | | ${range(timing.fields)} |`,
	);
	return { block: lines.join("\n"), met, cost };
}

/** The three zones with their rules, the object, and the sanity checks: `{ zones, checks }`. */
async function prepare(dev) {
	const zones = [];
	for (const n of RULE_COUNTS) zones.push(await benchZone(dev.url, n));
	log(
		`zones: ${zones.map((z) => `${z.name} (${z.firewallRules} firewall + ${z.customRules} custom rules)`).join(", ")}`,
	);
	const body = prngBytes("bench/firewall-1k", SIZE);
	const stored = createHash("sha256").update(body).digest("hex");
	const put = await fetch(`${dev.url}/${OBJECT_KEY}`, {
		method: "PUT",
		headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, "content-type": "application/octet-stream" },
		body,
	});
	if (put.status !== 200) throw new Error(`PUT /${OBJECT_KEY}: ${put.status} ${await put.text()}`);
	for (const zone of zones) {
		const response = await get(dev.url, zone.name, `/${OBJECT_KEY}`);
		if (response.status !== 200 || response.sha256 !== stored)
			throw new Error(`${zone.name} serves ${response.status}, sha256 ${response.sha256}; stored ${stored}`);
	}
	const checks = await sanity(dev.url, zones);
	for (const line of checks) log(`sanity: ${line}`);
	log("every zone serves the stored bytes");
	return { zones, checks };
}

/** The timed benchmark: rounds of concurrent GETs per zone, requests/s and server CPU. */
async function timed(dev, zones) {
	log("warming up");
	for (const zone of zones) for (let i = 0; i < 100; i++) await getObject(dev.url, zone);
	const { user, proxy, node } = dev.workerdPids();
	serverCpu = () => cpuSecondsOf(user) + cpuSecondsOf(proxy) + cpuSecondsOf(node);
	const results = Object.fromEntries(RULE_COUNTS.map((n) => [n, { rate: [], cpu: [] }]));
	for (let round = 0; round < ROUNDS; round++) {
		const order = zones.map((_, i) => zones[(i + round) % zones.length]);
		const line = [];
		for (const zone of order) {
			const { rate, cpu } = await requestsPerSecond(dev.url, zone);
			results[zone.rules].rate.push(rate);
			results[zone.rules].cpu.push(cpu);
			line.push(`${zone.rules} rules ${fmt(rate)} req/s ${fmt(cpu)} µs`);
		}
		log(`round ${round + 1}/${ROUNDS}: ${line.join(", ")}`);
	}
	return results;
}

/**
 * The instruction count: per round and zone (order rotating), `REQUESTS` sequential GETs, and the
 * instructions the user workerd (edgezone: the worker, its Durable Objects, R2) and wrangler's
 * proxy workerd executed for them, per request.
 */
async function counted(dev, zones, callgrind) {
	log(`warming up, uninstrumented: ${WARMUP} GETs per zone`);
	for (const zone of zones) for (let i = 0; i < WARMUP; i++) await getObject(dev.url, zone);
	const { user, proxy } = dev.workerdPids();
	for (const pid of [user, proxy]) callgrind.on(pid);
	// Instrumentation retranslates all code: a few requests per zone before anything counts.
	for (const zone of zones) for (let i = 0; i < 10; i++) await getObject(dev.url, zone);
	const results = Object.fromEntries(RULE_COUNTS.map((n) => [n, { user: [], both: [] }]));
	for (let round = 0; round < ROUNDS; round++) {
		const line = [];
		for (let i = 0; i < zones.length; i++) {
			const zone = zones[(i + round) % zones.length];
			const [ofUser, ofProxy] = await callgrind.perRequest([user, proxy], REQUESTS, () => getObject(dev.url, zone));
			results[zone.rules].user.push(ofUser);
			results[zone.rules].both.push(ofUser + ofProxy);
			line.push(`${zone.rules} rules ${fmt(ofUser / 1e6, 3)} M (+ proxy ${fmt(ofProxy / 1e6, 3)} M)`);
		}
		log(`round ${round + 1}/${ROUNDS}, instructions per GET: ${line.join(", ")}`);
	}
	return results;
}

function instructionsReport({ results, zones, checks, machine, vers, date, valgrind }) {
	const pct = (x) => `${x >= 0 ? "+" : "−"}${fmt(Math.abs(x) * 100, 1)}%`;
	const lines = [];
	lines.push(
		`Measured ${date} on ${machine}; Node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}, ${valgrind}.`,
	);
	lines.push(
		`Instructions, not seconds (\`npm run bench:firewall -- --instructions\`): one \`wrangler dev\` with both workerd processes under callgrind; ${fmt(WARMUP)} uninstrumented GETs per zone to warm up, then ${ROUNDS} round${ROUNDS === 1 ? "" : "s"}; per round and zone (order rotating) ${fmt(REQUESTS)} sequential \`GET /${OBJECT_KEY}\` (1 KiB, keep-alive node:http, \`Host:\` the zone's name), and the instructions each process executed meanwhile (all its threads), per GET. Figures: median over rounds (min–max); ratios: median of the per-round ratios.`,
	);
	lines.push("");
	lines.push(
		"| zone | rules (firewall + custom) | user workerd (edgezone), instructions per GET | this / 0 rules | both workerd (+ wrangler's proxy) | this / 0 rules |",
	);
	lines.push("|---|---|---:|---:|---:|---:|");
	for (const zone of zones) {
		const r = results[zone.rules];
		const vs = (kind) => (zone.rules === 0 ? "" : `${fmt(pairRatio(results, zone.rules, 0, kind), 3)}x`);
		lines.push(
			`| ${zone.name} | ${zone.rules} (${zone.firewallRules} + ${zone.customRules}) | ${millions(r.user)} | ${vs("user")} | ${millions(r.both)} | ${vs("both")} |`,
		);
	}
	const cost = { user: pairRatio(results, 100, 0, "user") - 1, both: pairRatio(results, 100, 0, "both") - 1 };
	const met = cost.user < TARGET_COST;
	lines.push("");
	lines.push(
		`**100 rules against 0 rules: ${pct(cost.user)} instructions per GET in the user workerd, ${pct(cost.both)} across both workerd processes. Target (< 5%): ${met ? "met" : "missed"}** (by the user workerd's count, the stricter: wrangler's proxy does the same work for every zone; by both: ${cost.both < TARGET_COST ? "met" : "missed"}).`,
	);
	lines.push("");
	lines.push("Requests that match a rule, sent once each before the rounds:");
	lines.push("");
	for (const line of checks) lines.push(`- ${line}`);
	return { block: lines.join("\n"), met, cost };
}

async function main() {
	const vers = versions();
	const machine = machineSummary();
	log(`edgezone firewall benchmark — ${machine}`);
	log(`node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}`);
	let timing;
	let callgrind;
	if (INSTRUCTIONS) {
		const dir = mkdtempSync(join(tmpdir(), "edgezone-callgrind-"));
		removeOnExit(dir);
		callgrind = callgrindWorkerd(dir);
		log(`counting instructions: ${callgrind.workerd} under ${callgrind.valgrind}`);
	} else {
		log(`timing the Rules language in Node (${opts.samples} samples)…`);
		timing = rulesTiming();
		log(
			`4,096 characters: compile ${fmt(timing.long.compile.median)} µs, matches ${fmt(timing.long.matches.median, 1)} µs; 100 rules: compile ${fmt(timing.rules.compile.median)} µs, matches ${fmt(timing.rules.matches.median, 1)} µs`,
		);
	}
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev({ timeoutMs: INSTRUCTIONS ? 600_000 : 120_000 });
	log(`wrangler dev ready on ${dev.url}, processes ${JSON.stringify(dev.workerdPids())}`);
	let results;
	let zones;
	let checks;
	try {
		({ zones, checks } = await prepare(dev));
		results = INSTRUCTIONS ? await counted(dev, zones, callgrind) : await timed(dev, zones);
	} finally {
		agent.destroy();
		await dev.stop();
	}
	const date = new Date().toISOString().slice(0, 10);
	const written = INSTRUCTIONS
		? instructionsReport({ results, zones, checks, machine, vers, date, valgrind: callgrind.valgrind })
		: report({ results, zones, checks, timing, machine, vers, date });
	const { block, met } = written;
	const cost = INSTRUCTIONS ? written.cost.user : written.cost.throughput;
	log("");
	log(block);
	log("");
	const what = INSTRUCTIONS ? "more instructions per GET in the user workerd" : "of requests/s";
	log(`target ${met ? "met" : "missed"}: 100 rules cost ${fmt(cost * 100, 1)}% ${what} (target < 5%)`);
	const markers = INSTRUCTIONS ? "firewall-instructions" : "firewall";
	if (!opts["no-write"]) {
		writeBenchmarks(markers, block);
		log(`\nwrote the figures into BENCHMARKS.md (${markers})`);
	}
}

try {
	await main();
} catch (error) {
	console.error(`bench:firewall: ${error.stack ?? error}`);
	process.exit(1);
}
