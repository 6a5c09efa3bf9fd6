/**
 * The Network page through the Worker's front door (no browser): the IP Geolocation card shows the
 * zone's setting and turns it off and on through the API; a read-only credential sees the state
 * and is refused the change, which stays unmade; a token without Zone Settings sees the API's
 * refusal in the card's place. Browser test of the same page: test/dash/e2e/network.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { READ_TOKEN, TOKEN, WAF_TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

const open = async (browser: Browser, path: string) =>
	seen(await (await exports.default.fetch(`${DASH}${path}`, { headers: { cookie: browser.cookie } })).text());

/** The zone's IP Geolocation setting as the API answers it. */
async function ipGeolocation(zone: string): Promise<string> {
	return ((await call("GET", `/zones/${zone}/settings/ip_geolocation`)).body.result as { value: string }).value;
}

describe("the Network page", () => {
	it("shows IP Geolocation on, turns it off and on again", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const page = await open(browser, `/zones/${zone}/network`);
		expect(page.h1).toBe("Network");
		expect(page.text).toContain("Status: On");
		expect(page.links("Network").map((l) => l.get("href"))).toContain(`/zones/${zone}/network`);
		const off = await post(browser, `/zones/${zone}/network/ip-geolocation`, { value: "off" });
		expect(off.status).toBe(303);
		expect(off.headers.get("location")).toBe(`/zones/${zone}/network?done=off`);
		expect(await ipGeolocation(zone)).toBe("off");
		const turned = await open(browser, `/zones/${zone}/network?done=off`);
		expect(turned.text).toContain("IP Geolocation turned off.");
		expect(turned.text).toContain("Status: Off");
		await post(browser, `/zones/${zone}/network/ip-geolocation`, { value: "on" });
		expect(await ipGeolocation(zone)).toBe("on");
	});

	it("shows the API's refusal of a read-only credential's change, and of a value the setting does not take", async () => {
		const zone = await freshZone();
		const reader = (await signIn(READ_TOKEN)).browser;
		expect((await open(reader, `/zones/${zone}/network`)).text).toContain("Status: On");
		const refused = await post(reader, `/zones/${zone}/network/ip-geolocation`, { value: "off" });
		expect(refused.status).toBe(403);
		expect((await seen(await refused.text())).alerts.join(" ")).toMatch(/Authentication error/);
		const { browser } = await signIn(TOKEN);
		const invalid = await post(browser, `/zones/${zone}/network/ip-geolocation`, { value: "maybe" });
		expect(invalid.status).toBe(400);
		expect((await seen(await invalid.text())).alerts.join(" ")).toContain(
			"Invalid value for zone setting ip_geolocation",
		);
		expect(await ipGeolocation(zone)).toBe("on");
	});

	it("shows a token without Zone Settings the API's refusal in place of the setting", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(WAF_TOKEN);
		const page = await open(browser, `/zones/${zone}/network`);
		expect(page.alerts.join(" ")).toMatch(/Authentication error/);
		expect(page.text).not.toContain("Status:");
	});
});
