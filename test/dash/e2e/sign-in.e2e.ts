/** Signing in and out of the dashboard, in Chromium, as a person does it. */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, EMAIL, KEY, SCOPED_TOKEN, TOKEN } from "../../api/credentials";
import { browserSuite, describedBy, e2e, openBrowser, screenshot, signIn } from "./browser";

browserSuite("signing in to the dashboard", () => {
	let browser: Browser;
	let page: Page;
	beforeAll(async () => {
		({ browser, page } = await openBrowser());
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("shows nothing before signing in: every page leads to the sign-in form", async () => {
		await page.goto(`${e2e.dashUrl}/zones/${DEFAULT_ZONE_ID}/logpush`);
		expect(new URL(page.url()).pathname).toBe("/sign-in");
		await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Sign in to edgezone");
		expect(await page.content()).not.toContain(DEFAULT_ZONE_ID);
	});

	it("labels every field of the sign-in form (accessibility tree)", async () => {
		const tree = await page.locator("form").ariaSnapshot();
		expect(tree).toContain('textbox "API token"');
		expect(tree).toContain('textbox "Email"');
		expect(tree).toContain('textbox "Global API key"');
		expect(tree).toContain('button "Sign in"');
		await screenshot(page, "sign-in");
	});

	it("refuses a wrong token with the API's message, next to the field", async () => {
		await page.getByLabel("API token").fill("x".repeat(40));
		await page.getByRole("button", { name: "Sign in" }).click();
		await expect(page.getByRole("alert").textContent()).resolves.toContain("Invalid access token");
		const field = page.getByLabel("API token");
		expect(await field.getAttribute("aria-invalid")).toBe("true");
		// The message is the field's description, so a screen reader reads it with the field.
		expect(await describedBy(page, "API token")).toContain("Invalid access token");
		expect(new URL(page.url()).pathname).toBe("/sign-in");
	});

	it("refuses a malformed key with the API's header error", async () => {
		await page.getByLabel("Email").fill(EMAIL);
		await page.getByLabel("Global API key").fill("not-a-key");
		await page.getByRole("button", { name: "Sign in" }).click();
		// The POST leads to a new page: wait for it (the page before marked another field invalid).
		await expect.poll(() => page.getByLabel("Global API key").getAttribute("aria-invalid")).toBe("true");
		expect(await describedBy(page, "Global API key")).toContain("Invalid format for X-Auth-Key header");
		expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBeNull();
	});

	it("signs in with the keyboard alone, with an email and key, and lands on the zone picker", async () => {
		await page.goto(`${e2e.dashUrl}/sign-in`);
		await page.getByLabel("Email").focus();
		await page.keyboard.type(EMAIL);
		await page.keyboard.press("Tab");
		await page.keyboard.type(KEY);
		await page.keyboard.press("Enter");
		await page.getByRole("heading", { level: 1, name: "Zones" }).waitFor();
		await expect(page.getByRole("link", { name: "example.com" }).getAttribute("href")).resolves.toBe(
			`/zones/${DEFAULT_ZONE_ID}/logpush`,
		);
		await screenshot(page, "zones");
	});

	it("signs out, and the old session no longer opens anything", async () => {
		await page.getByRole("button", { name: "Sign out", exact: true }).click();
		await page.getByRole("heading", { level: 1, name: "Sign in to edgezone" }).waitFor();
		await page.goto(`${e2e.dashUrl}/`);
		expect(new URL(page.url()).pathname).toBe("/sign-in");
	});

	it("lists only the zones a scoped token reaches", async () => {
		// A zone only the all-zones token can see: created through the API, as curl would.
		const name = `e2e-${Date.now()}.example.net`;
		const created = await fetch(`${e2e.baseUrl}/client/v4/zones`, {
			method: "POST",
			headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
			body: JSON.stringify({ name, account: {} }),
		});
		expect(created.status).toBe(200);
		await signIn(page, TOKEN);
		await page.getByRole("link", { name }).waitFor();
		await page.getByRole("button", { name: "Sign out", exact: true }).click();
		await signIn(page, SCOPED_TOKEN);
		const links = await page.getByRole("table").getByRole("link").allTextContents();
		expect(links).toEqual(["example.com"]);
		await page.getByRole("button", { name: "Sign out", exact: true }).click();
	});
});
