/**
 * The package as a user gets it: `npm pack` of this repository, installed into a fresh temporary
 * project (`npm init -y && npm install <tarball>`, from npm's cache: the packages of this
 * repository's own install), then `npx edgezone` in that project, as issue 37's "done when" says.
 * What it prints is what a user reads: the gateway token, the API token and the addresses are
 * taken from there. It serves a bucket, the API v4 and the dashboard; Ctrl-C (SIGINT to its
 * process group, as a terminal sends it) stops it and frees the port; a second start finds the
 * object and the same tokens in `.edgezone/`.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const run = promisify(execFile);

/** The project's Node (22, the `node` devDependency) first, as `npm test` has it. */
const ENV = { ...process.env, PATH: `${join(ROOT, "node_modules", ".bin")}:${process.env.PATH ?? ""}` };
/** The machine's own Node and npx, as a user's shell has them: no node_modules/.bin on the PATH. */
const MACHINE_ENV = {
	...process.env,
	PATH: (process.env.PATH ?? "")
		.split(":")
		.filter((dir) => !dir.includes("node_modules"))
		.join(":"),
};

/** A TCP port free on 127.0.0.1 a moment ago; also how the test sees that one is free again. */
function listenable(port = 0): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(port, "127.0.0.1", () => {
			const address = server.address();
			server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
		});
	});
}

/** What `npx edgezone` printed once ready. */
interface Printed {
	url: string;
	gatewayToken: string;
	apiToken: string;
	dashboard: string;
}

/** A running `npx edgezone`, its output, and how to stop it as Ctrl-C does. */
interface Started {
	child: ChildProcess;
	printed: Printed;
	output(): string;
	interrupt(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `npx edgezone --port <port>` in `cwd` with `env`, in a process group of its own, until it prints its summary. */
async function startCli(cwd: string, port: number, env: NodeJS.ProcessEnv = ENV): Promise<Started> {
	// The inspector on a port of the system's choosing: wrangler's default, 9229 when free, races
	// with the other wrangler dev processes of a busy machine between its check and its bind.
	const child = spawn("npx", ["edgezone", "--port", String(port), "--", "--inspector-port", "0"], {
		cwd,
		env,
		detached: true,
		stdio: ["ignore", "pipe", "pipe"],
	});
	let out = "";
	child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
		out += chunk;
	});
	child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
		out += chunk;
	});
	const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
		child.once("exit", (code, signal) => resolve({ code, signal })),
	);
	const interrupt = async () => {
		if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, "SIGINT");
		return exited;
	};
	const deadline = Date.now() + 120_000;
	while (!/Try:\n.*\n.*zones/.test(out)) {
		if (child.exitCode !== null || Date.now() > deadline) {
			if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
			throw new Error(`npx edgezone did not become ready:\n${out}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const field = (pattern: RegExp) => {
		const value = pattern.exec(out)?.[1];
		if (value === undefined) throw new Error(`not printed (${pattern}):\n${out}`);
		return value;
	};
	return {
		child,
		printed: {
			url: field(/is ready on (http:\/\/\S+)/),
			gatewayToken: field(/Gateway .*Authorization: Bearer (\S+)/),
			apiToken: field(/API token +(\S+)/),
			dashboard: field(/Dashboard +(http:\/\/\S+)/),
		},
		output: () => out,
		interrupt,
	};
}

/** GET `url` on 127.0.0.1 with `Host` as the URL names it (`dash.localhost` need not resolve here). */
function getByHost(url: string, port: number, headers: Record<string, string>) {
	return new Promise<{ status: number; type: string; location: string; body: string }>((resolve, reject) => {
		const { host, pathname, search } = new URL(url);
		const req = request({ host: "127.0.0.1", port, path: pathname + search, headers: { ...headers, host } }, (res) => {
			let body = "";
			res.setEncoding("utf8").on("data", (chunk: string) => {
				body += chunk;
			});
			res.on("end", () =>
				resolve({
					status: res.statusCode ?? 0,
					type: String(res.headers["content-type"]),
					location: res.headers.location ?? "",
					body,
				}),
			);
		});
		req.once("error", reject);
		req.end();
	});
}

describe("the packed package in a fresh project: npx edgezone", () => {
	let temp: string;
	let project: string;
	let port: number;
	let first: Started | undefined;
	let second: Started | undefined;

	beforeAll(async () => {
		temp = mkdtempSync(join(tmpdir(), "edgezone-package-"));
		project = join(temp, "project");
		await run("npm", ["pack", "--pack-destination", temp], { cwd: ROOT, env: ENV });
		const tarball = readdirSync(temp).find((file) => file.endsWith(".tgz"));
		if (tarball === undefined) throw new Error("npm pack made no tarball");
		mkdirSync(project);
		await run("npm", ["init", "-y"], { cwd: project, env: ENV });
		await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", join(temp, tarball)], {
			cwd: project,
			env: ENV,
		});
		port = await listenable();
	});
	afterAll(async () => {
		for (const started of [first, second]) {
			try {
				if (started?.child.pid !== undefined) process.kill(-started.child.pid, "SIGKILL");
			} catch {
				// its group is gone already
			}
		}
		if (temp !== undefined) rmSync(temp, { recursive: true, force: true });
	});

	it("ships the Worker, its config template, the CLI and the Node helper, and no tests", () => {
		const installed = join(project, "node_modules", "edgezone");
		for (const file of ["wrangler.toml", "src/index.ts", "node/cli.mjs", "node/index.mjs", "node/index.d.ts"])
			expect(existsSync(join(installed, file)), file).toBe(true);
		for (const dir of ["test", "scripts", "docs", "fixtures", "examples"])
			expect(existsSync(join(installed, dir)), dir).toBe(false);
	});

	it("starts, prints its addresses and tokens, and serves a bucket, the API and the dashboard", async () => {
		first = await startCli(project, port);
		const { url, gatewayToken, apiToken, dashboard } = first.printed;
		expect(url).toBe(`http://localhost:${port}`);
		const base = `http://127.0.0.1:${port}`;
		const gateway = { authorization: `Bearer ${gatewayToken}` };
		const put = await fetch(`${base}/hello.txt`, { method: "PUT", headers: gateway, body: "hello, edgezone" });
		expect(put.status).toBe(200);
		expect(await (await fetch(`${base}/hello.txt`, { headers: gateway })).text()).toBe("hello, edgezone");
		const zones = await fetch(`${base}/client/v4/zones`, { headers: { authorization: `Bearer ${apiToken}` } });
		expect(zones.status).toBe(200);
		expect(((await zones.json()) as { result: { name: string }[] }).result.map((z) => z.name)).toContain("example.com");
		// The dashboard's host: its root sends a browser to sign in, a page of HTML.
		const root = await getByHost(dashboard, port, { accept: "text/html" });
		expect(root.status).toBe(303);
		const page = await getByHost(new URL(root.location, dashboard).href, port, { accept: "text/html" });
		expect(page.status).toBe(200);
		expect(page.type).toContain("text/html");
		// The generated state, secrets and config stay out of the user's git.
		expect(readFileSync(join(project, ".edgezone", ".gitignore"), "utf8")).toBe("*\n");
	});

	it("stops on Ctrl-C, freeing its port", async () => {
		if (first === undefined) throw new Error("not started");
		// npx ends as a program ended by Ctrl-C does: by the signal (or with 130 when it passes it on).
		const ended = await first.interrupt();
		expect([ended.signal, ended.code], first.output().slice(-2000)).toContainEqual(expect.anything());
		expect(ended.signal === "SIGINT" || ended.code === 130, JSON.stringify(ended)).toBe(true);
		expect(await listenable(port)).toBe(port);
	});

	it("finds the same object and tokens on its second start, now on the machine's Node and with a Worker of the project behind the zone from edgezone.jsonc", async () => {
		if (first === undefined) throw new Error("not started");
		// A Worker of the user's, run in the same wrangler dev session (multi-config) and bound by edgezone.
		mkdirSync(join(project, "app"));
		writeFileSync(
			join(project, "app", "wrangler.json"),
			JSON.stringify({ name: "my-app", main: "index.js", compatibility_date: "2026-10-23" }),
		);
		writeFileSync(join(project, "app", "index.js"), 'export default { fetch: () => new Response("my-app") };\n');
		// Named in the options file, with the schema the package ships, as an editor would complete it.
		const schema = "./node_modules/edgezone/node/edgezone.schema.json";
		expect(existsSync(join(project, schema))).toBe(true);
		writeFileSync(
			join(project, "edgezone.jsonc"),
			`{\n\t"$schema": "${schema}",\n\t// the project's Worker, behind the zone\n\t"workers": ["app/wrangler.json"],\n}\n`,
		);
		// On the machine's own Node this time, which may be older than wrangler supports (Node 20).
		const { stdout: version } = await run("node", ["--version"], { env: MACHINE_ENV });
		second = await startCli(project, port, MACHINE_ENV);
		if (Number(version.slice(1).split(".")[0]) < 22)
			expect(second.output()).toContain(`wrangler supports Node.js 22 or later and warns on ${version.trim()}`);
		expect(second.printed).toEqual(first.printed);
		const generated = JSON.parse(readFileSync(join(project, ".edgezone", "wrangler.json"), "utf8"));
		expect(generated.services).toContainEqual({ binding: "WORKER_1", service: "my-app" });
		expect(JSON.parse(generated.vars.WORKER_SCRIPTS)).toEqual({ "my-app": "WORKER_1" });
		const got = await fetch(`http://127.0.0.1:${port}/hello.txt`, {
			headers: { authorization: `Bearer ${second.printed.gatewayToken}` },
		});
		expect(await got.text()).toBe("hello, edgezone");
		// A Workers route of the default zone sends its requests to the project's Worker.
		const routes = `http://127.0.0.1:${port}/client/v4/zones/023e105f4ecef8ad9ca31a8372d0c353/workers/routes`;
		const route = await fetch(routes, {
			method: "POST",
			headers: { authorization: `Bearer ${second.printed.apiToken}`, "content-type": "application/json" },
			body: JSON.stringify({ pattern: "my-app.example.com/*", script: "my-app" }),
		});
		expect(route.status, await route.clone().text()).toBe(200);
		expect((await getByHost("http://my-app.example.com/anything", port, {})).body).toBe("my-app");
		await second.interrupt();
		expect(await listenable(port)).toBe(port);
	});
});
