/** The spec's limits of custom log fields, end to end: 40 names, 8 KB, first instance, original headers, Range, cookie case. */
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { configure, edgeRequest, flush, records, zoneWithHost } from "./logs-helpers";

const CUSTOM = { output_options: { field_names: ["RayID", "RequestHeaders", "ResponseHeaders", "Cookies"] } };

async function entryOf(zone_id: string, ray: string): Promise<Record<string, unknown> | undefined> {
	const deliveries = await flush(zone_id);
	return (await records(deliveries.flatMap((d) => d.objects))).find((e) => e.RayID === ray);
}

describe("custom field limits", () => {
	it("logs all of 40 names, and the API refuses a 41st", async () => {
		const { zone_id, host } = await zoneWithHost("forty");
		const request_fields = Array.from({ length: 20 }, (_, i) => ({ name: `x-h${i}` }));
		const cookie_fields = Array.from({ length: 20 }, (_, i) => ({ name: `C${i}` }));
		await configure(zone_id, { request_fields, cookie_fields }, CUSTOM);
		const headers: Record<string, string> = { cookie: cookie_fields.map((c, i) => `${c.name}=v${i}`).join("; ") };
		for (const [i, { name }] of request_fields.entries()) headers[name] = `h${i}`;
		const res = await edgeRequest(host, "/forty", { headers });
		const entry = await entryOf(zone_id, res.ray);
		expect(Object.keys(entry?.RequestHeaders as object)).toHaveLength(20);
		expect(Object.keys(entry?.Cookies as object)).toHaveLength(20);
		expect(entry?.Cookies).toMatchObject({ C0: "v0", C19: "v19" });
		const entrypoint = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					action_parameters: { request_fields, cookie_fields: [...cookie_fields, { name: "C20" }] },
				},
			],
		});
		expect(entrypoint.status).toBe(400);
	});

	it("logs a preserve_duplicates response header under ResponseFields too, as an array", async () => {
		const { zone_id, host } = await zoneWithHost("dups");
		await configure(
			zone_id,
			{ response_fields: [{ name: "etag", preserve_duplicates: true }, { name: "content-type" }] },
			{ output_options: { field_names: ["RayID", "ResponseHeaders", "ResponseFields"] } },
		);
		await edgeRequest(host, "/dups.txt", { method: "PUT", body: "d", headers: { "content-type": "text/plain" } });
		const res = await edgeRequest(host, "/dups.txt");
		const etag = res.headers.get("etag") ?? "";
		expect(etag).toMatch(/^"[0-9a-f]{32}"$/);
		expect(await entryOf(zone_id, res.ray)).toStrictEqual({
			RayID: res.ray,
			ResponseHeaders: { etag, "content-type": "text/plain" },
			ResponseFields: { etag: [etag] },
		});
	});

	it("truncates values past 8 KB in all: request headers first, then cookies, then response headers", async () => {
		const { zone_id, host } = await zoneWithHost("eightk");
		await configure(
			zone_id,
			{
				request_fields: [{ name: "x-big" }],
				cookie_fields: [{ name: "big" }, { name: "small" }],
				response_fields: [{ name: "content-type" }],
			},
			CUSTOM,
		);
		const res = await edgeRequest(host, "/eightk", {
			headers: { "x-big": "a".repeat(6000), cookie: `big=${"b".repeat(3000)}; small=s` },
		});
		const entry = await entryOf(zone_id, res.ray);
		expect(entry).toStrictEqual({
			RayID: res.ray,
			RequestHeaders: { "x-big": "a".repeat(6000) },
			Cookies: { big: "b".repeat(8192 - 6000), small: "" },
			ResponseHeaders: { "content-type": "" },
		});
	});

	it("logs the first instance of a repeated cookie, names case-sensitively", async () => {
		const { zone_id, host } = await zoneWithHost("cookies");
		await configure(zone_id, { cookie_fields: [{ name: "Sid" }, { name: "sid" }, { name: "lang" }] }, CUSTOM);
		const res = await edgeRequest(host, "/c", { headers: { cookie: "SID=no; Sid=first; Sid=second; lang=de" } });
		const entry = await entryOf(zone_id, res.ray);
		expect(entry?.Cookies).toStrictEqual({ Sid: "first", lang: "de" });
	});

	it("logs the response headers as the gateway made them, not CF-Ray added after; header names in any case", async () => {
		const { zone_id, host } = await zoneWithHost("original");
		await configure(
			zone_id,
			{ request_fields: [{ name: "x-mixed-case" }], response_fields: [{ name: "cf-ray" }, { name: "content-type" }] },
			CUSTOM,
		);
		const res = await edgeRequest(host, "/o", { headers: { "X-Mixed-CASE": "v" } });
		expect(res.headers.get("cf-ray")).not.toBeNull();
		const entry = await entryOf(zone_id, res.ray);
		expect(entry?.ResponseHeaders).toStrictEqual({ "content-type": "application/json" });
		expect(entry?.RequestHeaders).toStrictEqual({ "x-mixed-case": "v" });
	});

	it("never logs Range: the API refuses it and a Range request logs only the other headers", async () => {
		const { zone_id, host } = await zoneWithHost("range");
		const refused = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				{ action: "log_custom_field", expression: "true", action_parameters: { request_fields: [{ name: "range" }] } },
			],
		});
		expect(refused.status).toBe(400);
		await configure(zone_id, { request_fields: [{ name: "x-other" }] }, CUSTOM);
		await edgeRequest(host, "/r.txt", { method: "PUT", body: "0123456789" });
		const res = await edgeRequest(host, "/r.txt", { headers: { range: "bytes=0-3", "x-other": "o" } });
		expect(res.status).toBe(206);
		const entry = await entryOf(zone_id, res.ray);
		expect(entry?.RequestHeaders).toStrictEqual({ "x-other": "o" });
	});
});
