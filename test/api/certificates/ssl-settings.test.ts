/** Universal SSL settings (`/ssl/universal/settings`) and Total TLS (`/acm/total_tls`). */
import { describe, expect, it } from "vitest";
import { call } from "../http";
import { allPacks, certsZone, setClock } from "./helpers";

describe("Universal SSL settings", { timeout: 20_000 }, () => {
	it("answer enabled and the CA of the universal certificate in force", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-01-10T00:00:00Z");
		const res = await call("GET", `/zones/${zone.id}/ssl/universal/settings`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual({ enabled: true, certificate_authority: "lets_encrypt" });
	});

	it("re-issue the universal certificate from the CA PATCHed", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-01-10T00:00:00Z");
		const res = await call("PATCH", `/zones/${zone.id}/ssl/universal/settings`, { certificate_authority: "google" });
		expect(res.body.result).toEqual({ enabled: true, certificate_authority: "google" });
		const [universal] = await allPacks(zone.id);
		expect(universal).toMatchObject({ certificate_authority: "google", status: "active" });
		expect(universal?.certificates[0]).toMatchObject({
			issuer: "GoogleTrustServices",
			uploaded_on: "2024-01-10T00:00:00.000Z",
		});
	});

	it("remove the universal pack when disabled, and order a new one when enabled again", async () => {
		const zone = await certsZone();
		await setClock(zone.id, "2024-07-01T00:00:00Z");
		const before = await allPacks(zone.id);
		expect(
			(await call("PATCH", `/zones/${zone.id}/ssl/universal/settings`, { enabled: false })).body.result,
		).toMatchObject({ enabled: false });
		expect(await allPacks(zone.id)).toEqual([]);
		await call("PATCH", `/zones/${zone.id}/ssl/universal/settings`, { enabled: true });
		const [again] = await allPacks(zone.id);
		expect(again).toMatchObject({ type: "universal", status: "initializing" });
		expect(again?.id).not.toBe(before[0]?.id);
	});

	it.each([
		[{ certificate_authority: "ssl_com" }],
		[{ certificate_authority: "digicert" }],
		[{ enabled: "yes" }],
		[{ other: 1 }],
	])("refuse %j with 400 1474", async (body) => {
		const zone = await certsZone();
		const res = await call("PATCH", `/zones/${zone.id}/ssl/universal/settings`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.code).toBe(1474);
	});
});

describe("Total TLS", { timeout: 20_000 }, () => {
	it("is off in a new zone, and keeps its CA choice", async () => {
		const zone = await certsZone();
		expect((await call("GET", `/zones/${zone.id}/acm/total_tls`)).body.result).toEqual({
			enabled: false,
			validity_period: 90,
		});
		const set = await call("POST", `/zones/${zone.id}/acm/total_tls`, {
			enabled: true,
			certificate_authority: "lets_encrypt",
		});
		expect(set.body.result).toEqual({ enabled: true, certificate_authority: "lets_encrypt", validity_period: 90 });
		expect((await call("GET", `/zones/${zone.id}/acm/total_tls`)).body.result).toEqual(set.body.result);
		const bad = await call("POST", `/zones/${zone.id}/acm/total_tls`, {
			enabled: true,
			certificate_authority: "digicert",
		});
		expect(bad.status).toBe(400);
		expect(bad.body.errors?.[0]?.code).toBe(1474);
		expect((await call("POST", `/zones/${zone.id}/acm/total_tls`, {})).status).toBe(400);
	});
});
