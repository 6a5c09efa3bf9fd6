/**
 * The gateway's 401 to a browser: a page naming the dashboard for a navigation sent without
 * credentials, the JSON 401 for every other request, through the Worker's front door.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { configure, flush, records, zoneWithHost } from "../edge/logs-helpers";
import { errorOf, gw, put, withVars } from "./helpers";

/** What Chromium sends with a navigation. */
const BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8";

describe("the gateway's 401 to a browser", () => {
	it("answers a browser's navigation without credentials with a page linking to the dashboard", async () => {
		const response = await exports.default.fetch("http://localhost:8787/", { headers: { accept: BROWSER } });
		expect(response.status).toBe(401);
		expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
		expect(response.headers.get("www-authenticate")).toBe('Bearer realm="edgezone"');
		expect(response.headers.get("x-r2-error-code")).toBe("10002");
		expect(response.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		expect(response.headers.get("vary")).toContain("Accept");
		expect(response.headers.get("content-security-policy")).toBe(
			"default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
		);
		const page = await textOf(response);
		expect(page).toMatch(/^<!DOCTYPE html>/);
		expect(page).toContain("edgezone's bucket gateway");
		expect(page).toContain('<a href="http://dash.localhost:8787/">http://dash.localhost:8787/</a>');
		expect(page).toContain("README.md");
		// The JSON 401's message, escaped.
		expect(page).toContain("Send Authorization: Bearer &lt;token&gt;.");
		expect(page).not.toContain("<script");
	});

	it("links to the dashboard on the request's scheme and default port, for any path", async () => {
		const page = await textOf(
			await exports.default.fetch("https://gateway.test/some/key.txt", { headers: { accept: "text/html" } }),
		);
		expect(page).toContain('<a href="https://dash.localhost/">');
	});

	it("answers HEAD with the page's headers and no body", async () => {
		const response = await gw("/", { method: "HEAD", token: null, headers: { accept: BROWSER } });
		expect(response.status).toBe(401);
		expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
		expect(await textOf(response)).toBe("");
	});

	it("escapes DASHBOARD_HOST, and leaves the link out when it is empty", async () => {
		const odd = await textOf(
			await withVars({ DASHBOARD_HOST: 'dash"><b>x' }, "/", { headers: { accept: "text/html" } }),
		);
		expect(odd).not.toContain("<b>x");
		const off = await withVars({ DASHBOARD_HOST: "" }, "/", { headers: { accept: "text/html" } });
		expect(off.status).toBe(401);
		const text = await textOf(off);
		expect(text).not.toContain("<a ");
		expect(text).toContain("DASHBOARD_HOST is not set");
	});

	it.each([
		["curl's */*", { accept: "*/*" }, "GET"],
		["application/json", { accept: "application/json" }, "GET"],
		["no Accept", {}, "GET"],
		["a browser's Accept with a wrong token", { accept: BROWSER, authorization: "Bearer nope" }, "GET"],
		["a browser's Accept with another scheme", { accept: BROWSER, authorization: "Basic dXNlcjpwYXNz" }, "GET"],
		["a browser's Accept on a PUT", { accept: BROWSER }, "PUT"],
	])("keeps the JSON 401 for %s", async (_, headers, method) => {
		const response = await gw("/", { method, token: null, headers, body: method === "PUT" ? "x" : undefined });
		expect(response.status).toBe(401);
		expect(response.headers.get("content-type")).toBe("application/json");
		expect(response.headers.get("www-authenticate")).toBe('Bearer realm="edgezone"');
		expect((await errorOf(response)).code).toBe(10002);
	});

	it("serves a token's request as usual, whatever it accepts", async () => {
		await put("browser/a.txt", "hello");
		const response = await gw("/browser/a.txt", { headers: { accept: BROWSER } });
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("hello");
	});

	it("lets PUBLIC_READ reads through, and pages only the list it refuses", async () => {
		await put("browser/public.txt", "open");
		const read = await withVars({ PUBLIC_READ: "true" }, "/browser/public.txt", { headers: { accept: BROWSER } });
		expect(read.status).toBe(200);
		expect(await textOf(read)).toBe("open");
		const list = await withVars({ PUBLIC_READ: "true" }, "/?list", { headers: { accept: BROWSER } });
		expect(list.status).toBe(401);
		expect(list.headers.get("content-type")).toBe("text/html; charset=utf-8");
		await textOf(list);
	});

	it("keeps S3's anonymous 403 and the API's own answer", async () => {
		const s3 = await exports.default.fetch("http://gateway.test/?list-type=2", {
			headers: { accept: BROWSER, "x-amz-content-sha256": "UNSIGNED-PAYLOAD" },
		});
		expect(s3.status).toBe(403);
		expect(s3.headers.get("content-type")).toBe("application/xml");
		await textOf(s3);
		const api = await exports.default.fetch("http://gateway.test/client/v4/zones", { headers: { accept: BROWSER } });
		expect(api.status).toBe(400);
		expect(api.headers.get("content-type")).toMatch(/^application\/json/);
		await textOf(api);
	});

	it("logs the page like any answer", async () => {
		const { zone_id, host } = await zoneWithHost("browser");
		await configure(
			zone_id,
			{ request_fields: [{ name: "accept" }] },
			{ output_options: { field_names: ["RayID", "EdgeResponseStatus", "EdgeResponseContentType"] } },
		);
		const response = await exports.default.fetch(`http://${host}/`, { headers: { accept: BROWSER } });
		expect(response.status).toBe(401);
		await textOf(response);
		const ray = (response.headers.get("cf-ray") ?? "").split("-")[0];
		const [delivery] = await flush(zone_id);
		const entry = (await records(delivery?.objects ?? [])).find((e) => e.RayID === ray);
		expect(entry).toStrictEqual({
			RayID: ray,
			EdgeResponseStatus: 401,
			EdgeResponseContentType: "text/html; charset=utf-8",
		});
	});
});
