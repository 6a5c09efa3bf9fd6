/**
 * The Bucket page in Chromium: the gateway token given once by keyboard, many files uploaded at
 * once (a 20 MiB one as a multipart upload) with progress bars, then listed; a folder browsed;
 * an object's details; an image previewed by Range (fixtures/image); a multipart upload cut
 * short, resumed after a reload; delete one, then many. Labels and keyboard use are read from the
 * accessibility tree.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, describedBy, e2e, openBrowser, screenshot, signIn } from "./browser";

const BUCKET = `/zones/${DEFAULT_ZONE_ID}/bucket`;
const MiB = 1024 * 1024;
const PNG = fileURLToPath(new URL("../../../fixtures/image/mandelbrot.png", import.meta.url));
const TEXT = fileURLToPath(new URL("../../../fixtures/text/edge-notes.txt", import.meta.url));
// A folder of this run's own, so the listing is this file's story whatever ran before.
const FOLDER = `e2e-${Date.now().toString(36)}/`;

browserSuite("the Bucket page", () => {
	let browser: Browser;
	let page: Page;
	let big: string;
	let resumable: string;
	beforeAll(async () => {
		const dir = mkdtempSync(join(tmpdir(), "edgezone-bucket-e2e-"));
		big = join(dir, "big-20MiB.bin");
		resumable = join(dir, "resume-20MiB.bin");
		writeFileSync(big, randomBytes(20 * MiB));
		writeFileSync(resumable, randomBytes(20 * MiB));
		({ browser, page } = await openBrowser());
		page.on("dialog", (dialog) => void dialog.accept());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("opens from the zone's navigation and asks for a gateway token, given by keyboard", async () => {
		await page.goto(`${e2e.dashUrl}/zones/${DEFAULT_ZONE_ID}/logpush`);
		const nav = await page.getByRole("navigation", { name: "Zone" }).ariaSnapshot();
		expect(nav).toContain('heading "R2 Object Storage"');
		await page.getByRole("link", { name: "Bucket" }).click();
		await page.getByRole("heading", { level: 1, name: "Bucket" }).waitFor();
		const form = await page.getByRole("region", { name: "Bucket access" }).ariaSnapshot();
		expect(form).toContain('textbox "Gateway token"');
		expect(form).toContain('button "Use this token"');
		expect(await describedBy(page, "Gateway token")).toContain("GATEWAY_TOKENS");

		// A wrong token: the gateway's refusal next to the field, focused.
		await page.getByLabel("Gateway token").fill("wrong-token");
		await page.keyboard.press("Enter");
		await page.getByText("The token is not valid.").waitFor();
		expect(await describedBy(page, "Gateway token")).toContain("The token is not valid.");
		await page.waitForFunction(() => document.activeElement?.id === "token-token");

		await page.keyboard.type(e2e.gatewayToken);
		await page.keyboard.press("Enter");
		await expect(page.getByRole("status").first().textContent()).resolves.toBe("Gateway token saved for this session.");
		const choice = await page.getByRole("form", { name: "Choose a bucket" }).ariaSnapshot();
		expect(choice).toContain('combobox "Bucket"');
		expect(choice).toContain('option "edgezone-logs (LOGPUSH_BUCKETS, binding LOGS)"');
	});

	it("uploads many files at once, a 20 MiB one with a moving progress bar, and lists them", async () => {
		const uploader = page.getByRole("region", { name: "Upload" });
		const tree = await uploader.ariaSnapshot();
		expect(tree).toContain('button "Files to upload"');
		expect(tree).toContain('textbox "Folder"');
		await page.getByLabel("Files to upload", { exact: true }).setInputFiles([big, PNG, TEXT]);
		await page.getByLabel("Folder", { exact: true }).fill(FOLDER);
		// Samples the overall bar every frame, to see it move rather than only jump to the end.
		await page.evaluate(() => {
			const bar = document.querySelector<HTMLProgressElement>("#upload-overall");
			const seen: number[] = [];
			Object.assign(window, { seen });
			const sample = () => {
				if (bar !== null && seen.at(-1) !== bar.value) seen.push(bar.value);
				if (bar === null || bar.value < bar.max || bar.max <= 1) requestAnimationFrame(sample);
			};
			requestAnimationFrame(sample);
		});
		await uploader.getByRole("button", { name: "Upload", exact: true }).click();
		await expect(page.getByRole("progressbar", { name: "Overall progress" }).isVisible()).resolves.toBe(true);
		const status = page.locator("#upload-status");
		await page.waitForFunction(() => document.querySelector("#upload-status")?.textContent?.startsWith("Uploaded "));
		await expect(status.textContent()).resolves.toBe("Uploaded 3 of 3 files.");

		const total = 20 * MiB + 26_545 + 3_083;
		const seen = await page.evaluate(() => (window as unknown as { seen: number[] }).seen);
		expect(seen.some((value) => value > 0 && value < total)).toBe(true);
		expect(seen.at(-1)).toBe(total);
		const bigBar = page.getByRole("progressbar", { name: `${FOLDER}big-20MiB.bin` });
		await expect(bigBar.evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])).resolves.toEqual([
			20 * MiB,
			20 * MiB,
		]);
		await expect(uploader.getByRole("listitem").filter({ hasText: "big-20MiB.bin" }).textContent()).resolves.toContain(
			"Uploaded.",
		);

		// The listing refreshed in place: the folder is there; inside it, the three files.
		await page.getByRole("link", { name: FOLDER }).waitFor();
		await uploader.scrollIntoViewIfNeeded();
		await screenshot(page, "bucket-upload");
	});

	it("browses into the folder: its objects with their sizes and types", async () => {
		await page.getByRole("link", { name: FOLDER }).click();
		await page.getByRole("heading", { level: 2, name: `Objects in ${FOLDER}` }).waitFor();
		const crumbs = await page.getByRole("navigation", { name: "Folder path" }).ariaSnapshot();
		expect(crumbs).toContain('link "Root"');
		expect(crumbs).toContain(`link "${FOLDER.slice(0, -1)}"`);
		const bigRow = page.getByRole("row").filter({ hasText: "big-20MiB.bin" });
		await expect(bigRow.getByRole("cell").nth(2).textContent()).resolves.toBe("20.0 MiB");
		const pngRow = page.getByRole("row").filter({ hasText: "mandelbrot.png" });
		await expect(pngRow.getByRole("cell").nth(3).textContent()).resolves.toBe("image/png");
		await expect(page.getByRole("checkbox", { name: `Select ${FOLDER}edge-notes.txt` }).isVisible()).resolves.toBe(
			true,
		);
		await screenshot(page, "bucket");
	});

	it("shows the 20 MiB object's details: size, multipart etag, storage class, metadata", async () => {
		await page.getByRole("link", { name: "big-20MiB.bin" }).click();
		await page.getByRole("heading", { level: 1, name: "big-20MiB.bin" }).waitFor();
		const details = page.getByRole("region", { name: "Details" });
		const row = (name: string) =>
			details.getByRole("row").filter({ has: page.getByRole("rowheader", { name, exact: true }) });
		await expect(row("Size").textContent()).resolves.toContain("20.0 MiB (20971520 bytes)");
		// Three parts of 8, 8 and 4 MiB: R2's multipart etag ends in -3.
		await expect(row("ETag").textContent()).resolves.toMatch(/-3$/);
		await expect(row("Storage class").textContent()).resolves.toContain("Standard");
		await expect(row("Key").textContent()).resolves.toContain(`${FOLDER}big-20MiB.bin`);
		await expect(page.getByRole("link", { name: "Download" }).getAttribute("download")).resolves.toBe("big-20MiB.bin");
		await expect(page.getByRole("region", { name: "Preview" }).textContent()).resolves.toContain("No preview");
	});

	it("previews the PNG by Range: a 206 with Content-Range, and the image decoded", async () => {
		await page.goto(`${e2e.dashUrl}${BUCKET}?prefix=${encodeURIComponent(FOLDER)}`);
		const ranged = page.waitForResponse((response) => response.url().includes("/bucket/o/?key="));
		await page.getByRole("link", { name: "mandelbrot.png" }).click();
		const response = await ranged;
		expect(response.status()).toBe(206);
		expect(response.headers()["content-range"]).toBe("bytes 0-26544/26545");
		expect(response.request().headers().range).toBe("bytes=0-26544");
		const image = page.getByRole("img", { name: `${FOLDER}mandelbrot.png` });
		await image.waitFor();
		await page.waitForFunction(() => (document.querySelector(".preview-image img") as HTMLImageElement)?.complete);
		await expect(image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).resolves.toEqual([
			480, 320,
		]);
		await expect(page.getByRole("region", { name: "Preview" }).textContent()).resolves.toContain(
			"Read with Range: bytes=0-26544 (206 Partial Content, Content-Range: bytes 0-26544/26545).",
		);
		const details = page.getByRole("region", { name: "Details" });
		await expect(details.getByRole("row").filter({ hasText: "contentType" }).textContent()).resolves.toContain(
			"image/png",
		);
		await expect(details.getByRole("row").filter({ hasText: "md5" }).textContent()).resolves.toMatch(/[0-9a-f]{32}/);
		await page.getByRole("region", { name: "Preview" }).scrollIntoViewIfNeeded();
		await screenshot(page, "bucket-object");
	});

	it("resumes a multipart upload cut short, after a reload, sending only the missing parts", async () => {
		await page.goto(`${e2e.dashUrl}${BUCKET}?prefix=${encodeURIComponent(FOLDER)}`);
		// The connection drops on part 2 of the first attempt.
		await page.route(
			(url) => url.searchParams.get("partNumber") === "2",
			(route) => route.abort("connectionreset"),
		);
		await page.getByLabel("Files to upload", { exact: true }).setInputFiles(resumable);
		await page.getByRole("button", { name: "Upload", exact: true }).click();
		await page.waitForFunction(() => document.querySelector("#upload-status")?.textContent?.startsWith("Uploaded "));
		await expect(page.locator("#upload-status").textContent()).resolves.toContain(
			`Uploaded 0 of 1 file. Failed: ${FOLDER}resume-20MiB.bin: The connection failed.`,
		);
		await page.unrouteAll();

		await page.reload();
		const parts: string[] = [];
		page.on("request", (request) => {
			const part = new URL(request.url()).searchParams.get("partNumber");
			if (part !== null) parts.push(part);
		});
		await page.getByLabel("Files to upload", { exact: true }).setInputFiles(resumable);
		await page.getByRole("button", { name: "Upload", exact: true }).click();
		await page.waitForFunction(() => document.querySelector("#upload-status")?.textContent?.startsWith("Uploaded "));
		await expect(page.locator("#upload-status").textContent()).resolves.toBe("Uploaded 1 of 1 file.");
		expect(parts).toEqual(["2", "3"]);
		await page.getByRole("link", { name: "resume-20MiB.bin" }).waitFor();
		await expect(
			page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("edgezone-upload:"))),
		).resolves.toEqual([]);
	});

	it("deletes one object from its details page", async () => {
		await page.getByRole("link", { name: "edge-notes.txt" }).click();
		await expect(page.getByRole("region", { name: "Preview" }).textContent()).resolves.toContain(
			"read with Range: bytes=0-65535",
		);
		await page.getByRole("button", { name: "Delete", exact: true }).click();
		await expect(page.getByRole("status").first().textContent()).resolves.toBe("Deleted 1 object.");
		await expect(page.getByRole("link", { name: "edge-notes.txt" }).count()).resolves.toBe(0);
	});

	it("deletes many: checkboxes chosen by keyboard, one Delete selected", async () => {
		for (const name of ["big-20MiB.bin", "resume-20MiB.bin"]) {
			await page.getByRole("checkbox", { name: `Select ${FOLDER}${name}` }).focus();
			await page.keyboard.press("Space");
		}
		await page.getByRole("button", { name: "Delete selected" }).click();
		await expect(page.getByRole("status").first().textContent()).resolves.toBe("Deleted 2 objects.");
		const names = await page
			.getByRole("region", { name: `Objects in ${FOLDER}` })
			.getByRole("link")
			.allTextContents();
		expect(names).toEqual(["mandelbrot.png"]);
	});
});
