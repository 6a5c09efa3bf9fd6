/**
 * The zone's Managed Transforms on real traffic: the headers a proxied origin receives (the
 * echoing origin of `origin-server.ts`) and those its answer reaches the visitor with, switched
 * through the `cloudflare` SDK; and the visitor's time zone that `cf-timezone` carries, as a
 * Transform Rule reads it.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../api/http";
import { sdkClient } from "../../api/sdk";
import { type Echo, originPort, originZone, record, visit } from "./helpers";

type Switch = { id: string; enabled: boolean };

/** A zone with a proxied record `app` to the echoing origin, the given transforms on. */
async function zoneWith(request: Switch[], response: Switch[] = []) {
	const { zone_id, zone } = await originZone();
	await record(zone_id, "A", "app", "127.0.0.1");
	await sdkClient().managedTransforms.edit({
		zone_id,
		managed_request_headers: request,
		managed_response_headers: response,
	});
	return { zone_id, url: (path: string) => `http://app.${zone}:${originPort()}${path}` };
}

const on = (id: string): Switch => ({ id, enabled: true });

describe("Managed Transforms", () => {
	it("adds the visitor's location headers toward the origin, non-ASCII as UTF-8 bytes, none of the visitor's own", async () => {
		const { url } = await zoneWith([on("add_visitor_location_headers")]);
		const res = await visit(url("/where"), {
			cf: {
				city: "São Paulo",
				country: "BR",
				continent: "SA",
				longitude: "-46.63330",
				latitude: "-23.55000",
				region: "Sao Paulo",
				regionCode: "SP",
				postalCode: "01000-000",
				timezone: "America/Sao_Paulo",
			},
			headers: { "cf-ipcity": "Forged", "cf-metro-code": "999", "cf-timezone": "Forged/Zone" },
		});
		const headers = (JSON.parse(res.text) as Echo).headers;
		expect(headers).toMatchObject({
			"cf-ipcity": "S\\u00c3\\u00a3o Paulo",
			"cf-ipcountry": "BR",
			"cf-ipcontinent": "SA",
			"cf-iplongitude": "-46.63330",
			"cf-iplatitude": "-23.55000",
			"cf-region": "Sao Paulo",
			"cf-region-code": "SP",
			"cf-postal-code": "01000-000",
			"cf-timezone": "America/Sao_Paulo",
		});
		// Unknown here: not sent, and the visitor's is not passed on.
		expect(headers["cf-metro-code"]).toBeUndefined();
	});

	it("sends the country with the location headers even while IP Geolocation is off", async () => {
		const { zone_id, url } = await zoneWith([on("add_visitor_location_headers")]);
		await sdkClient().zones.settings.edit("ip_geolocation", { zone_id, value: "off" });
		const res = await visit(url("/country"), { cf: { country: "DE", city: "Berlin" } });
		const headers = (JSON.parse(res.text) as Echo).headers;
		expect(headers).toMatchObject({ "cf-ipcountry": "DE", "cf-ipcity": "Berlin" });
		// A location without a time zone sends none.
		expect(headers["cf-timezone"]).toBeUndefined();
	});

	it("adds True-Client-IP with the visitor's IP", async () => {
		const { url } = await zoneWith([on("add_true_client_ip_headers")]);
		const res = await visit(url("/ip"), {
			headers: { "cf-connecting-ip": "203.0.113.7", "true-client-ip": "1.1.1.1" },
		});
		expect((JSON.parse(res.text) as Echo).headers["true-client-ip"]).toBe("203.0.113.7");
	});

	it("removes the visitor's IP headers: X-Forwarded-For keeps only the address that connected", async () => {
		const { url } = await zoneWith([on("remove_visitor_ip_headers")]);
		const res = await visit(url("/ip"), {
			headers: {
				"cf-connecting-ip": "198.51.100.102",
				"x-forwarded-for": "203.0.113.7, 198.51.100.101",
				"true-client-ip": "203.0.113.7",
			},
		});
		const headers = (JSON.parse(res.text) as Echo).headers;
		expect(headers["x-forwarded-for"]).toBe("198.51.100.102");
		expect(headers["true-client-ip"]).toBeUndefined();
		expect(headers["cf-connecting-ip"]).toBeUndefined();
	});

	it("leaves the origin's request as it was while every transform is off", async () => {
		const { url } = await zoneWith([]);
		const res = await visit(url("/plain"), {
			cf: { country: "FR", city: "Paris" },
			headers: { "cf-connecting-ip": "203.0.113.7", "true-client-ip": "1.1.1.1" },
		});
		const headers = (JSON.parse(res.text) as Echo).headers;
		expect(headers["cf-ipcity"]).toBeUndefined();
		expect(headers["true-client-ip"]).toBe("1.1.1.1");
		expect(headers["x-forwarded-for"]).toBe("203.0.113.7");
		expect(res.headers.get("x-powered-by")).toBe("Express");
		expect(res.headers.get("x-content-type-options")).toBeNull();
	});

	it("removes X-Powered-By from the answer and adds the security headers beside the origin's", async () => {
		const { url } = await zoneWith([], [on("remove_x-powered-by_header"), on("add_security_headers")]);
		const res = await visit(url("/page"));
		expect(res.status).toBe(200);
		expect(res.headers.get("x-powered-by")).toBeNull();
		expect(res.headers.get("x-content-type-options")).toBe("nosniff");
		expect(res.headers.get("x-xss-protection")).toBe("1; mode=block");
		expect(res.headers.get("referrer-policy")).toBe("same-origin");
		expect(res.headers.get("expect-ct")).toBe("max-age=86400, enforce");
		// Added, as a header rule's `add`: the origin's own value stays beside it.
		expect(res.headers.get("x-frame-options")).toBe("DENY, SAMEORIGIN");
	});

	it("adds the security headers to the edge's own answers too (the bucket gateway's 404)", async () => {
		const { url } = await zoneWith([], [on("add_security_headers")]);
		// The zone's own name, with no record: its bucket gateway answers.
		const res = await visit(url("/no-such-key").replace("//app.", "//"));
		expect(res.headers.get("x-content-type-options")).toBe("nosniff");
	});
});

describe("the visitor's time zone in a Transform Rule", () => {
	it("is ip.src.timezone.name in a rewrite's value expression, which no filter and no redirect takes", async () => {
		const { zone_id, url } = await zoneWith([]);
		const put = (phase: string, rules: unknown[]) =>
			call("PUT", `/zones/${zone_id}/rulesets/phases/${phase}/entrypoint`, { rules });
		const header = await put("http_request_late_transform", [
			{
				action: "rewrite",
				expression: "true",
				action_parameters: { headers: { "x-visitor-zone": { operation: "set", expression: "ip.src.timezone.name" } } },
			},
		]);
		expect(header.status, JSON.stringify(header.body)).toBe(200);
		const res = await visit(url("/tz"), { headers: { "x-edgezone-geo-timezone-name": "Asia/Tokyo" } });
		expect((JSON.parse(res.text) as Echo).headers["x-visitor-zone"]).toBe("Asia/Tokyo");

		// "Only available in rewrite expressions of Transform Rules" (docs fields/reference/ip.src.timezone.name).
		const filter = await put("http_request_firewall_custom", [
			{ action: "block", expression: 'ip.src.timezone.name eq "Asia/Tokyo"' },
		]);
		expect(filter.status).toBe(400);
		expect(filter.body.errors?.[0]?.message).toContain("unknown identifier");
		const redirect = await put("http_request_dynamic_redirect", [
			{
				action: "redirect",
				expression: "true",
				action_parameters: {
					from_value: { target_url: { expression: 'concat("https://example.com/", ip.src.timezone.name)' } },
				},
			},
		]);
		expect(redirect.status).toBe(400);
	});
});
