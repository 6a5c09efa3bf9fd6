/**
 * The emulator's `DEFAULT_ORIGIN_URL` (edgezone's, not Cloudflare's; src/edge/origin/address.ts)
 * against a wrangler dev started with it: a proxied record whose address reaches nothing
 * (`A 192.0.2.1`) goes to a Node server named by the var, with the visitor's path, and without
 * the var the same record answers 522, as on Cloudflare (the suite's own wrangler dev).
 */
import { createServer, request } from "node:http";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { apiV4, DEV_ACCOUNT_ID } from "../../scripts/lib/http.mjs";
import { DEV_VARS_EXAMPLE, type RunningDev, startDev } from "./wrangler-dev";

const app = createServer((request, response) => response.end(`app saw ${request.url}`));
let dev: RunningDev;

/** A zone named `name` with a proxied `A 192.0.2.1` record `app`, on the wrangler dev at `base`. */
async function documentedAddressRecord(base: string, name: string): Promise<void> {
	const zone = (await apiV4(base, "POST", "/zones", { name, account: { id: DEV_ACCOUNT_ID } })) as { id: string };
	await apiV4(base, "POST", `/zones/${zone.id}/dns_records`, {
		type: "A",
		name: "app",
		content: "192.0.2.1",
		proxied: true,
	});
}

/** A GET through the edge with `host`: its status and body. */
function visit(base: string, host: string, path: string): Promise<{ status: number; text: string }> {
	// Node's fetch does not send a Host of our choosing; wrangler dev takes the request's URL from it.
	return new Promise((resolve, reject) => {
		const req = request(`${base}${path}`, { headers: { host } }, (res) => {
			let text = "";
			res.setEncoding("utf8").on("data", (chunk: string) => {
				text += chunk;
			});
			res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
		});
		req.on("error", reject);
		req.end();
	});
}

beforeAll(async () => {
	await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
	const { port } = app.address() as { port: number };
	dev = await startDev(DEV_VARS_EXAMPLE, { args: ["--var", `DEFAULT_ORIGIN_URL:http://127.0.0.1:${port}`] });
});

afterAll(async () => {
	await dev?.stop();
	app.close();
});

describe("DEFAULT_ORIGIN_URL", () => {
	it("sends a record whose address reaches nothing to the named origin", async () => {
		await documentedAddressRecord(dev.url, "default-origin.example");
		expect(await visit(dev.url, "app.default-origin.example", "/orders?x=1")).toStrictEqual({
			status: 200,
			text: "app saw /orders?x=1",
		});
	});

	it("is empty by default: the same record answers 522", async () => {
		const base = inject("dev").url;
		await documentedAddressRecord(base, "no-default-origin.example");
		expect((await visit(base, "app.no-default-origin.example", "/")).status).toBe(522);
	});
});
