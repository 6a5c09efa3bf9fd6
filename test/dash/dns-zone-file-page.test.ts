/**
 * The DNS page's Import and export card through the Worker's front door (no browser): a zone file
 * posted as the page's form posts it, what the page then says, the download of the export, and a
 * file the API refuses whole. In Chromium: test/dash/e2e/dns.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, signIn } from "./dash-http";
import { seen } from "./seen";

/** Posts the card's form: `file` as a chosen file, the box ticked or not, the browser's CSRF token. */
function importForm(browser: Browser, zone: string, file: string | undefined, proxied: boolean): Promise<Response> {
	const form = new FormData();
	form.append("csrf", browser.csrf);
	if (file !== undefined) form.append("file", new File([file], "zone.txt", { type: "text/plain" }));
	if (proxied) form.append("proxied", "true");
	return exports.default.fetch(`${DASH}/zones/${zone}/dns/import`, {
		method: "POST",
		redirect: "manual",
		headers: { cookie: browser.cookie },
		body: form,
	});
}

async function stored(zone: string): Promise<string[]> {
	const records = (await call("GET", `/zones/${zone}/dns_records?order=name`)).body.result as {
		type: string;
		name: string;
		proxied: boolean;
	}[];
	return records.map((r) => `${r.type} ${r.name.split(".")[0]}${r.proxied ? " proxied" : ""}`);
}

describe("the DNS page's Import and export", () => {
	it("imports a zone file, says what it added and what it left out, and lists the records", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const before = await seen(
			await (await exports.default.fetch(`${DASH}/zones/${zone}/dns`, { headers: { cookie: browser.cookie } })).text(),
		);
		expect(before.headings).toContain("Import and export");
		expect(before.field("Proxy imported DNS records").checked).toBe(true);
		expect(before.field("Zone file (BIND format, at most 256 KiB)")).toBeDefined();

		const file = 'www IN A 192.0.2.1\nmail IN MX 10 mx.example.net.\nhost IN HINFO "PC" "Linux"\n';
		const answer = await importForm(browser, zone, file, true);
		expect(answer.status).toBe(200);
		const page = await seen(await answer.text());
		expect(page.text).toContain("2 of 3 records in the file added.");
		expect(page.headings).toContain("Not imported");
		expect(page.text).toContain("HINFO is not a record type the DNS records API takes");
		// The records table shows them at once; the box proxied the A record, not the MX.
		expect(page.rows.map((r) => r.slice(0, 4))).toEqual(
			expect.arrayContaining([["A", "www", "192.0.2.1", "Proxied"], expect.arrayContaining(["MX", "DNS only"])]),
		);
		expect(await stored(zone)).toEqual(["MX mail", "A www proxied"]);
	});

	it("downloads the export as a contained attachment named for the zone", async () => {
		const zone = await freshZone();
		const name = ((await call("GET", `/zones/${zone}`)).body.result as { name: string }).name;
		await call("POST", `/zones/${zone}/dns_records`, {
			type: "TXT",
			name: "note",
			content: "<script>alert(1)</script>",
			comment: "<b>anyone's text</b>",
		});
		const { browser } = await signIn(TOKEN);
		const page = await seen(
			await (await exports.default.fetch(`${DASH}/zones/${zone}/dns`, { headers: { cookie: browser.cookie } })).text(),
		);
		const [link] = page.links("Export");
		expect(link?.get("href")).toBe(`/zones/${zone}/dns/export`);
		const download = await exports.default.fetch(`${DASH}${link?.get("href")}`, {
			headers: { cookie: browser.cookie },
		});
		expect(download.status).toBe(200);
		expect(download.headers.get("content-disposition")).toBe(`attachment; filename="${name}.txt"`);
		expect(download.headers.get("x-content-type-options")).toBe("nosniff");
		expect(download.headers.get("content-security-policy")).toBe("sandbox; default-src 'none'");
		expect(await download.text()).toContain(
			`note.${name}.\t1\tIN\tTXT\t"<script>alert(1)</script>" ; <b>anyone's text</b>`,
		);
	});

	it("shows a file the API refuses whole, or no file chosen, and stores nothing", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const refused = await importForm(browser, zone, "www IN A 192.0.2.1\n$INCLUDE other.zone\n", false);
		expect(refused.status).toBe(400);
		expect((await seen(await refused.text())).alerts.join(" ")).toContain("line 2: $INCLUDE directive not allowed");
		const empty = await importForm(browser, zone, undefined, false);
		expect(empty.status).toBe(400);
		expect((await seen(await empty.text())).alerts.join(" ")).toContain("Choose a zone file to import.");
		// A form without the session's CSRF token is refused before it is read.
		const forged = await importForm({ ...browser, csrf: "forged" }, zone, "www IN A 192.0.2.1\n", false);
		expect(forged.status).toBe(403);
		expect(await stored(zone)).toEqual([]);
	});
});
