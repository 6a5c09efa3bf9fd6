/**
 * A zone file through the official `cloudflare` SDK, unchanged: `client.dns.records.export` reads a
 * zone's records as Cloudflare's export writes them, and `client.dns.records.import` adds them to
 * another zone, where they list as they were.
 */
import { describe, expect, it } from "vitest";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

describe("client.dns.records.export and .import", () => {
	it("exports a zone's records and imports them into another zone, where they read back the same", async () => {
		const cf = sdkClient();
		const from = await freshZone();
		const fromName = (await cf.zones.get({ zone_id: from })).name;
		await cf.dns.records.create({
			zone_id: from,
			type: "A",
			name: "app",
			content: "192.0.2.10",
			ttl: 1,
			proxied: true,
			comment: "the app",
			tags: ["team:web", "env:prod"],
		});
		await cf.dns.records.create({ zone_id: from, type: "CNAME", name: "www", content: `app.${fromName}`, ttl: 300 });
		await cf.dns.records.create({
			zone_id: from,
			type: "MX",
			name: "@",
			content: "mx.example.org",
			priority: 10,
			ttl: 3600,
		});
		await cf.dns.records.create({ zone_id: from, type: "TXT", name: "@", content: "v=spf1 -all", ttl: 1 });
		// A delegation and its DS record, which the file lists first (by type) and the import must add second.
		await cf.dns.records.create({ zone_id: from, type: "NS", name: "sub", content: "ns.example.net", ttl: 3600 });
		const data = { key_tag: 2371, algorithm: 13, digest_type: 2, digest: "9F86D081884C7D659A2FEAA0C55AD015" };
		await cf.dns.records.create({ zone_id: from, type: "DS", name: "sub", ttl: 3600, data });

		const text = await cf.dns.records.export({ zone_id: from });
		expect(text).toContain(`;; Domain:     ${fromName}.`);
		expect(text).toContain(
			`app.${fromName}.\t1\tIN\tA\t192.0.2.10 ; the app cf_tags=team:web,env:prod,cf-proxied:true`,
		);
		expect(text).toContain(`www.${fromName}.\t300\tIN\tCNAME\tapp.${fromName}. ; cf_tags=cf-proxied:false`);
		expect(text).toContain(`${fromName}.\t3600\tIN\tMX\t10 mx.example.org.`);
		expect(text.indexOf("\tIN\tDS\t")).toBeLessThan(text.indexOf(`sub.${fromName}.\t3600\tIN\tNS\t`));

		// The file names its zone absolutely: into another zone it goes with its names made relative.
		const to = await freshZone();
		const toName = (await cf.zones.get({ zone_id: to })).name;
		const relative = text.replaceAll(`.${fromName}.`, "").replaceAll(`${fromName}.`, "@");
		const answer = await cf.dns.records.import({ zone_id: to, file: relative, proxied: "false" });
		// Parsed: the six records, the SOA and the two NS records of the apex; the last three are the zone's own.
		expect(answer).toEqual({
			recs_added: 6,
			recs_added_by_type: { A: 1, CNAME: 1, DS: 1, MX: 1, NS: 1, TXT: 1 },
			total_records_parsed: 9,
		});
		const listed = (await cf.dns.records.list({ zone_id: to, order: "type" })).result;
		expect(listed.map((r) => [r.type, r.name, r.content, r.ttl, r.proxied, r.comment ?? null, r.tags])).toEqual([
			["A", `app.${toName}`, "192.0.2.10", 1, true, "the app", ["team:web", "env:prod"]],
			["CNAME", `www.${toName}`, `app.${toName}`, 300, false, null, []],
			["DS", `sub.${toName}`, "2371 13 2 9F86D081884C7D659A2FEAA0C55AD015", 3600, false, null, []],
			["MX", toName, "mx.example.org", 3600, false, null, []],
			["NS", `sub.${toName}`, "ns.example.net", 3600, false, null, []],
			["TXT", toName, "v=spf1 -all", 1, false, null, []],
		]);
	});
});
