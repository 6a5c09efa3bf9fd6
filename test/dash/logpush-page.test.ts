/**
 * The Logpush page through the Worker's front door (no browser): what the API refuses is shown on
 * the page, and nothing is stored. Browser tests of the same page: test/dash/e2e/logpush.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCOPED_TOKEN, TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { DASH, post, signIn } from "./dash-http";

describe("the Logpush page", () => {
	it("shows the API's 40-name limit when a 41st field is set, and stores nothing", async () => {
		const zone = await freshZone();
		const forty = Array.from({ length: 40 }, (_, i) => ({ name: `x-h${i}` }));
		const put = await call("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [{ action: "log_custom_field", expression: "true", action_parameters: { request_fields: forty } }],
		});
		expect(put.status).toBe(200);
		const session = (await signIn(TOKEN)).browser;
		const response = await post(session, `/zones/${zone}/logpush/custom-fields`, {
			type: "cookie_fields",
			name: "c41",
		});
		expect(response.status).toBe(400);
		const html = await response.text();
		// The API points at the 41st name, so the message is the Field Name's.
		expect(html).toContain(
			'<p class="error" id="field-name-error">at most 40 custom log fields are allowed per zone</p>',
		);
		expect(html).toMatch(/<input id="field-name" name="name" type="text" value="c41"[^>]*aria-invalid="true"/);
		const after = await call("GET", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`);
		expect(JSON.stringify(after.body.result)).not.toContain("c41");
	});

	it("shows a zone out of the credential's reach as the API's refusal, nothing of the zone", async () => {
		const zone = await freshZone();
		const session = (await signIn(SCOPED_TOKEN)).browser;
		const response = await exports.default.fetch(`${DASH}/zones/${zone}/logpush`, {
			headers: { cookie: session.cookie },
		});
		expect(response.status).toBe(403);
		const html = await response.text();
		expect(html).toContain("Authentication error");
		expect(html).not.toContain("Custom Fields");
		const write = await post(session, `/zones/${zone}/logpush/custom-fields`, { type: "request_fields", name: "x-a" });
		expect(write.status).toBe(403);
	});

	it("refuses a write without the session's CSRF token, storing nothing", async () => {
		const zone = await freshZone();
		const session = (await signIn(TOKEN)).browser;
		const response = await post({ ...session, csrf: "forged" }, `/zones/${zone}/logpush/custom-fields`, {
			type: "request_fields",
			name: "x-forged",
		});
		expect(response.status).toBe(403);
		const after = await call("GET", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`);
		expect(after.status).toBe(404);
	});
});
