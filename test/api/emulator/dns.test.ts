/**
 * The simulated DNS (`/zones/{zone_id}/emulator/dns`, zone/dns.ts): CAA, TXT and HTTP tokens per
 * name, per zone; authenticated like the API; bad input refused.
 */
import { describe, expect, it } from "vitest";
import { READ_TOKEN } from "../credentials";
import { call, freshZone } from "../http";

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
});
