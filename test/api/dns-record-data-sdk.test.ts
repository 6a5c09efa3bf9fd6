/**
 * The record types made of components through the official `cloudflare` SDK, unchanged: each
 * written as its `data`, answered with the content Cloudflare derives, listed by type, edited;
 * and a record sent as content alone refused as Cloudflare refuses it, each component named.
 */
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

const SHA256 = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";

describe("records made of components, through the SDK", () => {
	it("creates HTTPS, URI, LOC, TLSA, DS and NAPTR records from their data and reads them back", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zone = (await cf.zones.get({ zone_id })).name;
		const https = await cf.dns.records.create({
			zone_id,
			type: "HTTPS",
			name: "@",
			ttl: 60,
			data: { priority: 1, target: ".", value: 'alpn="h3,h2" ipv4hint="192.0.2.1"' },
		});
		expect(https).toMatchObject({
			name: zone,
			content: '1 . alpn="h3,h2" ipv4hint="192.0.2.1"',
			data: { priority: 1, target: ".", value: 'alpn="h3,h2" ipv4hint="192.0.2.1"' },
			proxiable: false,
			proxied: false,
			ttl: 60,
		});
		// URI's priority beside its data, as the SDK's `URIRecord` has it.
		const uri = await cf.dns.records.create({
			zone_id,
			type: "URI",
			name: "_ftp._tcp",
			ttl: 1,
			priority: 10,
			data: { weight: 1, target: "ftp://ftp.example.net/public" },
		});
		expect(uri).toMatchObject({ content: '1 "ftp://ftp.example.net/public"', priority: 10 });
		const loc = await cf.dns.records.create({
			zone_id,
			type: "LOC",
			name: "hq",
			ttl: 1,
			data: {
				lat_degrees: 37,
				lat_minutes: 46,
				lat_seconds: 46,
				lat_direction: "N",
				long_degrees: 122,
				long_minutes: 23,
				long_seconds: 35,
				long_direction: "W",
				altitude: 0,
				size: 100,
				precision_horz: 0,
				precision_vert: 0,
			},
		});
		expect(loc.content).toBe("37 46 46.000 N 122 23 35.000 W 0.00 100.00 0.00 0.00");
		const tlsa = await cf.dns.records.create({
			zone_id,
			type: "TLSA",
			name: "_443._tcp",
			ttl: 1,
			data: { usage: 3, selector: 1, matching_type: 1, certificate: SHA256 },
		});
		// Hexadecimal in upper case, as Cloudflare answers it.
		expect(tlsa).toMatchObject({
			content: `3 1 1 ${SHA256.toUpperCase()}`,
			data: { certificate: SHA256.toUpperCase() },
		});
		// A DS record signs a delegation: the NS record of its name first.
		await cf.dns.records.create({ zone_id, type: "NS", name: "child", ttl: 1, content: "ns.example.net" });
		const ds = await cf.dns.records.create({
			zone_id,
			type: "DS",
			name: "child",
			ttl: 1,
			data: { key_tag: 2371, algorithm: 13, digest_type: 2, digest: SHA256 },
		});
		expect(ds.content).toBe(`2371 13 2 ${SHA256.toUpperCase()}`);
		const naptr = await cf.dns.records.create({
			zone_id,
			type: "NAPTR",
			name: "@",
			ttl: 1,
			data: {
				order: 100,
				preference: 10,
				flags: "U",
				service: "E2U+sip",
				regex: "!^.*$!sip:info@example.com!",
				replacement: ".",
			},
		});
		expect(naptr.content).toBe('100 10 "U" "E2U+sip" "!^.*$!sip:info@example.com!" .');

		// Read back as written; an edit replaces the data, the content derived again.
		expect(await cf.dns.records.get(https.id, { zone_id })).toEqual(https);
		const edited = await cf.dns.records.edit(https.id, {
			zone_id,
			type: "HTTPS",
			name: zone,
			ttl: 60,
			data: { priority: 2, target: "svc.example.net", value: "port=8443" },
		});
		expect(edited).toMatchObject({ content: "2 svc.example.net port=8443", data: { priority: 2 } });
		const listed = (await cf.dns.records.list({ zone_id, type: "TLSA" })).result;
		expect(listed).toEqual([tlsa]);
		const types = (await cf.dns.records.list({ zone_id })).result.map((r) => r.type);
		expect(types).toEqual(["DS", "HTTPS", "LOC", "NAPTR", "NS", "TLSA", "URI"]);
	});

	it("refuses a record sent as content alone, naming each component it lacks (9101)", async () => {
		// The SDK's `SSHFPRecord` has no `content` to send: a client that sends one anyway, as curl would.
		const zone_id = await freshZone();
		const answer = await call("POST", `/zones/${zone_id}/dns_records`, {
			type: "SSHFP",
			name: "host",
			ttl: 1,
			content: `4 2 ${SHA256}`,
		});
		expect(answer.status).toBe(400);
		expect(answer.body.errors).toEqual(
			["algorithm", "type", "fingerprint"].map((field) => ({
				code: 9101,
				message: `${field} is a required data field.`,
				source: { pointer: `/data/${field}` },
			})),
		);
		expect((await sdkClient().dns.records.list({ zone_id })).result).toEqual([]);
	});
});
