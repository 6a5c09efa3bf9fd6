/**
 * The Workers Routes page in Chromium: reached from the zone's sidebar, a route added with a
 * Worker and listed, a pattern outside the zone refused with the API's error read with the Route
 * field, the route edited to None on its Edit page, and deleted after the confirmation.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TOKEN } from "../../api/credentials";
import { api, browserSuite, describedBy, e2e, openBrowser, signIn, statusSays } from "./browser";

const ZONE_NAME = `routes-page-${Date.now().toString(36)}.example.org`;

browserSuite("the Workers Routes page", () => {
	let browser: Browser;
	let page: Page;
	let zoneId: string;
	beforeAll(async () => {
		zoneId = (await api<{ id: string }>("POST", "/zones", { name: ZONE_NAME, account: {} })).id;
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	const addForm = () => page.getByRole("form", { name: "Add route" });
	const row = (pattern: string) =>
		page.getByRole("row").filter({ has: page.getByRole("cell", { name: pattern, exact: true }) });

	it("opens at Workers Routes from the zone's sidebar", async () => {
		await page.getByRole("link", { name: ZONE_NAME }).click();
		await page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Workers Routes" }).click();
		await page.getByRole("heading", { level: 1, name: "Workers Routes" }).waitFor();
		expect(new URL(page.url()).pathname).toBe(`/zones/${zoneId}/workers-routes`);
		await page.getByText("No routes in this zone.").waitFor();
	});

	it("adds a route with a Worker and lists it", async () => {
		await addForm().getByLabel("Route").fill(`app.${ZONE_NAME}/*`);
		await addForm().getByLabel("Worker").fill("my-app");
		await addForm().getByRole("button", { name: "Save" }).click();
		expect(await statusSays(page, "Route added.")).toBe("Route added.");
		expect(await row(`app.${ZONE_NAME}/*`).getByRole("cell").allTextContents()).toEqual([
			`app.${ZONE_NAME}/*`,
			"my-app",
			"EditDelete",
		]);
	});

	it("shows a pattern outside the zone refused next to the Route field, nothing added", async () => {
		await addForm().getByLabel("Route").fill("example.net/*");
		await addForm().getByLabel("Worker").fill("my-app");
		await addForm().getByRole("button", { name: "Save" }).click();
		await page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(addForm(), "Route")).resolves.toContain(
			"Route pattern must include zone name: example.net/*",
		);
		await expect(addForm().getByLabel("Worker").inputValue()).resolves.toBe("my-app");
		expect(await api<unknown[]>("GET", `/zones/${zoneId}/workers/routes`)).toHaveLength(1);
	});

	it("edits the route to None on its Edit page", async () => {
		await page.goto(`${e2e.dashUrl}/zones/${zoneId}/workers-routes`);
		await row(`app.${ZONE_NAME}/*`)
			.getByRole("link", { name: `Edit app.${ZONE_NAME}/*` })
			.click();
		await page.getByRole("heading", { level: 1, name: "Edit route" }).waitFor();
		await page.getByLabel("Route", { exact: true }).fill(`app.${ZONE_NAME}/static/*`);
		await page.getByLabel("Worker", { exact: true }).fill("");
		await page.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(page, "Route saved.")).toBe("Route saved.");
		await expect(row(`app.${ZONE_NAME}/static/*`).getByRole("cell").nth(1).textContent()).resolves.toBe("None");
		const [route] = await api<{ pattern: string; script?: string }[]>("GET", `/zones/${zoneId}/workers/routes`);
		expect(route).toEqual({ id: expect.any(String), pattern: `app.${ZONE_NAME}/static/*` });
	});

	it("deletes the route after the confirmation", async () => {
		page.once("dialog", (dialog) => {
			expect(dialog.message()).toBe(`Delete the route app.${ZONE_NAME}/static/*?`);
			void dialog.accept();
		});
		await row(`app.${ZONE_NAME}/static/*`)
			.getByRole("button", { name: `Delete app.${ZONE_NAME}/static/*` })
			.click();
		expect(await statusSays(page, "Route deleted.")).toBe("Route deleted.");
		await page.getByText("No routes in this zone.").waitFor();
		expect(await api<unknown[]>("GET", `/zones/${zoneId}/workers/routes`)).toEqual([]);
	});
});
