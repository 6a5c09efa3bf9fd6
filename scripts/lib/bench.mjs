// What the benchmarks share: medians and number formats, per-round ratios, the machine and tool
// versions a figure was measured with, counting wrangler dev's instructions with callgrind, and
// writing a block of figures into BENCHMARKS.md between its `<name>:begin` / `<name>:end` markers.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, release } from "node:os";
import { join } from "node:path";
import { ROOT } from "./fixtures.mjs";

/** The median of a list of numbers. */
export const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A number with thousands separators and `digits` decimals. */
export const fmt = (n, digits = 0) =>
	n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Instruction counts as millions: the median, then the range, `6.107 M (5.944–6.467)`. */
export const millions = (xs) =>
	`${fmt(median(xs) / 1e6, 3)} M (${fmt(Math.min(...xs) / 1e6, 3)}–${fmt(Math.max(...xs) / 1e6, 3)})`;

/**
 * The ratio of two contenders `a` and `b` for figure `kind`: the median of the per-round ratios,
 * NaN without any. Both were measured in the same round, minutes apart at most, so the machine's
 * background load cancels out better than in a ratio of medians.
 */
export function pairRatio(results, a, b, kind) {
	const pairs = roundRatios(results, a, b, kind);
	return pairs.length ? median(pairs) : Number.NaN;
}

/** The ratio of `a` to `b` in each round that measured both. */
function roundRatios(results, a, b, kind) {
	return results[a][kind].map((x, i) => x / results[b][kind][i]).filter(Number.isFinite);
}

/**
 * How far `pairRatio` can be trusted: the 2.5th and 97.5th percentiles of the median of the
 * per-round ratios over `resamples` resamplings of the rounds with replacement (a percentile
 * bootstrap, Efron and Tibshirani, "An Introduction to the Bootstrap", ch. 13), `[NaN, NaN]`
 * without rounds. On a shared machine single rounds move by a factor of two, so a run's median
 * alone does not say which side of a target it is on. The resampling draws from a fixed seed
 * (mulberry32), so the same rounds give the same interval.
 */
export function pairInterval(results, a, b, kind, resamples = 2000) {
	const pairs = roundRatios(results, a, b, kind);
	if (pairs.length === 0) return [Number.NaN, Number.NaN];
	let seed = 0x9e3779b9;
	const random = () => {
		seed = (seed + 0x6d2b79f5) | 0;
		let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
	const medians = Array.from({ length: resamples }, () =>
		median(Array.from(pairs, () => pairs[Math.floor(random() * pairs.length)])),
	).sort((x, y) => x - y);
	return [medians[Math.floor(resamples * 0.025)], medians[Math.ceil(resamples * 0.975) - 1]];
}

/**
 * Throughput of `concurrency` loops calling `once()` for `slotMs`: requests/s, the server CPU
 * (`cpuSeconds()`, a running total in seconds) per request in µs, which the machine's background
 * load disturbs less than throughput, and this process's CPU per request in µs (`clientCpu`): the
 * client shares the machine's cores with the server, so what a request costs to send and read
 * moves the throughput too; and how many requests were served (`requests`).
 */
export async function timedLoops({ slotMs, concurrency, once, cpuSeconds }) {
	const end = performance.now() + slotMs;
	let count = 0;
	const cpu = cpuSeconds();
	const client = process.cpuUsage();
	const started = performance.now();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (performance.now() < end) {
				await once();
				count++;
			}
		}),
	);
	const { user, system } = process.cpuUsage(client);
	return {
		requests: count,
		rate: count / ((performance.now() - started) / 1000),
		cpu: ((cpuSeconds() - cpu) / count) * 1e6,
		clientCpu: (user + system) / count,
	};
}

/** Sends `count` requests with `once()`, `concurrency` in flight, and resolves when all are answered. */
export function inFlight(count, concurrency, once) {
	let sent = 0;
	const loop = async () => {
		while (sent < count) {
			sent++;
			await once();
		}
	};
	return Promise.all(Array.from({ length: concurrency }, loop));
}

/** The versions of Node, wrangler, miniflare and workerd the figures were measured with. */
export function versions() {
	const version = (path) => JSON.parse(readFileSync(join(ROOT, path), "utf8")).version;
	const nested = (name) => {
		const path = `node_modules/wrangler/node_modules/${name}/package.json`;
		return existsSync(join(ROOT, path)) ? version(path) : version(`node_modules/${name}/package.json`);
	};
	return {
		node: process.version,
		wrangler: version("node_modules/wrangler/package.json"),
		miniflare: nested("miniflare"),
		workerd: nested("workerd"),
	};
}

/** The machine, in a phrase: cores, processor, kernel. */
export function machine() {
	const cpu = cpus();
	return `${cpu.length} cores (${cpu[0]?.model.trim()}), Linux ${release()}, shared and noisy`;
}

/**
 * Replaces what stands between `<!-- {name}:begin -->` and `<!-- {name}:end -->` in BENCHMARKS.md
 * with `block`. @throws Error when the markers are missing.
 */
export function writeBenchmarks(name, block) {
	const path = join(ROOT, "BENCHMARKS.md");
	const begin = `<!-- ${name}:begin -->`;
	const end = `<!-- ${name}:end -->`;
	const text = existsSync(path) ? readFileSync(path, "utf8") : `# Benchmarks\n\n${begin}\n${end}\n`;
	if (!text.includes(begin) || !text.includes(end)) throw new Error(`BENCHMARKS.md has no ${name} markers`);
	writeFileSync(
		path,
		`${text.slice(0, text.indexOf(begin) + begin.length)}\n${block}\n${text.slice(text.indexOf(end))}`,
	);
}

/**
 * Counting instructions instead of seconds: every workerd that wrangler dev starts runs under
 * Valgrind's callgrind (Debian's `valgrind` package), which counts the instructions a process
 * executes whatever else the machine is doing. Set up before `startWranglerDev`: it points
 * Miniflare's `MINIFLARE_WORKERD_PATH` at a wrapper script in `dir`. Instrumentation starts off
 * (a warm-up runs at Valgrind's plain speed, about 5x slower than native); `on(pid)` turns it on,
 * `zero(pid)` starts a count and `total(pid)` dumps it and answers the instructions since the zero
 * (all threads of the process: JavaScript, V8's compiler and garbage collector, SQLite, I/O);
 * `perRequest(pids, n, once)` does both around `n` requests and divides.
 * @throws Error when valgrind or callgrind_control is not installed.
 */
export function callgrindWorkerd(dir) {
	const probes = ["valgrind", "callgrind_control"].map((tool) => {
		const probe = spawnSync(tool, ["--version"], { encoding: "utf8" });
		if (probe.error) throw new Error(`${tool} not found: install Debian's valgrind package (apt-get install valgrind)`);
		return probe.stdout.trim();
	});
	// The workerd Miniflare would start: the one its own `require("workerd")` resolves to.
	const miniflare = ["node_modules/wrangler/node_modules/miniflare", "node_modules/miniflare"].find((path) =>
		existsSync(join(ROOT, path, "package.json")),
	);
	const workerd = createRequire(join(ROOT, miniflare ?? "", "package.json"))("workerd").default;
	const wrapper = join(dir, "workerd-callgrind.sh");
	// --smc-check: V8 writes and rewrites machine code in memory Valgrind must retranslate.
	writeFileSync(
		wrapper,
		`#!/bin/sh\nexec valgrind --tool=callgrind --smc-check=all-non-file --instr-atstart=no --callgrind-out-file=${dir}/callgrind.%p.out --log-file=${dir}/valgrind.%p.log ${JSON.stringify(workerd)} "$@"\n`,
		{ mode: 0o755 },
	);
	process.env.MINIFLARE_WORKERD_PATH = wrapper;
	const control = (pid, ...args) => {
		const child = spawnSync("callgrind_control", [...args, String(pid)], { encoding: "utf8", timeout: 300_000 });
		if (child.status !== 0)
			throw new Error(`callgrind_control ${args.join(" ")} ${pid}: ${child.stderr || child.stdout}`);
	};
	let dumps = 0;
	return {
		workerd,
		/** The version, as `valgrind --version` prints it. */
		valgrind: probes[0],
		on: (pid) => control(pid, "--instr=on"),
		zero: (pid) => control(pid, "--zero"),
		/**
		 * The instructions each process of `pids` executed per request over `requests` sequential
		 * calls of `once`, counted from zero; `settle`, when given, is awaited before the counts are
		 * read (for work the requests leave behind, such as log delivery).
		 */
		async perRequest(pids, requests, once, settle) {
			for (const pid of pids) this.zero(pid);
			for (let k = 0; k < requests; k++) await once();
			await settle?.();
			return pids.map((pid) => this.total(pid) / requests);
		},
		total: (pid) => {
			control(pid, `--dump=count${++dumps}`);
			// callgrind numbers a process's dumps 1, 2, …: the newest holds the count since the zero.
			const files = readdirSync(dir)
				.filter((name) => name.startsWith(`callgrind.${pid}.out.`))
				.map((name) => Number(name.slice(name.lastIndexOf(".") + 1)))
				.sort((a, b) => a - b);
			if (files.length === 0) throw new Error(`no callgrind dump of process ${pid} in ${dir}`);
			const path = join(dir, `callgrind.${pid}.out.${files.at(-1)}`);
			const total = /^(?:totals|summary): (\d+)/m.exec(readFileSync(path, "utf8"))?.[1];
			if (total === undefined) throw new Error(`no instruction total in ${path}`);
			rmSync(path);
			return Number(total);
		},
	};
}
