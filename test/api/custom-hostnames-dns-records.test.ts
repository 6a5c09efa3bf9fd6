/**
 * Which DNS custom hostname validation reads (`zone/dns.ts`, `zone/zone-answers.ts`): for a name a
 * zone of this edgezone holds, that zone's DNS records (`/dns_records`), even when another zone
 * validates; for a name no zone holds, the emulator DNS (`/emulator/dns`).
 */
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";

interface Hostname {
	id: string;
	status: string;
	ownership_verification: { name: string; value: string };
	ssl?: {
		status: string;
		certificate_authority?: string;
		validation_records?: { txt_name?: string; txt_value?: string }[];
		validation_errors?: { message: string }[];
	};
}

/** A fresh zone with its clock frozen at 2024-06-01, and its name. */
async function zoneAt(): Promise<{ id: string; name: string }> {
	const id = await freshZone();
	expect((await call("PUT", `/zones/${id}/emulator/clock`, { now: "2024-06-01T00:00:00Z", frozen: true })).status).toBe(
		200,
	);
	return { id, name: ((await call("GET", `/zones/${id}`)).body.result as { name: string }).name };
}

async function create(zone: string, hostname: string, authority?: string): Promise<Hostname> {
	const ssl = { method: "txt", ...(authority === undefined ? {} : { certificate_authority: authority }) };
	const res = await call("POST", `/zones/${zone}/custom_hostnames`, { hostname, ssl });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body.result as Hostname;
}

async function get(zone: string, id: string): Promise<Hostname> {
	const res = await call("GET", `/zones/${zone}/custom_hostnames/${id}`);
	expect(res.status).toBe(200);
	return res.body.result as Hostname;
}

/** Creates a CAA record `0 issue "<value>"` at `name` in `zone`; answers its id. */
async function caaRecord(zone: string, name: string, value: string): Promise<string> {
	const data = { flags: 0, tag: "issue", value };
	const res = await call("POST", `/zones/${zone}/dns_records`, { type: "CAA", name, data });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as { id: string }).id;
}

async function txtRecord(zone: string, name: string, content: string): Promise<void> {
	const res = await call("POST", `/zones/${zone}/dns_records`, { type: "TXT", name, content });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("the DNS custom hostnames are validated by", () => {
	it("is the zone's own DNS records for a name inside it: ownership and the certificate's TXT", async () => {
		const zone = await zoneAt();
		const h = await create(zone.id, `shop.${zone.name}`);
		expect(h.status).toBe("pending");
		await txtRecord(zone.id, h.ownership_verification.name, h.ownership_verification.value);
		for (const record of h.ssl?.validation_records ?? [])
			await txtRecord(zone.id, record.txt_name ?? "", record.txt_value ?? "");
		expect((await get(zone.id, h.id)).status).toBe("active");
		await call("POST", `/zones/${zone.id}/emulator/clock/advance`, { seconds: 86_400 });
		expect((await get(zone.id, h.id)).ssl?.status).toBe("active");
	});

	it("is another zone's DNS records for a name that zone holds, and no emulator entry for it", async () => {
		const saas = await zoneAt();
		const customer = `cust-${crypto.randomUUID().slice(0, 8)}.example.org`;
		const h = await create(saas.id, `app.${customer}`);
		// Written while no zone held the name: the emulator DNS took it then...
		const { name, value } = h.ownership_verification;
		expect((await call("PUT", `/zones/${saas.id}/emulator/dns/${name}`, { txt: [value] })).status).toBe(200);
		// ...but once the customer's zone exists, its records answer, and it has none yet.
		const created = await call("POST", "/zones", { name: customer, account: {} });
		expect(created.status).toBe(200);
		const customerZone = (created.body.result as { id: string }).id;
		expect((await get(saas.id, h.id)).status).toBe("pending");
		// The customer's record, on its own zone's (unfrozen, later) clock, verifies the SaaS zone's hostname.
		await txtRecord(customerZone, name, value);
		expect((await get(saas.id, h.id)).status).toBe("active");
		const listed = await call("GET", `/zones/${saas.id}/custom_hostnames?hostname=app.${customer}`);
		expect(listed.body.result).toMatchObject([{ id: h.id, status: "active" }]);
	});

	it("is the emulator DNS for a name no zone holds (a SaaS customer's own DNS)", async () => {
		const zone = await zoneAt();
		const h = await create(zone.id, `shop.c${crypto.randomUUID().slice(0, 8)}.customer.test`);
		const { name, value } = h.ownership_verification;
		// A record of the zone under another name holds nothing for it: the name is outside the zone.
		const outside = await call("POST", `/zones/${zone.id}/dns_records`, { type: "TXT", name, content: value });
		expect(outside.status).toBe(200);
		expect((await get(zone.id, h.id)).status).toBe("pending");
		expect((await call("PUT", `/zones/${zone.id}/emulator/dns/${name}`, { txt: [value] })).status).toBe(200);
		expect((await get(zone.id, h.id)).status).toBe("active");
	});

	it("is the zone's own CAA records for a name inside it (RFC 8659 climbing to the apex), dated by their removal", async () => {
		const zone = await zoneAt();
		const caa = await caaRecord(zone.id, "@", "letsencrypt.org");
		const h = await create(zone.id, `shop.${zone.name}`, "google");
		await txtRecord(zone.id, h.ownership_verification.name, h.ownership_verification.value);
		for (const record of h.ssl?.validation_records ?? [])
			await txtRecord(zone.id, record.txt_name ?? "", record.txt_value ?? "");
		await call("POST", `/zones/${zone.id}/emulator/clock/advance`, { seconds: 3600 });
		const blocked = await get(zone.id, h.id);
		expect(blocked.ssl?.status).toBe("pending_validation");
		expect(blocked.ssl?.validation_errors?.[0]?.message).toContain(`CAA records of ${zone.name} `);
		// Removing the record lets Google issue, from the removal on: validated now, not an hour ago.
		expect((await call("DELETE", `/zones/${zone.id}/dns_records/${caa}`)).status).toBe(200);
		const allowed = await get(zone.id, h.id);
		expect(allowed.ssl?.status).toBe("pending_issuance");
		expect(allowed.ssl?.validation_errors).toBeUndefined();
	});

	it("is another zone's CAA records for a name that zone holds", async () => {
		const saas = await zoneAt();
		const customer = `cust-${crypto.randomUUID().slice(0, 8)}.example.org`;
		const created = await call("POST", "/zones", { name: customer, account: {} });
		expect(created.status).toBe(200);
		await caaRecord((created.body.result as { id: string }).id, "@", "letsencrypt.org");
		// The default CA is Google unless CAA blocks it (as for a name in no zone).
		expect((await create(saas.id, `app.${customer}`, "")).ssl?.certificate_authority).toBe("lets_encrypt");
		const elsewhere = `app.cust-${crypto.randomUUID().slice(0, 8)}.example.org`;
		expect((await create(saas.id, elsewhere, "")).ssl?.certificate_authority).toBe("google");
	});
});
