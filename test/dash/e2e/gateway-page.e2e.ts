/** Opening the gateway's address in Chromium, as a person who read "Ready on" does: a page that leads to the dashboard. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { browserSuite, e2e, openBrowser } from "./browser";

browserSuite("the gateway's address in a browser", () => {
	let browser: Browser;
	let page: Page;
	beforeAll(async () => {
		({ browser, page } = await openBrowser());
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("shows what the address is, and a link that leads to the dashboard's sign-in", async () => {
		const response = await page.goto(`${e2e.baseUrl}/`);
		expect(response?.status()).toBe(401);
		await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("edgezone's bucket gateway");
		expect(await page.locator("body").textContent()).toContain("README.md");
		const link = page.getByRole("link", { name: e2e.dashUrl });
		await link.click();
		await page.getByRole("heading", { level: 1, name: "Sign in to edgezone" }).waitFor();
		expect(page.url()).toBe(`${e2e.dashUrl}/sign-in`);
	});
});
