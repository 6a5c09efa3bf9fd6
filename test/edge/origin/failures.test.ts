/**
 * When the origin gives no answer, the edge answers Cloudflare's error statuses with its pages and
 * CF-Ray: 521 refused, 522 timed out (or an address that reaches nothing), 530/1016 for a name
 * that does not resolve, 1000 for a request that would loop.
 */
import { describe, expect, it } from "vitest";
import { originCount, originPort, originZone, record, refusedPort, visit } from "./helpers";

describe("an origin that does not answer", () => {
	it("refusing the connection: 521", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const res = await visit(`http://app.${zone}:${refusedPort()}/`);
		expect(res.status).toBe(521);
		expect(res.text).toContain("Error 521");
		expect(res.text).toContain((res.headers.get("cf-ray") ?? "?").split("-")[0]);
	});

	it("answering later than the connect timeout: 522", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const res = await visit(`http://app.${zone}:${originPort()}/slow/one`);
		expect(res.status).toBe(522);
		expect(res.text).toContain("Error 522");
		expect(res.headers.get("cf-ray")).not.toBeNull();
	});

	it("at an address that reaches nothing (192.0.2.1, 100::): 522 at once", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "doc", "192.0.2.1");
		await record(zone_id, "AAAA", "discard", "100::");
		for (const name of ["doc", "discard"]) {
			const res = await visit(`http://${name}.${zone}/`);
			expect(res.status, name).toBe(522);
		}
	});

	it("named by a CNAME that does not resolve: 530 with error 1016", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "CNAME", "inside", `nothing.${zone}`);
		await record(zone_id, "CNAME", "outside", "no-such-host.invalid");
		for (const name of ["inside", "outside"]) {
			const res = await visit(`http://${name}.${zone}/`);
			expect(res.status, name).toBe(530);
			expect(res.text, name).toContain("Error 1016");
		}
	});

	it("a request that already passed the edge (CDN-Loop: cloudflare) is not sent again: 403 error 1000", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const res = await visit(`http://app.${zone}:${originPort()}/looped`, { headers: { "cdn-loop": "cloudflare" } });
		expect(res.status).toBe(403);
		expect(res.text).toContain("Error 1000");
		expect(await originCount("/looped")).toBe(0);
	});
});
