/**
 * `GET /dns_records/export` and `POST /dns_records/import` through the Worker's front door, as
 * curl sends them (`--form file=@zone.txt`): what is added, what is left out and named in
 * `messages`, files refused whole with nothing added, and the permissions. The SDK's round trip:
 * dns-zone-file-sdk.test.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DNS_READ_TOKEN, TOKEN } from "./credentials";
import { BASE, call, type Envelope, freshZone } from "./http";

/** Posts `file` (and `proxied`, if given) as a multipart form to the zone's import. */
async function importFile(
	zone: string,
	file: string | Blob,
	fields: Record<string, string> = {},
	token = TOKEN,
): Promise<{ status: number; body: Envelope }> {
	const form = new FormData();
	form.append("file", file);
	for (const [name, value] of Object.entries(fields)) form.append(name, value);
	const res = await exports.default.fetch(`${BASE}/zones/${zone}/dns_records/import`, {
		method: "POST",
		headers: { Authorization: `Bearer ${token}` },
		body: form,
	});
	return { status: res.status, body: (await res.json()) as Envelope };
}

async function zoneName(zone: string): Promise<string> {
	return ((await call("GET", `/zones/${zone}`)).body.result as { name: string }).name;
}

async function listed(zone: string): Promise<string[]> {
	const records = (await call("GET", `/zones/${zone}/dns_records?order=name`)).body.result as {
		type: string;
		name: string;
		content: string;
		proxied: boolean;
	}[];
	return records.map((r) => `${r.type} ${r.name} ${r.content}${r.proxied ? " proxied" : ""}`);
}

describe("importing a zone file", () => {
	it("adds what it can, names each record left out with its code, and counts what it parsed", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		await call("POST", `/zones/${zone}/dns_records`, { type: "A", name: "taken", content: "192.0.2.1" });
		const file = [
			"$TTL 3600",
			`@ IN SOA ns1.other.example. host.other.example. 1 7200 900 1209600 86400`,
			"@ IN NS ns1.other.example.",
			"app IN A 192.0.2.10",
			"taken IN CNAME app ; a CNAME beside an A",
			"app IN A 192.0.2.10 ; the same record twice",
			'host IN HINFO "PC" "Linux"',
			"bad IN A 300.1.1.1",
			"outside.example.org. IN A 192.0.2.1",
			"short 30 IN A 192.0.2.2",
			'dkim IN TXT ( "v=DKIM1; k=rsa; " ; split over lines',
			'             "p=MIGf" )',
		].join("\n");
		const answer = await importFile(zone, file, { proxied: "true" });
		expect(answer.status).toBe(200);
		expect(answer.body.result).toEqual({
			recs_added: 2,
			recs_added_by_type: { A: 1, TXT: 1 },
			total_records_parsed: 10,
		});
		expect(answer.body.messages).toEqual([
			{ code: 81053, message: `taken.${name}: An A, AAAA, or CNAME record with that host already exists.` },
			{ code: 81058, message: `app.${name}: An identical record already exists.` },
			{
				code: 1004,
				message: `host.${name}: HINFO is not a record type the DNS records API takes`,
			},
			{ code: 9005, message: `bad.${name}: Content for A record is invalid. Must be a valid IPv4 address` },
			{ code: 1004, message: `outside.example.org: not inside the zone ${name}` },
			{ code: 1004, message: `short.${name}: ttl: Too small: expected number to be >=60` },
		]);
		// `proxied=true` proxies the proxiable records; a TXT stays DNS only, and a proxied record's TTL is automatic.
		expect(await listed(zone)).toEqual([
			`A app.${name} 192.0.2.10 proxied`,
			`TXT dkim.${name} v=DKIM1; k=rsa; p=MIGf`,
			`A taken.${name} 192.0.2.1`,
		]);
	});

	it("refuses a file it cannot read whole, naming the line, and adds none of it", async () => {
		const zone = await freshZone();
		for (const [file, message] of [
			["a IN A 192.0.2.1\n$INCLUDE other.zone", "line 2: $INCLUDE directive not allowed"],
			['a IN A 192.0.2.1\nb IN TXT "open', 'line 2: a quoted string is not closed with "'],
			["$GENERATE 1-4000 h$ A 192.0.2.1", "line 1: a zone file may hold at most 3500 records"],
		] as const) {
			const answer = await importFile(zone, file);
			expect(answer.status).toBe(400);
			expect(answer.body.errors).toEqual([{ code: 1004, message, source: { pointer: "/file" } }]);
		}
		expect(await listed(zone)).toEqual([]);
	});

	it("reads a file sent as a file, and refuses a body that is not a form, a file over 256 KiB, a bad proxied", async () => {
		const zone = await freshZone();
		const name = await zoneName(zone);
		const sent = await importFile(zone, new File(["www A 192.0.2.5\n"], "zone.txt", { type: "text/plain" }));
		expect(sent.body.result).toMatchObject({ recs_added: 1 });
		expect(await listed(zone)).toEqual([`A www.${name} 192.0.2.5`]);

		const json = await call("POST", `/zones/${zone}/dns_records/import`, { file: "www A 192.0.2.6" });
		expect(json.status).toBe(400);
		expect(json.body.errors?.[0]?.message).toBe(
			"Failed to parse form data. Make sure the Content-Type is multipart/form-data.",
		);
		const big = await importFile(zone, `; ${"x".repeat(262_144)}\n`);
		expect(big.status).toBe(400);
		expect(big.body.errors?.[0]).toMatchObject({
			message: "The zone file size limit is 256 KiB (262144 bytes).",
			source: { pointer: "/file" },
		});
		const huge = await importFile(zone, "x".repeat(400_000));
		expect(huge.status).toBe(413);
		const proxied = await importFile(zone, "www A 192.0.2.7", { proxied: "yes" });
		expect(proxied.status).toBe(400);
		expect(proxied.body.errors?.[0]?.source).toEqual({ pointer: "/proxied" });
		const noFile = await exports.default.fetch(`${BASE}/zones/${zone}/dns_records/import`, {
			method: "POST",
			headers: { Authorization: `Bearer ${TOKEN}` },
			body: new FormData(),
		});
		expect(noFile.status).toBe(400);
		expect(await listed(zone)).toEqual([`A www.${name} 192.0.2.5`]);
	});

	it("needs DNS Edit to import and DNS Read to export", async () => {
		const zone = await freshZone();
		expect((await importFile(zone, "www A 192.0.2.5", {}, DNS_READ_TOKEN)).status).toBe(403);
		const read = await exports.default.fetch(`${BASE}/zones/${zone}/dns_records/export`, {
			headers: { Authorization: `Bearer ${DNS_READ_TOKEN}` },
		});
		expect(read.status).toBe(200);
		expect(read.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
		expect(await read.text()).toContain(";; NS Records\n");
		expect(await listed(zone)).toEqual([]);
	});
});
