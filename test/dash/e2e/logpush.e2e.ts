/**
 * The Logpush page in Chromium: Cloudflare's Custom Fields flow (https://developers.cloudflare.com/logs/reference/custom-fields/: Custom Fields > Edit Custom
 * Fields > Set new Custom Field > Field Type, Field Name, Save), the API's refusals shown inline,
 * then a job created on the page, a gateway request through the same wrangler dev, and the
 * delivered log entry carrying the new field; the ownership challenge of an s3 destination.
 */
import { request } from "node:http";
import { gunzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, describedBy, e2e, openBrowser, screenshot, signIn, statusSays } from "./browser";

const LOGPUSH = `/zones/${DEFAULT_ZONE_ID}/logpush`;
const REQUEST_ID = `e2e-${crypto.randomUUID()}`;

/** A gateway request with a Host of our choosing (fetch cannot set Host): status and body. */
function gateway(
	method: string,
	path: string,
	headers: Record<string, string>,
	body?: string,
): Promise<{ status: number; body: Buffer }> {
	const { hostname, port } = new URL(e2e.baseUrl);
	return new Promise((resolve, reject) => {
		const req = request(
			{ host: hostname, port, method, path, headers: { authorization: `Bearer ${e2e.gatewayToken}`, ...headers } },
			(res) => {
				const chunks: Buffer[] = [];
				res.on("data", (chunk: Buffer) => chunks.push(chunk));
				res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
			},
		);
		req.on("error", reject);
		req.end(body);
	});
}

/** The API v4 with the all-zones token, for what a person would not do in the browser (flush). */
async function api(method: string, path: string): Promise<unknown> {
	const response = await fetch(`${e2e.baseUrl}/client/v4${path}`, {
		method,
		headers: { Authorization: `Bearer ${TOKEN}` },
	});
	const envelope = (await response.json()) as { success: boolean; result: unknown; errors: unknown };
	if (!envelope.success) throw new Error(`${method} ${path}: ${JSON.stringify(envelope.errors)}`);
	return envelope.result;
}

/** Every object of the LOGS bucket under `prefix`, read through the gateway and gunzipped. */
async function deliveredText(prefix: string): Promise<string> {
	const logs = { "x-r2-bucket": "edgezone-logs", host: "example.com" };
	const listed = await gateway("GET", `/?list&prefix=${encodeURIComponent(prefix)}`, logs);
	expect(listed.status).toBe(200);
	const { objects } = JSON.parse(listed.body.toString("utf8")) as { objects: { key: string }[] };
	const texts = [];
	for (const { key } of objects) {
		const got = await gateway("GET", `/${key.split("/").map(encodeURIComponent).join("/")}`, {
			...logs,
			"accept-encoding": "identity",
		});
		texts.push(gunzipSync(got.body).toString("utf8"));
	}
	return texts.join("\n");
}

browserSuite("the Logpush page", () => {
	/** The jobs' section (a job's path also shows in Recent entries once retention is on). */
	const jobs = () => page.getByRole("region", { name: "Logpush jobs" });
	let browser: Browser;
	let page: Page;
	beforeAll(async () => {
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("opens from the zone picker at Analytics & Logs > Logpush", async () => {
		await page.getByRole("link", { name: "example.com" }).click();
		await page.getByRole("heading", { level: 1, name: "Logpush" }).waitFor();
		expect(new URL(page.url()).pathname).toBe(LOGPUSH);
		const nav = await page.getByRole("navigation", { name: "Zone" }).ariaSnapshot();
		expect(nav).toContain('heading "Analytics & Logs"');
		expect(nav).toMatch(/link "Logpush"/);
		await expect(page.getByRole("region", { name: "Custom Fields" }).textContent()).resolves.toContain(
			"No custom fields are set",
		);
		// Without log retention the zone keeps nothing to show: the section says so and turns it on
		// (another test file may have turned it on already: the tests share one wrangler dev).
		const recent = page.getByRole("region", { name: "Recent entries" });
		if ((await recent.getByRole("button", { name: "Turn on log retention" }).count()) === 1) {
			await expect(recent.textContent()).resolves.toContain("Log retention is off");
			await recent.getByRole("button", { name: "Turn on log retention" }).click();
			const turnedOn = "Log retention turned on: requests from now on are kept, and show under Recent entries.";
			expect(await statusSays(page, turnedOn)).toBe(turnedOn);
		}
		await expect(recent.textContent()).resolves.not.toContain("Log retention is off");
	});

	it("sets a new custom field: Request Header x-request-id, Save, shown in the list", async () => {
		await page.getByRole("link", { name: "Edit Custom Fields" }).click();
		await page.getByRole("heading", { level: 1, name: "Edit Custom Fields" }).waitFor();
		await page.getByText("Set new Custom Field", { exact: true }).first().click();
		const form = await page.getByRole("region", { name: "Set new Custom Field" }).ariaSnapshot();
		expect(form).toContain('combobox "Field Type"');
		expect(form).toContain('option "Request Header"');
		expect(form).toContain('option "Response Header"');
		expect(form).toContain('option "Cookies"');
		expect(form).toContain('textbox "Field Name"');
		expect(form).toContain('button "Save"');

		await page.getByLabel("Field Type").selectOption({ label: "Request Header" });
		await page.getByLabel("Field Name").fill("x-request-id");
		await page.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(page, "Custom field saved.")).toBe("Custom field saved.");
		const row = page.getByRole("row").filter({ hasText: "x-request-id" });
		await expect(row.getByRole("cell").allTextContents()).resolves.toEqual([
			"Request Header",
			"x-request-id",
			"Remove",
		]);
	});

	it("shows the API's refusals next to Field Name: upper case, then Range", async () => {
		await page.getByText("Set new Custom Field", { exact: true }).first().click();
		await page.getByLabel("Field Type").selectOption({ label: "Request Header" });
		await page.getByLabel("Field Name").fill("Range");
		await page.getByRole("button", { name: "Save" }).click();
		expect(await describedBy(page, "Field Name")).toContain("header names must be lower case");
		expect(await page.getByLabel("Field Name").getAttribute("aria-invalid")).toBe("true");
		// The refused form stays open with what was typed, and focus goes to the refused field.
		await expect(page.getByLabel("Field Name").inputValue()).resolves.toBe("Range");
		await page.waitForFunction(() => document.activeElement?.id === "field-name");

		await page.getByLabel("Field Name").fill("range");
		await page.getByRole("button", { name: "Save" }).click();
		expect(await describedBy(page, "Field Name")).toContain(
			"the request header range is not supported as a custom field",
		);
		await screenshot(page, "logpush-custom-fields");
		// Nothing was stored: the list still holds x-request-id only.
		await expect(page.getByRole("table").getByRole("code").allTextContents()).resolves.toEqual(["x-request-id"]);
	});

	it("adds and removes a field with the keyboard alone", async () => {
		await page.goto(`${e2e.dashUrl}${LOGPUSH}/custom-fields`);
		await page.getByText("Set new Custom Field", { exact: true }).first().focus();
		await page.keyboard.press("Enter"); // opens the disclosure
		await page.keyboard.press("Tab");
		await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("field-type");
		await page.keyboard.press("ArrowDown"); // Response Header
		await page.keyboard.press("Tab");
		await page.keyboard.type("x-edge-test");
		await page.keyboard.press("Enter");
		// The new row proves the page the form led to is shown, whose status is then read.
		const added = page.getByRole("row").filter({ hasText: "x-edge-test" });
		await added.waitFor();
		await expect(added.getByRole("cell").first().textContent()).resolves.toBe("Response Header");
		expect(await statusSays(page, "Custom field saved.")).toBe("Custom field saved.");

		await page.getByRole("button", { name: "Remove Response Header x-edge-test" }).focus();
		await page.keyboard.press("Enter");
		expect(await statusSays(page, "Custom field removed.")).toBe("Custom field removed.");
		await expect(page.getByRole("table").getByRole("code").allTextContents()).resolves.toEqual(["x-request-id"]);
	});

	it("creates a job on the page, and the delivered entry of a request carries the custom field", async () => {
		await page.getByRole("link", { name: "Logpush" }).first().click();
		await page.getByRole("heading", { level: 1, name: "Logpush" }).waitFor();
		await expect(
			page.getByRole("region", { name: "Custom Fields" }).getByRole("code").allTextContents(),
		).resolves.toEqual(["x-request-id"]);
		const form = page.getByRole("form", { name: "Create a Logpush job" });
		const tree = await form.ariaSnapshot();
		const textboxes = ["Job name", "Destination", "Ownership challenge", "Sample rate"];
		textboxes.push("Max records per batch", "Max bytes per batch", "Max seconds per batch", "Filter");
		for (const label of textboxes) expect(tree).toContain(`textbox "${label}"`);
		for (const label of ["Dataset", "Timestamp format", "Output type"]) expect(tree).toContain(`combobox "${label}"`);
		expect(tree).toContain('group "Fields"');
		expect(tree).toContain('checkbox "RequestHeaders"');

		await form.getByLabel("Job name").fill("dash-e2e");
		await form.getByLabel("Destination", { exact: true }).fill(`r2://edgezone-logs/${DEFAULT_ZONE_ID}/dash/{DATE}`);
		await form.getByLabel("RayID", { exact: true }).check();
		await form.getByLabel("RequestHeaders", { exact: true }).check();
		await form.getByLabel("Timestamp format").selectOption("rfc3339");
		await form.getByLabel("Max records per batch").fill("1000");
		const filter = '{"where":{"key":"ClientRequestPath","operator":"startsWith","value":"/dash-e2e/"}}';
		await form.getByLabel("Filter").fill(filter);
		expect(await form.getByLabel("Enabled").isChecked()).toBe(true);
		await form.getByRole("button", { name: "Create job" }).click();
		expect(await statusSays(page, "Logpush job created.")).toBe("Logpush job created.");
		const row = jobs().getByRole("row").filter({ hasText: "dash-e2e" });
		const cells = await row.getByRole("cell").allTextContents();
		expect(cells.slice(0, 5)).toEqual([
			"dash-e2e",
			`r2://edgezone-logs/${DEFAULT_ZONE_ID}/dash/{DATE}`,
			"RayID, RequestHeaders",
			"Enabled",
			"never",
		]);
		const created = ((await api("GET", `/zones/${DEFAULT_ZONE_ID}/logpush/jobs`)) as Record<string, unknown>[]).find(
			(j) => j.name === "dash-e2e",
		);
		expect(created).toMatchObject({ max_upload_records: 1000, filter });

		// A request to the zone (Host: example.com) through the same wrangler dev, then delivery.
		const put = await gateway(
			"PUT",
			"/dash-e2e/hello.txt",
			{ host: "example.com", "x-request-id": REQUEST_ID },
			"hello",
		);
		expect(put.status).toBe(200);
		await api("POST", `/zones/${DEFAULT_ZONE_ID}/emulator/logs/flush`);
		const text = await deliveredText(`${DEFAULT_ZONE_ID}/dash/`);
		const entries = text
			.split("\n")
			.filter((line) => line !== "")
			.map((line) => JSON.parse(line) as { RayID: string; RequestHeaders?: Record<string, string> });
		const entry = entries.find((e) => e.RequestHeaders?.["x-request-id"] === REQUEST_ID);
		expect(entry, text).toBeDefined();
		expect(Object.keys(entry ?? {}).sort()).toEqual(["RayID", "RequestHeaders"]);

		// The page now shows the delivery.
		await page.reload();
		const after = await jobs().getByRole("row").filter({ hasText: "dash-e2e" }).getByRole("cell").allTextContents();
		expect(after[4]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
		expect(after[5]).toBe("none");
		// Recent entries (Logpull, retention on since the first test) shows the request with its field.
		const recentRow = page
			.getByRole("region", { name: "Recent entries" })
			.getByRole("row")
			.filter({ hasText: "/dash-e2e/hello.txt" });
		await expect(recentRow.textContent()).resolves.toContain(`x-request-id: ${REQUEST_ID}`);
		await screenshot(page, "logpush");
	});

	it("shows the API's refusal of a job inline, keeping what was typed", async () => {
		const form = page.getByRole("form", { name: "Create a Logpush job" });
		await form.getByLabel("Job name").fill("bad name!");
		await form.getByLabel("Destination", { exact: true }).fill("gs://elsewhere/logs");
		await form.getByRole("button", { name: "Create job" }).click();
		const refused = page.getByRole("form", { name: "Create a Logpush job" });
		expect(await describedBy(page, "Job name")).toContain("may hold letters, digits, hyphens and dots");
		await expect(refused.getByLabel("Destination", { exact: true }).inputValue()).resolves.toBe("gs://elsewhere/logs");
	});

	it("requests an ownership challenge for an s3 destination and creates the job with its token", async () => {
		const destination = `s3://edgezone-logs/${DEFAULT_ZONE_ID}/dash-s3?region=us-east-1`;
		await page.goto(`${e2e.dashUrl}${LOGPUSH}`);
		await page.getByLabel("Destination to prove").fill(destination);
		await page.getByRole("button", { name: "Request ownership challenge" }).click();
		const challenge = `${DEFAULT_ZONE_ID}/dash-s3/ownership-challenge.txt`;
		expect(await statusSays(page, challenge)).toContain(challenge);

		const form = page.getByRole("form", { name: "Create a Logpush job" });
		await expect(form.getByLabel("Destination", { exact: true }).inputValue()).resolves.toBe(destination);
		await form.getByLabel("Job name").fill("dash-s3");
		await form.getByRole("button", { name: "Create job" }).click();
		expect(await describedBy(page, "Ownership challenge")).toContain("ownership_challenge is required");

		const file = await gateway("GET", `/${challenge}`, {
			"x-r2-bucket": "edgezone-logs",
			host: "example.com",
		});
		expect(file.status).toBe(200);
		await form.getByLabel("Ownership challenge").fill(file.body.toString("utf8").trim());
		await form.getByRole("button", { name: "Create job" }).click();
		expect(await statusSays(page, "Logpush job created.")).toBe("Logpush job created.");
		await jobs().getByRole("row").filter({ hasText: "dash-s3" }).waitFor();
	});

	it("disables, enables and deletes a job", async () => {
		const row = () => jobs().getByRole("row").filter({ hasText: "dash-s3" });
		await row().getByRole("button", { name: "Disable dash-s3" }).click();
		expect(await statusSays(page, "Logpush job disabled.")).toBe("Logpush job disabled.");
		await expect(row().getByRole("cell").nth(3).textContent()).resolves.toBe("Disabled");
		await row().getByRole("button", { name: "Enable dash-s3" }).click();
		await expect(row().getByRole("cell").nth(3).textContent()).resolves.toBe("Enabled");
		page.once("dialog", (dialog) => void dialog.accept());
		await row().getByRole("button", { name: "Delete dash-s3" }).click();
		expect(await statusSays(page, "Logpush job deleted.")).toBe("Logpush job deleted.");
		expect(await row().count()).toBe(0);
	});

	it("signs out", async () => {
		await page.getByRole("button", { name: "Sign out", exact: true }).click();
		await page.goto(`${e2e.dashUrl}${LOGPUSH}`);
		expect(new URL(page.url()).pathname).toBe("/sign-in");
	});
});
