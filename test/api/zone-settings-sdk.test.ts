/**
 * Zone settings through the official `cloudflare` SDK, unchanged (`client.zones.settings.get/edit`),
 * and the errors of the endpoint: a setting edgezone does not know, a value a setting does not take.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, DNS_READ_TOKEN, SCOPED_TOKEN } from "./credentials";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

describe("client.zones.settings", () => {
	it("gets and edits ip_geolocation, on by default and never modified until edited", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		expect(await cf.zones.settings.get("ip_geolocation", { zone_id })).toStrictEqual({
			id: "ip_geolocation",
			value: "on",
			editable: true,
			modified_on: null,
		});
		const edited = await cf.zones.settings.edit("ip_geolocation", { zone_id, value: "off" });
		expect(edited).toMatchObject({ id: "ip_geolocation", value: "off", editable: true });
		const modified = "modified_on" in edited ? Date.parse(edited.modified_on ?? "") : Number.NaN;
		expect(modified).toBeGreaterThan(Date.now() - 60_000);
		expect(await cf.zones.settings.get("ip_geolocation", { zone_id })).toStrictEqual(edited);
	});

	it("refuses a setting it does not know (1006), a value the setting does not take and another setting's id (1007)", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/settings`;
		const unknown = await call("GET", `${path}/rocket_loader`);
		expect(unknown.status).toBe(400);
		expect(unknown.body.errors).toStrictEqual([
			{ code: 1006, message: "Unrecognized zone setting name: rocket_loader" },
		]);
		for (const [body, pointer] of [
			[{ value: "yes" }, "/value"],
			[{ value: true }, "/value"],
			[{}, "/value"],
			[{ id: "ipv6", value: "on" }, "/id"],
		] as const) {
			const res = await call("PATCH", `${path}/ip_geolocation`, body);
			expect(res.status, JSON.stringify(body)).toBe(400);
			expect(res.body.errors, JSON.stringify(body)).toMatchObject([{ code: 1007, source: { pointer } }]);
		}
		expect((await call("PATCH", `${path}/ip_geolocation`, { value: "on", extra: 1 })).status).toBe(400);
		// Nothing was written: the setting is still the default, never modified.
		const read = await call("GET", `${path}/ip_geolocation`);
		expect(read.body.result).toStrictEqual({ id: "ip_geolocation", value: "on", editable: true, modified_on: null });
	});

	it("reaches only the zones of the credential, with the Zone Settings permission", async () => {
		const other = await freshZone();
		const scoped = sdkClient(SCOPED_TOKEN);
		await expect(scoped.zones.settings.get("ip_geolocation", { zone_id: DEFAULT_ZONE_ID })).resolves.toMatchObject({
			id: "ip_geolocation",
		});
		await expect(scoped.zones.settings.edit("ip_geolocation", { zone_id: other, value: "off" })).rejects.toMatchObject({
			status: 403,
		});
		// A token with DNS Read only: not the Zone Settings group.
		await expect(
			sdkClient(DNS_READ_TOKEN).zones.settings.get("ip_geolocation", { zone_id: DEFAULT_ZONE_ID }),
		).rejects.toMatchObject({ status: 403 });
	});
});
