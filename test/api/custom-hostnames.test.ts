/**
 * Custom hostnames through HTTP (`/zones/{zone_id}/custom_hostnames`): the object as the SDK types
 * it, the lifecycle on the zone's clock with the simulated DNS, the default CA (Google unless CAA
 * blocks it), lists, the fallback origin, the quota and bad input.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import patchFixture from "../../fixtures/api/13-patch-custom-hostname-default-ca.json";
import { zoneRegistry, zoneState } from "../../src/common/durable-objects";
import { call, freshZone } from "./http";

const DAY = 86_400;

interface Ssl {
	id: string;
	type: string;
	method: string;
	status: string;
	bundle_method: string;
	certificate_authority: string;
	wildcard: boolean;
	settings: Record<string, unknown>;
	hosts: string[];
	validation_records?: {
		txt_name?: string;
		txt_value?: string;
		http_url?: string;
		http_body?: string;
		emails?: string[];
		status?: string;
	}[];
	validation_errors?: { message: string }[];
	issuer?: string;
	serial_number?: string;
	signature?: string;
	uploaded_on?: string;
	expires_on?: string;
}

interface Hostname {
	id: string;
	hostname: string;
	status: string;
	verification_errors?: string[];
	ownership_verification: { type: string; name: string; value: string };
	ownership_verification_http?: { http_url: string; http_body: string };
	created_at: string;
	custom_metadata?: Record<string, string>;
	custom_origin_server?: string;
	custom_origin_sni?: string;
	ssl?: Ssl;
}

const unique = (label = "app") => `${label}.c${crypto.randomUUID().slice(0, 8)}.example.org`;

/** A fresh zone with its clock frozen at `at`. */
async function zoneAt(at = "2024-06-01T00:00:00Z"): Promise<string> {
	const zone = await freshZone();
	expect((await call("PUT", `/zones/${zone}/emulator/clock`, { now: at, frozen: true })).status).toBe(200);
	return zone;
}

const advance = async (zone: string, seconds: number) =>
	expect((await call("POST", `/zones/${zone}/emulator/clock/advance`, { seconds })).status).toBe(200);

async function create(zone: string, body: unknown): Promise<Hostname> {
	const res = await call("POST", `/zones/${zone}/custom_hostnames`, body);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body.result as Hostname;
}

async function get(zone: string, id: string): Promise<Hostname> {
	const res = await call("GET", `/zones/${zone}/custom_hostnames/${id}`);
	expect(res.status).toBe(200);
	return res.body.result as Hostname;
}

async function patch(zone: string, id: string, body: unknown): Promise<Hostname> {
	const res = await call("PATCH", `/zones/${zone}/custom_hostnames/${id}`, body);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body.result as Hostname;
}

async function putDns(zone: string, name: string, records: unknown): Promise<void> {
	const res = await call("PUT", `/zones/${zone}/emulator/dns/${name}`, records);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
}

/** Puts every `_acme-challenge` TXT value the hostname's certificate asks for into the DNS. */
async function answerTxt(zone: string, hostname: Hostname): Promise<void> {
	const records = hostname.ssl?.validation_records ?? [];
	const name = records[0]?.txt_name ?? "";
	await putDns(zone, name, { txt: records.map((r) => r.txt_value) });
}

describe("a new custom hostname", () => {
	it("answers with the API's fields: pending, ownership tokens, the ssl settings sent, ids in Cloudflare's formats", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		const h = await create(zone, {
			hostname: hostname.toUpperCase(),
			ssl: {
				method: "txt",
				type: "dv",
				settings: { min_tls_version: "1.2", ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"], http2: "on", tls_1_3: "on" },
				bundle_method: "optimal",
			},
			custom_metadata: { customer: "42" },
			custom_origin_server: "origin.example.net",
			custom_origin_sni: ":request_host_header:",
		});
		// A UUID, as Cloudflare issues (the SDK's examples).
		expect(h.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(h).toMatchObject({
			hostname,
			status: "pending",
			verification_errors: [
				"None of the A or AAAA records are owned by this account and the pre-generated ownership verification token was not found.",
			],
			ownership_verification: { type: "txt", name: `_cf-custom-hostname.${hostname}` },
			custom_metadata: { customer: "42" },
			custom_origin_server: "origin.example.net",
			custom_origin_sni: ":request_host_header:",
			created_at: "2024-06-01T00:00:00.000Z",
		});
		expect(h.ownership_verification.value).toMatch(/^[0-9a-f-]{36}$/);
		expect(h.ownership_verification_http?.http_url).toMatch(
			new RegExp(
				`^http://${hostname.replaceAll(".", "\\.")}/\\.well-known/cf-custom-hostname-challenge/[0-9a-f-]{36}$`,
			),
		);
		expect(h.ownership_verification_http?.http_body).toBe(h.ownership_verification.value);
		const ssl = h.ssl as Ssl;
		expect(ssl.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		expect(ssl).toMatchObject({
			type: "dv",
			method: "txt",
			status: "initializing",
			bundle_method: "optimal",
			certificate_authority: "google",
			wildcard: false,
			hosts: [hostname],
			settings: { min_tls_version: "1.2", ciphers: ["ECDHE-RSA-AES128-GCM-SHA256"], http2: "on", tls_1_3: "on" },
		});
		expect(ssl.validation_records).toEqual([
			{
				txt_name: `_acme-challenge.${hostname}`,
				txt_value: expect.stringMatching(/^[0-9a-f]{32}$/),
				status: "pending",
			},
		]);
		expect(ssl.issuer).toBeUndefined();
		expect(ssl.expires_on).toBeUndefined();
		expect(await get(zone, h.id)).toEqual(h);
	});

	it("defaults to HTTP validation, ubiquitous bundling and the default CA; HTTP records name the hostname", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		const h = await create(zone, { hostname, ssl: {} });
		expect(h.ssl).toMatchObject({ method: "http", bundle_method: "ubiquitous", certificate_authority: "google" });
		expect(h.ssl?.validation_records?.[0]?.http_url).toMatch(
			new RegExp(`^http://${hostname.replaceAll(".", "\\.")}/\\.well-known/pki-validation/ca3-[0-9a-f]{32}\\.txt$`),
		);
		expect(h.ssl?.validation_records?.[0]?.http_body).toMatch(/^ca3-[0-9a-f]{32}$/);
	});

	it("has no certificate without ssl, until a PATCH asks for one", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique() });
		expect(h.ssl).toBeUndefined();
		const withSsl = await patch(zone, h.id, { ssl: { method: "txt" } });
		expect(withSsl.ssl).toMatchObject({ status: "initializing", method: "txt" });
	});

	it("covers the name and *.name with a wildcard certificate: two TXT records, both needed", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		const h = await create(zone, { hostname, ssl: { method: "txt", wildcard: true } });
		expect(h.ssl?.hosts).toEqual([hostname, `*.${hostname}`]);
		const records = h.ssl?.validation_records ?? [];
		expect(records).toHaveLength(2);
		expect(new Set(records.map((r) => r.txt_name))).toEqual(new Set([`_acme-challenge.${hostname}`]));
		await advance(zone, 5);
		await putDns(zone, `_acme-challenge.${hostname}`, { txt: [records[0]?.txt_value] });
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_validation");
		await answerTxt(zone, h);
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_issuance");
	});

	it("takes a wildcard hostname, validated by TXT at the name it covers, without an HTTP ownership token", async () => {
		const zone = await zoneAt();
		const base = unique("w");
		const h = await create(zone, { hostname: `*.${base}`, ssl: { method: "txt" } });
		expect(h.ownership_verification.name).toBe(`_cf-custom-hostname.${base}`);
		expect(h.ownership_verification_http).toBeUndefined();
		expect(h.ssl?.validation_records?.[0]?.txt_name).toBe(`_acme-challenge.${base}`);
	});
});

describe("the certificate lifecycle on the zone's clock", () => {
	it("goes initializing, pending_validation, pending_issuance, pending_deployment, active; the clock going back shows earlier states", async () => {
		const zone = await zoneAt("2024-06-01T00:00:00Z");
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt" } });
		expect(h.ssl?.status).toBe("initializing");
		await advance(zone, 5);
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_validation");
		await advance(zone, 3600);
		await answerTxt(zone, h); // at 01:00:05
		const issuing = await get(zone, h.id);
		expect(issuing.ssl?.status).toBe("pending_issuance");
		expect(issuing.ssl?.validation_records).toBeUndefined();
		await advance(zone, 30);
		const deploying = (await get(zone, h.id)).ssl as Ssl;
		expect(deploying).toMatchObject({
			status: "pending_deployment",
			issuer: "GoogleTrustServices",
			signature: "SHA256WithRSA",
			uploaded_on: "2024-06-01T01:00:35.000Z",
			expires_on: "2024-08-30T01:00:35.000Z",
		});
		expect(deploying.serial_number).toMatch(/^[0-9a-f]+$/);
		await advance(zone, 30);
		expect((await get(zone, h.id)).ssl?.status).toBe("active");
		await call("PUT", `/zones/${zone}/emulator/clock`, { now: "2024-06-01T00:30:00Z", frozen: true });
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_validation");
		await call("PUT", `/zones/${zone}/emulator/clock`, { now: "2024-06-02T00:00:00Z", frozen: true });
		expect((await get(zone, h.id)).ssl?.status).toBe("active");
	});

	it("stays validated when the TXT record is removed afterwards", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt" } });
		await advance(zone, 10);
		await answerTxt(zone, h);
		await advance(zone, 10);
		const name = h.ssl?.validation_records?.[0]?.txt_name ?? "";
		expect((await call("DELETE", `/zones/${zone}/emulator/dns/${name}`)).body.result).toEqual({ name, deleted: true });
		await advance(zone, 60);
		expect((await get(zone, h.id)).ssl?.status).toBe("active");
	});

	it("validates by the HTTP token the hostname serves", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		const h = await create(zone, { hostname, ssl: { method: "http" } });
		const record = h.ssl?.validation_records?.[0];
		const path = new URL(record?.http_url ?? "").pathname;
		await advance(zone, 5);
		await putDns(zone, hostname, { http: { [path]: "wrong body" } });
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_validation");
		await putDns(zone, hostname, { http: { [path]: record?.http_body } });
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_issuance");
	});

	it.each([
		["lets_encrypt", 7],
		["google", 14],
		["ssl_com", 14],
	])("times out after the DCV token validity of %s (%i days)", async (ca, days) => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt", certificate_authority: ca } });
		await advance(zone, days * DAY - 1);
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_validation");
		await advance(zone, 1);
		const timedOut = await get(zone, h.id);
		expect(timedOut.ssl?.status).toBe("validation_timed_out");
		// A record that arrives too late changes nothing, until a PATCH with the same ssl re-triggers validation.
		await answerTxt(zone, h);
		expect((await get(zone, h.id)).ssl?.status).toBe("validation_timed_out");
		const again = await patch(zone, h.id, { ssl: { method: "txt", certificate_authority: ca } });
		expect(again.ssl?.id).toBe(h.ssl?.id);
		expect(again.ssl?.status).toBe("initializing");
		await advance(zone, 5);
		expect((await get(zone, h.id)).ssl?.status).toBe("pending_issuance");
	});

	it("email validation never completes locally and times out", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		const h = await create(zone, { hostname, ssl: { method: "email", certificate_authority: "google" } });
		expect(h.ssl?.validation_records?.[0]?.emails).toContain(`admin@${hostname}`);
		await advance(zone, 14 * DAY);
		expect((await get(zone, h.id)).ssl?.status).toBe("validation_timed_out");
	});

	it("renews 30 days before expiry while the token stays, and expires without it", async () => {
		const zone = await zoneAt("2024-01-01T00:00:00Z");
		const kept = await create(zone, { hostname: unique("kept"), ssl: { method: "txt" } });
		const dropped = await create(zone, { hostname: unique("dropped"), ssl: { method: "txt" } });
		await advance(zone, 5);
		await answerTxt(zone, kept);
		await answerTxt(zone, dropped);
		await advance(zone, 60);
		const first = (await get(zone, kept.id)).ssl as Ssl;
		expect(first).toMatchObject({ status: "active", expires_on: "2024-03-31T00:00:35.000Z" });
		await call("DELETE", `/zones/${zone}/emulator/dns/${dropped.ssl?.validation_records?.[0]?.txt_name}`);
		// 60 days after issuance the renewal window opens; the new certificate is live a minute later.
		await advance(zone, 60 * DAY + 60);
		const renewed = (await get(zone, kept.id)).ssl as Ssl;
		expect(renewed.status).toBe("active");
		expect(renewed.uploaded_on).toBe("2024-03-01T00:01:05.000Z");
		expect(renewed.expires_on).toBe("2024-05-30T00:01:05.000Z");
		expect(renewed.serial_number).not.toBe(first.serial_number);
		const expiring = (await get(zone, dropped.id)).ssl as Ssl;
		expect(expiring.status).toBe("pending_expiration");
		expect(expiring.validation_records).toHaveLength(1);
		await advance(zone, 30 * DAY);
		expect((await get(zone, dropped.id)).ssl).toMatchObject({ status: "expired", expires_on: first.expires_on });
		// A year on, still renewed every 60 days.
		await advance(zone, 365 * DAY);
		const later = (await get(zone, kept.id)).ssl as Ssl;
		expect(later.status).toBe("active");
		expect(Date.parse(later.expires_on ?? "")).toBeGreaterThan(Date.parse("2025-03-30T00:00:00Z"));
	});
});

describe("ownership verification", () => {
	it("makes the hostname active once the DNS holds the TXT token", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique() });
		await putDns(zone, h.ownership_verification.name, { txt: ["not the token"] });
		expect((await get(zone, h.id)).status).toBe("pending");
		await putDns(zone, h.ownership_verification.name, { txt: ["not the token", h.ownership_verification.value] });
		const active = await get(zone, h.id);
		expect(active.status).toBe("active");
		expect(active.verification_errors).toBeUndefined();
	});

	it("accepts the HTTP ownership token, and a token already in the DNS at creation", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique() });
		const url = new URL(h.ownership_verification_http?.http_url ?? "");
		await putDns(zone, url.hostname, { http: { [url.pathname]: h.ownership_verification_http?.http_body } });
		expect((await get(zone, h.id)).status).toBe("active");
	});
});

describe("the certificate authority a custom hostname is issued from", () => {
	it('"" is Google unless CAA blocks it, then Let\'s Encrypt', async () => {
		const zone = await zoneAt();
		const blocked = unique();
		// A CAA record on a parent domain applies to its subdomains (RFC 8659).
		await putDns(zone, blocked.slice(blocked.indexOf(".") + 1), { caa: ["letsencrypt.org"] });
		const le = await create(zone, { hostname: blocked, ssl: { method: "txt", certificate_authority: "" } });
		expect(le.ssl?.certificate_authority).toBe("lets_encrypt");
		const parent = blocked.slice(blocked.indexOf(".") + 1);
		const forced = await create(zone, {
			hostname: `www.${parent}`,
			ssl: { method: "txt", certificate_authority: "google" },
		});
		await advance(zone, 5);
		expect((await get(zone, forced.id)).ssl?.validation_errors?.[0]?.message).toContain(`CAA records of ${parent} `);
		const allowed = unique();
		await putDns(zone, allowed, { caa: ["pki.goog; cansignhttpexchanges=yes", "letsencrypt.org"] });
		const google = await create(zone, { hostname: allowed, ssl: { method: "txt", certificate_authority: "" } });
		expect(google.ssl?.certificate_authority).toBe("google");
		const wild = unique();
		await putDns(zone, wild, { caa: ["pki.goog", { tag: "issuewild", value: "letsencrypt.org" }] });
		const wildcard = await create(zone, { hostname: `*.${wild}`, ssl: { method: "txt" } });
		expect(wildcard.ssl?.certificate_authority).toBe("lets_encrypt");
	});

	it("puts a CA the CAA records forbid into a validation error naming CAA, until CAA allows it", async () => {
		const zone = await zoneAt();
		const hostname = unique();
		await putDns(zone, hostname, { caa: ["letsencrypt.org"] });
		const h = await create(zone, { hostname, ssl: { method: "txt", certificate_authority: "google" } });
		expect(h.ssl?.certificate_authority).toBe("google");
		await advance(zone, 5);
		await answerTxt(zone, h);
		const refused = (await get(zone, h.id)).ssl as Ssl;
		expect(refused.status).toBe("pending_validation");
		expect(refused.validation_errors?.[0]?.message).toMatch(/CAA/i);
		expect(refused.validation_errors?.[0]?.message).toContain("pki.goog");
		await advance(zone, 60);
		await putDns(zone, hostname, { caa: ["letsencrypt.org", "pki.goog"] });
		const allowed = (await get(zone, h.id)).ssl as Ssl;
		expect(allowed.status).toBe("pending_issuance");
		expect(allowed.validation_errors).toBeUndefined();
	});

	it("re-issues on a CA change with the documented default-CA PATCH body (fixtures/api): new ssl.id, back through the lifecycle", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt", certificate_authority: "lets_encrypt" } });
		await advance(zone, 5);
		await answerTxt(zone, h);
		await advance(zone, 60);
		expect((await get(zone, h.id)).ssl).toMatchObject({ status: "active", issuer: "LetsEncrypt" });
		expect(patchFixture.body).toEqual({ ssl: { method: "txt", type: "dv", certificate_authority: "" } });
		const moved = await patch(zone, h.id, patchFixture.body);
		expect(moved.ssl?.id).not.toBe(h.ssl?.id);
		expect(moved.ssl).toMatchObject({ certificate_authority: "google", status: "initializing" });
		expect(moved.ssl?.validation_records?.[0]?.txt_value).not.toBe(h.ssl?.validation_records?.[0]?.txt_value);
		await advance(zone, 5);
		await answerTxt(zone, moved);
		await advance(zone, 60);
		expect((await get(zone, h.id)).ssl).toMatchObject({ status: "active", issuer: "GoogleTrustServices" });
		// The same request again changes nothing of an active certificate.
		const same = await patch(zone, h.id, patchFixture.body);
		expect(same.ssl).toMatchObject({ id: moved.ssl?.id, status: "active" });
	});

	it("keeps an issued certificate when only settings change", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt" } });
		await advance(zone, 5);
		await answerTxt(zone, h);
		await advance(zone, 60);
		const changed = await patch(zone, h.id, {
			ssl: { settings: { min_tls_version: "1.3", early_hints: "on" }, bundle_method: "force" },
			custom_metadata: { plan: "pro" },
			custom_origin_server: "eu.origin.example.net",
		});
		expect(changed.ssl).toMatchObject({
			id: h.ssl?.id,
			status: "active",
			bundle_method: "force",
			settings: { min_tls_version: "1.3", early_hints: "on" },
		});
		expect(changed).toMatchObject({ custom_metadata: { plan: "pro" }, custom_origin_server: "eu.origin.example.net" });
		const cleared = await patch(zone, h.id, { custom_origin_server: "", custom_metadata: {} });
		expect(cleared.custom_origin_server).toBeUndefined();
		expect(cleared.custom_metadata).toBeUndefined();
	});
});

describe("lists", () => {
	it("filter by every field, order, and page with result_info, [] past the last page", async () => {
		const zone = await zoneAt();
		const a = await create(zone, {
			hostname: unique("alpha"),
			ssl: { method: "txt", certificate_authority: "ssl_com" },
		});
		const b = await create(zone, { hostname: unique("beta"), custom_origin_server: "o.example.net" });
		const c = await create(zone, { hostname: `*.${unique("gamma")}`, ssl: { method: "txt" } });
		await putDns(zone, b.ownership_verification.name, { txt: [b.ownership_verification.value] });
		await advance(zone, 5);
		await answerTxt(zone, c);
		const ids = async (query: string) => {
			const res = await call("GET", `/zones/${zone}/custom_hostnames${query}`);
			expect(res.status, query).toBe(200);
			return (res.body.result as Hostname[]).map((h) => h.id);
		};
		expect(await ids("")).toEqual([b.id, a.id, c.id]);
		expect(await ids("?direction=desc")).toEqual([a.id, c.id, b.id]);
		expect(await ids(`?hostname=${a.hostname}`)).toEqual([a.id]);
		expect(await ids(`?hostname.exact=${a.hostname.toUpperCase()}`)).toEqual([a.id]);
		expect(await ids("?hostname.contain=beta")).toEqual([b.id]);
		expect(await ids("?hostname.startsWith=*.")).toEqual([c.id]);
		expect(await ids(`?id=${c.id}`)).toEqual([c.id]);
		expect(await ids("?ssl=0")).toEqual([b.id]);
		expect(await ids("?ssl=1")).toEqual([a.id, c.id]);
		expect(await ids("?ssl_status=pending_issuance")).toEqual([c.id]);
		expect(await ids("?ssl_status=pending_validation")).toEqual([a.id]);
		expect(await ids("?order=ssl_status")).toEqual([b.id, c.id, a.id]);
		expect(await ids("?hostname_status=active")).toEqual([b.id]);
		expect(await ids("?certificate_authority=ssl_com")).toEqual([a.id]);
		expect(await ids("?wildcard=true")).toEqual([c.id]);
		expect(await ids("?custom_origin_server=o.example.net")).toEqual([b.id]);
		const page = await call("GET", `/zones/${zone}/custom_hostnames?per_page=5&page=1`);
		expect(page.body.result_info).toEqual({ page: 1, per_page: 5, count: 3, total_count: 3, total_pages: 1 });
		expect((await call("GET", `/zones/${zone}/custom_hostnames?per_page=5&page=2`)).body.result).toEqual([]);
	});

	it.each([
		["?per_page=4", "/per_page"],
		["?per_page=51", "/per_page"],
		["?page=0", "/page"],
		["?ssl=2", "/ssl"],
		["?order=hostname", "/order"],
		["?ssl_status=done", "/ssl_status"],
		["?certificate_authority=digicert", "/certificate_authority"],
		["?id=xyz", "/id"],
		["?id=0D89C70D-AD9F-4843-B99F-6CC0252067E9", "/id"],
		["?id=023e105f4ecef8ad9ca31a8372d0c353&hostname=a.example.com", "/id"],
	])("refuse %s with 400 1400 at %s", async (query, pointer) => {
		const zone = await freshZone();
		const res = await call("GET", `/zones/${zone}/custom_hostnames${query}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 1400, source: { pointer } });
	});
});

describe("bad input", () => {
	const cases: [string, unknown, string][] = [
		["an IP address", { hostname: "192.0.2.1" }, "/hostname"],
		["an IPv6 address", { hostname: "2001:db8::1" }, "/hostname"],
		["a single label", { hostname: "localhost" }, "/hostname"],
		["a label with an underscore", { hostname: "a_b.example.com" }, "/hostname"],
		["a label over 63 characters", { hostname: `${"a".repeat(64)}.example.com` }, "/hostname"],
		["a name over 253 characters", { hostname: `${"a.".repeat(127)}com` }, "/hostname"],
		["a wildcard not leftmost", { hostname: "a.*.example.com" }, "/hostname"],
		["a partial wildcard label", { hostname: "a*.example.com" }, "/hostname"],
		["a wildcard of a TLD", { hostname: "*.com" }, "/hostname"],
		["no hostname", { ssl: { method: "txt" } }, "/hostname"],
		[
			"an unknown CA",
			{ hostname: "x.example.com", ssl: { certificate_authority: "digicert" } },
			"/ssl/certificate_authority",
		],
		[
			"another unknown CA",
			{ hostname: "x.example.com", ssl: { certificate_authority: "sectigo" } },
			"/ssl/certificate_authority",
		],
		["HTTP DCV of a wildcard hostname", { hostname: "*.x.example.com", ssl: { method: "http" } }, "/ssl/method"],
		[
			"HTTP DCV of a wildcard certificate",
			{ hostname: "x.example.com", ssl: { method: "http", wildcard: true } },
			"/ssl/method",
		],
		["an unknown method", { hostname: "x.example.com", ssl: { method: "dns" } }, "/ssl/method"],
		["type ov", { hostname: "x.example.com", ssl: { type: "ov" } }, "/ssl/type"],
		[
			"a TLS version",
			{ hostname: "x.example.com", ssl: { settings: { min_tls_version: "1.4" } } },
			"/ssl/settings/min_tls_version",
		],
		["a cipher", { hostname: "x.example.com", ssl: { settings: { ciphers: ["RC4-MD5"] } } }, "/ssl/settings/ciphers/0"],
		["http2 yes", { hostname: "x.example.com", ssl: { settings: { http2: "yes" } } }, "/ssl/settings/http2"],
		["an unknown setting", { hostname: "x.example.com", ssl: { settings: { brotli: "on" } } }, "/ssl/settings/brotli"],
		[
			"a custom certificate",
			{ hostname: "x.example.com", ssl: { custom_certificate: "PEM" } },
			"/ssl/custom_certificate",
		],
		["metadata over 4 KB", { hostname: "x.example.com", custom_metadata: { k: "v".repeat(4096) } }, "/custom_metadata"],
		["metadata not strings", { hostname: "x.example.com", custom_metadata: { k: 1 } }, "/custom_metadata/k"],
		["a bad origin", { hostname: "x.example.com", custom_origin_server: "not a host" }, "/custom_origin_server"],
		[
			"a wildcard origin",
			{ hostname: "x.example.com", custom_origin_server: "*.example.net" },
			"/custom_origin_server",
		],
		["a bad SNI", { hostname: "x.example.com", custom_origin_sni: ":host:" }, "/custom_origin_sni"],
		["an unknown field", { hostname: "x.example.com", name: "x" }, "/name"],
	];

	it.each(cases)("refuses %s: 400 1400 naming the field, nothing stored", async (_, body, pointer) => {
		const zone = await freshZone();
		const res = await call("POST", `/zones/${zone}/custom_hostnames`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect(res.body.errors?.[0]?.code).toBe(1400);
		expect((await call("GET", `/zones/${zone}/custom_hostnames`)).body.result).toEqual([]);
	});

	it("refuses a duplicate with 409 1406, in the zone and in another zone, and frees the name on delete", async () => {
		const [zone, other] = [await freshZone(), await freshZone()];
		const hostname = unique();
		const h = await create(zone, { hostname });
		for (const [z, name] of [
			[zone, hostname],
			[zone, hostname.toUpperCase()],
			[other, hostname],
		] as const) {
			const res = await call("POST", `/zones/${z}/custom_hostnames`, { hostname: name });
			expect(res.status).toBe(409);
			expect(res.body.errors?.[0]).toMatchObject({ code: 1406, message: "Duplicate custom hostname found." });
		}
		expect((await call("GET", `/zones/${other}/custom_hostnames`)).body.result).toEqual([]);
		expect((await call("GET", `/zones/${zone}/custom_hostnames`)).body.result).toHaveLength(1);
		const deleted = await call("DELETE", `/zones/${zone}/custom_hostnames/${h.id}`);
		expect(deleted.status).toBe(200);
		expect(deleted.body).toEqual({ id: h.id });
		expect(deleted.headers.get("content-type")).toContain("application/json");
		expect((await call("GET", `/zones/${zone}/custom_hostnames/${h.id}`)).body.errors?.[0]?.code).toBe(1436);
		await create(other, { hostname });
	});

	it("refuses a PATCH that breaks a rule, keeping the hostname as it was", async () => {
		const zone = await zoneAt();
		const h = await create(zone, { hostname: unique(), ssl: { method: "txt", wildcard: true } });
		for (const [body, pointer] of [
			[{ ssl: { method: "http" } }, "/ssl/method"],
			[{ ssl: { certificate_authority: "digicert" } }, "/ssl/certificate_authority"],
			[{ hostname: "other.example.com" }, "/hostname"],
		] as const) {
			const res = await call("PATCH", `/zones/${zone}/custom_hostnames/${h.id}`, body);
			expect(res.status, JSON.stringify(body)).toBe(400);
			expect(res.body.errors?.[0]?.source?.pointer).toBe(pointer);
		}
		expect(await get(zone, h.id)).toEqual(h);
	});

	it("answers unknown ids, UUIDs or 32 hex, 404 1436 and malformed ids 7003", async () => {
		const zone = await freshZone();
		for (const unknown of ["0d89c70d-ad9f-4843-b99f-6cc0252067e9", "0123456789abcdef0123456789abcdef"]) {
			for (const method of ["GET", "PATCH", "DELETE"]) {
				const res = await call(
					method,
					`/zones/${zone}/custom_hostnames/${unknown}`,
					method === "PATCH" ? {} : undefined,
				);
				expect(res.status, `${method} ${unknown}`).toBe(404);
				expect(res.body.errors?.[0]?.code).toBe(1436);
			}
		}
		for (const malformed of ["nope", "0d89c70d-ad9f-4843-b99f-6cc0252067e", "0d89c70dad9f4843b99f6cc0252067e9a"]) {
			const res = await call("GET", `/zones/${zone}/custom_hostnames/${malformed}`);
			expect(res.status, malformed).toBe(400);
			expect(res.body.errors?.[0]?.code).toBe(7003);
		}
	});

	it("lists by a UUID id: the one custom hostname, or none", async () => {
		const zone = await freshZone();
		const h = await create(zone, { hostname: `uuid.${crypto.randomUUID().slice(0, 8)}.example.org` });
		const list = (query: string) => call("GET", `/zones/${zone}/custom_hostnames${query}`);
		const none = await list("?id=0d89c70d-ad9f-4843-b99f-6cc0252067e9");
		expect(none.status).toBe(200);
		expect(none.body.result).toEqual([]);
		expect(((await list(`?id=${h.id}`)).body.result as Hostname[]).map((x) => x.id)).toEqual([h.id]);
	});

	it("keeps a custom hostname stored with a 32-hex id reachable by it", async () => {
		const zone = await freshZone();
		const h = await create(zone, { hostname: `legacy.${crypto.randomUUID().slice(0, 8)}.example.org` });
		const legacy = "0123456789abcdef0123456789abcdef";
		// The row as edgezone stored it before it issued UUIDs.
		await runInDurableObject(zoneState(env, zone), (_zone, state) => {
			state.storage.sql.exec(
				"UPDATE custom_hostnames SET id = ?, record = json_set(record, '$.id', ?) WHERE id = ?",
				legacy,
				legacy,
				h.id,
			);
		});
		expect(await get(zone, legacy)).toMatchObject({ id: legacy, hostname: h.hostname });
		const listed = await call("GET", `/zones/${zone}/custom_hostnames?id=${legacy}`);
		expect((listed.body.result as Hostname[]).map((x) => x.id)).toEqual([legacy]);
		expect((await patch(zone, legacy, { custom_metadata: { k: "v" } })).id).toBe(legacy);
		const deleted = await call("DELETE", `/zones/${zone}/custom_hostnames/${legacy}`);
		expect(deleted.body).toEqual({ id: legacy });
	});
});

describe("the fallback origin and the quota", () => {
	it("sets, reads and removes the fallback origin, 404 1414 when none", async () => {
		const zone = await zoneAt();
		const path = `/zones/${zone}/custom_hostnames/fallback_origin`;
		expect((await call("GET", path)).body.errors?.[0]).toMatchObject({ code: 1414 });
		expect((await call("PUT", path, { origin: "bad origin" })).status).toBe(400);
		const set = await call("PUT", path, { origin: "fallback.example.net" });
		expect(set.body.result).toEqual({
			origin: "fallback.example.net",
			status: "pending_deployment",
			errors: [],
			created_at: "2024-06-01T00:00:00.000Z",
			updated_at: "2024-06-01T00:00:00.000Z",
		});
		await advance(zone, 30);
		expect((await call("GET", path)).body.result).toMatchObject({ status: "active" });
		const deleted = await call("DELETE", path);
		expect(deleted.body.result).toMatchObject({ origin: "fallback.example.net", status: "pending_deletion" });
		expect((await call("GET", path)).status).toBe(404);
		expect((await call("DELETE", path)).status).toBe(404);
	});

	it("counts the zone's custom hostnames", async () => {
		const zone = await freshZone();
		await create(zone, { hostname: unique() });
		await create(zone, { hostname: unique() });
		expect((await call("GET", `/zones/${zone}/custom_hostnames/quota`)).body.result).toEqual({
			allocated: 100,
			used: 2,
			exceeded: false,
			hard_cap: 1000,
		});
	});
});

describe("permissions and the registry", () => {
	it("needs SSL and Certificates for writes; read-only credentials read", async () => {
		const zone = await freshZone();
		const read = {
			Authorization: "Bearer test_token_read_only_all_zones_000000000",
			"Content-Type": "application/json",
		};
		expect((await call("GET", `/zones/${zone}/custom_hostnames`, undefined, read)).status).toBe(200);
		expect((await call("POST", `/zones/${zone}/custom_hostnames`, { hostname: unique() }, read)).status).toBe(403);
		const waf = { Authorization: "Bearer test_token_zone_read_waf_edit_0000000000" };
		expect((await call("GET", `/zones/${zone}/custom_hostnames`, undefined, waf)).status).toBe(403);
	});

	it("records which zone holds each hostname, and forgets a deleted zone's", async () => {
		const zone = await freshZone();
		const hostname = unique();
		await create(zone, { hostname });
		const routes = await zoneRegistry(env).edgeRoutes();
		expect(routes.customHostnames).toContainEqual({ hostname, zone_id: zone });
		expect((await call("DELETE", `/zones/${zone}`)).status).toBe(200);
		expect((await zoneRegistry(env).edgeRoutes()).customHostnames.map((r) => r.hostname)).not.toContain(hostname);
	});
});
