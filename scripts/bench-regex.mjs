// Regex benchmark: the most CPU one request can cost in a zone's `matches` rules, and what a
// write to one rule costs the next request. In ONE `wrangler dev` (the project's wrangler.toml,
// loopback, a temporary --persist-to), through the API and the edge as a user would:
// 1. Per adversarial rule (a zone with that one blocking rule on `http.request.uri.path`: regexes
//    whose lazy DFA thrashes in re2js, a long wildcard, many searches): the longest path the
//    per-request budget of comparison work (src/rules-language/work-budget.ts) lets the rule run
//    on, found by bisection on whether the edge refuses the request (its 400 page), then the user
//    workerd's CPU time for requests of that length (each path new, so no engine cache helps),
//    and for requests twice as long, which are refused.
// 2. A zone with 100 rules on large patterns: the CPU of the first request after a PATCH of one
//    rule's description, against a request with nothing to recompile.
// CPU is read from /proc (10 ms ticks), over several requests. Bounded loops; stops by itself.
// Prints a table and writes it into BENCHMARKS.md between the `regex:begin`/`regex:end` markers.
//
//   npm run bench:regex [-- --repeats 5 --only adversaries|rewrite --no-write]
import { request as httpRequest } from "node:http";
import { parseArgs } from "node:util";
import { fmt, machine as machineSummary, median, versions, writeBenchmarks } from "./lib/bench.mjs";
import { apiV4, DEV_ACCOUNT_ID } from "./lib/http.mjs";
import { cpuSecondsOf, startWranglerDev } from "./lib/wrangler-dev.mjs";

const { values: opts } = parseArgs({
	options: {
		repeats: { type: "string", default: "5" },
		// "adversaries" or "rewrite": one part only (the other is left out of the table).
		only: { type: "string" },
		"no-write": { type: "boolean", default: false },
	},
});
const REPEATS = Number(opts.repeats);
const GATEWAY_TOKEN = "dev-token";
/** The edge's page for a request past the budget (src/edge/security-pages.ts). */
const REFUSED = "too costly for the zone";

const log = (text) => console.log(text);

let seed = 1;
/** A deterministic pseudo-random string of `n` chars from `alphabet`. */
function randomText(alphabet, n) {
	let out = "";
	for (let i = 0; i < n; i++) {
		seed = (seed * 1103515245 + 12345) & 0x7fffffff;
		out += alphabet[(seed >>> 16) % alphabet.length];
	}
	return out;
}

/**
 * The adversaries: patterns whose lazy DFA thrashes in re2js, so a match runs its NFA over the
 * whole path; `subject(n)` is a path segment of `n` bytes that ends with what the pattern's last
 * item needs (so no prefilter skips the engine) and does not match.
 */
const run = (n) => `${"a".repeat(Math.max(0, n - 2))}!0`;
const coin = (n) => `${randomText("ab", Math.max(0, n - 2))}dc`;
const matches = (pattern) => `http.request.uri.path matches "${pattern}"`;
const ADVERSARIES = [
	{ label: '`matches "(?:[a-z]{100}){30}[0-9]"`', expression: matches("(?:[a-z]{100}){30}[0-9]"), subject: run },
	{ label: '`matches "[a-z]{2000}[0-9]"`', expression: matches("[a-z]{2000}[0-9]"), subject: run },
	{ label: '`matches "a[ab]{200}c"`', expression: matches("a[ab]{200}c"), subject: coin },
	{ label: '`matches "(?:a.{200})+d"`', expression: matches("(?:a.{200})+d"), subject: coin },
	{
		label: '`strict wildcard "/*a…a!"` (1,000 `a`)',
		expression: `http.request.uri.path strict wildcard "/*${"a".repeat(1000)}!"`,
		subject: (n) => "a".repeat(n),
	},
	{
		label: '100 × `contains "aN!"`',
		expression: Array.from({ length: 100 }, (_, i) => `http.request.uri.path contains "a${i}!"`).join(" or "),
		subject: (n) => "a".repeat(n),
	},
];

/** A zone named `name` with one blocking firewall rule per expression: its id and rules. */
async function zoneWith(base, name, expressions) {
	const zone = await apiV4(base, "POST", "/zones", { name, account: { id: DEV_ACCOUNT_ID } });
	const rules = await apiV4(
		base,
		"POST",
		`/zones/${zone.id}/firewall/rules`,
		expressions.map((expression, i) => ({ action: "block", description: `rule ${i}`, filter: { expression } })),
	);
	return { id: zone.id, name, rules };
}

/**
 * One GET of `path` with `Host: host` (node:http: Node's fetch sends the URL's host whatever Host
 * header it is given): its status, and whether the edge refused it for the budget.
 */
function get(base, host, path) {
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			`${base}${path}`,
			{ headers: { host, authorization: `Bearer ${GATEWAY_TOKEN}` } },
			(res) => {
				const chunks = [];
				res.on("data", (chunk) => chunks.push(chunk));
				res.on("end", () => {
					const text = Buffer.concat(chunks).toString("utf8");
					resolve({ status: res.statusCode, refused: res.statusCode === 400 && text.includes(REFUSED) });
				});
				res.on("error", reject);
			},
		);
		req.on("error", reject);
		req.end();
	});
}

/** The user workerd's CPU (ms) per call of `once`, over `count` sequential calls. */
async function cpuPer(pid, count, once) {
	const before = cpuSecondsOf(pid);
	for (let i = 0; i < count; i++) await once(i);
	return ((cpuSecondsOf(pid) - before) * 1000) / count;
}

/** The longest subject the budget lets `pattern` run on (bisection over lengths 1–65,536). */
async function longestEvaluated(base, zone, adversary) {
	let lo = 2; // evaluated
	let hi = 65_536; // refused, or past what a path should hold
	while (hi - lo > Math.max(1, lo / 100)) {
		const mid = Math.floor((lo + hi) / 2);
		const { refused } = await get(base, zone.name, `/${adversary.subject(mid)}`);
		if (refused) hi = mid;
		else lo = mid;
	}
	return lo;
}

async function adversaries(dev, user) {
	const rows = [];
	for (const [i, adversary] of ADVERSARIES.entries()) {
		const zone = await zoneWith(dev.url, `regex${i}.example.net`, [adversary.expression]);
		const n = await longestEvaluated(dev.url, zone, adversary);
		const evaluated = [];
		const refused = [];
		for (let r = 0; r < REPEATS; r++) {
			evaluated.push(
				await cpuPer(user, 3, async () => {
					const answer = await get(dev.url, zone.name, `/${adversary.subject(n)}`);
					if (answer.refused) throw new Error(`${adversary.label}: ${n} bytes refused on a repeat`);
				}),
			);
			refused.push(
				await cpuPer(user, 20, async () => {
					const answer = await get(dev.url, zone.name, `/${adversary.subject(Math.min(2 * n + 2, 60_000))}`);
					if (!answer.refused) throw new Error(`${adversary.label}: ${Math.min(2 * n + 2, 60_000)} bytes not refused`);
				}),
			);
		}
		const row = { label: adversary.label, bytes: n, evaluated, refused };
		log(
			`${adversary.label}: longest path evaluated ${fmt(n)} bytes, CPU ${fmt(median(evaluated), 1)} ms; refused at ${fmt(Math.min(2 * n + 2, 60_000))} bytes, CPU ${fmt(median(refused), 1)} ms`,
		);
		rows.push(row);
	}
	return rows;
}

/** 100 rules on large patterns; the CPU of the request after a PATCH of one rule's description. */
async function rewrite(dev, user) {
	const expressions = Array.from(
		{ length: 100 },
		(_, i) => `http.request.uri.path matches "^/r${i}/(?:[a-z]{100}){30}[0-9]"`,
	);
	const zone = await zoneWith(dev.url, "rewrite.example.net", expressions);
	const path = "/open/report.txt";
	await get(dev.url, zone.name, path);
	const warm = [];
	const afterPatch = [];
	const patch = [];
	for (let r = 0; r < REPEATS; r++) {
		warm.push(await cpuPer(user, 20, () => get(dev.url, zone.name, path)));
		const rule = zone.rules[r % zone.rules.length];
		patch.push(
			await cpuPer(user, 1, () =>
				apiV4(dev.url, "PATCH", `/zones/${zone.id}/firewall/rules/${rule.id}`, {
					id: rule.id,
					description: `renamed ${r}`,
				}),
			),
		);
		afterPatch.push(await cpuPer(user, 1, () => get(dev.url, zone.name, path)));
	}
	log(
		`100 rules: a GET ${fmt(median(warm), 1)} ms; the PATCH ${fmt(median(patch), 1)} ms; the GET after it ${fmt(median(afterPatch), 1)} ms`,
	);
	return { warm, patch, afterPatch };
}

function report({ rows, rewritten, machine, vers, date }) {
	const ms = (xs) => `${fmt(median(xs), 1)} ms (${fmt(Math.min(...xs), 1)}–${fmt(Math.max(...xs), 1)})`;
	const lines = [];
	lines.push(
		`Measured ${date} on ${machine}; Node ${vers.node}, wrangler ${vers.wrangler}, miniflare ${vers.miniflare}, workerd ${vers.workerd}.`,
	);
	lines.push(
		`One \`wrangler dev\`; CPU of the user workerd (edgezone) from /proc, 10 ms ticks, over 3 requests (evaluated) or 20 (refused); median of ${REPEATS} (min–max). Each zone has one blocking firewall rule on \`http.request.uri.path\`; every path is new and does not match, so no cache of the engine helps.`,
	);
	if (rows) {
		lines.push("");
		lines.push(
			"| rule | longest path the budget lets it run on | CPU of that request | CPU of a request twice as long, at most 60,000 bytes (refused, 400) |",
		);
		lines.push("|---|---:|---:|---:|");
		for (const row of rows)
			lines.push(`| ${row.label} | ${fmt(row.bytes)} bytes | ${ms(row.evaluated)} | ${ms(row.refused)} |`);
	}
	if (rewritten) {
		lines.push("");
		lines.push(
			`A zone with 100 rules \`^/rN/(?:[a-z]{100}){30}[0-9]\` (3,000 classes each): a GET ${ms(rewritten.warm)}; a PATCH of one rule's description ${ms(rewritten.patch)}; the first GET after it, which builds the zone's rules for the new configuration version, ${ms(rewritten.afterPatch)}.`,
		);
	}
	return lines.join("\n");
}

async function main() {
	const vers = versions();
	const machine = machineSummary();
	log(`edgezone regex benchmark — ${machine}`);
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev();
	let rows;
	let rewritten;
	try {
		const { user } = dev.workerdPids();
		if (opts.only !== "rewrite") rows = await adversaries(dev, user);
		if (opts.only !== "adversaries") rewritten = await rewrite(dev, user);
	} finally {
		await dev.stop();
	}
	const date = new Date().toISOString().slice(0, 10);
	const block = report({ rows, rewritten, machine, vers, date });
	log("");
	log(block);
	if (!opts["no-write"]) {
		writeBenchmarks("regex", block);
		log("\nwrote the figures into BENCHMARKS.md (regex)");
	}
}

try {
	await main();
} catch (error) {
	console.error(`bench:regex: ${error.stack ?? error}`);
	process.exit(1);
}
