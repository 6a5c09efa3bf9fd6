/**
 * Helpers of the browser tests: headless Chromium (Debian's, driven by playwright-core) at
 * 1280x800, signing in as a person does, and screenshots into docs/screenshots/ (written only with
 * `UPDATE_SCREENSHOTS=1`, so a plain `npm test` leaves the committed images alone).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Browser, type BrowserContextOptions, chromium, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, inject } from "vitest";
import { TOKEN } from "../../api/credentials";

/** What global-setup.ts started. */
export const e2e = inject("e2e");

/** `describe`, skipped when Chromium is missing (global-setup.ts said so loudly, or failed in CI). */
export const browserSuite = describe.skipIf(e2e.chromium === null);

const SCREENSHOTS = fileURLToPath(new URL("../../../docs/screenshots/", import.meta.url));

/** A desktop screen, the tests' default. */
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };

/**
 * Launches Chromium and opens a page on `screen` (default a 1280x800 desktop; a phone's options
 * set `isMobile`, so the page's viewport meta tag counts as on a phone); close the browser when done.
 */
export async function openBrowser(screen: BrowserContextOptions = DESKTOP): Promise<{ browser: Browser; page: Page }> {
	const browser = await chromium.launch({
		executablePath: e2e.chromium ?? undefined,
		headless: true,
		// `--no-sandbox`: CI runs as root, where Chromium's sandbox cannot start. The resolver
		// rule makes dash.localhost reach wrangler dev's IPv4 listener whatever the system resolver does.
		args: ["--no-sandbox", "--host-resolver-rules=MAP dash.localhost 127.0.0.1"],
	});
	const context = await browser.newContext(screen);
	const page = await context.newPage();
	// 30 s: under `npm test` this project shares 2 cores with the workers and node projects, and
	// a dashboard upload once took past 15 s there (an idle run takes under one).
	page.setDefaultTimeout(30_000);
	return { browser, page };
}

/**
 * Takes what the page shows (the 1280x800 viewport) and, when `UPDATE_SCREENSHOTS=1` is set, saves
 * it as docs/screenshots/<name>.png. Chromium's pixels differ from run to run (fonts, timing), so
 * writing them on every run would leave every checkout dirty; the picture is still taken, so a page
 * that cannot be drawn fails either way.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
	if (process.env.UPDATE_SCREENSHOTS !== "1") {
		await page.screenshot();
		return;
	}
	mkdirSync(SCREENSHOTS, { recursive: true });
	await page.screenshot({ path: `${SCREENSHOTS}${name}.png` });
}

/** Signs in through the sign-in form with an API token, as a person does; lands on the zone picker. */
export async function signIn(page: Page, token: string): Promise<void> {
	await page.goto(`${e2e.dashUrl}/sign-in`);
	await page.getByLabel("API token").fill(token);
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.getByRole("heading", { level: 1, name: "Zones" }).waitFor();
}

/**
 * The text of the elements that describe the field labelled `label` (`aria-describedby`), the field
 * looked for in `scope` (a page, or a form of it); `exact` matches the whole label only.
 */
export async function describedBy(scope: Page | Locator, label: string, exact = false): Promise<string> {
	const ids = (await scope.getByLabel(label, { exact }).getAttribute("aria-describedby")) ?? "";
	const page = "page" in scope ? scope.page() : scope;
	const texts = await Promise.all(
		ids
			.split(" ")
			.filter((id) => id !== "")
			.map((id) => page.locator(`[id="${id}"]`).textContent()),
	);
	return texts.join(" ");
}

/**
 * Waits until the page's status says exactly `text`, and answers it: a form's POST leads to a new
 * page, and reading the status at once could read the page the form was on.
 */
export async function statusSays(page: Page, text: string): Promise<string | null> {
	const status = page.getByRole("status").filter({ hasText: text });
	await status.waitFor();
	return status.textContent();
}

/**
 * The API v4 with the all-zones token, for what a person does elsewhere (create a zone, write a
 * record) or to cross-check what a page did: the envelope's `result`.
 * @throws Error naming the call and the API's errors when it does not succeed.
 */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
	const response = await fetch(`${e2e.baseUrl}/client/v4${path}`, {
		method,
		headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const envelope = (await response.json()) as { success: boolean; result: T; errors: unknown };
	if (!envelope.success) throw new Error(`${method} ${path}: ${JSON.stringify(envelope.errors)}`);
	return envelope.result;
}

/** A suite's page, signed in with the tests' token, on a zone of its own (`zoneSession`). */
export interface ZoneSession {
	page: Page;
	zoneId: string;
}

/**
 * Before the suite's tests: the zone `zoneName`, made with the API, and Chromium on a desktop
 * screen, signed in; after them, the browser closed. Call it in a `browserSuite`'s body; the
 * fields are set once its `beforeAll` has run.
 */
export function zoneSession(zoneName: string): ZoneSession {
	const session = {} as ZoneSession;
	let browser: Browser | undefined;
	beforeAll(async () => {
		session.zoneId = (await api<{ id: string }>("POST", "/zones", { name: zoneName, account: {} })).id;
		const opened = await openBrowser();
		browser = opened.browser;
		session.page = opened.page;
		await signIn(opened.page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});
	return session;
}
