// Smoke run of the API v4 against a running `wrangler dev`: sends the spec's example
// requests (fixtures/api/*.json, in file order) with fetch, prints each answer, and exits
// non-zero when a status differs from the fixture's `expect`.
//
//   node scripts/smoke-api.mjs [base-url]     against a running `npm run dev` (default http://localhost:8787)
//   node scripts/smoke-api.mjs --restart      starts `npm run dev` with a temporary --persist-to directory,
//                                             runs the fixtures, restarts it on the same directory and
//                                             checks that the ruleset and the jobs read back unchanged
//
// Environment: EDGEZONE_URL (base URL), EDGEZONE_API_TOKEN (default: the dev token of
// .dev.vars.example), EDGEZONE_PERSIST_TO (where the running dev server keeps state, for
// reading the ownership-challenge token with `wrangler r2 object get --local`;
// default .wrangler/state).
//
// Fixture format: {description, method, path, body?, expect, save?: {name: "result field"}};
// `{name}` in path or body is replaced by a saved value, `{unique}` by a fresh label, and
// `{ownership_challenge}` by the token the last ownership request wrote into the bucket.
import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const FIXTURES = new URL("../fixtures/api/", import.meta.url);
const TOKEN = process.env.EDGEZONE_API_TOKEN ?? "edgezone_dev_token_000000000000000000000";
const LOG_BUCKET = "edgezone-logs";
const READ_BACK = ["09-read-ruleset.json", "10-read-job.json", "11-list-jobs.json"];

const args = process.argv.slice(2);
const restart = args.includes("--restart");
const baseArg = args.find((a) => !a.startsWith("--"));

/** Replaces `{name}` placeholders in a string from `vars`; unknown names are an error. */
function fill(text, vars) {
	return text.replace(/\{([a-z_]+)\}/g, (whole, name) => {
		if (name === "DATE") return whole; // log-push path placeholder, sent as is
		if (!(name in vars)) throw new Error(`no value for {${name}}`);
		return vars[name];
	});
}

/** Reads an object of the local LOGS bucket with wrangler, as a user would. */
async function readLocalObject(key, persistTo) {
	const { stdout } = await promisify(execFile)(
		"npx",
		["wrangler", "r2", "object", "get", `${LOG_BUCKET}/${key}`, "--local", "--pipe", "--persist-to", persistTo],
		{ encoding: "utf8" },
	);
	return stdout.trim();
}

/** Sends one fixture; prints and returns the answer; records a failure when the status is unexpected. */
async function send(base, fixture, vars, failures) {
	const path = fill(fixture.path, vars);
	const body = fixture.body === undefined ? undefined : fill(JSON.stringify(fixture.body), vars);
	const res = await fetch(`${base}/client/v4${path}`, {
		method: fixture.method,
		headers: { Authorization: `Bearer ${TOKEN}`, ...(body ? { "Content-Type": "application/json" } : {}) },
		body,
	});
	const text = await res.text();
	const json = text === "" ? null : JSON.parse(text);
	const verdict = res.status === fixture.expect ? "ok" : `FAILED (expected ${fixture.expect})`;
	console.log(`\n# ${fixture.file}: ${fixture.description}\n${fixture.method} ${path} -> ${res.status} ${verdict}`);
	console.log(JSON.stringify(json, null, 2));
	if (res.status !== fixture.expect) failures.push(`${fixture.file}: ${res.status}`);
	for (const [name, field] of Object.entries(fixture.save ?? {})) vars[name] = String(json?.result?.[field]);
	return json;
}

/** Runs all fixtures in order; returns the saved values and the read-back answers. */
async function runFixtures(base, persistTo, failures) {
	const vars = { unique: `smoke-${Date.now().toString(36)}` };
	const answers = {};
	for (const file of readdirSync(FIXTURES)
		.filter((f) => f.endsWith(".json"))
		.sort()) {
		const fixture = { file, ...JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) };
		if (JSON.stringify(fixture.body ?? "").includes("{ownership_challenge}")) {
			vars.ownership_challenge = await readLocalObject(vars.challenge_file, persistTo);
			console.log(`\n(read the token from ${LOG_BUCKET}/${vars.challenge_file} in local R2)`);
		}
		answers[file] = await send(base, fixture, vars, failures);
	}
	return { vars, answers };
}

/** Starts `npm run dev` on a port with a persistence directory; resolves once the API answers. */
async function startDev(port, persistTo) {
	const child = spawn(
		"npm",
		["run", "dev", "--", "--port", String(port), "--ip", "127.0.0.1", "--persist-to", persistTo],
		{
			detached: true,
			stdio: ["ignore", "pipe", "pipe"],
		},
	);
	let log = "";
	child.stdout.on("data", (d) => (log += d));
	child.stderr.on("data", (d) => (log += d));
	const base = `http://127.0.0.1:${port}`;
	for (let i = 0; i < 120; i++) {
		try {
			await fetch(`${base}/client/v4/zones`);
			console.log(`(wrangler dev is up on ${base}, state in ${persistTo})`);
			return {
				base,
				stop: () =>
					new Promise((resolve) => {
						child.once("exit", resolve);
						process.kill(-child.pid, "SIGTERM");
					}),
			};
		} catch {
			await new Promise((r) => setTimeout(r, 500));
		}
	}
	process.kill(-child.pid, "SIGTERM");
	throw new Error(`wrangler dev did not start:\n${log}`);
}

async function main() {
	const failures = [];
	if (!restart) {
		const base = (baseArg ?? process.env.EDGEZONE_URL ?? "http://localhost:8787").replace(/\/$/, "");
		await runFixtures(base, process.env.EDGEZONE_PERSIST_TO ?? ".wrangler/state", failures);
	} else {
		const persistTo = mkdtempSync(join(tmpdir(), "edgezone-smoke-"));
		const port = 8790 + Math.floor(Math.random() * 100);
		try {
			let dev = await startDev(port, persistTo);
			const { vars, answers } = await runFixtures(dev.base, persistTo, failures);
			await dev.stop();
			console.log("\n(wrangler dev stopped; starting it again on the same --persist-to directory)");
			dev = await startDev(port, persistTo);
			for (const file of READ_BACK) {
				const fixture = { file, ...JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) };
				const again = await send(dev.base, fixture, vars, failures);
				const same = JSON.stringify(again) === JSON.stringify(answers[file]);
				console.log(`after restart, ${file} is ${same ? "unchanged: state survived" : "DIFFERENT"}`);
				if (!same) failures.push(`${file}: changed across the restart`);
			}
			await dev.stop();
		} finally {
			rmSync(persistTo, { recursive: true, force: true });
		}
	}
	console.log(
		failures.length === 0
			? "\nsmoke: all requests answered as expected"
			: `\nsmoke: ${failures.length} failed: ${failures.join(", ")}`,
	);
	process.exitCode = failures.length === 0 ? 0 : 1;
}

await main();
