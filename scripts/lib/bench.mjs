// What the benchmarks share: medians and number formats, per-round ratios, the machine and tool
// versions a figure was measured with, and writing a block of figures into BENCHMARKS.md between
// its `<name>:begin` / `<name>:end` markers.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
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

/**
 * The ratio of two contenders `a` and `b` for figure `kind`: the median of the per-round ratios,
 * NaN without any. Both were measured in the same round, minutes apart at most, so the machine's
 * background load cancels out better than in a ratio of medians.
 */
export function pairRatio(results, a, b, kind) {
	const pairs = results[a][kind].map((x, i) => x / results[b][kind][i]).filter(Number.isFinite);
	return pairs.length ? median(pairs) : Number.NaN;
}

/**
 * Throughput of `concurrency` loops calling `once()` for `slotMs`: requests/s, and the server CPU
 * (`cpuSeconds()`, a running total in seconds) per request in µs, which the machine's background
 * load disturbs less than throughput.
 */
export async function timedLoops({ slotMs, concurrency, once, cpuSeconds }) {
	const end = performance.now() + slotMs;
	let count = 0;
	const cpu = cpuSeconds();
	const started = performance.now();
	await Promise.all(
		Array.from({ length: concurrency }, async () => {
			while (performance.now() < end) {
				await once();
				count++;
			}
		}),
	);
	return { rate: count / ((performance.now() - started) / 1000), cpu: ((cpuSeconds() - cpu) / count) * 1e6 };
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
