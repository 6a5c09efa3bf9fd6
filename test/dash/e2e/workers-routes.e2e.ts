/**
 * The Workers Routes page in Chromium: reached from the zone's sidebar, a route added with a
 * Worker of the account (`workers.ts`, listed by global-setup.ts) and listed, a pattern outside
 * the zone and a Worker the account lacks refused with the API's error read with their fields,
 * the route edited to None on its Edit page, and deleted after the confirmation.
 */
import { expect, it } from "vitest";
import { api, browserSuite, describedBy, e2e, statusSays, zoneSession } from "./browser";
import { E2E_WORKERS } from "./workers";

const ZONE_NAME = `routes-page-${Date.now().toString(36)}.example.org`;

browserSuite("the Workers Routes page", () => {
	const session = zoneSession(ZONE_NAME);

	const addForm = () => session.page.getByRole("form", { name: "Add route" });
	const row = (pattern: string) =>
		session.page.getByRole("row").filter({ has: session.page.getByRole("cell", { name: pattern, exact: true }) });

	it("opens at Workers Routes from the zone's sidebar", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Workers Routes" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Workers Routes" }).waitFor();
		expect(new URL(session.page.url()).pathname).toBe(`/zones/${session.zoneId}/workers-routes`);
		await session.page.getByText("No routes in this zone.").waitFor();
	});

	it("adds a route with a Worker and lists it", async () => {
		// The Worker field offers the account's Workers as the person types.
		const list = await addForm().getByLabel("Worker").getAttribute("list");
		const offered = await session.page.locator(`datalist[id="${list}"] option`).all();
		expect(await Promise.all(offered.map((option) => option.getAttribute("value")))).toEqual(Object.keys(E2E_WORKERS));
		await addForm().getByLabel("Route").fill(`app.${ZONE_NAME}/*`);
		await addForm().getByLabel("Worker").fill("my-app");
		await addForm().getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "Route added.")).toBe("Route added.");
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
		await session.page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(addForm(), "Route")).resolves.toContain(
			"Route pattern must include zone name: example.net/*",
		);
		await expect(addForm().getByLabel("Worker").inputValue()).resolves.toBe("my-app");
		expect(await api<unknown[]>("GET", `/zones/${session.zoneId}/workers/routes`)).toHaveLength(1);
	});

	it("shows a Worker the account does not have refused next to the Worker field, nothing added", async () => {
		await addForm().getByLabel("Route").fill(`shop.${ZONE_NAME}/*`);
		await addForm().getByLabel("Worker").fill("not-deployed");
		await addForm().getByRole("button", { name: "Save" }).click();
		await session.page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(addForm(), "Worker")).resolves.toContain(
			"Cannot configure a route for a Worker which does not exist.",
		);
		await expect(addForm().getByLabel("Route").inputValue()).resolves.toBe(`shop.${ZONE_NAME}/*`);
		expect(await api<unknown[]>("GET", `/zones/${session.zoneId}/workers/routes`)).toHaveLength(1);
	});

	it("edits the route to None on its Edit page", async () => {
		await session.page.goto(`${e2e.dashUrl}/zones/${session.zoneId}/workers-routes`);
		await row(`app.${ZONE_NAME}/*`)
			.getByRole("link", { name: `Edit app.${ZONE_NAME}/*` })
			.click();
		await session.page.getByRole("heading", { level: 1, name: "Edit route" }).waitFor();
		await session.page.getByLabel("Route", { exact: true }).fill(`app.${ZONE_NAME}/static/*`);
		await session.page.getByLabel("Worker", { exact: true }).fill("");
		await session.page.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "Route saved.")).toBe("Route saved.");
		await expect(row(`app.${ZONE_NAME}/static/*`).getByRole("cell").nth(1).textContent()).resolves.toBe("None");
		const [route] = await api<{ pattern: string; script?: string }[]>("GET", `/zones/${session.zoneId}/workers/routes`);
		expect(route).toEqual({ id: expect.any(String), pattern: `app.${ZONE_NAME}/static/*` });
	});

	it("deletes the route after the confirmation", async () => {
		session.page.once("dialog", (dialog) => {
			expect(dialog.message()).toBe(`Delete the route app.${ZONE_NAME}/static/*?`);
			void dialog.accept();
		});
		await row(`app.${ZONE_NAME}/static/*`)
			.getByRole("button", { name: `Delete app.${ZONE_NAME}/static/*` })
			.click();
		expect(await statusSays(session.page, "Route deleted.")).toBe("Route deleted.");
		await session.page.getByText("No routes in this zone.").waitFor();
		expect(await api<unknown[]>("GET", `/zones/${session.zoneId}/workers/routes`)).toEqual([]);
	});
});
