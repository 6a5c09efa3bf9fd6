/**
 * The Rules page (Rules > Overview) in Chromium: reached from the sidebar, a redirect rule and a
 * response header rule created from their forms and listed in their sections, an origin rule's
 * bad port refused next to its field, a rule edited and deleted (the confirmation accepted), and
 * the rule then answered at the edge as the page set it.
 */
import { type IncomingHttpHeaders, request } from "node:http";
import { expect, it } from "vitest";
import { browserSuite, describedBy, e2e, statusSays, zoneSession } from "./browser";

const ZONE_NAME = `rules-page-${Date.now().toString(36)}.example.org`;

/** GET `path` of the zone through the edge (fetch cannot set Host; nothing follows a redirect): its status and headers. */
function edge(path: string): Promise<{ status: number; headers: IncomingHttpHeaders }> {
	const { hostname, port } = new URL(e2e.baseUrl);
	return new Promise((resolve, reject) => {
		const req = request({ host: hostname, port, path, headers: { host: ZONE_NAME } }, (res) => {
			res.resume();
			res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
		});
		req.on("error", reject);
		req.end();
	});
}

browserSuite("the Rules page", () => {
	const session = zoneSession(ZONE_NAME);

	const section = (title: string) => session.page.getByRole("region", { name: title });
	const form = () => session.page.getByRole("form");

	it("opens at Rules > Overview from the zone's sidebar, a section per kind", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Overview" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Rules" }).waitFor();
		expect(new URL(session.page.url()).pathname).toBe(`/zones/${session.zoneId}/rules`);
		const headings = await session.page.getByRole("main").getByRole("heading", { level: 2 }).allTextContents();
		expect(headings).toEqual([
			"Redirect Rules",
			"URL Rewrite Rules",
			"Request Header Transform Rules",
			"Response Header Transform Rules",
			"Origin Rules",
		]);
	});

	it("creates a redirect rule and lists it", async () => {
		await section("Redirect Rules").getByRole("link", { name: "Create redirect rule" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Create redirect rule" }).waitFor();
		await form().getByLabel("Rule name").fill("old home");
		await form().getByLabel("When incoming requests match").fill('http.request.uri.path eq "/old-home"');
		await form().getByLabel("Target URL", { exact: true }).fill("https://example.com/home");
		await form().getByLabel("Status code").selectOption("308");
		await form().getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "Rule created.")).toBe("Rule created.");
		const cells = await section("Redirect Rules").getByRole("row").nth(1).getByRole("cell").allTextContents();
		expect(cells.slice(0, 5)).toEqual([
			"1",
			"old home",
			'http.request.uri.path eq "/old-home"',
			'308 to "https://example.com/home"',
			"Enabled",
		]);
		const answer = await edge("/old-home");
		expect([answer.status, answer.headers.location]).toEqual([308, "https://example.com/home"]);
	});

	it("refuses an origin rule's port out of range next to the field, nothing stored", async () => {
		await section("Origin Rules").getByRole("link", { name: "Create origin rule" }).click();
		await form().getByLabel("When incoming requests match").fill("true");
		await form().getByLabel("Destination Port").fill("70000");
		await form().getByRole("button", { name: "Save" }).click();
		await session.page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(form(), "Destination Port")).resolves.toContain("65535");
		await expect(form().getByLabel("Destination Port").inputValue()).resolves.toBe("70000");
		await session.page.getByRole("link", { name: "Overview" }).first().click();
		await section("Origin Rules").getByText("No origin rules.").waitFor();
	});

	it("creates a response header rule, edits it, and the edge's answers carry the header", async () => {
		await section("Response Header Transform Rules").getByRole("link", { name: "Create response header rule" }).click();
		await form().getByLabel("Rule name").fill("frames");
		await form().getByLabel("When incoming requests match").fill("true");
		await form().getByLabel("Header 1 name").fill("X-Frame-Options");
		await form().getByLabel("Header 1 value", { exact: true }).fill("DENY");
		await form().getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "Rule created.")).toBe("Rule created.");
		await section("Response Header Transform Rules").getByRole("link", { name: "Edit frames" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Edit response header rule" }).waitFor();
		await form().getByLabel("Header 1 value", { exact: true }).fill("SAMEORIGIN");
		await form().getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "Rule saved.")).toBe("Rule saved.");
		const cells = await section("Response Header Transform Rules")
			.getByRole("row")
			.nth(1)
			.getByRole("cell")
			.allTextContents();
		expect(cells[3]).toBe('set X-Frame-Options: "SAMEORIGIN"');
		expect((await edge("/old-home")).headers["x-frame-options"]).toBe("SAMEORIGIN");
	});

	it("deletes a rule after the confirmation", async () => {
		session.page.once("dialog", (dialog) => {
			expect(dialog.message()).toBe("Delete the redirect rule old home?");
			void dialog.accept();
		});
		await section("Redirect Rules").getByRole("button", { name: "Delete old home" }).click();
		expect(await statusSays(session.page, "Rule deleted.")).toBe("Rule deleted.");
		await section("Redirect Rules").getByText("No redirect rules.").waitFor();
		expect((await edge("/old-home")).status).not.toBe(308);
	});
});
