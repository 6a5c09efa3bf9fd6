// The Rules language timed in Node 22 (V8, as workerd), for scripts/bench-firewall.mjs, which runs
// it as a child process with `--experimental-transform-types` (src/ is TypeScript with parameter
// properties, which Node's default type stripping refuses). Prints one JSON object:
//   long:  compile() of a 4,096-character expression (parse, type check, closures), and
//          matches() of it against the benchmark request (no clause matches: every one runs);
//   fields: requestFields() of the benchmark request, only the fields the 100 rules read (once
//          per request to a zone with rules);
//   rules: compile() of the 100 rules of the benchmark's largest zone (what an isolate does once
//          per configuration version), and matchesIn() of all 100 against one fresh evaluation of
//          the benchmark request's values (what the firewall does per request: each field
//          converted once, shared by the rules).
// Times are medians of `--samples` samples, in µs; `matches` samples time a batch of calls each.
//
//   node --experimental-transform-types scripts/bench/rules-timing.mjs [--samples 400]
import { parseArgs } from "node:util";
import { requestFields } from "../../src/edge/request-fields.ts";
import { compile, evaluation } from "../../src/rules-language/index.ts";
import { expressions, longExpression, OBJECT_KEY } from "./firewall-rules.mjs";

const { values: opts } = parseArgs({ options: { samples: { type: "string", default: "400" } } });
const SAMPLES = Number(opts.samples);
const BATCH = 200;

const median = (xs) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Median µs of `fn` over SAMPLES samples of `batch` calls each, after a warm-up. */
function time(fn, batch = 1) {
	for (let i = 0; i < Math.min(200, SAMPLES); i++) fn();
	const samples = [];
	for (let s = 0; s < SAMPLES; s++) {
		const started = performance.now();
		for (let i = 0; i < batch; i++) fn();
		samples.push(((performance.now() - started) * 1000) / batch);
	}
	return { median: median(samples), min: Math.min(...samples), max: Math.max(...samples) };
}

function compiled(expression) {
	const result = compile(expression);
	if (!result.ok) throw new Error(`does not compile: ${expression.slice(0, 80)}…: ${result.error.message}`);
	return result.filter;
}

// The benchmark's request as the edge sees it: node:http's headers, wrangler dev's client address.
const url = new URL(`http://bench100.example.net:8787/${OBJECT_KEY}`);
const request = new Request(url, {
	headers: { authorization: "Bearer dev-token", connection: "keep-alive", "cf-connecting-ip": "127.0.0.1" },
});
const rules = expressions(100);
const ruleFilters = rules.map(compiled);
/** The fields the 100 rules read: all the firewall asks of a request (as `CompiledZone.fields`). */
const read = [...new Set(ruleFilters.flatMap((filter) => filter.fields))];
const context = { rayId: "0123456789abcdef", zoneName: "bench100.example.net", receivedAt: Date.now() };
const values = requestFields(request, url, context, read);

const long = longExpression(4096);
const longFilter = compiled(long);
if (longFilter.matches(values)) throw new Error("the 4,096-character expression matches the benchmark request");
const matching = ruleFilters.filter((filter) => filter.matches(values));
if (matching.length > 0)
	throw new Error(`${matching.length} rules match the benchmark request: ${matching[0].expression}`);

let sink = 0;
const result = {
	node: process.version,
	samples: SAMPLES,
	batch: BATCH,
	long: {
		characters: [...long].length,
		fields: longFilter.fields.length,
		compile: time(() => {
			sink += compiled(long).fields.length;
		}),
		matches: time(() => {
			sink += longFilter.matches(values) ? 1 : 0;
		}, BATCH),
	},
	fields: time(() => {
		sink += requestFields(request, url, context, read).ssl ? 1 : 0;
	}, BATCH),
	rules: {
		count: rules.length,
		compile: time(() => {
			for (const expression of rules) sink += compiled(expression).fields.length;
		}),
		matches: time(() => {
			const prepared = evaluation(values);
			for (const filter of ruleFilters) sink += filter.matchesIn(prepared) ? 1 : 0;
		}, BATCH),
	},
	sink,
};
process.stdout.write(`${JSON.stringify(result)}\n`);
