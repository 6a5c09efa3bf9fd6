/**
 * The dashboard reads a form no further than 1 MiB, the sign-in form before any session included:
 * a larger one is refused with a page that says so, and nothing behind it runs.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { cookiesOf, csrfOf, DASH, signIn } from "./dash-http";
import { seen } from "./seen";

describe("a form past 1 MiB", () => {
	it("is refused at sign-in before it is parsed, and signs no one in", async () => {
		const page = await exports.default.fetch(`${DASH}/sign-in`);
		const body = new URLSearchParams({
			csrf: csrfOf(await page.text()),
			token: TOKEN,
			padding: "x".repeat(1024 * 1024),
		});
		const answer = await exports.default.fetch(`${DASH}/sign-in`, {
			method: "POST",
			redirect: "manual",
			headers: { cookie: cookiesOf(page), "content-type": "application/x-www-form-urlencoded" },
			body,
		});
		expect(answer.status).toBe(413);
		expect((await seen(await answer.text())).alerts.join(" ")).toContain("A form may send at most 1024 KiB.");
		expect(answer.headers.get("set-cookie") ?? "").not.toContain("session");
	});

	it("is refused on a zone's page, streamed without a Content-Length, and stores nothing", async () => {
		const zone = await freshZone();
		const { browser } = await signIn(TOKEN);
		const form = new FormData();
		form.append("csrf", browser.csrf);
		form.append("file", new File([`www IN A 192.0.2.1\n; ${"x".repeat(1024 * 1024)}\n`], "zone.txt"));
		const encoded = new Response(form);
		const type = encoded.headers.get("content-type") ?? "";
		const bytes = new Uint8Array(await encoded.arrayBuffer());
		const stream = new ReadableStream({
			start(controller) {
				for (let at = 0; at < bytes.length; at += 65536) controller.enqueue(bytes.subarray(at, at + 65536));
				controller.close();
			},
		});
		const answer = await exports.default.fetch(`${DASH}/zones/${zone}/dns/import`, {
			method: "POST",
			redirect: "manual",
			headers: { cookie: browser.cookie, "content-type": type },
			body: stream,
		});
		expect(answer.status).toBe(413);
		expect((await call("GET", `/zones/${zone}/dns_records`)).body.result).toEqual([]);
	});
});
