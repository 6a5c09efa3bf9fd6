/**
 * The Bucket page in Chromium with a bucket created at run time (src/runtime-buckets/): created and
 * filled through the R2 REST API, it is among the page's bucket choices, and opening it lists its
 * object. Read from the accessibility tree.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, e2e, openBrowser, signIn } from "./browser";

const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const NAME = `e2e-made-${Date.now().toString(36)}`;

browserSuite("the Bucket page and a bucket created at run time", () => {
	let browser: Browser;
	let page: Page;
	beforeAll(async () => {
		const api = `${e2e.baseUrl}/client/v4/accounts/${ACCOUNT}/r2/buckets`;
		const auth = { Authorization: `Bearer ${TOKEN}` };
		const created = await fetch(api, {
			method: "POST",
			headers: { ...auth, "content-type": "application/json" },
			body: JSON.stringify({ name: NAME }),
		});
		expect(created.status).toBe(200);
		const put = await fetch(`${api}/${NAME}/objects/made/hello.txt`, { method: "PUT", headers: auth, body: "hello" });
		expect(put.status).toBe(200);
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("offers the created bucket among the choices and lists its objects", async () => {
		await page.goto(`${e2e.dashUrl}/zones/${DEFAULT_ZONE_ID}/bucket`);
		await page.getByLabel("Gateway token").fill(e2e.gatewayToken);
		await page.keyboard.press("Enter");
		const choice = page.getByRole("form", { name: "Choose a bucket" });
		expect(await choice.ariaSnapshot()).toContain(`option "${NAME} (created `);
		await page.getByLabel("Bucket", { exact: true }).selectOption(NAME);
		await page.getByRole("button", { name: "Open bucket" }).click();
		await page.getByRole("link", { name: "made/" }).click();
		await page.getByRole("link", { name: "hello.txt" }).waitFor();
	});
});
