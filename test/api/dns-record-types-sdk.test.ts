/**
 * The record types beyond a site's own through the official `cloudflare` SDK, unchanged: SRV with
 * its `data` (content shown as `weight port target`, the priority apart, as the real API answers),
 * PTR, and NS delegating a subdomain, with the rules a delegation brings (81056 beside it, 89018
 * beneath it but for its glue, a DS record only beside it).
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

/** The code and pointer of a refused SDK call. */
async function refusal(call: Promise<unknown>): Promise<{ code?: number; pointer?: string }> {
	const error = await call.then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
	const [first] = (error as InstanceType<typeof Cloudflare.BadRequestError>).errors as {
		code?: number;
		source?: { pointer?: string };
	}[];
	return { code: first?.code, pointer: first?.source?.pointer };
}

describe("SRV, PTR and NS records", () => {
	it("creates an SRV record from its data, answers it as Cloudflare does, and edits its priority", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		const srv = await cf.dns.records.create({
			zone_id,
			type: "SRV",
			name: "_sip._tcp",
			ttl: 3600,
			data: { priority: 10, weight: 5, port: 5060, target: "SIP.example.net." },
		});
		expect(srv).toMatchObject({
			name: `_sip._tcp.${zone}`,
			type: "SRV",
			content: "5 5060 sip.example.net",
			priority: 10,
			data: { priority: 10, weight: 5, port: 5060, target: "sip.example.net" },
			proxiable: false,
		});
		const edited = await cf.dns.records.edit(srv.id, {
			zone_id,
			type: "SRV",
			name: srv.name,
			ttl: 3600,
			data: { priority: 20, weight: 5, port: 5060, target: "sip.example.net" },
		});
		expect(edited).toMatchObject({ content: "5 5060 sip.example.net", priority: 20, data: { priority: 20 } });
		expect((await cf.dns.records.list({ zone_id, type: "SRV" })).result).toEqual([edited]);
		// A PATCH of the priority alone, as the API's own field: the rest of the data is kept.
		const patched = await call("PATCH", `/zones/${zone_id}/dns_records/${srv.id}`, { priority: 30 });
		expect(patched.body.result).toMatchObject({
			content: "5 5060 sip.example.net",
			priority: 30,
			data: { priority: 30, port: 5060 },
		});

		// A target of "." says the service is not there (RFC 2782); the name must be _service._proto.
		const none = await cf.dns.records.create({
			zone_id,
			type: "SRV",
			name: "_imap._tcp",
			ttl: 1,
			data: { priority: 0, weight: 0, port: 0, target: "." },
		});
		expect(none.content).toBe("0 0 .");
		expect(
			await refusal(
				cf.dns.records.create({
					zone_id,
					type: "SRV",
					name: "sip",
					ttl: 1,
					data: { priority: 1, weight: 1, port: 1, target: "x.example" },
				}),
			),
		).toEqual({ code: 1004, pointer: "/name" });
		expect(
			await refusal(
				cf.dns.records.create({
					zone_id,
					type: "SRV",
					name: "_a._tcp",
					ttl: 1,
					data: { priority: 1, weight: 1, port: 70000, target: "x.example" },
				}),
			),
		).toEqual({ code: 1004, pointer: "/data/port" });
		// No data, or a content alone: each component is named missing, as Cloudflare answers (external-dns#6462).
		expect(await refusal(cf.dns.records.create({ zone_id, type: "SRV", name: "_a._tcp", ttl: 1 }))).toEqual({
			code: 9101,
			pointer: "/data/priority",
		});
	});

	it("holds PTR records, host names kept as the API writes them", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const ptr = await cf.dns.records.create({ zone_id, type: "PTR", name: "1", content: "Host.Example.net.", ttl: 1 });
		expect(ptr).toMatchObject({ type: "PTR", content: "host.example.net", proxiable: false });
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "PTR", name: "2", content: "not a host", ttl: 1 })),
		).toEqual({
			code: 1004,
			pointer: "/content",
		});
	});

	it("delegates a subdomain with NS records: alone on its name, nothing beneath it but its glue", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		await cf.dns.records.create({ zone_id, type: "NS", name: "dev", content: `ns1.dev.${zone}`, ttl: 86400 });
		await cf.dns.records.create({ zone_id, type: "NS", name: "dev", content: "ns.example.net", ttl: 86400 });
		// Its glue: the address of a name server it names, beneath it.
		const glue = await cf.dns.records.create({ zone_id, type: "A", name: `ns1.dev`, content: "192.0.2.53", ttl: 1 });
		expect(glue.name).toBe(`ns1.dev.${zone}`);
		// The DS record that signs the delegation stands beside its NS records; without them, and at the apex, none.
		const data = { key_tag: 2371, algorithm: 13, digest_type: 2, digest: "9F86D081884C7D659A2FEAA0C55AD015" };
		await cf.dns.records.create({ zone_id, type: "DS", name: "dev", ttl: 1, data });
		for (const name of ["lone", "@"]) {
			expect(await refusal(cf.dns.records.create({ zone_id, type: "DS", name, ttl: 1, data }))).toEqual({
				code: 1004,
				pointer: "/name",
			});
		}
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "A", name: "dev", content: "192.0.2.1", ttl: 1 })),
		).toEqual({
			code: 81056,
			pointer: "/name",
		});
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "CNAME", name: "www.dev", content: "example.net", ttl: 1 })),
		).toEqual({ code: 89018, pointer: "/name" });
		expect(
			await refusal(
				cf.dns.records.create({ zone_id, type: "A", name: "ns1.dev", content: "192.0.2.54", ttl: 1, proxied: true }),
			),
		).toEqual({ code: 1004, pointer: "/proxied" });

		// An NS record cannot join other records of its name, nor delegate a name with records beneath it.
		await cf.dns.records.create({ zone_id, type: "A", name: "app", content: "192.0.2.2", ttl: 1 });
		await cf.dns.records.create({ zone_id, type: "TXT", name: "x.shop", content: "hello", ttl: 1 });
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "NS", name: "app", content: "ns.example.net", ttl: 1 })),
		).toEqual({
			code: 1004,
			pointer: "/name",
		});
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "NS", name: "shop", content: "ns.example.net", ttl: 1 })),
		).toEqual({
			code: 1004,
			pointer: "/name",
		});
		// The apex's NS records are the zone's own: beside its other records, delegating nothing.
		await cf.dns.records.create({ zone_id, type: "NS", name: "@", content: "ns.example.net", ttl: 86400 });
		await cf.dns.records.create({ zone_id, type: "A", name: "@", content: "192.0.2.3", ttl: 1 });
		const types = (await cf.dns.records.list({ zone_id, order: "type" })).result.map((r) => `${r.type} ${r.name}`);
		expect(types).toEqual([
			`A app.${zone}`,
			`A ns1.dev.${zone}`,
			`A ${zone}`,
			`DS dev.${zone}`,
			`NS dev.${zone}`,
			`NS dev.${zone}`,
			`NS ${zone}`,
			`TXT x.shop.${zone}`,
		]);

		// However deep the name: 100 labels beneath the delegation, and as deep elsewhere.
		const deep = Array.from({ length: 100 }, () => "a").join(".");
		expect(
			await refusal(cf.dns.records.create({ zone_id, type: "A", name: `${deep}.dev`, content: "192.0.2.9", ttl: 1 })),
		).toEqual({ code: 89018, pointer: "/name" });
		const elsewhere = await cf.dns.records.create({ zone_id, type: "TXT", name: `${deep}.deep`, content: "x", ttl: 1 });
		expect(elsewhere.name).toBe(`${deep}.deep.${zone}`);
	});
});
