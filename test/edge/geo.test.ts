/**
 * The emulator's geo headers end to end: a request's `X-Edgezone-Geo-*` headers set the location
 * the zone's rules and its log entry read, where the deployment trusts them (`TRUST_GEO_HEADERS`,
 * "true" in the test pool as in `npm run dev`), and nowhere else.
 */
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { call } from "../api/http";
import { configure, edgeRequest, flush, records, zoneWithHost } from "./logs-helpers";

/** Blocks what `expression` matches with a firewall rule (Firewall Rules API). */
async function blockRule(zone_id: string, expression: string): Promise<string> {
	const res = await call("POST", `/zones/${zone_id}/firewall/rules`, [{ filter: { expression }, action: "block" }]);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as { id: string }[])[0]?.id ?? "";
}

/** Blocks what `expression` matches with a WAF custom rule (the rulesets API). */
async function customBlock(zone_id: string, expression: string): Promise<void> {
	const res = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
		rules: [{ action: "block", expression }],
	});
	expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function zoneWithObject(prefix: string): Promise<{ zone_id: string; host: string }> {
	const zone = await zoneWithHost(prefix);
	expect((await edgeRequest(zone.host, "/geo/a.txt", { method: "PUT", body: "a" })).status).toBe(200);
	return zone;
}

describe("a country rule, tried locally with X-Edgezone-Geo-Country", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithObject("geo-country");
		await blockRule(zone.zone_id, 'ip.src.country eq "FR"');
	});

	it.each<{ says: string; headers: Record<string, string>; status: number }>([
		{ says: "says FR", headers: { "x-edgezone-geo-country": "FR" }, status: 403 },
		{ says: "says fr, in lower case", headers: { "x-edgezone-geo-country": "fr" }, status: 403 },
		{ says: "says DE", headers: { "x-edgezone-geo-country": "DE" }, status: 200 },
		{ says: "says nothing", headers: {}, status: 200 },
		{
			says: "gives only its city (its country is then missing)",
			headers: { "x-edgezone-geo-city": "Lyon" },
			status: 200,
		},
	])("answers $status to a request that $says", async ({ headers, status }) => {
		expect((await edgeRequest(zone.host, "/geo/a.txt", { headers })).status).toBe(status);
	});

	it("is not forged where the deployment does not trust the headers (TRUST_GEO_HEADERS false)", async () => {
		const ctx = createExecutionContext();
		const response = await worker.fetch(
			new Request(`http://${zone.host}/geo/a.txt`, {
				headers: { authorization: "Bearer test-rw", "x-edgezone-geo-country": "FR" },
			}),
			{ ...env, TRUST_GEO_HEADERS: "false" },
			ctx,
		);
		await response.arrayBuffer();
		await waitOnExecutionContext(ctx);
		expect(response.status).toBe(200);
		// The same request where they are trusted is blocked: the rule itself matches FR.
		const trusted = await edgeRequest(zone.host, "/geo/a.txt", { headers: { "x-edgezone-geo-country": "FR" } });
		expect(trusted.status).toBe(403);
	});
});

describe("an ASN rule, tried locally with X-Edgezone-Geo-Asnum", () => {
	it("blocks the AS it names and passes another, in a WAF custom rule", async () => {
		const { zone_id, host } = await zoneWithObject("geo-asn");
		await customBlock(zone_id, "ip.src.asnum eq 64500 or ip.geoip.asnum in {64510..64520}");
		const status = async (headers: Record<string, string>) =>
			(await edgeRequest(host, "/geo/a.txt", { headers })).status;
		expect(await status({ "x-edgezone-geo-asnum": "64500" })).toBe(403);
		expect(await status({ "x-edgezone-geo-asn": "64515" })).toBe(403);
		expect(await status({ "x-edgezone-geo-asnum": "64501" })).toBe(200);
		expect(await status({})).toBe(200);
	});
});

describe("every geo field of the Rules language", () => {
	it("is set by its header, with the EU membership and first subdivision derived when not sent", async () => {
		const { zone_id, host } = await zoneWithObject("geo-all");
		await customBlock(
			zone_id,
			[
				'ip.src.country eq "FR"',
				'ip.geoip.country eq "FR"',
				'ip.src.continent eq "EU"',
				'ip.geoip.continent eq "EU"',
				'ip.src.city eq "Saint-Étienne"',
				'ip.src.region eq "Auvergne-Rhône-Alpes"',
				'ip.src.region_code eq "ARA"',
				'ip.src.postal_code eq "42000"',
				'ip.src.metro_code eq "0"',
				'ip.src.lat eq "45.43389"',
				'ip.src.lon eq "4.39"',
				'ip.src.subdivision_1_iso_code eq "FR-ARA"',
				'ip.src.subdivision_2_iso_code eq "FR-42"',
				"ip.src.is_in_european_union",
			].join(" and "),
		);
		const headers = {
			"X-Edgezone-Geo-Country": "FR",
			"X-Edgezone-Geo-Continent": "EU",
			"X-Edgezone-Geo-City": encodeURIComponent("Saint-Étienne"),
			"X-Edgezone-Geo-Region": encodeURIComponent("Auvergne-Rhône-Alpes"),
			"X-Edgezone-Geo-Region-Code": "ara",
			"X-Edgezone-Geo-Postal-Code": "42000",
			"X-Edgezone-Geo-Metro-Code": "0",
			"X-Edgezone-Geo-Lat": "45.43389",
			"X-Edgezone-Geo-Lon": "4.39",
			"X-Edgezone-Geo-Subdivision-2-Iso-Code": "FR-42",
		};
		expect((await edgeRequest(host, "/geo/a.txt", { headers })).status).toBe(403);
		// Said otherwise, the EU membership no longer matches.
		const notEu = { ...headers, "X-Edgezone-Geo-Is-In-European-Union": "false" };
		expect((await edgeRequest(host, "/geo/a.txt", { headers: notEu })).status).toBe(200);
	});
});

describe("an invalid geo header", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithObject("geo-bad");
	});

	it.each([
		["x-edgezone-geo-country", "France", "X-Edgezone-Geo-Country must be an ISO 3166-1 alpha-2 code"],
		["x-edgezone-geo-asnum", "AS64500", "X-Edgezone-Geo-Asnum must be an AS number"],
		["x-edgezone-geo-asnum", "4294967296", "X-Edgezone-Geo-Asnum must be an AS number"],
		["x-edgezone-geo-continent", "Europe", "X-Edgezone-Geo-Continent must be one of AF"],
		["x-edgezone-geo-lat", "91", "X-Edgezone-Geo-Lat must be a decimal number of degrees from -90 to 90"],
		["x-edgezone-geo-is-in-european-union", "1", "X-Edgezone-Geo-Is-In-European-Union must be true or false"],
		["x-edgezone-geo-timezone-name", "Paris", "X-Edgezone-Geo-Timezone-Name must be an IANA time zone name"],
		["x-edgezone-geo-contry", "FR", "X-Edgezone-Geo-Contry is not an edgezone geo header"],
	])("%s: %s is refused with a 400 naming the header, before any rule or the bucket", async (name, value, message) => {
		const res = await edgeRequest(zone.host, "/geo/a.txt", { headers: { [name]: value } });
		expect(res.status).toBe(400);
		expect(res.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		expect((JSON.parse(res.text) as { error: { message: string } }).error.message).toContain(message);
	});
});

describe("the log entry of a request with geo headers", () => {
	it("records the location the rules saw: ClientCountry, ClientASN and the others", async () => {
		const { zone_id, host } = await zoneWithObject("geo-log");
		const ruleId = await blockRule(zone_id, 'ip.src.country eq "FR"');
		await configure(
			zone_id,
			{ request_fields: [{ name: "x-none" }] },
			{
				output_options: {
					field_names: [
						"RayID",
						"ClientCountry",
						"ClientASN",
						"ClientCity",
						"ClientRegionCode",
						"ClientLatitude",
						"ClientLongitude",
						"EdgeResponseStatus",
						"SecurityRuleID",
					],
				},
			},
		);
		const blocked = await edgeRequest(host, "/geo/a.txt", {
			headers: {
				"x-edgezone-geo-country": "FR",
				"x-edgezone-geo-asnum": "64500",
				"x-edgezone-geo-city": "Paris",
				"x-edgezone-geo-region-code": "IDF",
				"x-edgezone-geo-lat": "48.85661",
				"x-edgezone-geo-lon": "2.35222",
			},
		});
		const served = await edgeRequest(host, "/geo/a.txt", { headers: { "x-edgezone-geo-country": "DE" } });
		expect([blocked.status, served.status]).toEqual([403, 200]);
		const [delivery] = await flush(zone_id);
		const entries = await records(delivery?.objects ?? []);
		expect(entries.find((e) => e.RayID === blocked.ray)).toEqual({
			RayID: blocked.ray,
			ClientCountry: "fr",
			ClientASN: 64500,
			ClientCity: "Paris",
			ClientRegionCode: "IDF",
			ClientLatitude: "48.85661",
			ClientLongitude: "2.35222",
			EdgeResponseStatus: 403,
			SecurityRuleID: ruleId,
		});
		// Only the country was sent: the other fields are absent, not the placeholder's.
		expect(entries.find((e) => e.RayID === served.ray)).toMatchObject({
			ClientCountry: "de",
			ClientASN: 0,
			ClientCity: "",
			EdgeResponseStatus: 200,
			SecurityRuleID: "",
		});
	});
});
