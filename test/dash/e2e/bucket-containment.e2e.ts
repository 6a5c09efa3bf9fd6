/**
 * No stored object runs as the dashboard, in Chromium: a person with a read-write gateway token
 * uploads, through the Bucket page's own form, an HTML object that loads a script from the same
 * proxy path, the script, an SVG with scripts, and HTML bytes named .png; then opens each as a
 * signed-in person would (its proxy URL in the tab, its object page, its Download link). No
 * script of theirs runs: no dialog, no request to the marker path, the tab's title untouched
 * (src/dash/bucket/containment.ts). The headers themselves are test/dash/bucket-containment.test.ts.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, e2e, openBrowser, signIn } from "./browser";

const BUCKET = `/zones/${DEFAULT_ZONE_ID}/bucket`;
const FOLDER = `contain-${Date.now().toString(36)}/`;
/** The path a stored object asks for when its script runs or it renders as a page; nothing answers it, the request is the sign. */
const MARKER = "/stored-script-ran";

const proxyUrl = (name: string) => `${e2e.dashUrl}${BUCKET}/o/?${new URLSearchParams({ key: `${FOLDER}${name}` })}`;
const objectPage = (name: string) =>
	`${e2e.dashUrl}${BUCKET}/object?${new URLSearchParams({ key: `${FOLDER}${name}` })}`;

// The script every object tries to run, loaded by the others from the same proxy path.
const SCRIPT = `document.title = "stored script ran"; window.storedScriptRan = true; fetch("${MARKER}?from=x.js"); alert("x.js");`;
const SAME_PATH_SCRIPT = `?${new URLSearchParams({ key: `${FOLDER}x.js` })}`.replaceAll("&", "&amp;");
const FILES: Record<string, string> = {
	"x.js": SCRIPT,
	"x.html": `<!doctype html><title>x.html</title><script src="${SAME_PATH_SCRIPT}"></script><script>fetch("${MARKER}?from=html-inline")</script><img src="${MARKER}?from=html-img">`,
	"x.svg": `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><script xlink:href="${SAME_PATH_SCRIPT}"/><script>fetch("${MARKER}?from=svg-inline")</script><rect width="10" height="10"/></svg>`,
	// HTML bytes under an image's name: the browser sends image/png, and must never sniff HTML.
	"sniffed.png": `<!doctype html><script src="${SAME_PATH_SCRIPT}"></script>`,
};

browserSuite("stored objects opened from the Bucket page", () => {
	let browser: Browser;
	let page: Page;
	const ran: string[] = [];
	beforeAll(async () => {
		const dir = mkdtempSync(join(tmpdir(), "edgezone-containment-e2e-"));
		for (const [name, body] of Object.entries(FILES)) writeFileSync(join(dir, name), body);
		({ browser, page } = await openBrowser());
		// Whatever a stored script could do that shows: a dialog, a request to the marker path.
		page.on("dialog", (dialog) => {
			ran.push(`dialog: ${dialog.message()}`);
			void dialog.dismiss();
		});
		page.context().on("request", (request) => {
			if (new URL(request.url()).pathname === MARKER) ran.push(`request: ${request.url()}`);
		});
		await signIn(page, TOKEN);
		await page.goto(`${e2e.dashUrl}${BUCKET}`);
		await page.getByLabel("Gateway token").fill(e2e.gatewayToken);
		await page.keyboard.press("Enter");
		await page.getByText("Gateway token saved for this session.").waitFor();
		await page
			.getByLabel("Files to upload", { exact: true })
			.setInputFiles(Object.keys(FILES).map((n) => join(dir, n)));
		await page.getByLabel("Folder", { exact: true }).fill(FOLDER);
		await page.getByRole("button", { name: "Upload", exact: true }).click();
		await page.waitForFunction(() => document.querySelector("#upload-status")?.textContent?.startsWith("Uploaded "));
		await expect(page.locator("#upload-status").textContent()).resolves.toBe("Uploaded 4 of 4 files.");
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("downloads the HTML and the SVG object opened by URL, previews them as text on their pages: no script runs", async () => {
		for (const name of ["x.html", "x.svg", "x.js"]) {
			const before = await page.title();
			// Opened as typed or followed from a link. A navigation that becomes a download rejects
			// ("net::ERR_ABORTED"); one that renders resolves once its scripts have run.
			const download = page.waitForEvent("download");
			// Awaited below; when an assertion fails first, the browser closes under it.
			download.catch(() => undefined);
			await page.goto(proxyUrl(name)).catch(() => null);
			expect(ran, name).toEqual([]);
			expect(await page.title(), name).toBe(before);
			expect(await page.evaluate(() => "storedScriptRan" in window), name).toBe(false);
			expect((await download).url(), name).toBe(proxyUrl(name));
		}
		// Their object pages: the text preview shows the markup, and the Download link downloads.
		for (const name of ["x.html", "x.svg"]) {
			await page.goto(objectPage(name));
			await page.getByRole("heading", { level: 1, name }).waitFor();
			const preview = page.getByRole("region", { name: "Preview" });
			await expect(preview.locator("pre").textContent(), name).resolves.toBe(FILES[name]);
			expect(await page.title(), name).toBe(`${name} · example.com · edgezone`);
			const download = page.waitForEvent("download");
			await page.getByRole("link", { name: "Download" }).click();
			expect((await download).suggestedFilename(), name).toBe(name);
		}
		expect(ran).toEqual([]);
	});

	it("shows HTML bytes named .png as the image they claim to be, running nothing", async () => {
		let downloads = 0;
		page.on("download", () => downloads++);
		const response = await page.goto(proxyUrl("sniffed.png"));
		expect(downloads).toBe(0);
		expect(response?.headers()["content-type"]).toBe("image/png");
		expect(response?.headers()["content-security-policy"]).toBe("sandbox; default-src 'none'");
		expect(await page.evaluate(() => document.contentType)).toBe("image/png");
		expect(ran).toEqual([]);
	});
});
