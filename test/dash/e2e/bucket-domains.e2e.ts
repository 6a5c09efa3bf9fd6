/**
 * The Public access page (R2 Object Storage > Public access) in Chromium: reached from the sidebar,
 * a custom domain of the zone connected and listed, its host then serving the bucket with no
 * token; a domain outside the zone refused with the API's error read with the Domain field; the
 * domain disabled and removed (the confirmation accepted); and the r2.dev subdomain of another
 * bucket allowed, showing its URL, and disallowed.
 */
import { request } from "node:http";
import { beforeAll, expect, it } from "vitest";
import { browserSuite, describedBy, e2e, statusSays, zoneSession } from "./browser";

const RUN = Date.now().toString(36);
const ZONE_NAME = `public-access-${RUN}.example.org`;
const DOMAIN = `cdn.${ZONE_NAME}`;
const KEY = `public-access-${RUN}.txt`;

/** A request to the edge as `host` (fetch cannot set Host), with `headers`: its status. */
function edge(host: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
	const { hostname, port } = new URL(e2e.baseUrl);
	return new Promise<number>((resolve, reject) => {
		const req = request({ host: hostname, port, method, path, headers: { ...headers, host } }, (res) => {
			res.resume();
			res.on("end", () => resolve(res.statusCode ?? 0));
		});
		req.on("error", reject);
		req.end(body);
	});
}

browserSuite("the Public access page", () => {
	const session = zoneSession(ZONE_NAME);
	beforeAll(async () => {
		expect(await edge("localhost", "PUT", `/${KEY}`, { authorization: `Bearer ${e2e.gatewayToken}` }, "public")).toBe(
			200,
		);
	});

	const connectForm = () => session.page.getByRole("form", { name: "Connect domain" });
	const row = (name: string) =>
		session.page.getByRole("row").filter({ has: session.page.getByRole("cell", { name, exact: true }) });

	it("opens at R2 Object Storage > Public access from the zone's sidebar", async () => {
		await session.page.getByRole("link", { name: ZONE_NAME }).click();
		await session.page.getByRole("navigation", { name: "Zone" }).getByRole("link", { name: "Public access" }).click();
		await session.page.getByRole("heading", { level: 1, name: "Public access" }).waitFor();
		await expect(session.page.getByLabel("Bucket", { exact: true }).inputValue()).resolves.toBe("edgezone-bucket");
	});

	it("connects a domain of the zone, which then serves the bucket with no token", async () => {
		expect(await edge(DOMAIN, "GET", `/${KEY}`)).toBe(401);
		await connectForm().getByLabel("Domain", { exact: true }).fill(DOMAIN);
		await connectForm().getByLabel("Minimum TLS").selectOption("1.2");
		await connectForm().getByRole("button", { name: "Connect domain" }).click();
		expect(await statusSays(session.page, "Custom domain connected.")).toBe("Custom domain connected.");
		const cells = await row(DOMAIN).getByRole("cell").allTextContents();
		expect(cells.slice(0, 5)).toEqual([DOMAIN, ZONE_NAME, "Active", "Enabled", "1.2"]);
		expect(await edge(DOMAIN, "GET", `/${KEY}`)).toBe(200);
	});

	it("shows a domain outside the zone refused next to the Domain field", async () => {
		await connectForm().getByLabel("Domain", { exact: true }).fill("cdn.elsewhere.example.net");
		await connectForm().getByRole("button", { name: "Connect domain" }).click();
		await session.page.locator('[aria-invalid="true"]').first().waitFor();
		await expect(describedBy(connectForm(), "Domain", true)).resolves.toContain(
			`domain cdn.elsewhere.example.net is not in the zone ${ZONE_NAME}`,
		);
		await expect(connectForm().getByLabel("Domain", { exact: true }).inputValue()).resolves.toBe(
			"cdn.elsewhere.example.net",
		);
	});

	it("disables the domain, then removes it", async () => {
		await session.page.goto(`${e2e.dashUrl}/zones/${session.zoneId}/bucket-domains?bucket=edgezone-bucket`);
		await row(DOMAIN)
			.getByRole("button", { name: `Disable ${DOMAIN}` })
			.click();
		expect(await statusSays(session.page, "Custom domain disabled.")).toBe("Custom domain disabled.");
		await expect(row(DOMAIN).getByRole("cell").nth(3).textContent()).resolves.toBe("Disabled");
		expect(await edge(DOMAIN, "GET", `/${KEY}`)).toBe(401);
		session.page.once("dialog", (dialog) => void dialog.accept());
		await row(DOMAIN)
			.getByRole("button", { name: `Remove ${DOMAIN}` })
			.click();
		expect(await statusSays(session.page, "Custom domain removed.")).toBe("Custom domain removed.");
		expect(await row(DOMAIN).count()).toBe(0);
	});

	it("allows and disallows another bucket's r2.dev subdomain", async () => {
		await session.page.getByLabel("Bucket", { exact: true }).selectOption("edgezone-logs");
		await session.page.getByRole("button", { name: "Open bucket" }).click();
		const card = session.page.getByRole("region", { name: "r2.dev subdomain" });
		await card.getByRole("button", { name: "Allow access" }).click();
		expect(await statusSays(session.page, "r2.dev access allowed.")).toBe("r2.dev access allowed.");
		const shown = (await card.getByText(/^Allowed at/).textContent()) ?? "";
		const host = /https:\/\/(pub-[0-9a-f]{32}\.r2\.dev)/.exec(shown)?.[1] ?? "";
		expect(await edge(host, "GET", "/nothing-here")).toBe(404);
		await card.getByRole("button", { name: "Disallow access" }).click();
		expect(await statusSays(session.page, "r2.dev access disallowed.")).toBe("r2.dev access disallowed.");
		expect(await edge(host, "GET", "/nothing-here")).toBe(401);
	});
});
