/**
 * The Rules settings page through the Worker's front door (no browser): the Managed Transforms of
 * both lists with their state, one turned on and off through the API, a conflicting one shown
 * unavailable while its other half is on (and refused by the API if posted anyway), and a
 * read-only credential's change refused. Browser test of the same page:
 * test/dash/e2e/rules-settings.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DNS_READ_TOKEN, READ_TOKEN, TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { type Browser, DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

const open = async (browser: Browser, path: string) =>
	seen(await (await exports.default.fetch(`${DASH}${path}`, { headers: { cookie: browser.cookie } })).text());

/** The ids of the zone's Managed Transforms that are on, as the API answers them. */
async function enabled(zone: string): Promise<string[]> {
	const result = (await call("GET", `/zones/${zone}/managed_headers`)).body.result as Record<
		string,
		{ id: string; enabled: boolean }[]
	>;
	return Object.values(result)
		.flat()
		.filter((t) => t.enabled)
		.map((t) => t.id);
}

describe("the Rules settings page", () => {
	it("lists the Managed Transforms off, turns one on and off again", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const page = await open(browser, `/zones/${zone}/rules-settings`);
		expect(page.h1).toBe("Rules settings");
		expect(page.links("Settings").map((l) => l.get("href"))).toContain(`/zones/${zone}/rules-settings`);
		expect(page.rows.map((r) => [r[0], r[2]])).toEqual([
			["Managed Transform", "Status"],
			["Add visitor location headers", "Off"],
			['Add "True-Client-IP" header', "Off"],
			["Remove visitor IP headers", "Off"],
			["Managed Transform", "Status"],
			['Remove "X-Powered-By" headers', "Off"],
			["Add security headers", "Off"],
		]);
		const on = await post(browser, `/zones/${zone}/rules-settings/managed-transforms`, {
			list: "managed_response_headers",
			id: "add_security_headers",
			enabled: "true",
		});
		expect(on.status).toBe(303);
		expect(on.headers.get("location")).toBe(`/zones/${zone}/rules-settings?done=on`);
		expect(await enabled(zone)).toEqual(["add_security_headers"]);
		const turned = await open(browser, `/zones/${zone}/rules-settings?done=on`);
		expect(turned.text).toContain("Managed Transform turned on.");
		expect(turned.rows.find((r) => r[0] === "Add security headers")?.[2]).toBe("On");
		await post(browser, `/zones/${zone}/rules-settings/managed-transforms`, {
			list: "managed_response_headers",
			id: "add_security_headers",
			enabled: "false",
		});
		expect(await enabled(zone)).toEqual([]);
	});

	it("shows a transform unavailable while its other half is on, and the API's refusal if it is posted", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		await post(browser, `/zones/${zone}/rules-settings/managed-transforms`, {
			list: "managed_request_headers",
			id: "remove_visitor_ip_headers",
			enabled: "true",
		});
		const page = await open(browser, `/zones/${zone}/rules-settings`);
		expect(page.rows.find((r) => r[0] === 'Add "True-Client-IP" header')?.[3]).toBe(
			"Unavailable while Remove visitor IP headers is on",
		);
		const refused = await post(browser, `/zones/${zone}/rules-settings/managed-transforms`, {
			list: "managed_request_headers",
			id: "add_true_client_ip_headers",
			enabled: "true",
		});
		expect(refused.status).toBe(400);
		expect((await seen(await refused.text())).alerts.join(" ")).toContain("conflict");
		expect(await enabled(zone)).toEqual(["remove_visitor_ip_headers"]);
	});

	it("shows a read-only credential the state and refuses its change; a token of no rules family sees the API's refusal", async () => {
		const zone = await freshZone();
		const reader = (await signIn(READ_TOKEN)).browser;
		expect((await open(reader, `/zones/${zone}/rules-settings`)).rows).toHaveLength(7);
		const refused = await post(reader, `/zones/${zone}/rules-settings/managed-transforms`, {
			list: "managed_response_headers",
			id: "add_security_headers",
			enabled: "true",
		});
		expect(refused.status).toBe(403);
		expect((await seen(await refused.text())).alerts.join(" ")).toMatch(/Authentication error/);
		expect(await enabled(zone)).toEqual([]);
		const outsider = (await signIn(DNS_READ_TOKEN)).browser;
		const page = await open(outsider, `/zones/${zone}/rules-settings`);
		expect(page.alerts.join(" ")).toMatch(/Authentication error/);
		expect(page.rows).toEqual([]);
	});
});
