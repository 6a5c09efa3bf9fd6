/**
 * A Worker behind a Workers route with wrangler's multi-config dev, as docs/workers-routes.md
 * runs it: edgezone's wrangler.toml plus a `[[services]]` binding in a copy of its own (the
 * committed file unchanged), the echo fixture's wrangler.toml as the second config, and
 * `WORKER_SCRIPTS` given with `--var`. One wrangler dev of its own (the shared one has no second
 * Worker), started and stopped here.
 */
import { appendFileSync, copyFileSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { removeOnExit } from "../../scripts/lib/wrangler-dev.mjs";
import { DEV_VARS_EXAMPLE, type RunningDev, startDev } from "./wrangler-dev";

const ROOT = join(import.meta.dirname, "..", "..");
const TOKEN = "edgezone_dev_token_000000000000000000000";
const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";

/** A GET to the dev server with `Host: host` (fetch cannot set Host); the body as text. */
function get(port: number, host: string, path: string, headers: Record<string, string> = {}) {
	return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }>(
		(resolve, reject) => {
			const req = request({ host: "127.0.0.1", port, path, headers: { ...headers, host } }, (res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () =>
					resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }),
				);
				res.on("error", reject);
			});
			req.on("error", reject);
			req.end();
		},
	);
}

describe("wrangler dev -c wrangler.routes.toml -c the echo Worker's wrangler.toml", () => {
	let dev: RunningDev;
	beforeAll(async () => {
		// The page's copy, under a name of this run's (.gitignore: wrangler.routes*.toml), removed at exit.
		const config = `wrangler.routes-test-${process.pid}.toml`;
		copyFileSync(join(ROOT, "wrangler.toml"), join(ROOT, config));
		removeOnExit(join(ROOT, config));
		appendFileSync(join(ROOT, config), '\n[[services]]\nbinding = "ECHO"\nservice = "echo"\n');
		dev = await startDev(DEV_VARS_EXAMPLE, {
			args: ["-c", config, "-c", "test/fixtures/workers/echo/wrangler.toml", "--var", 'WORKER_SCRIPTS:{"echo":"ECHO"}'],
		});
	});
	afterAll(async () => {
		await dev?.stop();
	});

	it("runs the echo Worker for the requests its route matches, with the emulated country in request.cf", async () => {
		const created = await fetch(`${dev.url}/client/v4/zones/${ZONE}/workers/routes`, {
			method: "POST",
			headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
			body: JSON.stringify({ pattern: "app.example.com/*", script: "echo" }),
		});
		expect(created.status, await created.clone().text()).toBe(200);

		const answer = await get(dev.port, "app.example.com", "/hello?x=1", { "x-edgezone-geo-country": "FR" });
		expect(answer.status, answer.text).toBe(200);
		expect(answer.headers["x-echo-worker"]).toBe("echo");
		const echo = JSON.parse(answer.text) as { method: string; url: string; cf: Record<string, unknown> };
		expect(echo).toMatchObject({ method: "GET", url: "http://app.example.com/hello?x=1" });
		// colo and the protocol are wrangler's placeholder request.cf, passed on.
		expect(echo.cf).toMatchObject({ country: "FR", colo: expect.any(String), httpProtocol: "HTTP/1.1" });

		// Without a location of the edge's own, the visitor's request goes on as it came: the runtime's
		// request.cf, with the visitor's headers, CF-Ray and the scheme and IP headers the edge adds
		// (X-Real-IP: the CF-Connecting-IP wrangler gave the request).
		const plain = await get(dev.port, "app.example.com", "/plain", { "x-visitor": "v" });
		const plainEcho = JSON.parse(plain.text) as { headers: Record<string, string>; cf: Record<string, unknown> };
		expect(plainEcho.cf).toMatchObject({ colo: expect.any(String), httpProtocol: "HTTP/1.1" });
		expect(plainEcho.headers).toMatchObject({
			"x-visitor": "v",
			"cf-ray": plain.headers["cf-ray"],
			"x-forwarded-proto": "http",
			"cf-visitor": '{"scheme":"http"}',
			"x-real-ip": expect.stringMatching(/^[0-9a-f.:]+$/),
		});
		expect(plainEcho.headers["x-real-ip"]).toBe(plainEcho.headers["cf-connecting-ip"]);

		// Another host of the zone: no route, the bucket gateway (its 401 without a token).
		expect((await get(dev.port, "example.com", "/hello")).status).toBe(401);
	});
});
