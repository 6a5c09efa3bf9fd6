/**
 * The zone's rules and log tap around a proxied origin: a firewall rule blocks before the origin
 * is contacted, seeing the path as the origin reads it; the log entry holds the Origin* fields, and custom fields name the origin's
 * response headers, `set-cookie` only its first instance.
 */
import { describe, expect, it } from "vitest";
import { call } from "../../api/http";
import { configure, flush, records } from "../logs-helpers";
import { originCount, originPort, originZone, record, refusedPort, visit } from "./helpers";

const FIELDS = [
	"RayID",
	"EdgeResponseStatus",
	"OriginResponseStatus",
	"OriginIP",
	"OriginResponseDurationMs",
	"OriginResponseHTTPExpires",
	"OriginResponseHTTPLastModified",
	"ResponseHeaders",
];

describe("a proxied origin behind the zone's rules and logs", () => {
	it("is not contacted when a firewall rule blocks the request", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ action: "block", filter: { expression: 'http.request.uri.path eq "/blocked"' } },
		]);
		expect(rule.status).toBe(200);
		expect((await visit(`http://app.${zone}:${originPort()}/blocked`)).status).toBe(403);
		expect(await originCount("/blocked")).toBe(0);
		expect((await visit(`http://app.${zone}:${originPort()}/allowed`)).status).toBe(200);
		expect(await originCount("/allowed")).toBe(1);
	});

	it("shows the rules the path the origin reads: no gateway `?key=` alias, no S3 `%2F` decoding", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{
				action: "block",
				filter: { expression: 'http.request.uri.path eq "/secret" or http.request.uri.path eq "/a/b"' },
			},
		]);
		expect(rule.status).toBe(200);
		// The gateway would read `?key=secret` as the object `/secret`, and S3 `%2F` as `/`; an origin reads neither.
		expect((await visit(`http://app.${zone}:${originPort()}/?key=secret`)).status).toBe(200);
		const signed = {
			authorization: "AWS4-HMAC-SHA256 Credential=x/20261128/auto/s3/aws4_request, SignedHeaders=host, Signature=0",
		};
		expect((await visit(`http://app.${zone}:${originPort()}/a%2Fb`, { headers: signed })).status).toBe(200);
		expect(await originCount("/a%2Fb")).toBe(1);
		expect((await visit(`http://app.${zone}:${originPort()}/secret`)).status).toBe(403);
	});

	it("logs the Origin* fields and the origin's response headers, set-cookie's first instance", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const { path } = await configure(
			zone_id,
			{ response_fields: [{ name: "set-cookie" }, { name: "last-modified" }] },
			{ output_options: { field_names: FIELDS } },
		);
		const ok = await visit(`http://app.${zone}:${originPort()}/logged`);
		const refused = await visit(`http://app.${zone}:${refusedPort()}/refused`);
		expect([ok.status, refused.status]).toStrictEqual([200, 521]);
		const deliveries = await flush(zone_id);
		const entries = await records(deliveries.flatMap((d) => d.objects).filter((key) => key.startsWith(path)));
		const byRay = (res: { headers: Headers }) =>
			entries.find((entry) => entry.RayID === (res.headers.get("cf-ray") ?? "").split("-")[0]);
		expect(byRay(ok)).toMatchObject({
			EdgeResponseStatus: 200,
			OriginResponseStatus: 200,
			OriginIP: "127.0.0.1",
			OriginResponseHTTPExpires: "Thu, 01 Dec 2044 16:00:00 GMT",
			OriginResponseHTTPLastModified: "Tue, 15 Nov 1994 12:45:26 GMT",
			ResponseHeaders: { "set-cookie": "first=1; Path=/", "last-modified": "Tue, 15 Nov 1994 12:45:26 GMT" },
		});
		expect(typeof byRay(ok)?.OriginResponseDurationMs).toBe("number");
		expect(byRay(refused)).toMatchObject({ EdgeResponseStatus: 521, OriginResponseStatus: 0, OriginIP: "127.0.0.1" });
	});
});
