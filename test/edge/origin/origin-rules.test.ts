/**
 * Origin Rules through HTTP: a proxied record whose own address reaches nothing is routed by a
 * rule of `http_request_origin` to the echoing origin on this machine (`origin.host`,
 * `origin.port`), with the rule's `host_header`; a request no rule matches keeps the record's
 * address (developers.cloudflare.com/rules/origin-rules/features/).
 */
import { describe, expect, it } from "vitest";
import { call } from "../../api/http";
import { type Echo, originCount, originPort, originZone, record, visit } from "./helpers";

describe("an Origin Rule's route", () => {
	it("sends a matching request to its origin host and port, with its Host header; others keep the record's address", async () => {
		const { zone_id, zone } = await originZone();
		// 192.0.2.1 (TEST-NET-1) reaches nothing: without a route the edge answers 522 at once.
		await record(zone_id, "A", "app", "192.0.2.1");
		const rules = await call("PUT", `/zones/${zone_id}/rulesets/phases/http_request_origin/entrypoint`, {
			rules: [
				{
					action: "route",
					expression: 'starts_with(http.request.uri.path, "/routed")',
					action_parameters: { host_header: "api.internal", origin: { host: "localhost", port: originPort() } },
				},
			],
		});
		expect(rules.status, JSON.stringify(rules.body)).toBe(200);

		const path = `/routed-${crypto.randomUUID()}`;
		const routed = await visit(`http://app.${zone}${path}`);
		expect(routed.status, routed.text).toBe(200);
		const echo = JSON.parse(routed.text) as Echo;
		expect(echo.url).toBe(path);
		// workerd sends the URL's host as Host (origin/headers.ts, gaps): the rule's host_header goes as X-Forwarded-Host.
		expect(echo.headers["x-forwarded-host"]).toBe("api.internal");
		expect(await originCount(path)).toBe(1);

		const unrouted = await visit(`http://app.${zone}/elsewhere`);
		expect(unrouted.status).toBe(522);
	});
});
