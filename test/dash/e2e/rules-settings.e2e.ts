/**
 * The Rules settings page in Chromium: reached from the zone's sidebar, the Managed Transforms
 * shown off, one turned on with its button (the API then answers it on, and the row says so), its
 * conflicting other half shown unavailable, and turned off again.
 */
import { expect, it } from "vitest";
import { api, browserSuite, statusSays, zoneSession } from "./browser";

const ZONE_NAME = `rules-settings-${Date.now().toString(36)}.example.org`;

type Lists = Record<string, { id: string; enabled: boolean }[]>;

browserSuite("the Rules settings page", () => {
	const session = zoneSession(ZONE_NAME);
	const row = (name: string) =>
		session.page.getByRole("row").filter({ has: session.page.getByRole("rowheader", { name, exact: true }) });
	const on = async () =>
		Object.values(await api<Lists>("GET", `/zones/${session.zoneId}/managed_headers`))
			.flat()
			.filter((t) => t.enabled)
			.map((t) => t.id);

	it("opens at Settings under Rules in the zone's sidebar, every Managed Transform off", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Settings" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Rules settings" }).waitFor();
		expect(new URL(session.page.url()).pathname).toBe(`/zones/${session.zoneId}/rules-settings`);
		await expect(row("Remove visitor IP headers").getByRole("cell").nth(1).textContent()).resolves.toBe("Off");
	});

	it("turns Remove visitor IP headers on, which makes True-Client-IP unavailable, and off again", async () => {
		await row("Remove visitor IP headers").getByRole("button", { name: "Turn on Remove visitor IP headers" }).click();
		expect(await statusSays(session.page, "Managed Transform turned on.")).toBe("Managed Transform turned on.");
		await expect(row("Remove visitor IP headers").getByRole("cell").nth(1).textContent()).resolves.toBe("On");
		await expect(on()).resolves.toEqual(["remove_visitor_ip_headers"]);
		await expect(row('Add "True-Client-IP" header').getByRole("button").count()).resolves.toBe(0);
		await expect(row('Add "True-Client-IP" header').textContent()).resolves.toContain(
			"Unavailable while Remove visitor IP headers is on",
		);
		await row("Remove visitor IP headers").getByRole("button", { name: "Turn off Remove visitor IP headers" }).click();
		expect(await statusSays(session.page, "Managed Transform turned off.")).toBe("Managed Transform turned off.");
		await expect(on()).resolves.toEqual([]);
		await expect(row('Add "True-Client-IP" header').getByRole("button").count()).resolves.toBe(1);
	});
});
