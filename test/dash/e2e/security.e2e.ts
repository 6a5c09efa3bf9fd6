/**
 * The Security page in Chromium: a blocking firewall rule made in the expression editor (an
 * invalid expression first, answered live with the engine's exact text and carets, then a valid
 * one), the gateway of the same wrangler dev refusing the matching request with the block page
 * while serving another path, the match listed under "Recent matches", the rule edited, paused
 * and deleted; a WAF custom rule created with a custom response, listed, edited, and deleted; labels
 * and keyboard checked with the accessibility tree.
 */
import { request } from "node:http";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, TOKEN } from "../../api/credentials";
import { browserSuite, e2e, openBrowser, screenshot, signIn, statusSays } from "./browser";

const SECURITY = `/zones/${DEFAULT_ZONE_ID}/security`;
const RUN = crypto.randomUUID().slice(0, 8);
const BLOCKED = `/e2e-${RUN}/admin`;
const OPEN = `/e2e-${RUN}/open.txt`;
const LIMITED = `/e2e-${RUN}/limited`;

/** A request to the zone's gateway (Host: example.com, which fetch cannot set): status and body. */
function gateway(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
	const { hostname, port } = new URL(e2e.baseUrl);
	const headers = { host: "example.com", authorization: `Bearer ${e2e.gatewayToken}` };
	return new Promise((resolve, reject) => {
		const req = request({ host: hostname, port, method, path, headers }, (res) => {
			const chunks: Buffer[] = [];
			res.on("data", (chunk: Buffer) => chunks.push(chunk));
			res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
		});
		req.on("error", reject);
		req.end(body);
	});
}

/** The API v4 with the all-zones token: the envelope, whatever it says. */
async function api(method: string, path: string, body?: unknown) {
	const response = await fetch(`${e2e.baseUrl}/client/v4${path}`, {
		method,
		headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return (await response.json()) as { success: boolean; result: unknown; errors: { message: string }[] };
}

/** The text of the elements that describe `field` (`aria-describedby`). */
async function description(page: Page, field: Locator): Promise<string> {
	const ids = ((await field.getAttribute("aria-describedby")) ?? "").split(" ").filter((id) => id !== "");
	const texts = await Promise.all(ids.map((id) => page.locator(`[id="${id}"]`).textContent()));
	return texts.join("\n");
}

/** Waits for the page a form's POST led to, which says `text` in its status. */
async function done(page: Page, text: string): Promise<void> {
	expect(await statusSays(page, text)).toBe(text);
}

browserSuite("the Security page", () => {
	let browser: Browser;
	let page: Page;
	const ruleForm = () => page.getByRole("form", { name: "Create a firewall rule" });
	const customForm = () => page.getByRole("form", { name: "Create a WAF custom rule" });
	const ruleRow = () => page.getByRole("region", { name: "Firewall rules" }).getByRole("row").filter({ hasText: RUN });

	beforeAll(async () => {
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
		// Something to serve on a path no rule matches.
		expect((await gateway("PUT", OPEN, "open")).status).toBe(200);
	});
	afterAll(async () => {
		await browser?.close();
	});

	it("opens at Security > Security rules, and turns log retention on when it is off", async () => {
		await page.getByRole("link", { name: "example.com" }).click();
		await page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Security rules" }).click();
		await page.getByRole("heading", { level: 1, name: "Security rules" }).waitFor();
		expect(new URL(page.url()).pathname).toBe(SECURITY);
		const nav = await page.getByRole("navigation", { name: "Zone" }).ariaSnapshot();
		expect(nav).toContain('heading "Security"');

		const matches = page.getByRole("region", { name: "Recent matches" });
		const flag = (await api("GET", `/zones/${DEFAULT_ZONE_ID}/logs/control/retention/flag`)).result as {
			flag: boolean;
		};
		if (!flag.flag) {
			await expect(matches.textContent()).resolves.toContain("Log retention is off");
			await matches.getByRole("button", { name: "Turn on log retention" }).click();
			await done(page, "Log retention turned on: requests from now on are kept, and their matches show here.");
		}
		const after = (await api("GET", `/zones/${DEFAULT_ZONE_ID}/logs/control/retention/flag`)).result;
		expect(after).toEqual({ flag: true });
	});

	it("labels every field of the rule form, and the expression editor's verdict describes it", async () => {
		const tree = await ruleForm().ariaSnapshot();
		expect(tree).toContain('textbox "Rule name"');
		expect(tree).toContain('textbox "Expression"');
		expect(tree).toContain('combobox "Action"');
		expect(tree).toContain('spinbutton "Priority"');
		expect(tree).toContain('button "Deploy firewall rule"');
		const editor = ruleForm().getByLabel("Expression");
		const ids = (await editor.getAttribute("aria-describedby")) ?? "";
		const check = page.locator(`[id="${ids.split(" ").at(-1)}"]`);
		await expect(check.evaluate((e) => e.tagName)).resolves.toBe("PRE");
		await expect(check.getAttribute("aria-live")).resolves.toBe("polite");
	});

	it("shows the engine's exact error as it is typed, then accepts a valid expression and deploys a block", async () => {
		const invalid = `http.request.uri.path eq "${BLOCKED}" and`;
		// What the API refuses the same expression with (the filters API answers the engine's text unchanged).
		const refused = await api("POST", `/zones/${DEFAULT_ZONE_ID}/filters`, [{ expression: invalid }]);
		expect(refused.success).toBe(false);
		const engineText = refused.errors[0]?.message ?? "";
		expect(engineText).toMatch(/^Filter parsing error \(1:(\d+)\):\n/);

		await ruleForm().getByLabel("Rule name").fill(`Block admin ${RUN}`);
		const editor = ruleForm().getByLabel("Expression");
		await editor.click();
		await page.keyboard.type(invalid);
		const check = ruleForm().locator("pre");
		await page.waitForFunction(
			(el) => (el?.textContent ?? "").startsWith("Filter parsing error"),
			await check.elementHandle(),
		);
		const shown = (await check.textContent()) ?? "";
		expect(shown).toBe(engineText);
		// The caret sits under the column the first line names.
		const [head = "", line, carets = ""] = shown.split("\n");
		const column = Number(/\(1:(\d+)\)/.exec(head)?.[1]);
		expect(line).toBe(invalid);
		expect(carets.indexOf("^") + 1).toBe(column);
		await expect(editor.getAttribute("aria-invalid")).resolves.toBe("true");
		expect(await description(page, editor)).toContain(engineText.trim());
		await screenshot(page, "security-expression-error");

		await editor.fill("");
		await editor.pressSequentially(`http.request.uri.path eq "${BLOCKED}"`);
		await page.waitForFunction((el) => el?.textContent === "Valid expression.", await check.elementHandle());
		await expect(editor.getAttribute("aria-invalid")).resolves.toBeNull();

		await ruleForm().getByLabel("Action").selectOption({ label: "Block" });
		await ruleForm().getByRole("button", { name: "Deploy firewall rule" }).click();
		await done(page, "Firewall rule created.");
		const cells = await ruleRow().getByRole("cell").allTextContents();
		expect(cells.slice(1, 5)).toEqual([
			`Block admin ${RUN}`,
			`http.request.uri.path eq "${BLOCKED}"`,
			"Block",
			"Active",
		]);
	});

	it("the gateway refuses the matching request with the block page and serves another path", async () => {
		const blocked = await gateway("GET", BLOCKED);
		expect(blocked.status).toBe(403);
		expect(blocked.body).toContain("Sorry, you have been blocked");
		const open = await gateway("GET", OPEN);
		expect(open.status).toBe(200);
		expect(open.body).toBe("open");
	});

	it("lists the blocked request under Recent matches of the rule", async () => {
		const section = page.getByRole("region", { name: "Recent matches" });
		// The edge writes its log after answering: reload until the entry is there.
		for (let i = 0; i < 20; i++) {
			await page.goto(`${e2e.dashUrl}${SECURITY}`);
			if (((await section.textContent()) ?? "").includes(BLOCKED)) break;
			await new Promise((r) => setTimeout(r, 500));
		}
		const heading = section.getByRole("heading", { name: `Firewall rule Block admin ${RUN}: 1 in the last hour` });
		await heading.waitFor();
		const row = section.getByRole("row").filter({ hasText: BLOCKED });
		const cells = await row.getByRole("cell").allTextContents();
		expect(cells[1]).toBe(BLOCKED);
		expect(cells[3]).toBe("block");
		expect(cells[4]).toBe("block");
		await expect(ruleRow().getByRole("cell").nth(5).textContent()).resolves.toBe("1");
		await screenshot(page, "security");
	});

	it("edits the rule on its own page, with the keyboard alone", async () => {
		await ruleRow()
			.getByRole("link", { name: `Edit Block admin ${RUN}` })
			.click();
		await page.getByRole("heading", { level: 1, name: "Edit firewall rule" }).waitFor();
		const form = page.getByRole("form", { name: "Edit firewall rule" });
		await expect(form.getByLabel("Expression").inputValue()).resolves.toBe(`http.request.uri.path eq "${BLOCKED}"`);
		await form.getByLabel("Rule name").focus();
		await page.keyboard.press("ControlOrMeta+a");
		await page.keyboard.type(`Admin ${RUN}`);
		await page.keyboard.press("Tab");
		await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("edit-expression");
		await page.keyboard.press("Tab");
		await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe("edit-action");
		await page.keyboard.press("Tab");
		await page.keyboard.type("7");
		await page.keyboard.press("Enter");
		await done(page, "Firewall rule saved.");
		const cells = await ruleRow().getByRole("cell").allTextContents();
		expect(cells.slice(0, 2)).toEqual(["7", `Admin ${RUN}`]);
	});

	it("pauses the rule (the gateway serves the path again), resumes and deletes it", async () => {
		await ruleRow()
			.getByRole("button", { name: `Pause Admin ${RUN}` })
			.click();
		await done(page, "Firewall rule paused.");
		await expect(ruleRow().getByRole("cell").nth(4).textContent()).resolves.toBe("Paused");
		expect((await gateway("GET", BLOCKED)).status).toBe(404);

		await ruleRow()
			.getByRole("button", { name: `Resume Admin ${RUN}` })
			.click();
		await done(page, "Firewall rule resumed.");
		await expect(ruleRow().getByRole("cell").nth(4).textContent()).resolves.toBe("Active");
		expect((await gateway("GET", BLOCKED)).status).toBe(403);

		page.once("dialog", (dialog) => void dialog.accept());
		await ruleRow()
			.getByRole("button", { name: `Delete Admin ${RUN}` })
			.click();
		await done(page, "Firewall rule deleted.");
		await expect(ruleRow().count()).resolves.toBe(0);
		expect((await gateway("GET", BLOCKED)).status).toBe(404);
	});

	it("creates a WAF custom rule with a custom response, lists it, and deletes it", async () => {
		const tree = await customForm().ariaSnapshot();
		for (const label of ["Rule name", "Expression", "Response status code", "Response body"])
			expect(tree).toMatch(new RegExp(`(textbox|spinbutton) "${label}"`));
		expect(tree).toContain('combobox "Response content type"');
		expect(tree).toContain('checkbox "Enabled"');

		await customForm().getByLabel("Rule name").fill(`Limit ${RUN}`);
		const editor = customForm().getByLabel("Expression");
		await editor.pressSequentially('http.request.uri.path contains "');
		const check = customForm().locator("pre");
		await page.waitForFunction(
			(el) => (el?.textContent ?? "").startsWith("Filter parsing error"),
			await check.elementHandle(),
		);
		await editor.fill("");
		await editor.pressSequentially(`starts_with(http.request.uri.path, "${LIMITED}")`);
		await page.waitForFunction((el) => el?.textContent === "Valid expression.", await check.elementHandle());
		await customForm().getByLabel("Action").selectOption({ label: "Block" });
		await customForm().getByLabel("Response status code").fill("429");
		await customForm().getByLabel("Response content type").selectOption("text/plain");
		await customForm().getByLabel("Response body").fill(`slow down ${RUN}`);
		await customForm().getByRole("button", { name: "Deploy custom rule" }).click();
		await done(page, "WAF custom rule created.");

		const row = () =>
			page
				.getByRole("region", { name: "WAF custom rules" })
				.getByRole("row")
				.filter({ hasText: `Limit ${RUN}` });
		const cells = await row().getByRole("cell").allTextContents();
		expect(cells.slice(0, 4)).toEqual([
			`Limit ${RUN}`,
			`starts_with(http.request.uri.path, "${LIMITED}")`,
			"Block (429)",
			"Enabled",
		]);
		const limited = await gateway("GET", `${LIMITED}/x`);
		expect(limited).toEqual({ status: 429, body: `slow down ${RUN}` });

		// Edited on its own page: Log instead of Block, so the gateway serves the path again.
		await row()
			.getByRole("link", { name: `Edit Limit ${RUN}` })
			.click();
		const edit = page.getByRole("form", { name: "Edit WAF custom rule" });
		await expect(edit.getByLabel("Response status code").inputValue()).resolves.toBe("429");
		await edit.getByLabel("Action").selectOption({ label: "Log" });
		await edit.getByRole("button", { name: "Save" }).click();
		await done(page, "WAF custom rule saved.");
		await expect(row().getByRole("cell").nth(2).textContent()).resolves.toBe("Log");
		expect((await gateway("GET", `${LIMITED}/x`)).status).toBe(404);

		await row()
			.getByRole("button", { name: `Disable Limit ${RUN}` })
			.click();
		await done(page, "WAF custom rule disabled.");
		await expect(row().getByRole("cell").nth(3).textContent()).resolves.toBe("Disabled");

		page.once("dialog", (dialog) => void dialog.accept());
		await row()
			.getByRole("button", { name: `Delete Limit ${RUN}` })
			.click();
		await done(page, "WAF custom rule deleted.");
		await expect(row().count()).resolves.toBe(0);
	});

	it("shows the API's refusal inline when the form is sent without the live check", async () => {
		await page.goto(`${e2e.dashUrl}${SECURITY}`);
		await ruleForm().getByLabel("Expression").fill("ip.src eq");
		await ruleForm().getByRole("button", { name: "Deploy firewall rule" }).click();
		// The refusal is the page of the form's POST.
		await page.waitForURL(`${e2e.dashUrl}${SECURITY}/rules`);
		const editor = ruleForm().getByLabel("Expression");
		await expect(editor.getAttribute("aria-invalid")).resolves.toBe("true");
		expect(await description(page, editor)).toContain("Filter parsing error (1:");
		await expect(editor.inputValue()).resolves.toBe("ip.src eq");
		// dash.js focuses the refused field.
		await page.waitForFunction(() => document.activeElement?.id === "rule-expression");
	});
});
