/**
 * Cloudflare for SaaS end to end: an active custom hostname reaches the zone's fallback origin, or
 * its own `custom_origin_server`, with the customer's Host, behind the zone's firewall.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../api/http";
import { type Echo, originCount, originPort, originZone, record, visit } from "./helpers";

interface Created {
	id: string;
	ownership_verification: { name: string; value: string };
}

/** A custom hostname of `zone_id`, verified through the emulator's DNS (a customer's domain, held by no zone). */
async function activeHostname(zone_id: string, hostname: string, extra: Record<string, unknown> = {}): Promise<void> {
	const created = await call("POST", `/zones/${zone_id}/custom_hostnames`, { hostname, ...extra });
	expect(created.status, JSON.stringify(created.body)).toBe(200);
	const { ownership_verification: ov } = created.body.result as Created;
	expect((await call("PUT", `/zones/${zone_id}/emulator/dns/${ov.name}`, { txt: [ov.value] })).status).toBe(200);
}

describe("Cloudflare for SaaS", () => {
	it("sends a custom hostname to the fallback origin with the customer's Host, after the zone's rules", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "fallback", "127.0.0.1");
		const origin = await call("PUT", `/zones/${zone_id}/custom_hostnames/fallback_origin`, {
			origin: `fallback.${zone}`,
		});
		expect(origin.status).toBe(200);
		await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ action: "block", filter: { expression: 'http.request.uri.path eq "/saas-blocked"' } },
		]);
		const customer = `shop.${crypto.randomUUID().slice(0, 8)}.customer.test`;
		await activeHostname(zone_id, customer);
		const host = `${customer}:${originPort()}`;
		const res = await visit(`http://${host}/saas`);
		expect(res.status).toBe(200);
		expect((JSON.parse(res.text) as Echo).headers["x-forwarded-host"]).toBe(host);
		expect((await visit(`http://${host}/saas-blocked`)).status).toBe(403);
		expect(await originCount("/saas-blocked")).toBe(0);
	});

	it("sends a custom hostname with a custom_origin_server there instead; a fallback with no record is 530/1016", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "custom", "127.0.0.1");
		await call("PUT", `/zones/${zone_id}/custom_hostnames/fallback_origin`, { origin: `gone.${zone}` });
		const base = `${crypto.randomUUID().slice(0, 8)}.customer.test`;
		await activeHostname(zone_id, `a.${base}`, { custom_origin_server: `custom.${zone}` });
		await activeHostname(zone_id, `b.${base}`);
		expect((await visit(`http://a.${base}:${originPort()}/custom-origin`)).status).toBe(200);
		expect(await originCount("/custom-origin")).toBe(1);
		const unresolved = await visit(`http://b.${base}:${originPort()}/fallback-gone`);
		expect(unresolved.status).toBe(530);
		expect(unresolved.text).toContain("Error 1016");
	});

	it("verifies a custom hostname inside the zone by a TXT record of the DNS records API", async () => {
		const { zone_id, zone } = await originZone();
		const created = await call("POST", `/zones/${zone_id}/custom_hostnames`, { hostname: `tenant.${zone}` });
		expect(created.status, JSON.stringify(created.body)).toBe(200);
		const { id, ownership_verification: ov } = created.body.result as Created;
		expect((await call("GET", `/zones/${zone_id}/custom_hostnames/${id}`)).body.result).toMatchObject({
			status: "pending",
		});
		await record(zone_id, "TXT", ov.name, ov.value, false);
		expect((await call("GET", `/zones/${zone_id}/custom_hostnames/${id}`)).body.result).toMatchObject({
			status: "active",
		});
	});
});
