/**
 * The DNS page through the Worker's front door (no browser): the records table as Cloudflare's
 * dashboard shows it, Add record with the API's refusals at their fields (nothing stored), the
 * proxy toggle, Edit, Delete, and a token without DNS Read. Browser tests of the same page:
 * test/dash/e2e/dns.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN, WAF_TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

const open = (browser: Browser, path: string) =>
	exports.default.fetch(`${DASH}${path}`, { headers: { cookie: browser.cookie } });

/** The zone's records as the API lists them. */
async function records(zone: string): Promise<{ id: string; name: string; type: string; proxied: boolean }[]> {
	return (await call("GET", `/zones/${zone}/dns_records`)).body.result as never;
}

/** The zone's name, as the API answers it. */
async function zoneName(zone: string): Promise<string> {
	return ((await call("GET", `/zones/${zone}`)).body.result as { name: string }).name;
}

const form = (values: Record<string, string>) => ({ type: "A", ttl: "1", comment: "", priority: "", ...values });

describe("the DNS page", () => {
	it("adds a proxied A record and lists it as Cloudflare's dashboard does; MX with its priority and TTL", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const added = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ name: "app", content: "192.0.2.10", proxied: "true", comment: "the app" }),
		});
		expect(added.status).toBe(303);
		expect(added.headers.get("location")).toBe(`/zones/${zone}/dns?done=added`);
		const mx = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "MX", name: "@", content: "mail.example.net", priority: "10", ttl: "3600" }),
		});
		expect(mx.status).toBe(303);
		// An address pasted with spaces is trimmed; a TXT record keeps its own.
		const spaced = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "AAAA", name: "v6", content: " 2001:db8::1 " }),
		});
		expect(spaced.status).toBe(303);
		await post(browser, `/zones/${zone}/dns/records`, form({ type: "TXT", name: "note", content: " two  spaces " }));
		const stored = (await call("GET", `/zones/${zone}/dns_records?order=name`)).body.result as { content: string }[];
		expect(stored.map((r) => r.content)).toEqual(expect.arrayContaining(["2001:db8::1", " two  spaces "]));
		const page = await seen(await (await open(browser, `/zones/${zone}/dns?done=added`)).text());
		expect(page.h1).toBe("DNS records");
		expect(page.text).toContain("DNS record added.");
		expect(page.rows[0]).toEqual(["Type", "Name", "Content", "Proxy status", "TTL", "Comment", "Actions"]);
		const row = (type: string) => page.rows.find((r) => r[0] === type)?.slice(0, 6);
		expect(row("A")).toEqual(["A", "app", "192.0.2.10", "Proxied", "Auto", "the app"]);
		expect(row("MX")).toEqual(["MX", await zoneName(zone), "mail.example.net priority 10", "DNS only", "1 hr", ""]);
		// The sidebar names the page under DNS.
		expect(page.links("Records").map((l) => l.get("href"))).toContain(`/zones/${zone}/dns`);
	});

	it("shows a CNAME beside an A record (81053) at Name and a proxied TXT (9004) at Proxied, storing nothing", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		await post(browser, `/zones/${zone}/dns/records`, form({ name: "app", content: "192.0.2.10", proxied: "true" }));
		const cname = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "CNAME", name: "app", content: "elsewhere.example.net" }),
		});
		expect(cname.status).toBe(400);
		const refused = await seen(await cname.text());
		expect(refused.field("Name")).toMatchObject({ value: "app", invalid: true });
		expect(refused.field("Name").error).toBe("An A, AAAA, or CNAME record with that host already exists.");
		expect(refused.field("Content")).toMatchObject({ value: "elsewhere.example.net", invalid: false });
		expect(refused.field("Type").value).toBe("CNAME");
		const txt = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "TXT", name: "note", content: "hello", proxied: "true" }),
		});
		expect(txt.status).toBe(400);
		const proxied = (await seen(await txt.text())).field("Proxied (A, AAAA and CNAME only)");
		expect(proxied).toMatchObject({ invalid: true, checked: true, error: "This record type cannot be proxied." });
		expect((await records(zone)).map((r) => r.type)).toEqual(["A"]);
	});

	it("toggles a record's proxy, edits its content and TTL, and deletes it", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		await post(browser, `/zones/${zone}/dns/records`, form({ name: "www", content: "192.0.2.1", proxied: "true" }));
		const [record] = await records(zone);
		const base = `/zones/${zone}/dns/records/${record?.id}`;
		const off = await post(browser, `${base}/proxied`, { proxied: "false" });
		expect(off.headers.get("location")).toBe(`/zones/${zone}/dns?done=dns-only`);
		expect((await records(zone))[0]?.proxied).toBe(false);

		const edit = await seen(await (await open(browser, base)).text());
		expect(edit.h1).toBe("Edit DNS record");
		expect(edit.field("Content").value).toBe("192.0.2.1");
		const bad = await post(browser, base, { content: "192.0.2.999", ttl: "300", comment: "" });
		expect(bad.status).toBe(400);
		const content = (await seen(await bad.text())).field("Content");
		expect(content).toMatchObject({ value: "192.0.2.999", invalid: true });
		expect(content.error).toContain("Must be a valid IPv4 address");
		const saved = await post(browser, base, { content: "192.0.2.2", ttl: "300", comment: "moved" });
		expect(saved.status).toBe(303);
		const page = await seen(await (await open(browser, `/zones/${zone}/dns`)).text());
		expect(page.rows[1]?.slice(0, 6)).toEqual(["A", "www", "192.0.2.2", "DNS only", "5 min", "moved"]);

		const deleted = await post(browser, `${base}/delete`, {});
		expect(deleted.headers.get("location")).toBe(`/zones/${zone}/dns?done=deleted`);
		expect(await records(zone)).toEqual([]);
		const empty = await seen(await (await open(browser, `/zones/${zone}/dns?done=deleted`)).text());
		expect(empty.text).toContain("No DNS records in this zone.");
	});

	it("adds a CAA record as its content, a bad flag shown at Content, and edits it", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const bad = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "CAA", name: "@", content: '256 issue "pki.goog"' }),
		});
		expect(bad.status).toBe(400);
		const refused = (await seen(await bad.text())).field("Content");
		expect(refused).toMatchObject({ value: '256 issue "pki.goog"', invalid: true });
		expect(refused.error).toBe("Invalid CAA flag. Must be an integer");
		const added = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "CAA", name: "@", content: '0 issue "pki.goog"' }),
		});
		expect(added.status).toBe(303);
		const [record] = await records(zone);
		expect(record).toMatchObject({ type: "CAA", data: { flags: 0, tag: "issue", value: "pki.goog" } });
		const saved = await post(browser, `/zones/${zone}/dns/records/${record?.id}`, {
			content: '0 issuewild "letsencrypt.org"',
			ttl: "1",
			comment: "",
		});
		expect(saved.status).toBe(303);
		const page = await seen(await (await open(browser, `/zones/${zone}/dns`)).text());
		const name = await zoneName(zone);
		expect(page.rows[1]?.slice(0, 5)).toEqual(["CAA", name, '0 issuewild "letsencrypt.org"', "DNS only", "Auto"]);
	});

	it("adds an SRV record as its weight, port and target with its priority; a bad port shown at Content", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const bad = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "SRV", name: "_sip._tcp", content: "5 70000 sip.example.net", priority: "10" }),
		});
		expect(bad.status).toBe(400);
		const refused = (await seen(await bad.text())).field("Content");
		expect(refused).toMatchObject({ invalid: true, error: "An SRV record's port is an integer of 0 to 65535" });
		const added = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "SRV", name: "_sip._tcp", content: "5 5060 sip.example.net", priority: "10" }),
		});
		expect(added.status).toBe(303);
		const page = await seen(await (await open(browser, `/zones/${zone}/dns`)).text());
		expect(page.rows[1]?.slice(0, 4)).toEqual(["SRV", "_sip._tcp", "5 5060 sip.example.net priority 10", "DNS only"]);
		// Every type Cloudflare's records API takes.
		expect(page.field("Type").options).toEqual(
			"A AAAA CAA CERT CNAME DNSKEY DS HTTPS LOC MX NAPTR NS OPENPGPKEY PTR SMIMEA SRV SSHFP SVCB TLSA TXT URI".split(
				" ",
			),
		);
	});

	it("adds an HTTPS record written as a zone file writes it, and a URI record with its priority", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const https = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "HTTPS", name: "@", content: '1 . alpn="h3,h2" port=8443' }),
		});
		expect(https.status).toBe(303);
		const uri = await post(browser, `/zones/${zone}/dns/records`, {
			...form({ type: "URI", name: "_ftp._tcp", content: '1 "ftp://ftp.example.net/public"', priority: "10" }),
		});
		expect(uri.status).toBe(303);
		const [httpsRecord, uriRecord] = await records(zone);
		expect(httpsRecord).toMatchObject({
			type: "HTTPS",
			content: '1 . alpn="h3,h2" port=8443',
			data: { priority: 1, target: ".", value: 'alpn="h3,h2" port=8443' },
		});
		expect(uriRecord).toMatchObject({
			type: "URI",
			priority: 10,
			data: { priority: 10, weight: 1, target: "ftp://ftp.example.net/public" },
		});
		// A content that reads as no HTTPS record: the API names each component it lacks, the priority at Priority.
		const bad = await post(browser, `/zones/${zone}/dns/records`, form({ type: "HTTPS", name: "x", content: "h3" }));
		expect(bad.status).toBe(400);
		const refused = await seen(await bad.text());
		expect(refused.field("Content")).toMatchObject({ invalid: true, error: "target is a required data field." });
		expect(refused.field("Priority")).toMatchObject({ invalid: true, error: "priority is a required data field." });
	});

	it("shows a token without DNS Read the API's refusal in place of the records, and refuses its writes", async () => {
		const zone = await freshZone();
		await call("POST", `/zones/${zone}/dns_records`, { type: "A", name: "secret", content: "192.0.2.7" });
		const { browser } = await signIn(WAF_TOKEN);
		const page = await seen(await (await open(browser, `/zones/${zone}/dns`)).text());
		expect(page.alerts.join(" ")).toMatch(/Authentication error/);
		expect(page.text).not.toContain("192.0.2.7");
		const write = await post(browser, `/zones/${zone}/dns/records`, form({ name: "x", content: "192.0.2.8" }));
		expect(write.status).toBe(403);
		expect((await records(zone)).map((r) => r.name)).toEqual([`secret.${await zoneName(zone)}`]);
	});
});
