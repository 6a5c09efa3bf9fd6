/**
 * Host routing of custom hostnames: an active custom hostname (ownership verified) is served by
 * its SaaS zone's pipeline, so that zone's firewall rules apply; a pending one, a deleted one,
 * hosts around a wildcard and names another zone holds are not.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../api/http";

const RW = "Bearer test-rw";

/** A SaaS zone with a firewall rule blocking the path `/blocked`. */
async function saasZone(): Promise<string> {
	const res = await call("POST", "/zones", {
		name: `saas-${crypto.randomUUID().slice(0, 8)}.example.net`,
		account: {},
	});
	expect(res.status).toBe(200);
	const zone = (res.body.result as { id: string }).id;
	const rule = await call("POST", `/zones/${zone}/firewall/rules`, [
		{ action: "block", filter: { expression: 'http.request.uri.path eq "/blocked"' } },
	]);
	expect(rule.status).toBe(200);
	return zone;
}

async function statusOf(host: string, path = "/blocked"): Promise<number> {
	const response = await exports.default.fetch(`http://${host}${path}`, { headers: { authorization: RW } });
	await response.arrayBuffer();
	return response.status;
}

interface Created {
	id: string;
	ownership_verification: { name: string; value: string };
}

async function createHostname(zone: string, hostname: string): Promise<Created> {
	const res = await call("POST", `/zones/${zone}/custom_hostnames`, { hostname, ssl: { method: "txt" } });
	expect(res.status).toBe(200);
	return res.body.result as Created;
}

const verify = async (zone: string, h: Created) =>
	expect(
		(
			await call("PUT", `/zones/${zone}/emulator/dns/${h.ownership_verification.name}`, {
				txt: [h.ownership_verification.value],
			})
		).status,
	).toBe(200);

/** Answers `h`'s ownership token with a TXT record of `holder`, the zone holding its name. */
const verifyByRecord = async (holder: string, h: Created) => {
	const { name, value } = h.ownership_verification;
	const res = await call("POST", `/zones/${holder}/dns_records`, { type: "TXT", name, content: value });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
};

describe("custom hostname routing", () => {
	it("serves an active custom hostname from its zone: the zone's firewall rule applies", async () => {
		const zone = await saasZone();
		const host = `shop.${crypto.randomUUID().slice(0, 8)}.customer.test`;
		// Unknown host: the default zone, which has no such rule (the bucket answers 404).
		expect(await statusOf(host)).toBe(404);
		const h = await createHostname(zone, host);
		expect(await statusOf(host)).toBe(404); // pending: not routed yet
		await verify(zone, h);
		expect(await statusOf(host)).toBe(403);
		expect(await statusOf(host, "/open")).toBe(404);
		expect((await call("DELETE", `/zones/${zone}/custom_hostnames/${h.id}`)).status).toBe(200);
		expect(await statusOf(host)).toBe(404);
	});

	it("routes one label under an active wildcard custom hostname, the exact hostname winning", async () => {
		const zone = await saasZone();
		const other = await saasZone();
		const base = `${crypto.randomUUID().slice(0, 8)}.tenant.test`;
		await verify(zone, await createHostname(zone, `*.${base}`));
		expect(await statusOf(`a.${base}`)).toBe(403);
		expect(await statusOf(base)).toBe(404);
		expect(await statusOf(`a.b.${base}`)).toBe(404);
		// The exact custom hostname in another zone wins; that zone blocks nothing at /open.
		const exact = await createHostname(other, `www.${base}`);
		await verify(other, exact);
		await call("POST", `/zones/${other}/firewall/rules`, [
			{ action: "block", filter: { expression: 'http.request.uri.path eq "/only-other"' } },
		]);
		expect(await statusOf(`www.${base}`, "/only-other")).toBe(403);
		expect(await statusOf(`a.${base}`, "/only-other")).toBe(404);
	});

	it("leaves a zone's own names to that zone, even against another zone's verified custom hostnames", async () => {
		const customer = `cust-${crypto.randomUUID().slice(0, 8)}.example.org`;
		const own = await call("POST", "/zones", { name: customer, account: {} });
		expect(own.status).toBe(200);
		const customerZone = (own.body.result as { id: string }).id;
		const zone = await saasZone();
		// Verified by the customer zone's own DNS records, which the SaaS zone reads as any
		// resolver would: the hostnames go active...
		const exact = await createHostname(zone, `app.${customer}`);
		const wildcard = await createHostname(zone, `*.${customer}`);
		await verifyByRecord(customerZone, exact);
		await verifyByRecord(customerZone, wildcard);
		for (const h of [exact, wildcard])
			expect((await call("GET", `/zones/${zone}/custom_hostnames/${h.id}`)).body.result).toMatchObject({
				status: "active",
			});
		// ...yet the customer's zone, which blocks nothing, still serves its names: no SaaS rule runs.
		for (const host of [customer, `app.${customer}`, `www.${customer}`]) expect(await statusOf(host), host).toBe(404);
	});
});
