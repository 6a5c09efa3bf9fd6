// Starts `wrangler dev` the way a user does (`npx wrangler dev`), in its own process group, and
// makes sure the whole group (npx, wrangler, its two workerd processes) dies with this script,
// and its temporary directory goes: on normal exit, on failure, on an uncaught error and on Ctrl-C.
import { spawn } from "node:child_process";
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { ROOT } from "./fixtures.mjs";

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

const running = new Set();
const temporary = new Set();

/** Removes `dir` when this process exits, however it exits (temporary state and logs). */
export function removeOnExit(dir) {
	temporary.add(dir);
}

function killGroup(child, signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// already gone
	}
}

process.on("exit", () => {
	for (const child of running) killGroup(child, "SIGKILL");
	for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
	process.on(signal, () => {
		for (const child of running) killGroup(child, "SIGKILL");
		process.exit(128 + (signal === "SIGINT" ? 2 : signal === "SIGTERM" ? 15 : 1));
	});
}

/**
 * `npx wrangler dev --ip 127.0.0.1 --port <free> --persist-to <dir>`, waiting until it answers
 * HTTP. Options: `config` (a wrangler.toml other than the project's), `persistTo` (a fresh
 * temporary directory by default), `args` (more CLI arguments), `env` (environment variables
 * over this process's; `undefined` removes one), `npmRunDev` (start it as `npm run dev -- <the
 * same arguments>` instead, the project's script with what it does first), `timeoutMs`.
 * Returns { url, port, pid, persistTo, logPath, workerdPids(), logTail(), stop() }.
 */
export async function startWranglerDev({
	config,
	persistTo,
	args = [],
	env = {},
	npmRunDev = false,
	timeoutMs = 120_000,
} = {}) {
	const port = await freePort();
	const dir = persistTo ?? mkdtempSync(join(tmpdir(), "edgezone-dev-"));
	if (persistTo === undefined) removeOnExit(dir);
	mkdirSync(dir, { recursive: true });
	const logPath = join(dir, "wrangler-dev.log");
	const log = createWriteStream(logPath);
	const argv = ["wrangler", "dev", "--ip", "127.0.0.1", "--port", String(port), "--persist-to", dir];
	if (config) argv.push("--config", config);
	argv.push("--show-interactive-dev-session=false", ...args);
	const environment = { ...process.env, ...env };
	for (const [name, value] of Object.entries(env)) if (value === undefined) delete environment[name];
	const [command, ...commandArgs] = npmRunDev ? ["npm", "run", "dev", "--", ...argv.slice(2)] : ["npx", ...argv];
	const child = spawn(command, commandArgs, {
		cwd: ROOT,
		detached: true, // its own process group, so one kill reaches wrangler and workerd
		stdio: ["ignore", "pipe", "pipe"],
		// As `npm run dev`: no attempt to download the Request.cf object (offline, placeholder used).
		env: {
			...environment,
			NO_COLOR: "1",
			FORCE_COLOR: "0",
			WRANGLER_SEND_METRICS: "false",
			CLOUDFLARE_CF_FETCH_ENABLED: "false",
		},
	});
	running.add(child);
	child.stdout.pipe(log, { end: false });
	child.stderr.pipe(log, { end: false });
	let exited = null;
	const exitedPromise = new Promise((resolve) => {
		child.once("exit", (code, signal) => {
			exited = { code, signal };
			running.delete(child);
			resolve();
		});
	});

	const url = `http://127.0.0.1:${port}`;
	const logTail = (lines = 30) =>
		existsSync(logPath) ? readFileSync(logPath, "utf8").split("\n").slice(-lines).join("\n") : "";
	const stop = async () => {
		if (!exited) {
			killGroup(child, "SIGTERM");
			await Promise.race([exitedPromise, sleep(5000)]);
		}
		// Also when npx is gone: workerd processes of the group may outlive it.
		killGroup(child, "SIGKILL");
		await Promise.race([exitedPromise, sleep(2000)]);
		log.end();
	};

	const deadline = Date.now() + timeoutMs;
	for (;;) {
		if (exited || Date.now() > deadline) {
			const why = exited
				? `exited (${exited.code ?? exited.signal}) before it was ready`
				: `was not ready after ${timeoutMs} ms`;
			const tail = logTail();
			await stop();
			throw new Error(`wrangler dev ${why}:\n${tail}`);
		}
		try {
			const response = await fetch(`${url}/`, { method: "HEAD", signal: AbortSignal.timeout(2000) });
			await response.body?.cancel();
			break;
		} catch {
			await sleep(250);
		}
	}

	/**
	 * The processes under this wrangler dev (Linux /proc): `user` and `proxy` workerd, and `node`,
	 * wrangler itself (it also receives the request log lines over a loopback).
	 */
	const workerdPids = () => {
		const found = { user: undefined, proxy: undefined, node: undefined };
		for (const pid of descendants(child.pid)) {
			const cmdline = readProc(pid, "cmdline").split("\0").join(" ");
			if (cmdline.includes("wrangler-dist/cli.js")) found.node = pid;
			if (!cmdline.includes("workerd") || !cmdline.includes(" serve ")) continue;
			// wrangler's proxy listens on our port; the user runtime on an ephemeral one.
			if (cmdline.includes(`entry=127.0.0.1:${port}`)) found.proxy = pid;
			else found.user = pid;
		}
		return found;
	};

	return { url, port, pid: child.pid, persistTo: dir, logPath, workerdPids, logTail, stop };
}

function readProc(pid, file) {
	try {
		return readFileSync(`/proc/${pid}/${file}`, "utf8");
	} catch {
		return "";
	}
}

/** All descendants of `root`, from /proc/<pid>/stat parent links. */
function descendants(root) {
	const children = new Map();
	for (const entry of readdirSync("/proc")) {
		if (!/^\d+$/.test(entry)) continue;
		const stat = readProc(entry, "stat");
		const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
		if (!children.has(ppid)) children.set(ppid, []);
		children.get(ppid).push(Number(entry));
	}
	const out = [];
	const queue = [root];
	while (queue.length > 0) {
		for (const pid of children.get(queue.shift()) ?? []) {
			out.push(pid);
			queue.push(pid);
		}
	}
	return out;
}

/** VmRSS and VmHWM of a process, in bytes (Linux). */
export function memoryOf(pid) {
	const status = readProc(pid, "status");
	const field = (name) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? NaN) * 1024;
	return { rss: field("VmRSS"), hwm: field("VmHWM") };
}

/** CPU time (user + system) a process has used so far, in seconds (Linux, USER_HZ = 100). */
export function cpuSecondsOf(pid) {
	const stat = readProc(pid, "stat");
	// A process that is gone means wrangler dev restarted its runtime (say, on a source change):
	// its CPU time is lost, and a figure without it would be wrong, so the run stops here.
	if (stat === "") throw new Error(`process ${pid} is gone: wrangler dev restarted mid-run; run the benchmark again`);
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	// Fields 14 and 15 of /proc/<pid>/stat (utime, stime); fields[0] here is field 3.
	return (Number(fields[11]) + Number(fields[12])) / 100;
}
