/**
 * The Workers Routes page through the Worker's front door (no browser): the routes with their
 * Worker ("None" without one), Add route with the API's refusals at their fields (nothing stored),
 * Edit, Delete, and a token without Workers Routes Read. Browser tests of the same page:
 * test/dash/e2e/workers-routes.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN, WAF_TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

const open = (browser: Browser, path: string) =>
	exports.default.fetch(`${DASH}${path}`, { headers: { cookie: browser.cookie } });

/** The zone's routes as the API lists them. */
async function routes(zone: string): Promise<{ id: string; pattern: string; script?: string }[]> {
	return (await call("GET", `/zones/${zone}/workers/routes`)).body.result as never;
}

async function zoneName(zone: string): Promise<string> {
	return ((await call("GET", `/zones/${zone}`)).body.result as { name: string }).name;
}

describe("the Workers Routes page", () => {
	it("adds routes, with a Worker and with None, and lists them", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		const { browser } = await signIn(TOKEN);
		const added = await post(browser, `/zones/${zone}/workers-routes/routes`, {
			pattern: `app.${name}/*`,
			script: "echo",
		});
		expect(added.status).toBe(303);
		expect(added.headers.get("location")).toBe(`/zones/${zone}/workers-routes?done=added`);
		await post(browser, `/zones/${zone}/workers-routes/routes`, { pattern: ` app.${name}/static/* `, script: "" });
		expect(await routes(zone)).toEqual([
			{ id: expect.any(String), pattern: `app.${name}/*`, script: "echo" },
			{ id: expect.any(String), pattern: `app.${name}/static/*` },
		]);
		const page = await seen(await (await open(browser, `/zones/${zone}/workers-routes?done=added`)).text());
		expect(page.h1).toBe("Workers Routes");
		// The account's Workers (the test pool's WORKER_SCRIPTS), offered as the person types.
		expect(page.field("Worker").suggestions).toEqual(["echo", "unbound"]);
		expect(page.text).toContain("Route added.");
		expect(page.rows.map((r) => r.slice(0, 2))).toEqual([
			["Route", "Worker"],
			[`app.${name}/*`, "echo"],
			[`app.${name}/static/*`, "None"],
		]);
		expect(page.links("Workers Routes").map((l) => l.get("href"))).toContain(`/zones/${zone}/workers-routes`);
	});

	it("shows a pattern outside the zone (10022) and a duplicate (10020) at Route, a Worker the account lacks (10019) at Worker, storing nothing", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		const { browser } = await signIn(TOKEN);
		const outside = await post(browser, `/zones/${zone}/workers-routes/routes`, {
			pattern: "example.org/*",
			script: "echo",
		});
		expect(outside.status).toBe(400);
		const refused = await seen(await outside.text());
		expect(refused.field("Route")).toMatchObject({ value: "example.org/*", invalid: true });
		expect(refused.field("Route").error).toBe("Route pattern must include zone name: example.org/*");
		expect(refused.field("Worker")).toMatchObject({ value: "echo", invalid: false });
		await post(browser, `/zones/${zone}/workers-routes/routes`, { pattern: `${name}/*`, script: "echo" });
		const duplicate = await post(browser, `/zones/${zone}/workers-routes/routes`, {
			pattern: `${name}/*`,
			script: "unbound",
		});
		expect(duplicate.status).toBe(409);
		expect((await seen(await duplicate.text())).field("Route").error).toBe("workers.api.error.duplicate_route");
		const badScript = await post(browser, `/zones/${zone}/workers-routes/routes`, {
			pattern: `${name}/a/*`,
			script: "My App",
		});
		expect(badScript.status).toBe(400);
		expect((await seen(await badScript.text())).field("Worker").invalid).toBe(true);
		const noWorker = await post(browser, `/zones/${zone}/workers-routes/routes`, {
			pattern: `${name}/b/*`,
			script: "my-app",
		});
		expect(noWorker.status).toBe(400);
		expect((await seen(await noWorker.text())).field("Worker")).toMatchObject({
			value: "my-app",
			invalid: true,
			error:
				"Cannot configure a route for a Worker which does not exist. Please ensure this Worker exists and try again.",
		});
		expect((await routes(zone)).map((r) => r.script)).toEqual(["echo"]);
	});

	it("edits a route's pattern and Worker (None included) and deletes it", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		const { browser } = await signIn(TOKEN);
		await post(browser, `/zones/${zone}/workers-routes/routes`, { pattern: `${name}/*`, script: "echo" });
		const [route] = await routes(zone);
		const base = `/zones/${zone}/workers-routes/routes/${route?.id}`;
		const edit = await seen(await (await open(browser, base)).text());
		expect(edit.h1).toBe("Edit route");
		expect(edit.field("Route").value).toBe(`${name}/*`);
		expect(edit.field("Worker")).toMatchObject({ value: "echo", suggestions: ["echo", "unbound"] });
		const bad = await post(browser, base, { pattern: `${name}/*.jpg`, script: "echo" });
		expect(bad.status).toBe(400);
		expect((await seen(await bad.text())).field("Route")).toMatchObject({ value: `${name}/*.jpg`, invalid: true });
		const saved = await post(browser, base, { pattern: `shop.${name}/*`, script: "" });
		expect(saved.headers.get("location")).toBe(`/zones/${zone}/workers-routes?done=saved`);
		expect(await routes(zone)).toEqual([{ id: route?.id, pattern: `shop.${name}/*` }]);

		const deleted = await post(browser, `${base}/delete`, {});
		expect(deleted.headers.get("location")).toBe(`/zones/${zone}/workers-routes?done=deleted`);
		expect(await routes(zone)).toEqual([]);
		const empty = await seen(await (await open(browser, `/zones/${zone}/workers-routes?done=deleted`)).text());
		expect(empty.text).toContain("No routes in this zone.");
	});

	it("shows a token without Workers Routes Read the API's refusal in place of the routes, and refuses its writes", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		await call("POST", `/zones/${zone}/workers/routes`, { pattern: `secret.${name}/*`, script: "echo" });
		const { browser } = await signIn(WAF_TOKEN);
		const page = await seen(await (await open(browser, `/zones/${zone}/workers-routes`)).text());
		expect(page.alerts.join(" ")).toMatch(/Authentication error/);
		expect(page.text).not.toContain(`secret.${name}`);
		const write = await post(browser, `/zones/${zone}/workers-routes/routes`, { pattern: `${name}/*`, script: "echo" });
		expect(write.status).toBe(403);
		expect((await routes(zone)).map((r) => r.pattern)).toEqual([`secret.${name}/*`]);
	});
});
