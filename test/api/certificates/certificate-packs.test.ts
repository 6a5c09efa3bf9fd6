/**
 * Certificate packs (`/zones/{zone_id}/ssl/certificate_packs`): the universal
 * pack a zone starts with, advanced orders and their checks, the lifecycle on the zone's clock,
 * status filter, pages, quota, PATCH and DELETE.
 */
import { describe, expect, it } from "vitest";
import { READ_TOKEN } from "../credentials";
import { call } from "../http";
import { allPacks, certsZone, order, type Pack, setClock } from "./helpers";

const packs = (zone: string, rest = "") => `/zones/${zone}/ssl/certificate_packs${rest}`;

describe("the universal pack", { timeout: 20_000 }, () => {
	it("is there in a new zone, active, for the zone and its wildcard, with an ECDSA and an RSA certificate", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-03-01T00:00:00Z");
		const res = await call("GET", packs(zone.id));
		expect(res.status).toBe(200);
		expect(res.body.result_info).toMatchObject({ page: 1, count: 1, total_count: 1 });
		const [pack] = res.body.result as Pack[];
		expect(pack).toMatchObject({
			type: "universal",
			hosts: [zone.name, `*.${zone.name}`],
			status: "active",
			certificate_authority: "lets_encrypt",
			validity_days: 90,
			validation_method: "txt",
			cloudflare_branding: false,
			validation_records: [],
		});
		expect(pack?.id).toMatch(/^[0-9a-f-]{36}$/);
		expect(pack?.certificates.map((c) => c.signature)).toEqual(["ECDSAWithSHA256", "SHA256WithRSA"]);
		expect(pack?.certificates[0]).toMatchObject({
			status: "active",
			issuer: "LetsEncrypt",
			hosts: [zone.name, `*.${zone.name}`],
			uploaded_on: "2024-03-01T00:00:00.000Z",
			expires_on: "2024-05-30T00:00:00.000Z",
			zone_id: zone.id,
		});
		expect(pack?.primary_certificate).toBe(pack?.certificates[0]?.id);
	});

	it("renews on the clock, 30 days before expiry, and answers the same ids on every read", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-01-01T00:00:00Z");
		const first = (await allPacks(zone.id))[0];
		expect((await allPacks(zone.id))[0]?.certificates[0]?.id).toBe(first?.certificates[0]?.id);
		await setClock(zone.id, "2024-03-01T12:00:00Z");
		const renewed = (await allPacks(zone.id))[0];
		expect(renewed?.id).toBe(first?.id);
		expect(renewed?.certificates[0]).toMatchObject({
			uploaded_on: "2024-03-01T00:00:00.000Z",
			expires_on: "2024-05-30T00:00:00.000Z",
		});
		expect(renewed?.certificates[0]?.id).not.toBe(first?.certificates[0]?.id);
	});

	it("moves back to a clock set before its creation, so a replay may start at any date", async () => {
		const zone = await certsZone();
		const now = (await allPacks(zone.id))[0];
		expect(now?.certificate_authority).toBe("google");
		await setClock(zone.id, "2024-01-01T00:00:00Z");
		const [replayed] = await allPacks(zone.id);
		expect(replayed).toMatchObject({ id: now?.id, status: "active", certificate_authority: "lets_encrypt" });
		expect(replayed?.certificates[0]?.uploaded_on).toBe("2024-01-01T00:00:00.000Z");
	});

	it("cannot be deleted or patched through the packs API", async () => {
		const zone = await certsZone();
		const [universal] = await allPacks(zone.id);
		const del = await call("DELETE", packs(zone.id, `/${universal?.id}`));
		expect(del.status).toBe(400);
		expect(del.body.errors?.[0]?.code).toBe(1472);
		expect(del.body.errors?.[0]?.message).toContain("universal/settings");
		expect((await call("PATCH", packs(zone.id, `/${universal?.id}`), {})).status).toBe(400);
		expect(await allPacks(zone.id)).toHaveLength(1);
	});
});

describe("ordering an advanced pack", { timeout: 20_000 }, () => {
	it("goes initializing -> pending_validation -> pending_issuance -> pending_deployment -> active on the clock", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		const res = await call("POST", packs(zone.id, "/order"), order(zone.name, { validity_days: 30 }));
		expect(res.status).toBe(200);
		const pack = res.body.result as Pack;
		expect(pack).toMatchObject({
			type: "advanced",
			status: "initializing",
			hosts: [zone.name, `*.${zone.name}`],
			certificate_authority: "google",
			validity_days: 30,
			validation_method: "txt",
			certificates: [],
		});
		expect(pack.validation_records?.[0]).toMatchObject({ txt_name: `_acme-challenge.${zone.name}`, status: "pending" });
		const seen: string[] = [];
		for (const at of ["00:00:30", "00:02:00", "00:06:00", "00:11:00", "00:15:00"]) {
			await setClock(zone.id, `2024-07-01T${at}Z`);
			seen.push(((await call("GET", packs(zone.id, `/${pack.id}`))).body.result as Pack).status);
		}
		expect(seen).toEqual(["initializing", "pending_validation", "pending_issuance", "pending_deployment", "active"]);
		const active = (await call("GET", packs(zone.id, `/${pack.id}`))).body.result as Pack;
		expect(active.validation_records).toEqual([]);
		expect(active.certificates[1]).toMatchObject({
			issuer: "GoogleTrustServices",
			uploaded_on: "2024-07-01T00:15:00.000Z",
			expires_on: "2024-07-31T00:15:00.000Z",
		});
	});

	it("lists only active packs without status=all, every pack with it", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		await call("POST", packs(zone.id, "/order"), order(zone.name));
		const active = await call("GET", packs(zone.id));
		expect((active.body.result as Pack[]).map((p) => p.type)).toEqual(["universal"]);
		expect((await allPacks(zone.id)).map((p) => p.type)).toEqual(["universal", "advanced"]);
		expect((await call("GET", packs(zone.id, "?deploy=staging&status=all"))).body.result).toEqual([]);
	});

	it("pages with result_info and answers [] past the last page", async () => {
		const zone = await certsZone();
		for (let i = 0; i < 6; i++)
			await call("POST", packs(zone.id, "/order"), order(zone.name, { hosts: [zone.name, `h${i}.${zone.name}`] }));
		const first = await call("GET", packs(zone.id, "?status=all&per_page=5"));
		expect(first.body.result_info).toMatchObject({ page: 1, per_page: 5, count: 5, total_count: 7, total_pages: 2 });
		const second = await call("GET", packs(zone.id, "?status=all&per_page=5&page=2"));
		expect((second.body.result as Pack[]).length).toBe(2);
		expect((await call("GET", packs(zone.id, "?status=all&per_page=5&page=3"))).body.result).toEqual([]);
	});

	it.each([
		["an unknown CA", { certificate_authority: "digicert" }, "/certificate_authority"],
		[
			"a validity Let's Encrypt does not issue",
			{ certificate_authority: "lets_encrypt", validity_days: 30 },
			"/validity_days",
		],
		["a validity Google does not issue", { validity_days: 365 }, "/validity_days"],
		["SSL.com's Enterprise-only year", { certificate_authority: "ssl_com", validity_days: 365 }, "/validity_days"],
		["a validity no CA issues", { validity_days: 60 }, "/validity_days"],
		["HTTP validation of a wildcard", { validation_method: "http" }, "/validation_method"],
		["no hosts", { hosts: [] }, "/hosts"],
		["51 hosts", { hosts: Array.from({ length: 51 }, (_, i) => `h${i}.example.com`) }, "/hosts"],
		["a type other than advanced", { type: "universal" }, "/type"],
		["an unknown field", { priority: 1 }, "/priority"],
		["a bad host name", { hosts: ["bad host"] }, "/hosts/0"],
	])("refuses %s with 400 1470 at the field, ordering nothing", async (_, overrides, pointer) => {
		const zone = await certsZone();
		const res = await call("POST", packs(zone.id, "/order"), order(zone.name, overrides));
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 1470, source: { pointer } });
		expect(await allPacks(zone.id)).toHaveLength(1);
	});

	it("refuses hosts outside the zone and an order without the apex", async () => {
		const zone = await certsZone();
		const outside = await call(
			"POST",
			packs(zone.id, "/order"),
			order(zone.name, { hosts: [zone.name, "www.example.org"] }),
		);
		expect(outside.status).toBe(400);
		expect(outside.body.errors?.[0]).toMatchObject({ code: 1470, source: { pointer: "/hosts/1" } });
		const noApex = await call("POST", packs(zone.id, "/order"), order(zone.name, { hosts: [`www.${zone.name}`] }));
		expect(noApex.body.errors?.[0]?.message).toContain("apex");
		expect(await allPacks(zone.id)).toHaveLength(1);
	});

	it("counts the quota, restarts validation on PATCH and deletes", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		const pack = (await call("POST", packs(zone.id, "/order"), order(zone.name))).body.result as Pack;
		expect((await call("GET", packs(zone.id, "/quota"))).body.result).toEqual({
			advanced: { allocated: 100, used: 1 },
		});
		await setClock(zone.id, "2024-07-02T00:00:00Z");
		const patched = await call("PATCH", packs(zone.id, `/${pack.id}`), { cloudflare_branding: true });
		expect(patched.body.result).toMatchObject({ id: pack.id, status: "initializing", cloudflare_branding: true });
		const deleted = await call("DELETE", packs(zone.id, `/${pack.id}`));
		expect(deleted.body.result).toEqual({ id: pack.id });
		expect((await call("GET", packs(zone.id, `/${pack.id}`))).status).toBe(404);
		expect((await call("GET", packs(zone.id, "/quota"))).body.result).toEqual({
			advanced: { allocated: 100, used: 0 },
		});
	});

	it("answers 7003 for a malformed pack id and 404 1471 for an unknown one", async () => {
		const zone = await certsZone();
		expect((await call("GET", packs(zone.id, "/not-a-uuid"))).body.errors?.[0]?.code).toBe(7003);
		const unknown = await call("GET", packs(zone.id, `/${crypto.randomUUID()}`));
		expect(unknown.status).toBe(404);
		expect(unknown.body.errors?.[0]?.code).toBe(1471);
	});

	it("lets read-only credentials list but not order", async () => {
		const zone = await certsZone();
		const headers = { Authorization: `Bearer ${READ_TOKEN}`, "Content-Type": "application/json" };
		expect((await call("GET", packs(zone.id), undefined, headers)).status).toBe(200);
		expect((await call("POST", packs(zone.id, "/order"), order(zone.name), headers)).status).toBe(403);
	});
});
