/**
 * The Network page in Chromium: reached from the zone's sidebar, IP Geolocation shown on, turned
 * off with its button (the API then answers off, and the status and the button say so), and on again.
 */
import { expect, it } from "vitest";
import { api, browserSuite, statusSays, zoneSession } from "./browser";

const ZONE_NAME = `network-page-${Date.now().toString(36)}.example.org`;

browserSuite("the Network page", () => {
	const session = zoneSession(ZONE_NAME);
	const card = () => session.page.getByRole("region", { name: "IP Geolocation" });
	const setting = () => api<{ value: string }>("GET", `/zones/${session.zoneId}/settings/ip_geolocation`);

	it("opens at Network from the zone's sidebar, IP Geolocation on", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Network" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Network" }).waitFor();
		expect(new URL(session.page.url()).pathname).toBe(`/zones/${session.zoneId}/network`);
		await expect(card().getByText("Status:").textContent()).resolves.toBe("Status: On");
	});

	it("turns IP Geolocation off with its button, and on again", async () => {
		await card().getByRole("button", { name: "Turn off" }).click();
		expect(await statusSays(session.page, "IP Geolocation turned off.")).toBe("IP Geolocation turned off.");
		await expect(card().getByText("Status:").textContent()).resolves.toBe("Status: Off");
		await expect(setting()).resolves.toMatchObject({ value: "off" });
		await card().getByRole("button", { name: "Turn on" }).click();
		expect(await statusSays(session.page, "IP Geolocation turned on.")).toBe("IP Geolocation turned on.");
		await expect(setting()).resolves.toMatchObject({ value: "on" });
	});
});
