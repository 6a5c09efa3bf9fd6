/**
 * The firewall end to end: rules written through the API (and the cloudflare SDK) decide which
 * requests the gateway serves, by the zone of their Host, at the very next request.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { CONFIG_CHECK_INTERVAL_MS } from "../../src/edge/config-checks";
import { firewall } from "../../src/edge/firewall";
import { requestFields } from "../../src/edge/request-fields";
import { call } from "../api/http";
import { sdkClient } from "../api/sdk";

const RW = "Bearer test-rw";

/** A new zone and its host name. */
async function zoneWithHost(): Promise<{ zone_id: string; host: string }> {
	const host = `fw-${crypto.randomUUID().slice(0, 8)}.example.net`;
	const res = await call("POST", "/zones", { name: host, account: {} });
	expect(res.status).toBe(200);
	return { zone_id: (res.body.result as { id: string }).id, host };
}

/** A gateway request to `host`, from the client IP `ip` when given. */
function edge(host: string, path: string, init: { method?: string; ip?: string; body?: string } = {}) {
	const headers: Record<string, string> = { authorization: RW };
	if (init.ip !== undefined) headers["cf-connecting-ip"] = init.ip;
	return exports.default.fetch(`http://${host}${path}`, { method: init.method ?? "GET", headers, body: init.body });
}

async function status(response: Response): Promise<number> {
	await response.arrayBuffer();
	return response.status;
}

async function put(host: string, key: string): Promise<void> {
	expect(await status(await edge(host, `/${key}`, { method: "PUT", body: key }))).toBe(200);
}

describe("CF-Ray", () => {
	it.each([
		["the gateway's 404 for a missing object", "GET", "/ray/missing", 404],
		["the gateway's 401 for a refused token", "GET", "/ray/x", 401],
	])("is on %s", async (_, method, path, expected) => {
		const response = await exports.default.fetch(`http://localhost${path}`, {
			method,
			headers: expected === 401 ? { authorization: "Bearer nope" } : { authorization: RW },
		});
		expect(await status(response)).toBe(expected);
		expect(response.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-[A-Z]{3}$/);
	});

	it("is on a CORS preflight, and new for every request", async () => {
		const init = {
			method: "OPTIONS",
			headers: { origin: "https://app.example", "access-control-request-method": "GET" },
		};
		const first = await exports.default.fetch("http://localhost/ray/k", init);
		const second = await exports.default.fetch("http://localhost/ray/k", init);
		expect(first.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		expect(first.headers.get("cf-ray")).not.toBe(second.headers.get("cf-ray"));
	});
});

describe("firewall rules made with the cloudflare SDK", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithHost();
		for (const key of ["private/a", "public/a"]) await put(zone.host, key);
	});

	it("block exactly the path and the IP range they name, and the block page names the Ray ID", async () => {
		const cf = sdkClient();
		const created = await cf.firewall.rules.create({
			zone_id: zone.zone_id,
			// @ts-expect-error The SDK types `mode` from rate limits, which have no "block"; the Firewall Rules API takes it (developers.cloudflare.com/firewall/cf-firewall-rules/actions/).
			action: { mode: "block" },
			filter: { expression: 'http.request.uri.path wildcard "/private/*" or ip.src in {198.51.100.0/24}' },
		});
		const blocked = await edge(zone.host, "/private/a", { ip: "203.0.113.9" });
		expect(blocked.status).toBe(403);
		const page = await blocked.text();
		expect(page).toContain("Sorry, you have been blocked");
		expect(page).toContain(blocked.headers.get("cf-ray")?.split("-")[0]);
		expect(await status(await edge(zone.host, "/public/a", { ip: "198.51.100.77" }))).toBe(403);
		expect(await status(await edge(zone.host, "/public/a", { ip: "203.0.113.9" }))).toBe(200);
		expect(await status(await edge(zone.host, "/public/a"))).toBe(200);

		// Deleted, the rule stops at the very next request.
		await cf.firewall.rules.delete(created.result[0]?.id ?? "", { zone_id: zone.zone_id });
		expect(await status(await edge(zone.host, "/private/a", { ip: "198.51.100.77" }))).toBe(200);
	});

	it("apply to their zone only: another host's requests pass", async () => {
		const other = await zoneWithHost();
		await put(other.host, "private/b");
		const cf = sdkClient();
		await cf.firewall.rules.create({
			zone_id: other.zone_id,
			// @ts-expect-error The SDK types `mode` from rate limits, which have no "block"; the Firewall Rules API takes it (developers.cloudflare.com/firewall/cf-firewall-rules/actions/).
			action: { mode: "block" },
			filter: { expression: 'http.request.uri.path eq "/private/b"' },
		});
		expect(await status(await edge(other.host, "/private/b"))).toBe(403);
		expect(await status(await edge(`www.${other.host}`, "/private/b"))).toBe(403);
		expect(await status(await edge("localhost", "/private/b"))).toBe(200);
	});
});

describe("the order of firewall rules", () => {
	async function rules(
		zone_id: string,
		list: { action: string; expression: string; priority?: number; paused?: boolean }[],
	) {
		const body = list.map(({ expression, ...rest }) => ({ ...rest, filter: { expression } }));
		const res = await call("POST", `/zones/${zone_id}/firewall/rules`, body);
		expect(res.status, JSON.stringify(res.body)).toBe(200);
	}

	it("runs lower priorities first: an allow before a block lets the request through", async () => {
		const { zone_id, host } = await zoneWithHost();
		await put(host, "order/a");
		await rules(zone_id, [
			{ action: "block", expression: 'http.request.uri.path eq "/order/a"', priority: 2 },
			{ action: "allow", expression: 'http.request.uri.path in {"/order/a"}', priority: 1 },
		]);
		expect(await status(await edge(host, "/order/a"))).toBe(200);
	});

	it("at one priority, takes allow over block, and log never ends the evaluation", async () => {
		const { zone_id, host } = await zoneWithHost();
		await put(host, "order/b");
		await rules(zone_id, [
			{ action: "block", expression: 'http.request.uri.path eq "/order/b"', priority: 5 },
			{ action: "allow", expression: 'http.request.uri.path in {"/order/b"}', priority: 5 },
			{ action: "log", expression: 'ends_with(http.request.uri.path, "/order/b")', priority: 5 },
		]);
		expect(await status(await edge(host, "/order/b"))).toBe(200);
	});

	it("skips paused rules, and takes rules without a priority last", async () => {
		const { zone_id, host } = await zoneWithHost();
		await put(host, "order/c");
		await rules(zone_id, [
			{ action: "allow", expression: 'http.request.uri.path eq "/order/c"', paused: true, priority: 1 },
			{ action: "allow", expression: 'http.request.uri.path in {"/order/c"}' },
			{ action: "js_challenge", expression: 'ends_with(http.request.uri.path, "/order/c")', priority: 9 },
		]);
		const challenged = await edge(host, "/order/c");
		expect(challenged.status).toBe(403);
		expect(challenged.headers.get("cf-mitigated")).toBe("challenge");
		expect(await challenged.text()).toContain("cannot run challenges");
	});
});

describe("WAF custom rules", () => {
	it("challenge, block with a custom response, and skip the rest of the ruleset, in rule order", async () => {
		const { zone_id, host } = await zoneWithHost();
		for (const key of ["custom/admin", "custom/skip", "custom/open"]) await put(host, key);
		const cf = sdkClient();
		await cf.rulesets.phases.update("http_request_firewall_custom", {
			zone_id,
			rules: [
				{
					action: "skip",
					expression: 'http.request.uri.path eq "/custom/skip"',
					action_parameters: { ruleset: "current" },
				},
				{ action: "managed_challenge", expression: 'http.request.uri.path eq "/custom/admin"' },
				{
					action: "block",
					expression: 'starts_with(http.request.uri.path, "/custom/")',
					action_parameters: {
						response: { status_code: 418, content: '{"no":true}', content_type: "application/json" },
					},
				},
			],
		});
		const challenged = await edge(host, "/custom/admin");
		expect(challenged.status).toBe(403);
		expect(challenged.headers.get("cf-mitigated")).toBe("challenge");
		await challenged.arrayBuffer();
		const blocked = await edge(host, "/custom/open");
		expect(blocked.status).toBe(418);
		expect(blocked.headers.get("content-type")).toBe("application/json");
		expect(await blocked.text()).toBe('{"no":true}');
		expect(await status(await edge(host, "/custom/skip"))).toBe(200);
		expect(await status(await edge(host, "/elsewhere"))).toBe(404);
	});

	it("run after the firewall rules, whose allow does not skip them", async () => {
		const { zone_id, host } = await zoneWithHost();
		await put(host, "both/a");
		const res = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ action: "allow", filter: { expression: 'http.request.uri.path eq "/both/a"' } },
		]);
		expect(res.status).toBe(200);
		await sdkClient().rulesets.phases.update("http_request_firewall_custom", {
			zone_id,
			rules: [{ action: "block", expression: 'http.request.uri.path eq "/both/a"' }],
		});
		expect(await status(await edge(host, "/both/a"))).toBe(403);
	});
});

describe("how fast a rule reaches the edge", () => {
	it("is the next request after a write through this isolate's API; else within the check interval", async () => {
		const { zone_id, host } = await zoneWithHost();
		await put(host, "soon/a");
		const fields = () =>
			requestFields(new Request(`http://${host}/soon/a`), new URL(`http://${host}/soon/a`), {
				rayId: "0123456789abcdef",
				zoneName: host,
				receivedAt: Date.now(),
			});
		const start = Date.now();
		expect((await firewall(env, zone_id, fields, "0123456789abcdef", start)).answer).toBeUndefined();
		// Written behind this isolate's API, as another isolate's API would write it.
		const created = await zoneState(env, zone_id).createFirewallRules(
			[{ pointer: "/0", input: { action: "block", filter: { expression: 'http.request.uri.path eq "/soon/a"' } } }],
			10,
		);
		expect(created.ok).toBe(true);
		expect((await firewall(env, zone_id, fields, "0123456789abcdef", start + 1)).answer).toBeUndefined();
		const later = await firewall(env, zone_id, fields, "0123456789abcdef", start + CONFIG_CHECK_INTERVAL_MS);
		expect(later.answer?.status).toBe(403);
		expect(later.matches).toEqual([
			{ ruleId: created.ok ? created.value[0]?.id : "", action: "block", source: "firewallRules" },
		]);
	});
});
