/**
 * The DNS page (DNS > Records) in Chromium: reached from the sidebar, a proxied A record added and
 * listed as Proxied, a CNAME of the same name refused with the API's error read with the Name
 * field, the record's proxy turned off, its content and TTL edited, a zone file imported from disk
 * and the export downloaded, the record deleted (the confirmation accepted), and the page with its
 * records at a phone's width (390 px) without horizontal scrolling.
 */
import { expect, it } from "vitest";
import { api, browserSuite, describedBy, e2e, statusSays, zoneSession } from "./browser";

const ZONE_NAME = `dns-page-${Date.now().toString(36)}.example.org`;

browserSuite("the DNS page", () => {
	const session = zoneSession(ZONE_NAME);

	const addForm = () => session.page.getByRole("form", { name: "Add record" });
	const row = (name: string) =>
		session.page.getByRole("row").filter({ has: session.page.getByRole("cell", { name, exact: true }) });

	it("opens at DNS > Records from the zone's sidebar", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Records" }).click();
		await session.page.getByRole("heading", { level: 1, name: "DNS records" }).waitFor();
		expect(new URL(session.page.url()).pathname).toBe(`/zones/${session.zoneId}/dns`);
		expect(await session.page.getByRole("navigation", { name: "Zone" }).ariaSnapshot()).toContain('heading "DNS"');
	});

	it("adds a proxied A record and lists it as Proxied with an Auto TTL", async () => {
		const form = addForm();
		await form.getByLabel("Type").selectOption("A");
		await form.getByLabel("Name", { exact: true }).fill("app");
		await form.getByLabel("Content").fill("192.0.2.10");
		await form.getByLabel("Proxied (A, AAAA and CNAME only)").check();
		await form.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "DNS record added.")).toBe("DNS record added.");
		const cells = await row("app").getByRole("cell").allTextContents();
		expect(cells.slice(0, 5)).toEqual(["A", "app", "192.0.2.10", "Proxied", "Auto"]);
	});

	it("adds an HTTPS record typed as a zone file writes it, listed with the content Cloudflare derives", async () => {
		const form = addForm();
		await form.getByLabel("Type").selectOption("HTTPS");
		await form.getByLabel("Name", { exact: true }).fill("svc");
		await form.getByLabel("Content").fill('1 . alpn="h3,h2" port=8443');
		await form.getByLabel("Proxied (A, AAAA and CNAME only)").uncheck();
		await form.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "DNS record added.")).toBe("DNS record added.");
		const cells = await row("svc").getByRole("cell").allTextContents();
		expect(cells.slice(0, 4)).toEqual(["HTTPS", "svc", '1 . alpn="h3,h2" port=8443', "DNS only"]);
		const [record] = await api<{ id: string; data: unknown }[]>(
			"GET",
			`/zones/${session.zoneId}/dns_records?type=HTTPS`,
		);
		expect(record?.data).toEqual({ priority: 1, target: ".", value: 'alpn="h3,h2" port=8443' });
		await api("DELETE", `/zones/${session.zoneId}/dns_records/${record?.id}`);
	});

	it("shows a CNAME of the same name refused next to the Name field, nothing added", async () => {
		const form = addForm();
		await form.getByLabel("Type").selectOption("CNAME");
		await form.getByLabel("Name", { exact: true }).fill("app");
		await form.getByLabel("Content").fill("elsewhere.example.net");
		await form.getByLabel("Proxied (A, AAAA and CNAME only)").uncheck();
		await form.getByRole("button", { name: "Save" }).click();
		await session.page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(addForm(), "Name", true)).resolves.toContain(
			"An A, AAAA, or CNAME record with that host already exists.",
		);
		await expect(addForm().getByLabel("Name", { exact: true }).getAttribute("aria-invalid")).resolves.toBe("true");
		await expect(addForm().getByLabel("Content").inputValue()).resolves.toBe("elsewhere.example.net");
		expect(await row("app").count()).toBe(1);
	});

	it("turns the record's proxy off: DNS only", async () => {
		await row("app").getByRole("button", { name: "Set to DNS only A app 192.0.2.10" }).click();
		expect(await statusSays(session.page, "DNS record set to DNS only.")).toBe("DNS record set to DNS only.");
		await expect(row("app").getByRole("cell").nth(3).textContent()).resolves.toBe("DNS only");
		const [record] = await api<{ proxied: boolean }[]>("GET", `/zones/${session.zoneId}/dns_records`);
		expect(record?.proxied).toBe(false);
	});

	it("edits the record's content and TTL on its Edit page", async () => {
		await row("app").getByRole("link", { name: "Edit A app 192.0.2.10" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Edit DNS record" }).waitFor();
		await session.page.getByLabel("Content").fill("192.0.2.11");
		await session.page.getByLabel("TTL").selectOption({ label: "5 min" });
		await session.page.getByRole("button", { name: "Save" }).click();
		expect(await statusSays(session.page, "DNS record saved.")).toBe("DNS record saved.");
		const cells = await row("app").getByRole("cell").allTextContents();
		expect(cells.slice(0, 5)).toEqual(["A", "app", "192.0.2.11", "DNS only", "5 min"]);
	});

	it("fits a phone's width (390 px) with the records table, a long TXT record and the form", async () => {
		// A DKIM key's length of unbroken text, as real TXT records hold.
		const txt = await api<{ id: string }>("POST", `/zones/${session.zoneId}/dns_records`, {
			type: "TXT",
			name: "selector1._domainkey",
			content: `v=DKIM1; k=rsa; p=${"MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A".repeat(8)}`,
			comment: "The mail provider's signing key, rotated every year",
		});
		await session.page.setViewportSize({ width: 390, height: 844 });
		await session.page.goto(`${e2e.dashUrl}/zones/${session.zoneId}/dns`);
		await session.page.getByRole("heading", { level: 1, name: "DNS records" }).waitFor();
		await row("app").waitFor();
		await session.page.waitForLoadState("load");
		const widths = await session.page.evaluate(() => ({
			scroll: document.documentElement.scrollWidth,
			inner: window.innerWidth,
		}));
		expect(widths).toEqual({ scroll: 390, inner: 390 });
		await session.page.setViewportSize({ width: 1280, height: 800 });
		await api("DELETE", `/zones/${session.zoneId}/dns_records/${txt.id}`);
	});

	it("imports a zone file chosen from disk, lists what it added and names what it left out", async () => {
		const card = session.page.getByRole("region", { name: "Import and export" });
		await card.getByLabel("Zone file (BIND format, at most 256 KiB)").setInputFiles({
			name: "zone.txt",
			mimeType: "text/plain",
			buffer: Buffer.from('shop IN A 192.0.2.20 ; the shop cf_tags=team:web\nhost IN HINFO "PC" "Linux"\n'),
		});
		await expect(card.getByLabel("Proxy imported DNS records").isChecked()).resolves.toBe(true);
		await card.getByRole("button", { name: "Import" }).click();
		const said = await statusSays(session.page, "1 of 2 records in the file added.");
		expect(said).toContain("Not imported");
		expect(said).toContain("HINFO is not a record type the DNS records API takes");
		const cells = await row("shop").getByRole("cell").allTextContents();
		expect(cells.slice(0, 6)).toEqual(["A", "shop", "192.0.2.20", "Proxied", "Auto", "the shop"]);
	});

	it("downloads the export, the imported record in it with its comment and tags", async () => {
		const card = session.page.getByRole("region", { name: "Import and export" });
		const [download] = await Promise.all([
			session.page.waitForEvent("download"),
			card.getByRole("link", { name: "Export" }).click(),
		]);
		expect(download.suggestedFilename()).toBe(`${ZONE_NAME}.txt`);
		const stream = await download.createReadStream();
		let text = "";
		for await (const chunk of stream) text += String(chunk);
		expect(text).toContain(`shop.${ZONE_NAME}.\t1\tIN\tA\t192.0.2.20 ; the shop cf_tags=team:web,cf-proxied:true`);
		await api(
			"DELETE",
			`/zones/${session.zoneId}/dns_records/${(await api<{ id: string }[]>("GET", `/zones/${session.zoneId}/dns_records?name=shop.${ZONE_NAME}`))[0]?.id}`,
		);
	});

	it("deletes the record after the confirmation", async () => {
		session.page.once("dialog", (dialog) => {
			expect(dialog.message()).toBe("Delete the A app 192.0.2.11 record?");
			void dialog.accept();
		});
		await row("app").getByRole("button", { name: "Delete A app 192.0.2.11" }).click();
		expect(await statusSays(session.page, "DNS record deleted.")).toBe("DNS record deleted.");
		await session.page.getByText("No DNS records in this zone.").waitFor();
		expect(await api<unknown[]>("GET", `/zones/${session.zoneId}/dns_records`)).toEqual([]);
	});
});
