/**
 * The dashboard on a phone (390x844, the width of current iPhones): every page, with tables that
 * have rows, long values and filled forms, fits the screen's width (no horizontal scrolling of
 * the page; a wide table scrolls inside its own box); the zone's navigation collapses into a Menu
 * disclosure that opens without scripts and leads to another page; at 1280 px the sidebar shows as
 * before. The content is made through the API v4 and the gateway, as curl would.
 */
import { request } from "node:http";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOKEN } from "../../api/credentials";
import { api, browserSuite, e2e, openBrowser, signIn } from "./browser";
import type { E2E_WORKERS } from "./workers";

const PHONE = { width: 390, height: 844 };
/** A phone's browser: its width, and the page laid out as a phone's browser does (viewport meta, touch). */
const PHONE_SCREEN = { viewport: PHONE, isMobile: true, hasTouch: true };
const RUN = Date.now().toString(36);
// A long zone name, as real ones can be: the top bar must wrap it, not widen the page.
const ZONE_NAME = `phone-layout-${RUN}-a-rather-long-subdomain-label.example.org`;
// A key with a long unbroken run, as generated keys are: shown in the listing and on the object's page.
const FOLDER = `phone-${RUN}/`;
/** wrangler.toml's DEFAULT_ACCOUNT_ID: the account of the buckets. */
const ACCOUNT_ID = "01a7362d577a6c3019a474fd6f485823";
/** A Worker of the account with a long name, for the routes page. */
const PHONE_WORKER = "storefront-checkout-payment-confirmation-worker" satisfies keyof typeof E2E_WORKERS;
const LONG_KEY = `${FOLDER}exports/2026-11-28/report-${"0123456789abcdef".repeat(5)}.json`;

/** A request to the zone's gateway (fetch cannot set Host): its status. */
function gateway(method: string, path: string, body?: string): Promise<number> {
	const { hostname, port } = new URL(e2e.baseUrl);
	const headers = { host: ZONE_NAME, authorization: `Bearer ${e2e.gatewayToken}` };
	return new Promise((resolve, reject) => {
		const req = request({ host: hostname, port, method, path, headers }, (res) => {
			res.resume();
			res.on("end", () => resolve(res.statusCode ?? 0));
		});
		req.on("error", reject);
		req.end(body);
	});
}

/**
 * How far the page is wider than the phone's screen, in CSS pixels (0 when it fits), and the
 * layout viewport's width, which a phone's browser widens to show a page wider than the screen (so
 * `scrollWidth <= innerWidth` alone would pass such a page). When it does not fit, `culprits` names
 * the elements that push past the right edge (wider than their parent, or in a parent that fits),
 * outside any box that scrolls on its own: tag, class and width, to say what to fix. `clipped`
 * names the boxes whose content is cut off (wider than the box, which hides the rest rather than
 * scrolling it), and `scrolling` the boxes wider inside than out that scroll sideways (a wide table).
 */
function overflowOf(
	page: Page,
): Promise<{ innerWidth: number; overflow: number; culprits: string[]; clipped: string[]; scrolling: string[] }> {
	return page.evaluate((screenWidth) => {
		const overflow = Math.max(0, document.documentElement.scrollWidth - Math.min(window.innerWidth, screenWidth));
		const right = (el: Element) => el.getBoundingClientRect().right;
		const inScrollBox = (el: Element) => {
			for (let up = el.parentElement; up !== null && up !== document.body; up = up.parentElement)
				if (getComputedStyle(up).overflowX !== "visible") return true;
			return false;
		};
		const describe = (el: Element) =>
			`${el.tagName.toLowerCase()}${el.className ? `.${el.className}` : ""} (${Math.round(el.getBoundingClientRect().width)} px)`;
		const wider = [...document.querySelectorAll("body *")].filter(
			(el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== "visible",
		);
		// Form controls scroll their own text; the visually hidden are cut to 1 px on purpose.
		const clipped = wider
			.filter((el) => ["hidden", "clip"].includes(getComputedStyle(el).overflowX))
			.filter((el) => !el.matches("input, select, textarea, .visually-hidden"))
			.map(describe);
		const scrolling = wider.filter((el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX)).map(describe);
		const culprits =
			overflow === 0
				? []
				: [...document.querySelectorAll("body *")]
						.filter((el) => right(el) > screenWidth + 0.5 && !inScrollBox(el))
						.filter((el) => {
							const parent = el.parentElement;
							if (parent === null) return true;
							return right(parent) <= screenWidth + 0.5 || el.getBoundingClientRect().width > parent.clientWidth + 0.5;
						})
						.slice(0, 10)
						.map(describe);
		return { innerWidth: window.innerWidth, overflow, culprits, clipped, scrolling };
	}, PHONE.width);
}

browserSuite("the dashboard at phone width (390 px)", () => {
	let browser: Browser;
	let page: Page;
	let zoneId: string;
	let ruleId: string;
	const zonePage = (path: string) => `${e2e.dashUrl}/zones/${zoneId}/${path}`;

	beforeAll(async () => {
		zoneId = (await api<{ id: string }>("POST", "/zones", { name: ZONE_NAME, account: {} })).id;
		const z = `/zones/${zoneId}`;
		await api("PUT", `${z}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					action_parameters: {
						request_fields: [{ name: "x-request-id" }, { name: "user-agent" }],
						response_fields: [{ name: "content-type" }],
						cookie_fields: [{ name: "session-identifier-cookie" }],
					},
				},
			],
		});
		await api("POST", `${z}/logpush/jobs`, {
			name: `phone-${RUN}-nightly-export-of-http-requests`,
			destination_conf: `r2://edgezone-logs/${zoneId}/http-requests/{DATE}`,
			dataset: "http_requests",
			enabled: true,
			output_options: {
				field_names: ["RayID", "EdgeStartTimestamp", "ClientRequestMethod", "ClientRequestURI", "EdgeResponseStatus"],
				timestamp_format: "rfc3339",
			},
		});
		const [rule] = await api<{ id: string }[]>("POST", `${z}/firewall/rules`, [
			{
				filter: {
					expression: `http.request.uri.path eq "/${FOLDER}admin" and not ip.src in {192.0.2.0/24 198.51.100.0/24}`,
				},
				action: "block",
				description: "Block the admin path from everywhere but the office networks",
			},
			{ filter: { expression: 'http.user_agent contains "curl"' }, action: "log", priority: 1, paused: true },
		]);
		ruleId = rule?.id ?? "";
		await api("PUT", `${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: [
				{ action: "log", expression: `starts_with(http.request.uri.path, "/${FOLDER}")`, description: "Log this run" },
				{ action: "block", expression: 'http.request.uri.query contains "drop-table-students-and-everything"' },
			],
		});
		await api("PUT", `${z}/rulesets/phases/http_request_dynamic_redirect/entrypoint`, {
			rules: [
				{
					action: "redirect",
					expression: `starts_with(http.request.uri.path, "/${FOLDER}old-documentation-section/")`,
					description: "Send the old documentation section to its new home on the documentation site",
					action_parameters: {
						from_value: {
							target_url: { expression: 'concat("https://documentation.example.com", http.request.uri.path)' },
							status_code: 308,
							preserve_query_string: true,
						},
					},
				},
			],
		});
		await api("PUT", `${z}/rulesets/phases/http_response_headers_transform/entrypoint`, {
			rules: [
				{
					action: "rewrite",
					expression: "true",
					description: "Security headers",
					action_parameters: {
						headers: {
							"Content-Security-Policy": {
								operation: "set",
								value: "default-src 'self'; img-src 'self' data: https://images.example.com",
							},
							"X-Frame-Options": { operation: "set", value: "DENY" },
						},
					},
				},
			],
		});
		await api("POST", `${z}/custom_hostnames`, {
			hostname: `shop-${RUN}.customer-with-a-long-name.example.net`,
			ssl: { method: "txt", type: "dv" },
		});
		await api("POST", `${z}/logs/control/retention/flag`, { flag: true });
		await api("POST", `/accounts/${ACCOUNT_ID}/r2/buckets/edgezone-bucket/domains/custom`, {
			domain: `public-assets.${ZONE_NAME}`,
			zoneId,
			enabled: true,
		});
		await api("POST", `${z}/workers/routes`, {
			pattern: `https://${RUN}-storefront-with-a-long-name.${ZONE_NAME}/checkout/payment-confirmation/*`,
			script: PHONE_WORKER,
		});
		expect(await gateway("PUT", `/${LONG_KEY}`, JSON.stringify({ long: "x".repeat(200) }))).toBe(200);
		expect(await gateway("GET", `/${LONG_KEY}?with=${"q".repeat(120)}`)).toBe(200);
		expect(await gateway("GET", `/${FOLDER}admin`)).toBe(403);

		({ browser, page } = await openBrowser(PHONE_SCREEN));
	});
	afterAll(async () => {
		await browser?.close();
	});

	/**
	 * Asserts the page in view fits the phone's width with nothing cut off; on failure names the page
	 * and what sticks out. Answers the boxes that scroll sideways.
	 */
	async function fits(name: string): Promise<string[]> {
		// A page reached by a form's redirect can show its heading before its style sheet applies.
		await page.waitForLoadState("load");
		const { scrolling, ...seen } = await overflowOf(page);
		expect({ page: name, ...seen }).toEqual({
			page: name,
			innerWidth: PHONE.width,
			overflow: 0,
			culprits: [],
			clipped: [],
		});
		return scrolling;
	}

	it("fits the sign-in page", async () => {
		await page.goto(`${e2e.dashUrl}/sign-in`);
		await page.getByRole("heading", { level: 1, name: "Sign in to edgezone" }).waitFor();
		await fits("sign-in");
	});

	it("fits the zone picker, the long zone name in its table", async () => {
		await signIn(page, TOKEN);
		await page.getByRole("link", { name: ZONE_NAME }).waitFor();
		await fits("zones");
	});

	describe("a zone's pages", () => {
		it("fits Logpush: the jobs, custom fields and recent entries tables", async () => {
			await page.goto(zonePage("logpush"));
			await page.getByRole("heading", { level: 1, name: "Logpush" }).waitFor();
			await page.getByRole("cell", { name: `phone-${RUN}-nightly-export-of-http-requests`, exact: true }).waitFor();
			// The jobs' table and Recent entries are wider than the screen: each scrolls in its own box.
			expect((await fits("logpush")).filter((box) => box.startsWith("table"))).toHaveLength(2);
		});

		it("fits Edit Custom Fields", async () => {
			await page.goto(zonePage("logpush/custom-fields"));
			await page.getByRole("heading", { level: 1, name: "Edit Custom Fields" }).waitFor();
			await fits("logpush/custom-fields");
		});

		it("fits Security rules: firewall rules, WAF custom rules, filters and their forms", async () => {
			await page.goto(zonePage("security"));
			await page.getByRole("heading", { level: 1, name: "Security rules" }).waitFor();
			await page.getByText("Block the admin path from everywhere but the office networks").first().waitFor();
			await fits("security");
		});

		it("fits a firewall rule's edit page", async () => {
			await page.goto(zonePage(`security/rules/${ruleId}`));
			await page.getByRole("heading", { level: 1, name: "Edit firewall rule" }).waitFor();
			await fits("security/rules/:id");
		});

		it("fits Rules: each kind's section, a long redirect and header rule in their tables", async () => {
			await page.goto(zonePage("rules"));
			await page.getByRole("heading", { level: 1, name: "Rules" }).waitFor();
			await page.getByText("Send the old documentation section to its new home on the documentation site").waitFor();
			await fits("rules");
		});

		it("fits a rule's edit page and a create page", async () => {
			const [rule] = (
				await api<{ rules: { id: string }[] }>(
					"GET",
					`/zones/${zoneId}/rulesets/phases/http_response_headers_transform/entrypoint`,
				)
			).rules;
			await page.goto(zonePage(`rules/response-headers/${rule?.id}`));
			await page.getByRole("heading", { level: 1, name: "Edit response header rule" }).waitFor();
			await fits("rules/response-headers/:id");
			await page.goto(zonePage("rules/url-rewrites/new"));
			await page.getByRole("heading", { level: 1, name: "Create URL rewrite rule" }).waitFor();
			await fits("rules/url-rewrites/new");
		});

		it("fits Edge Certificates: the custom hostname with its validation records", async () => {
			await page.goto(zonePage("ssl"));
			await page.getByRole("heading", { level: 1, name: "Edge Certificates" }).waitFor();
			await page.getByText(`shop-${RUN}.customer-with-a-long-name.example.net`).first().waitFor();
			await fits("ssl");
		});

		it("fits Bucket: the token form, then the listing with a long key and the S3 snippet", async () => {
			await page.goto(zonePage("bucket"));
			await page.getByRole("heading", { level: 1, name: "Bucket" }).waitFor();
			await fits("bucket (token form)");
			await page.getByLabel("Gateway token").fill(e2e.gatewayToken);
			await page.getByRole("button", { name: "Use this token" }).click();
			await page.getByRole("status").filter({ hasText: "Gateway token saved" }).waitFor();
			await fits("bucket");
			await page.goto(
				zonePage(`bucket?prefix=${encodeURIComponent(LONG_KEY.slice(0, LONG_KEY.lastIndexOf("/") + 1))}`),
			);
			const name = LONG_KEY.slice(LONG_KEY.lastIndexOf("/") + 1);
			await page.getByRole("link", { name }).waitFor();
			// A table scrolls inside its box at this width, and still reads as a table.
			await expect(page.getByRole("row").filter({ hasText: name }).count()).resolves.toBe(1);
			await fits("bucket (folder with a long key)");
			await page.getByRole("link", { name }).click();
			await page.getByRole("heading", { level: 1 }).filter({ hasText: name }).waitFor();
			await fits("bucket/object");
		});

		it("fits Public access: a custom domain with a long name and the r2.dev card", async () => {
			await page.goto(zonePage("bucket-domains"));
			await page.getByRole("heading", { level: 1, name: "Public access" }).waitFor();
			await page.getByRole("cell", { name: `public-assets.${ZONE_NAME}`, exact: true }).waitFor();
			await fits("bucket-domains");
		});

		it("fits Workers Routes: a long route pattern and the Add route form", async () => {
			await page.goto(zonePage("workers-routes"));
			await page.getByRole("heading", { level: 1, name: "Workers Routes" }).waitFor();
			await page.getByText(PHONE_WORKER).waitFor();
			await fits("workers-routes");
		});

		it("fits Network: the IP Geolocation card", async () => {
			await page.goto(zonePage("network"));
			await page.getByRole("heading", { level: 1, name: "Network" }).waitFor();
			await page.getByRole("button", { name: "Turn off" }).waitFor();
			await fits("network");
		});

		it("fits Rules settings: the Managed Transforms with their descriptions", async () => {
			await page.goto(zonePage("rules-settings"));
			await page.getByRole("heading", { level: 1, name: "Rules settings" }).waitFor();
			await page.getByRole("button", { name: "Turn on Add security headers" }).waitFor();
			await fits("rules-settings");
		});
	});

	it("opens the collapsed navigation and follows it to another page", async () => {
		await page.goto(zonePage("logpush"));
		const nav = page.getByRole("navigation", { name: "Zone" });
		// Collapsed: no link of the zone's navigation shows until the menu opens.
		await expect(nav.getByRole("link", { name: "Security rules" }).isVisible()).resolves.toBe(false);
		await page.getByText("Menu", { exact: true }).click();
		await nav.getByRole("link", { name: "Security rules" }).click();
		await page.getByRole("heading", { level: 1, name: "Security rules" }).waitFor();
		expect(new URL(page.url()).pathname).toBe(`/zones/${zoneId}/security`);
	});

	it("shows the sidebar beside the page at desktop width (1280 px), and no Menu", async () => {
		await page.setViewportSize({ width: 1280, height: 800 });
		await page.goto(zonePage("logpush"));
		const nav = page.getByRole("navigation", { name: "Zone" });
		const box = await nav.boundingBox();
		const main = await page.getByRole("main").boundingBox();
		expect(box?.x).toBe(0);
		expect(box && main && box.x + box.width <= main.x).toBe(true);
		await expect(nav.getByRole("link", { name: "Security rules" }).isVisible()).resolves.toBe(true);
		await expect(page.getByText("Menu", { exact: true }).isVisible()).resolves.toBe(false);
	});
});
