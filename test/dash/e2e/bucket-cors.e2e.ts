/**
 * The Public access page's CORS policy in Chromium, for a bucket created at run time (one of its
 * own, so no other suite sees its policy): the bucket chosen among the page's buckets and a domain
 * connected; a policy that is not JSON refused next to the field, with what was typed kept; the
 * policy saved, shown, and answering a browser's preflight on the domain; then deleted.
 */
import { request } from "node:http";
import { beforeAll, expect, it } from "vitest";
import { api, browserSuite, describedBy, e2e, statusSays, zoneSession } from "./browser";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const RUN = Date.now().toString(36);
const ZONE_NAME = `bucket-cors-${RUN}.example.org`;
const DOMAIN = `assets.${ZONE_NAME}`;
const BUCKET = `e2e-cors-${RUN}`;
const PAGE = "http://localhost:3000";

/** A preflight of `GET /hello.txt` from `origin` to the edge as `DOMAIN`: its status and `Access-Control-Allow-Origin`. */
function preflight(origin: string): Promise<{ status: number; allowOrigin: string | undefined }> {
	const { hostname, port } = new URL(e2e.baseUrl);
	const headers = { host: DOMAIN, origin, "access-control-request-method": "GET" };
	return new Promise((resolve, reject) => {
		const req = request({ host: hostname, port, method: "OPTIONS", path: "/hello.txt", headers }, (res) => {
			res.resume();
			const allowOrigin = res.headers["access-control-allow-origin"];
			res.on("end", () => resolve({ status: res.statusCode ?? 0, allowOrigin }));
		});
		req.on("error", reject);
		req.end();
	});
}

browserSuite("the Public access page's CORS policy", () => {
	const session = zoneSession(ZONE_NAME);
	beforeAll(async () => {
		await api("POST", `/accounts/${ACCOUNT}/r2/buckets`, { name: BUCKET });
	});

	const corsCard = () => session.page.getByRole("region", { name: "CORS policy" });
	const policyField = () => corsCard().getByLabel("Policy (JSON)");

	it("offers the created bucket, and connects a domain of the zone to it", async () => {
		await session.page.goto(`${e2e.dashUrl}/zones/${session.zoneId}/bucket-domains`);
		await session.page.getByLabel("Bucket", { exact: true }).selectOption(BUCKET);
		await session.page.getByRole("button", { name: "Open bucket" }).click();
		const connect = session.page.getByRole("form", { name: "Connect domain" });
		await connect.getByLabel("Domain", { exact: true }).fill(DOMAIN);
		await connect.getByRole("button", { name: "Connect domain" }).click();
		expect(await statusSays(session.page, "Custom domain connected.")).toBe("Custom domain connected.");
		await expect(corsCard().getByText("No CORS policy").count()).resolves.toBe(1);
		expect(await preflight(PAGE)).toStrictEqual({ status: 403, allowOrigin: undefined });
	});

	it("refuses a policy that is not JSON next to the field, keeping what was typed", async () => {
		await policyField().fill('[{"AllowedOrigins": ["http://localhost:3000"]');
		await corsCard().getByRole("button", { name: "Save policy" }).click();
		await corsCard().locator('[aria-invalid="true"]').waitFor();
		await expect(describedBy(corsCard(), "Policy (JSON)")).resolves.toContain("The policy is not JSON");
		await expect(policyField().inputValue()).resolves.toBe('[{"AllowedOrigins": ["http://localhost:3000"]');
	});

	it("saves the policy, shows it, and the domain answers a page on its origin", async () => {
		await policyField().fill('[{"AllowedOrigins": ["http://localhost:3000"], "AllowedMethods": ["GET"]}]');
		await corsCard().getByRole("button", { name: "Save policy" }).click();
		expect(await statusSays(session.page, "CORS policy saved.")).toBe("CORS policy saved.");
		const shown = (await corsCard().getByRole("figure", { name: "Current policy" }).textContent()) ?? "";
		expect(JSON.parse(shown.replace(/^Current policy/, ""))).toStrictEqual([
			{ AllowedOrigins: [PAGE], AllowedMethods: ["GET"] },
		]);
		expect(await preflight(PAGE)).toStrictEqual({ status: 200, allowOrigin: PAGE });
		expect((await preflight("https://elsewhere.example")).status).toBe(403);
	});

	it("deletes the policy (the confirmation accepted): the domain no longer lets the page in", async () => {
		session.page.once("dialog", (dialog) => void dialog.accept());
		await corsCard().getByRole("button", { name: "Delete policy" }).click();
		expect(await statusSays(session.page, "CORS policy deleted.")).toBe("CORS policy deleted.");
		await expect(corsCard().getByText("No CORS policy").count()).resolves.toBe(1);
		expect(await preflight(PAGE)).toStrictEqual({ status: 403, allowOrigin: undefined });
	});
});
