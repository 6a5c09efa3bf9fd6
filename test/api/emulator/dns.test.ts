/**
 * The simulated DNS (`/zones/{zone_id}/emulator/dns`, zone/dns.ts): CAA, TXT and HTTP tokens per
 * name, per zone; authenticated like the API; bad input refused; a name any zone holds refused,
 * as that zone's DNS records answer for it.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, READ_TOKEN, SCOPED_TOKEN } from "../credentials";
import { call, freshZone } from "../http";

/** Headers of the token that reaches the default zone (`example.com`) only. */
const SCOPED = { Authorization: `Bearer ${SCOPED_TOKEN}`, "Content-Type": "application/json" };
const DEFAULT_DNS = `/zones/${DEFAULT_ZONE_ID}/emulator/dns`;

async function zoneNamed(name: string): Promise<string> {
	const res = await call("POST", "/zones", { name, account: {} });
	expect(res.status).toBe(200);
	return (res.body.result as { id: string }).id;
}

describe("the simulated DNS", () => {
	it("puts, reads, lists and deletes the records of a name, lower-cased", async () => {
		const zone = await freshZone();
		const put = await call("PUT", `/zones/${zone}/emulator/dns/_ACME-challenge.App.Customer.test`, {
			caa: ["letsencrypt.org", { tag: "issuewild", value: "pki.goog" }],
			txt: ["token-1", "token-2"],
			http: { "/.well-known/pki-validation/a.txt": "body" },
		});
		expect(put.status).toBe(200);
		const entry = {
			name: "_acme-challenge.app.customer.test",
			caa: [
				{ tag: "issue", value: "letsencrypt.org" },
				{ tag: "issuewild", value: "pki.goog" },
			],
			txt: ["token-1", "token-2"],
			http: { "/.well-known/pki-validation/a.txt": "body" },
		};
		expect(put.body.result).toEqual(entry);
		expect((await call("GET", `/zones/${zone}/emulator/dns/_acme-challenge.app.customer.test`)).body.result).toEqual(
			entry,
		);
		expect((await call("GET", `/zones/${zone}/emulator/dns`)).body.result).toEqual([entry]);
		expect((await call("GET", `/zones/${await freshZone()}/emulator/dns`)).body.result).toEqual([]);
		const replaced = await call("PUT", `/zones/${zone}/emulator/dns/_acme-challenge.app.customer.test`, { txt: ["x"] });
		expect(replaced.body.result).toEqual({ ...entry, caa: [], txt: ["x"], http: {} });
		const deleted = await call("DELETE", `/zones/${zone}/emulator/dns/_acme-challenge.app.customer.test`);
		expect(deleted.body.result).toEqual({ name: "_acme-challenge.app.customer.test", deleted: true });
		expect((await call("GET", `/zones/${zone}/emulator/dns`)).body.result).toEqual([]);
		expect((await call("DELETE", `/zones/${zone}/emulator/dns/nothing.customer.test`)).body.result).toMatchObject({
			deleted: false,
		});
	});

	it.each([
		["a bad name", "bad name.example.com", { txt: [] }, "/name"],
		["a wildcard name", "*.example.com", { txt: [] }, "/name"],
		["an unknown field", "a.customer.test", { aaaa: ["::1"] }, "/aaaa"],
		["a long TXT value", "a.customer.test", { txt: ["x".repeat(256)] }, "/txt/0"],
		["an unknown CAA tag", "a.customer.test", { caa: [{ tag: "issuemail", value: "x" }] }, "/caa/0"],
		["an HTTP path without /", "a.customer.test", { http: { "well-known": "x" } }, "/http/well-known"],
		["too many TXT values", "a.customer.test", { txt: Array.from({ length: 21 }, (_, i) => `v${i}`) }, "/txt"],
	])("refuses %s with 400 9400, storing nothing", async (_, name, body, pointer) => {
		const zone = await freshZone();
		const res = await call("PUT", `/zones/${zone}/emulator/dns/${encodeURIComponent(name)}`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 9400, source: { pointer } });
		expect((await call("GET", `/zones/${zone}/emulator/dns`)).body.result).toEqual([]);
	});

	it("is authenticated and permission-checked like the API", async () => {
		const zone = await freshZone();
		expect((await call("GET", `/zones/${zone}/emulator/dns`, undefined, {})).body.errors?.[0]?.code).toBe(9106);
		const readOnly = { Authorization: `Bearer ${READ_TOKEN}`, "Content-Type": "application/json" };
		expect((await call("GET", `/zones/${zone}/emulator/dns`, undefined, readOnly)).status).toBe(200);
		expect((await call("PUT", `/zones/${zone}/emulator/dns/a.example.com`, { txt: ["x"] }, readOnly)).status).toBe(403);
	});

	it.each([
		["the zone's own name", ""],
		["an ownership name under it", "_cf-custom-hostname."],
		["a DCV name under it", "_acme-challenge.www."],
	])(
		"refuses %s with 400 9401 naming the zone's /dns_records, whichever zone writes, storing nothing",
		async (_, prefix) => {
			const held = `tenant-${crypto.randomUUID().slice(0, 8)}.net`;
			const heldId = await zoneNamed(held);
			const name = `${prefix}${held}`;
			const own = `/zones/${heldId}/emulator/dns`;
			// Neither another zone nor the zone itself: CAA too lives in the zone's DNS records now.
			for (const dns of [DEFAULT_DNS, own]) {
				for (const body of [{ txt: ["claim"], caa: ["pki.goog"] }, { caa: ["pki.goog"] }]) {
					const put = await call("PUT", `${dns}/${name}`, body);
					expect(put.status).toBe(400);
					expect(put.body.success).toBe(false);
					expect(put.body.errors?.[0]).toMatchObject({ code: 9401, source: { pointer: "/name" } });
					expect(put.body.errors?.[0]?.message).toContain(`/zones/${heldId}/dns_records`);
					expect((await call("GET", `${dns}/${name}`)).body.result).toEqual({ name, caa: [], txt: [], http: {} });
				}
			}
		},
	);

	it("takes the nearest zone as the one that answers, and still serves names no zone holds", async () => {
		// The default zone is example.com; a zone below it answers for its own subtree.
		const child = `sub-${crypto.randomUUID().slice(0, 8)}.example.com`;
		const childId = await zoneNamed(child);
		const inChild = await call("PUT", `${DEFAULT_DNS}/_cf-custom-hostname.app.${child}`, { txt: ["x"] });
		expect(inChild.body.errors?.[0]?.message).toContain(`/zones/${childId}/dns_records`);
		const inParent = await call("PUT", `/zones/${childId}/emulator/dns/_acme-challenge.www.example.com`, {
			txt: ["x"],
		});
		expect(inParent.body.errors?.[0]?.message).toContain(`/zones/${DEFAULT_ZONE_ID}/dns_records`);
		// A customer's own domain, under no zone, is the simulated DNS's, for any zone and credential.
		const outside = `_acme-challenge.shop-${crypto.randomUUID().slice(0, 8)}.customer.test`;
		expect((await call("PUT", `${DEFAULT_DNS}/${outside}`, { txt: ["x"] }, SCOPED)).status).toBe(200);
		expect((await call("PUT", `/zones/${childId}/emulator/dns/${outside}`, { txt: ["y"] })).status).toBe(200);
		expect((await call("DELETE", `${DEFAULT_DNS}/${outside}`, undefined, SCOPED)).status).toBe(200);
	});
});
