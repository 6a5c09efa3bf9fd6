/**
 * The simulated DNS (`/zones/{zone_id}/emulator/dns`, zone/dns.ts): CAA, TXT and HTTP tokens per
 * name, per zone; authenticated like the API; bad input refused; a name another zone holds
 * written only by a credential that reaches that zone.
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
		const put = await call("PUT", `/zones/${zone}/emulator/dns/_ACME-challenge.App.Example.com`, {
			caa: ["letsencrypt.org", { tag: "issuewild", value: "pki.goog" }],
			txt: ["token-1", "token-2"],
			http: { "/.well-known/pki-validation/a.txt": "body" },
		});
		expect(put.status).toBe(200);
		const entry = {
			name: "_acme-challenge.app.example.com",
			caa: [
				{ tag: "issue", value: "letsencrypt.org" },
				{ tag: "issuewild", value: "pki.goog" },
			],
			txt: ["token-1", "token-2"],
			http: { "/.well-known/pki-validation/a.txt": "body" },
		};
		expect(put.body.result).toEqual(entry);
		expect((await call("GET", `/zones/${zone}/emulator/dns/_acme-challenge.app.example.com`)).body.result).toEqual(
			entry,
		);
		expect((await call("GET", `/zones/${zone}/emulator/dns`)).body.result).toEqual([entry]);
		expect((await call("GET", `/zones/${await freshZone()}/emulator/dns`)).body.result).toEqual([]);
		const replaced = await call("PUT", `/zones/${zone}/emulator/dns/_acme-challenge.app.example.com`, { txt: ["x"] });
		expect(replaced.body.result).toEqual({ ...entry, caa: [], txt: ["x"], http: {} });
		const deleted = await call("DELETE", `/zones/${zone}/emulator/dns/_acme-challenge.app.example.com`);
		expect(deleted.body.result).toEqual({ name: "_acme-challenge.app.example.com", deleted: true });
		expect((await call("GET", `/zones/${zone}/emulator/dns`)).body.result).toEqual([]);
		expect((await call("DELETE", `/zones/${zone}/emulator/dns/nothing.example.com`)).body.result).toMatchObject({
			deleted: false,
		});
	});

	it.each([
		["a bad name", "bad name.example.com", { txt: [] }, "/name"],
		["a wildcard name", "*.example.com", { txt: [] }, "/name"],
		["an unknown field", "a.example.com", { aaaa: ["::1"] }, "/aaaa"],
		["a long TXT value", "a.example.com", { txt: ["x".repeat(256)] }, "/txt/0"],
		["an unknown CAA tag", "a.example.com", { caa: [{ tag: "issuemail", value: "x" }] }, "/caa/0"],
		["an HTTP path without /", "a.example.com", { http: { "well-known": "x" } }, "/http/well-known"],
		["too many TXT values", "a.example.com", { txt: Array.from({ length: 21 }, (_, i) => `v${i}`) }, "/txt"],
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
		["the other zone's own name", ""],
		["an ownership name under it", "_cf-custom-hostname."],
		["a DCV name under it", "_acme-challenge.www."],
	])("refuses %s to a credential that does not reach that zone, with 403 10000, storing nothing", async (_, prefix) => {
		const other = `tenant-${crypto.randomUUID().slice(0, 8)}.net`;
		await zoneNamed(other);
		const name = `${prefix}${other}`;
		const put = await call("PUT", `${DEFAULT_DNS}/${name}`, { txt: ["claim"], caa: ["pki.goog"] }, SCOPED);
		expect(put.status).toBe(403);
		expect(put.body.errors?.[0]).toMatchObject({ code: 10000, source: { pointer: "/name" } });
		expect(put.body.errors?.[0]?.message).toContain(`in the zone ${other}`);
		const del = await call("DELETE", `${DEFAULT_DNS}/${name}`, undefined, SCOPED);
		expect(del.status).toBe(403);
		expect((await call("GET", `${DEFAULT_DNS}/${name}`, undefined, SCOPED)).body.result).toEqual({
			name,
			caa: [],
			txt: [],
			http: {},
		});
	});

	it("takes the nearest zone as the one that answers: a child zone's names are not its parent's to write", async () => {
		// The default zone is example.com; a zone below it is authoritative for its own subtree.
		const child = `sub-${crypto.randomUUID().slice(0, 8)}.example.com`;
		const childId = await zoneNamed(child);
		const name = `_cf-custom-hostname.app.${child}`;
		expect((await call("PUT", `${DEFAULT_DNS}/${name}`, { txt: ["x"] }, SCOPED)).status).toBe(403);
		// Names of the writer's own zone, and names under no zone (a customer's own domain), stay writable.
		const own = `_acme-challenge.www-${crypto.randomUUID().slice(0, 8)}.example.com`;
		expect((await call("PUT", `${DEFAULT_DNS}/${own}`, { txt: ["x"] }, SCOPED)).status).toBe(200);
		expect((await call("DELETE", `${DEFAULT_DNS}/${own}`, undefined, SCOPED)).status).toBe(200);
		const outside = `_acme-challenge.shop-${crypto.randomUUID().slice(0, 8)}.customer.test`;
		expect((await call("PUT", `${DEFAULT_DNS}/${outside}`, { txt: ["x"] }, SCOPED)).status).toBe(200);
		// The child zone writes its own names, and a credential reaching both zones may write them anywhere.
		expect((await call("PUT", `/zones/${childId}/emulator/dns/${name}`, { txt: ["x"] }, SCOPED)).status).toBe(403);
		expect((await call("PUT", `/zones/${childId}/emulator/dns/${name}`, { txt: ["x"] })).status).toBe(200);
		const written = await call("PUT", `${DEFAULT_DNS}/${name}`, { txt: ["y"] });
		expect(written.status).toBe(200);
		expect(written.body.result).toMatchObject({ name, txt: ["y"] });
	});
});
