/**
 * The SSL/TLS page (Edge Certificates) in Chromium: the zone's clock set on the page, an advanced
 * pack on Let's Encrypt and its 2024 notice, a custom hostname created with its status and
 * validation records, its CA changed with the CA selector ("" is the default CA,
 * Google unless CAA blocks it: https://developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/security/certificate-management/issue-and-validate/issue-certificates/) and re-issued, the packs with their CA, a custom certificate
 * uploaded (a bad PEM refused inline, then a real one parsed), and the chain it is served with on
 * two dates with the clients that validate it. Labels and keyboard through the accessibility tree.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TOKEN } from "../../api/credentials";
import { api, browserSuite, describedBy, openBrowser, screenshot, signIn, statusSays } from "./browser";

const FIXTURES = fileURLToPath(new URL("../../../fixtures/certificates/", import.meta.url));
const fixture = (name: string) => readFileSync(`${FIXTURES}${name}`, "utf8");

/** A fact of a `dl.facts` list in `scope`: the `dd` after the `dt` named `term`. */
const fact = (scope: Locator, term: string) =>
	scope.locator("dl.facts dt", { hasText: term }).first().locator("xpath=following-sibling::dd[1]").textContent();

interface Hostname {
	id: string;
	ssl: { id: string; certificate_authority: string; validation_records: { txt_name: string; txt_value: string }[] };
}

browserSuite("the SSL/TLS page", () => {
	let browser: Browser;
	let page: Page;
	let zoneId: string;
	let sslPath: string;
	let before: Hostname;
	beforeAll(async () => {
		// The fixtures' certificates are for *.certs.example: a zone of that name holds them.
		zoneId = (await api<{ id: string }>("POST", "/zones", { name: "certs.example", account: {} })).id;
		sslPath = `/zones/${zoneId}/ssl`;
		({ browser, page } = await openBrowser());
		await signIn(page, TOKEN);
	});
	afterAll(async () => {
		await browser?.close();
	});

	const region = (name: string) => page.getByRole("region", { name, exact: true });

	it("opens from the zone picker at SSL/TLS > Edge Certificates, emulator panels marked as such", async () => {
		await page.getByRole("link", { name: "certs.example" }).click();
		await page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Edge Certificates" }).click();
		await page.getByRole("heading", { level: 1, name: "Edge Certificates" }).waitFor();
		expect(new URL(page.url()).pathname).toBe(sslPath);
		const nav = await page.getByRole("navigation", { name: "Zone" }).ariaSnapshot();
		expect(nav).toContain('heading "SSL/TLS"');
		expect(nav).toMatch(/link "Edge Certificates"/);
		for (const name of ["Emulator clock", "Served chain on a date", "Notices (e-mails)"]) {
			await expect(region(name).textContent()).resolves.toContain("edgezone emulator, not Cloudflare");
		}
		for (const name of ["Custom hostnames", "Certificate packs", "Custom certificates"]) {
			await expect(region(name).textContent()).resolves.not.toContain("edgezone emulator");
		}
	});

	it("sets the zone's clock to May 2024 and orders an advanced pack on Let's Encrypt", async () => {
		const clock = region("Emulator clock");
		await clock.getByLabel("Clock time (UTC)").fill("2024-05-01T00:00");
		await clock.getByLabel("Stand still at that time").check();
		await clock.getByRole("button", { name: "Set clock" }).click();
		expect(await statusSays(page, "Emulator clock set.")).toBe("Emulator clock set.");
		await expect(region("Emulator clock").textContent()).resolves.toContain(
			"Now: 2024-05-01 00:00 UTC (set, standing still)",
		);

		const order = page.getByRole("form", { name: "Order an advanced certificate" });
		const tree = await order.ariaSnapshot();
		expect(tree).toContain('textbox "Hosts"');
		for (const label of ["Certificate authority", "Validity", "Validation method"])
			expect(tree).toContain(`combobox "${label}"`);
		// A host of another zone: the API's refusal next to Hosts.
		await order.getByLabel("Hosts").fill("certs.example, www.elsewhere.example");
		await order.getByRole("button", { name: "Order certificate" }).click();
		const refused = page.getByRole("form", { name: "Order an advanced certificate" });
		expect(await describedBy(refused, "Hosts", true)).toContain("www.elsewhere.example");
		await expect(refused.getByLabel("Hosts").inputValue()).resolves.toBe("certs.example, www.elsewhere.example");

		await refused.getByLabel("Hosts").fill("certs.example, www.certs.example");
		await refused.getByLabel("Certificate authority").selectOption({ label: "Let's Encrypt" });
		await refused.getByRole("button", { name: "Order certificate" }).click();
		expect(await statusSays(page, "Advanced certificate ordered.")).toBe("Advanced certificate ordered.");
		const row = region("Certificate packs").getByRole("row").filter({ hasText: "www.certs.example" });
		const cells = await row.getByRole("cell").allTextContents();
		expect(cells.slice(0, 4)).toEqual([
			"advanced",
			"certs.example, www.certs.example",
			"initializing",
			"Let's Encrypt",
		]);
	});

	it("moves the clock to August 2024: the pack is active, the June notice is in the outbox", async () => {
		const clock = region("Emulator clock");
		await clock.getByLabel("Clock time (UTC)").fill("2024-08-01T00:00");
		await clock.getByRole("button", { name: "Set clock" }).click();
		expect(await statusSays(page, "Emulator clock set.")).toBe("Emulator clock set.");
		const packs = region("Certificate packs");
		const advanced = await packs
			.getByRole("row")
			.filter({ hasText: "www.certs.example" })
			.getByRole("cell")
			.allTextContents();
		expect(advanced.slice(2, 4)).toEqual(["active", "Let's Encrypt"]);
		// Issued 2024-05-01 00:15, renewed 30 days before its 90 days ran out: 2024-06-30 to 2024-09-28.
		expect(advanced[4]).toContain("SHA256WithRSA from LetsEncrypt, expires 2024-09-28 00:15 UTC");
		// The universal pack moved to Google at its first renewal from June 2024 (the default CA).
		const universal = await packs.getByRole("row").filter({ hasText: "universal" }).getByRole("cell").allTextContents();
		expect(universal.slice(0, 4)).toEqual([
			"universal",
			"certs.example, *.certs.example",
			"active",
			"Google Trust Services",
		]);
		await expect(packs.textContent()).resolves.toContain(
			"Universal SSLEnabled, certificate authority Google Trust Services",
		);

		const mail = region("Notices (e-mails)").getByRole("article");
		await expect(mail.count()).resolves.toBe(1);
		await expect(mail.getByRole("heading").textContent()).resolves.toBe(
			"Let's Encrypt chain change: your advanced certificate for certs.example uses Let's Encrypt",
		);
		const text = await mail.textContent();
		expect(text).toContain("2024-06-01 00:00 UTC, to Super Administrators of the zone's account");
		expect(text).toContain("From September 9, 2024");
	});

	it("creates a custom hostname on Let's Encrypt and shows its status and validation records", async () => {
		const form = page.getByRole("form", { name: "Add a custom hostname" });
		const tree = await form.ariaSnapshot();
		expect(tree).toContain('textbox "Hostname"');
		expect(tree).toContain('combobox "Validation method"');
		expect(tree).toContain('combobox "Certificate authority"');
		expect(tree).toContain('option "Default CA (Google Trust Services, or Let\'s Encrypt when CAA blocks Google)"');
		expect(await describedBy(form, "Certificate authority", true)).toContain(
			"The default CA is Google Trust Services, unless a CAA record",
		);

		// Refused by the API, shown at the field, what was typed kept.
		await form.getByLabel("Hostname").fill("not a hostname");
		await form.getByRole("button", { name: "Add custom hostname" }).click();
		const refused = page.getByRole("form", { name: "Add a custom hostname" });
		expect(await describedBy(refused, "Hostname", true)).toContain("hostname must be a fully qualified domain name");
		expect(await refused.getByLabel("Hostname").getAttribute("aria-invalid")).toBe("true");
		await page.waitForFunction(() => document.activeElement?.id === "hostname-hostname");

		await refused.getByLabel("Hostname").fill("shop.customer.test");
		await refused.getByLabel("Certificate authority").selectOption({ label: "Let's Encrypt" });
		await refused.getByRole("button", { name: "Add custom hostname" }).click();
		expect(await statusSays(page, "Custom hostname added.")).toBe("Custom hostname added.");

		const [listed] = await api<Hostname[]>("GET", `/zones/${zoneId}/custom_hostnames?hostname=shop.customer.test`);
		before = listed as Hostname;
		const card = region("shop.customer.test");
		await expect(fact(card, "Hostname status")).resolves.toBe("pending");
		await expect(fact(card, "Certificate status")).resolves.toBe("initializing");
		await expect(fact(card, "Certificate authority")).resolves.toBe("Let's Encrypt");
		await expect(fact(card, "Certificate id")).resolves.toBe(before.ssl.id);
		const record = before.ssl.validation_records[0];
		const cells = await card
			.getByRole("table", { name: "Validation records of shop.customer.test" })
			.getByRole("row")
			.nth(1)
			.getByRole("cell")
			.allTextContents();
		expect(cells).toEqual([`TXT ${record?.txt_name}`, record?.txt_value, "pending"]);
		expect(record?.txt_name).toBe("_acme-challenge.shop.customer.test");
	});

	it("changes the CA to the default CA with the CA selector: Google, a re-issued certificate", async () => {
		const card = region("shop.customer.test");
		const selector = card.getByRole("form", { name: "Certificate authority of shop.customer.test" });
		await expect(selector.getByLabel("Certificate authority").inputValue()).resolves.toBe("lets_encrypt");
		// With the keyboard: focus the selector, pick the first option ("" = default CA), submit.
		await selector.getByLabel("Certificate authority").focus();
		await page.keyboard.press("Home");
		await expect(selector.getByLabel("Certificate authority").inputValue()).resolves.toBe("");
		await page.keyboard.press("Tab");
		await expect(page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).resolves.toBe(
			"Change the CA of shop.customer.test",
		);
		await page.keyboard.press("Enter");
		// A key press does not wait for the navigation it starts, as a click does.
		await page.waitForURL(/done=ca-changed/);
		await expect(page.getByRole("status").textContent()).resolves.toBe(
			"Certificate authority changed: the certificate is re-issued.",
		);

		const after = region("shop.customer.test");
		await expect(fact(after, "Certificate authority")).resolves.toBe("Google Trust Services");
		await expect(fact(after, "Certificate status")).resolves.toBe("initializing");
		const newId = await fact(after, "Certificate id");
		expect(newId).not.toBe(before.ssl.id);
		const fromApi = await api<Hostname>("GET", `/zones/${zoneId}/custom_hostnames/${before.id}`);
		expect(fromApi.ssl).toMatchObject({ id: newId, certificate_authority: "google" });
		const value = await after
			.getByRole("table", { name: "Validation records of shop.customer.test" })
			.getByRole("code")
			.nth(1)
			.textContent();
		expect(value).toBe(fromApi.ssl.validation_records[0]?.txt_value);
		expect(value).not.toBe(before.ssl.validation_records[0]?.txt_value);
		await expect(
			after
				.getByRole("form", { name: "Certificate authority of shop.customer.test" })
				.getByLabel("Certificate authority")
				.inputValue(),
		).resolves.toBe("google");
		// The page lands on the changed hostname (the redirect's #hostname-<id>); the screenshot shows its section.
		expect(new URL(page.url()).hash).toBe(`#hostname-${before.id}`);
		await page.locator("#hostnames-heading").evaluate((heading) => heading.scrollIntoView());
		await screenshot(page, "ssl");
	});

	it("refuses a bad PEM inline, then uploads a real certificate and shows its parsed hosts, issuer and expiry", async () => {
		const form = page.getByRole("form", { name: "Upload a custom certificate" });
		const tree = await form.ariaSnapshot();
		expect(tree).toContain('textbox "Certificate (PEM)"');
		expect(tree).toContain('textbox "Private key (PEM)"');
		expect(tree).toContain('combobox "Bundle method"');

		await form
			.getByLabel("Certificate (PEM)")
			.fill("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n");
		await form.getByLabel("Private key (PEM)").fill(fixture("rsa-r3-2024.key"));
		await form.getByRole("button", { name: "Upload certificate" }).click();
		const refused = page.getByRole("form", { name: "Upload a custom certificate" });
		expect(await describedBy(refused, "Certificate (PEM)", true)).toContain("Invalid certificate");
		expect(await refused.getByLabel("Certificate (PEM)").getAttribute("aria-invalid")).toBe("true");
		await expect(region("Custom certificates").textContent()).resolves.toContain("No custom certificates uploaded.");

		// A key that is not the certificate's: refused at the key.
		await refused.getByLabel("Certificate (PEM)").fill(fixture("rsa-r3-2024.pem"));
		await refused.getByLabel("Private key (PEM)").fill(fixture("ecdsa-valid.key"));
		await refused.getByRole("button", { name: "Upload certificate" }).click();
		const again = page.getByRole("form", { name: "Upload a custom certificate" });
		expect(await again.getByLabel("Private key (PEM)").getAttribute("aria-invalid")).toBe("true");
		expect(await again.getByLabel("Certificate (PEM)").getAttribute("aria-invalid")).toBeNull();

		await again.getByLabel("Private key (PEM)").fill(fixture("rsa-r3-2024.key"));
		await again.getByRole("button", { name: "Upload certificate" }).click();
		expect(await statusSays(page, "Custom certificate uploaded.")).toBe("Custom certificate uploaded.");
		const row = region("Custom certificates").getByRole("row").filter({ hasText: "certs.example" });
		const cells = await row.getByRole("cell").allTextContents();
		expect(cells.slice(0, 7)).toEqual([
			"*.certs.example, certs.example",
			"LetsEncrypt",
			"SHA256WithRSA",
			"Compatible (ubiquitous)",
			"active",
			"2024-08-01 00:00 UTC",
			"2024-10-30 00:00 UTC",
		]);
	});

	it("shows the chain served for the certificate on a chosen date, and which clients validate it", async () => {
		await region("Custom certificates")
			.getByRole("link", { name: "Chain of the custom certificate *.certs.example, certs.example" })
			.click();
		const panel = region("Served chain on a date");
		const form = page.getByRole("form", { name: "Served chain on a date" });
		expect(await form.ariaSnapshot()).toMatch(/combobox "Certificate"[\s\S]*textbox "Date \(UTC\)"|Date \(UTC\)/);
		await expect(form.getByLabel("Date (UTC)").getAttribute("type")).resolves.toBe("date");
		// The date defaults to the zone's clock.
		await expect(form.getByLabel("Date (UTC)").inputValue()).resolves.toBe("2024-08-01");

		await form.getByLabel("Date (UTC)").fill("2024-09-20");
		await form.getByRole("button", { name: "Show chain" }).click();
		await expect(fact(panel, "Served chain")).resolves.toContain(
			"R3 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 > anchor DST Root CA X3",
		);
		const verdict = (client: RegExp) =>
			region("Served chain on a date")
				.getByRole("row")
				.filter({ has: page.getByRole("rowheader", { name: client }) })
				.getByRole("cell")
				.first()
				.textContent();
		await expect(verdict(/^Android before 7\.1\.1/)).resolves.toBe("Validates");
		await expect(verdict(/^OpenSSL 1\.0\.x/)).resolves.toBe("Fails");
		await expect(verdict(/^Modern trust stores/)).resolves.toBe("Validates");

		// After the cross-sign expired (2024-09-30): Android 7.0 fails.
		await page.getByRole("form", { name: "Served chain on a date" }).getByLabel("Date (UTC)").fill("2024-10-01");
		await page
			.getByRole("form", { name: "Served chain on a date" })
			.getByRole("button", { name: "Show chain" })
			.click();
		await expect(region("Served chain on a date").textContent()).resolves.toContain("on 2024-10-01 00:00 UTC");
		await expect(verdict(/^Android before 7\.1\.1/)).resolves.toBe("Fails");
		await expect(verdict(/^Modern trust stores/)).resolves.toBe("Validates");

		// The advanced pack on Let's Encrypt, picked in the selector: managed, it loses the cross-sign on 2024-09-09.
		const chooser = page.getByRole("form", { name: "Served chain on a date" });
		await chooser
			.getByLabel("Certificate", { exact: true })
			.selectOption({ label: "advanced pack: certs.example, www.certs.example" });
		await chooser.getByLabel("Date (UTC)").fill("2024-09-08");
		await chooser.getByRole("button", { name: "Show chain" }).click();
		const day = await region("Served chain on a date").textContent();
		expect(day).toMatch(/R1[01] by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 > anchor DST Root CA X3/);
		const next = page.getByRole("form", { name: "Served chain on a date" });
		await next.getByLabel("Date (UTC)").fill("2024-09-09");
		await next.getByRole("button", { name: "Show chain" }).click();
		const after = await region("Served chain on a date").textContent();
		expect(after).toMatch(/R1[01] by ISRG Root X1 > anchor ISRG Root X1/);
		expect(after).not.toContain("DST Root CA X3 > anchor");
	});

	it("deletes the custom certificate and the custom hostname", async () => {
		page.once("dialog", (dialog) => void dialog.accept());
		await region("Custom certificates")
			.getByRole("button", { name: "Delete the custom certificate *.certs.example, certs.example" })
			.click();
		expect(await statusSays(page, "Custom certificate deleted.")).toBe("Custom certificate deleted.");
		page.once("dialog", (dialog) => void dialog.accept());
		await region("shop.customer.test").getByRole("button", { name: "Delete shop.customer.test" }).click();
		expect(await statusSays(page, "Custom hostname deleted.")).toBe("Custom hostname deleted.");
		await expect(region("Custom hostnames").textContent()).resolves.toContain("No custom hostnames yet.");
	});
});
