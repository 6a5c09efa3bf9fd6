/**
 * The Logpush page through the Worker's front door (no browser): what the API refuses is shown on
 * the page, and nothing is stored. Browser tests of the same page: test/dash/e2e/logpush.e2e.ts.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCOPED_TOKEN, TOKEN } from "../api/credentials";
import { call, freshZone } from "../api/http";
import { edgeRequest, flush, zoneWithHost } from "../edge/logs-helpers";
import { DASH, post, signIn } from "./dash-http";
import { seen } from "./seen";

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
		// The API points at the 41st name, so the message is the Field Name's.
		const name = (await seen(await response.text())).field("Field Name");
		expect(name).toMatchObject({ value: "c41", invalid: true });
		expect(name.error).toBe("at most 40 custom log fields are allowed per zone");
		const after = await call("GET", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`);
		// The rules as they were: forty request fields, no cookie field (a substring check of the
		// JSON also matched "c41" inside a random hex id now and then).
		const [rule] = (after.body.result as { rules: { action_parameters: Record<string, unknown> }[] }).rules;
		expect(rule?.action_parameters).toEqual({ request_fields: forty });
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

	it("creates a job with batch limits and a filter, and shows a refused filter next to its field", async () => {
		const zone = await freshZone();
		const session = (await signIn(TOKEN)).browser;
		const filter = JSON.stringify({ where: { key: "ClientRequestPath", operator: "startsWith", value: "/api" } });
		const form = {
			destination_conf: `r2://edgezone-logs/${zone}/dash-limits/{DATE}`,
			timestamp_format: "unixnano",
			output_type: "ndjson",
			max_upload_records: "5000",
			max_upload_bytes: "",
			max_upload_interval_seconds: "60",
			filter,
			enabled: "true",
		};
		const refused = await post(session, `/zones/${zone}/logpush/jobs`, { ...form, filter: '{"where":' });
		expect(refused.status).toBe(400);
		const shown = (await seen(await refused.text())).field("Filter");
		expect(shown.invalid).toBe(true);
		expect(shown.error).not.toBe("");
		// What was typed stays in the field.
		expect(shown.value).toBe('{"where":');
		expect((await call("GET", `/zones/${zone}/logpush/jobs`)).body.result).toEqual([]);

		expect((await post(session, `/zones/${zone}/logpush/jobs`, form)).status).toBe(303);
		const [job] = (await call("GET", `/zones/${zone}/logpush/jobs`)).body.result as Record<string, unknown>[];
		expect(job).toMatchObject({
			max_upload_records: 5000,
			max_upload_bytes: 0,
			max_upload_interval_seconds: 60,
			filter,
		});
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

	it("shows the last hour's entries with their custom fields, once log retention is turned on", async () => {
		const { zone_id, host } = await zoneWithHost("dashlog");
		const session = (await signIn(TOKEN)).browser;
		const page = async () =>
			(await exports.default.fetch(`${DASH}/zones/${zone_id}/logpush`, { headers: { cookie: session.cookie } })).text();
		expect(await page()).toContain("Log retention is off");

		const on = await post(session, `/zones/${zone_id}/logpush/retention`, {});
		expect(on.status).toBe(303);
		const flag = await call("GET", `/zones/${zone_id}/logs/control/retention/flag`);
		expect(flag.body.result).toEqual({ flag: true });
		const fields = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					action_parameters: { request_fields: [{ name: "x-request-id" }] },
				},
			],
		});
		expect(fields.status).toBe(200);
		const sent = await edgeRequest(host, "/dash-recent/missing.txt", { headers: { "x-request-id": "r-42" } });
		expect(sent.status).toBe(404);
		await flush(zone_id);

		const shown = await seen(await page());
		expect(shown.text).not.toContain("Log retention is off");
		const row = shown.rows.find((cells) => cells[1] === "GET /dash-recent/missing.txt");
		expect(row?.[3]).toBe(sent.ray);
		expect(row?.[4]).toContain("x-request-id: r-42");
	});
});
