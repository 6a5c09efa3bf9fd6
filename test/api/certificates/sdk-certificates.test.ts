/**
 * The certificate endpoints driven by the official `cloudflare` SDK, unchanged, over the Worker's
 * front door: `ssl.certificatePacks.*` (with auto-pagination), `ssl.universal.settings.*`,
 * `acm.totalTLS.*`, `customCertificates.*`, and the SDK's error classes for bad input.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { CERTS } from "../../zone/certificates/fixtures";
import { sdkClient } from "../sdk";
import { certsZone, setClock } from "./helpers";

describe("the cloudflare SDK on certificates", { timeout: 20_000 }, () => {
	it("lists the universal pack, orders, gets, edits and deletes an advanced pack, and reads the quota", async () => {
		const cf = sdkClient();
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		const zone_id = zone.id;
		const first: string[] = [];
		for await (const pack of cf.ssl.certificatePacks.list({ zone_id })) first.push(pack.type);
		expect(first).toEqual(["universal"]);

		const created = await cf.ssl.certificatePacks.create({
			zone_id,
			certificate_authority: "ssl_com",
			hosts: [zone.name, `www.${zone.name}`],
			type: "advanced",
			validation_method: "http",
			validity_days: 14,
			cloudflare_branding: false,
		});
		expect(created).toMatchObject({
			type: "advanced",
			status: "initializing",
			certificate_authority: "ssl_com",
			validity_days: 14,
		});
		expect(created.validation_records?.[0]?.http_url).toContain(`http://${zone.name}/.well-known/pki-validation/`);

		const got = await cf.ssl.certificatePacks.get(created.id, { zone_id });
		expect(got.id).toBe(created.id);
		const edited = await cf.ssl.certificatePacks.edit(created.id, { zone_id, cloudflare_branding: true });
		expect(edited.cloudflare_branding).toBe(true);
		expect(await cf.ssl.certificatePacks.quota.get({ zone_id })).toEqual({ advanced: { allocated: 100, used: 1 } });

		const all: string[] = [];
		for await (const pack of cf.ssl.certificatePacks.list({ zone_id, status: "all", per_page: 5 })) all.push(pack.id);
		expect(all).toHaveLength(2);

		expect(await cf.ssl.certificatePacks.delete(created.id, { zone_id })).toEqual({ id: created.id });
		await expect(cf.ssl.certificatePacks.get(created.id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("refuses an order with a validity the CA does not issue as a BadRequestError", async () => {
		const cf = sdkClient();
		const zone = await certsZone();
		const order = cf.ssl.certificatePacks.create({
			zone_id: zone.id,
			certificate_authority: "lets_encrypt",
			hosts: [zone.name],
			type: "advanced",
			validation_method: "txt",
			validity_days: 14,
		});
		await expect(order).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
		await expect(order).rejects.toMatchObject({ errors: [{ code: 1470, source: { pointer: "/validity_days" } }] });
	});

	it("reads and edits Universal SSL settings and Total TLS", async () => {
		const cf = sdkClient();
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		expect(await cf.ssl.universal.settings.get({ zone_id: zone.id })).toEqual({
			enabled: true,
			certificate_authority: "google",
		});
		expect(await cf.ssl.universal.settings.edit({ zone_id: zone.id, enabled: false })).toMatchObject({
			enabled: false,
		});
		expect(await cf.acm.totalTLS.get({ zone_id: zone.id })).toEqual({ enabled: false, validity_period: 90 });
		expect(await cf.acm.totalTLS.update({ zone_id: zone.id, enabled: true, certificate_authority: "google" })).toEqual({
			enabled: true,
			certificate_authority: "google",
			validity_period: 90,
		});
		expect(await cf.acm.totalTLS.edit({ zone_id: zone.id, enabled: false })).toEqual({
			enabled: false,
			validity_period: 90,
		});
	});

	it("uploads, lists, gets, edits and deletes a custom certificate", async () => {
		const cf = sdkClient();
		const zone = await certsZone();
		const zone_id = zone.id;
		const created = await cf.customCertificates.create({
			zone_id,
			certificate: CERTS.ecdsaValid.certificate,
			private_key: CERTS.ecdsaValid.key,
			bundle_method: "optimal",
			geo_restrictions: { label: "us" },
		});
		expect(created).toMatchObject({
			zone_id,
			hosts: ["*.certs.example", "www.certs.example"],
			bundle_method: "optimal",
		});
		const listed: string[] = [];
		for await (const cert of cf.customCertificates.list({ zone_id })) listed.push(cert.id);
		expect(listed).toEqual([created.id]);
		expect(await cf.customCertificates.get(created.id, { zone_id })).toEqual(created);
		const edited = await cf.customCertificates.edit(created.id, {
			zone_id,
			bundle_method: "force",
			policy: "(country: US)",
		});
		expect(edited).toMatchObject({ id: created.id, bundle_method: "force", policy_restrictions: "(country: US)" });
		expect(await cf.customCertificates.delete(created.id, { zone_id })).toEqual({ id: created.id });
	});

	it("refuses a mismatched key and a malformed certificate as BadRequestErrors with Cloudflare's codes", async () => {
		const cf = sdkClient();
		const zone = await certsZone();
		const mismatch = cf.customCertificates.create({
			zone_id: zone.id,
			certificate: CERTS.rsaR3.certificate,
			private_key: CERTS.ecdsaValid.key,
		});
		await expect(mismatch).rejects.toMatchObject({ status: 400, errors: [{ code: 2200 }] });
		const malformed = cf.customCertificates.create({
			zone_id: zone.id,
			certificate: "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----",
			private_key: CERTS.rsaR3.key,
		});
		await expect(malformed).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
		await expect(malformed).rejects.toMatchObject({ errors: [{ code: 1002 }] });
		const listed = [];
		for await (const cert of cf.customCertificates.list({ zone_id: zone.id })) listed.push(cert);
		expect(listed).toEqual([]);
	});
});
