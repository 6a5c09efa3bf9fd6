/**
 * The zone's configuration version (zone/edge-config.ts): every write the edge depends on
 * moves it by one, in the same transaction; reads and refused writes leave it; the edge's
 * view (`Zone.edgeConfig()`) carries the enabled custom fields and log-push jobs.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { INVALID } from "./expressions";
import { call, freshZone } from "./http";

const rule = (name: string, extra: Record<string, unknown> = {}) => ({
	action: "log_custom_field",
	expression: "true",
	action_parameters: { request_fields: [{ name }] },
	...extra,
});
// A zone's destinations lie under its id in the shared buckets.
const r2 = (zone: string) => `r2://edgezone-logs/${zone}/logs/{DATE}`;

/** The edge's view of a zone, over RPC as the edge reads it. */
const edgeConfig = (zone: string) => zoneState(env, zone).edgeConfig();
const version = async (zone: string) => (await edgeConfig(zone)).version;

describe("the zone's config version", () => {
	it("moves by one on every ruleset and log-push job write", async () => {
		const zone = await freshZone();
		const base = `/zones/${zone}/rulesets`;
		expect(await version(zone)).toBe(0);
		const ruleset = (await call("POST", base, { name: "r", kind: "zone", phase: "http_log_custom_fields" })).body
			.result as { id: string };
		const writes: [string, string, unknown][] = [
			["PUT", `${base}/${ruleset.id}`, { rules: [rule("a")] }],
			["PUT", `${base}/phases/http_log_custom_fields/entrypoint`, { rules: [rule("a"), rule("b")] }],
			["POST", `${base}/${ruleset.id}/rules`, rule("c")],
			["POST", `/zones/${zone}/logpush/jobs`, { destination_conf: r2(zone) }],
			["PUT", `/zones/${zone}/logpush/jobs/1`, { enabled: true }],
			["DELETE", `/zones/${zone}/logpush/jobs/1`, undefined],
		];
		expect(await version(zone)).toBe(1);
		for (const [i, [method, path, body]] of writes.entries()) {
			const res = await call(method, path, body);
			expect(res.status, `${method} ${path}`).toBe(200);
			expect(await version(zone), `${method} ${path}`).toBe(i + 2);
		}
		const rules = (await call("GET", `${base}/${ruleset.id}`)).body.result as { rules: { id: string }[] };
		await call("PATCH", `${base}/${ruleset.id}/rules/${rules.rules[0]?.id}`, { enabled: false });
		expect(await version(zone)).toBe(8);
		await call("DELETE", `${base}/${ruleset.id}/rules/${rules.rules[0]?.id}`);
		expect(await version(zone)).toBe(9);
		expect((await call("DELETE", `${base}/${ruleset.id}`)).status).toBe(204);
		expect(await version(zone)).toBe(10);
	});

	it("stays put on reads and on refused writes", async () => {
		const zone = await freshZone();
		const base = `/zones/${zone}/rulesets`;
		const ruleset = (
			await call("POST", base, { name: "r", kind: "zone", phase: "http_log_custom_fields", rules: [rule("a")] })
		).body.result as { id: string };
		const before = await version(zone);
		const requests: [string, string, unknown, number][] = [
			["GET", base, undefined, 200],
			["GET", `${base}/${ruleset.id}`, undefined, 200],
			["GET", `${base}/${ruleset.id}/versions`, undefined, 200],
			["GET", `${base}/phases/http_log_custom_fields/entrypoint`, undefined, 200],
			["GET", `/zones/${zone}/logpush/jobs`, undefined, 200],
			["POST", base, { name: "again", kind: "zone", phase: "http_log_custom_fields" }, 400],
			["PUT", `${base}/${ruleset.id}`, { rules: [rule("Upper")] }, 400],
			["PUT", `${base}/${ruleset.id}`, { rules: [rule("a", { id: "f".repeat(32) })] }, 400],
			["PUT", `${base}/${ruleset.id}`, `{"rules":${"[".repeat(3586)}${"]".repeat(3586)}}`, 400],
			["PATCH", `${base}/${ruleset.id}/rules/${"0".repeat(32)}`, { enabled: false }, 404],
			["DELETE", `${base}/${"0".repeat(32)}`, undefined, 404],
			["PUT", `/zones/${zone}/logpush/jobs/99`, { enabled: true }, 404],
			["POST", `/zones/${zone}/logpush/jobs`, { destination_conf: "s3://bucket/path?region=us-east-1" }, 400],
		];
		for (const [method, path, body, status] of requests) {
			expect((await call(method, path, body)).status, `${method} ${path}`).toBe(status);
		}
		expect(await version(zone)).toBe(before);
	});

	it("moves by one on each URL normalization write, not on its reads or refused writes", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/url_normalization`;
		expect((await call("GET", path)).status).toBe(200);
		expect((await call("PUT", path, { type: "rfc3986" })).status).toBe(400);
		expect(await version(zone)).toBe(0);
		expect((await call("PUT", path, { type: "rfc3986", scope: "both" })).status).toBe(200);
		expect(await version(zone)).toBe(1);
		expect((await edgeConfig(zone)).urlNormalization).toStrictEqual({ type: "rfc3986", scope: "both" });
		expect((await call("DELETE", path)).status).toBe(204);
		expect(await version(zone)).toBe(2);
		expect((await edgeConfig(zone)).urlNormalization).toStrictEqual({ type: "cloudflare", scope: "incoming" });
	});

	it("moves by one on each zone setting write, not on its reads or refused writes", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/settings/ip_geolocation`;
		expect((await call("GET", path)).status).toBe(200);
		expect((await call("PATCH", path, { value: "maybe" })).status).toBe(400);
		expect((await call("PATCH", `/zones/${zone}/settings/ssl`, { value: "off" })).status).toBe(400);
		expect(await version(zone)).toBe(0);
		expect((await edgeConfig(zone)).ipGeolocation).toBe(true);
		expect((await call("PATCH", path, { value: "off" })).status).toBe(200);
		expect(await version(zone)).toBe(1);
		expect((await edgeConfig(zone)).ipGeolocation).toBe(false);
	});

	it("moves by one on each DNS record and fallback origin write, not on refused ones; the view holds the records", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/dns_records`;
		const created = await call("POST", path, { type: "A", name: "app", content: "192.0.2.1", proxied: true });
		expect(created.status).toBe(200);
		expect(await version(zone)).toBe(1);
		expect((await call("POST", path, { type: "CNAME", name: "app", content: "x.example.org" })).status).toBe(400);
		expect(await version(zone)).toBe(1);
		const id = (created.body.result as { id: string }).id;
		expect((await call("PATCH", `${path}/${id}`, { proxied: false })).status).toBe(200);
		expect((await call("POST", `${path}/batch`, { posts: [{ type: "TXT", name: "app", content: "t" }] })).status).toBe(
			200,
		);
		expect(await version(zone)).toBe(3);
		const name = (await edgeConfig(zone)).dnsRecords.map((r) => r.name)[0] ?? "";
		expect((await edgeConfig(zone)).dnsRecords).toStrictEqual([
			{ name, type: "A", content: "192.0.2.1", proxied: false },
			{ name, type: "TXT", content: "", proxied: false },
		]);
		expect((await call("DELETE", `${path}/${id}`)).status).toBe(200);
		expect((await call("PUT", `/zones/${zone}/custom_hostnames/fallback_origin`, { origin: name })).status).toBe(200);
		expect(await version(zone)).toBe(5);
		expect((await edgeConfig(zone)).saasOrigins).toStrictEqual({ fallbackOrigin: name, customOrigins: {} });
	});
});

describe("the config version and filters and firewall rules", () => {
	it("moves by one on every filter and firewall rule write, and stays on refused ones", async () => {
		const zone = await freshZone();
		const filters = `/zones/${zone}/filters`;
		const rules = `/zones/${zone}/firewall/rules`;
		const filter = (await call("POST", filters, [{ expression: 'http.host contains "shop"' }])).body.result as {
			id: string;
		}[];
		expect(await version(zone)).toBe(1);
		const fid = filter[0]?.id;
		const created = (await call("POST", rules, [{ filter: { id: fid }, action: "block" }])).body.result as {
			id: string;
		}[];
		const rid = created[0]?.id;
		const writes: [string, string, unknown][] = [
			["PUT", `${filters}/${fid}`, { description: "shop" }],
			["PUT", `${rules}/${rid}`, { filter: { id: fid }, action: "challenge" }],
			["PATCH", `${rules}/${rid}`, { priority: 5 }],
			["DELETE", `${rules}/${rid}`, undefined],
			["DELETE", `${filters}/${fid}`, undefined],
		];
		for (const [i, [method, path, body]] of writes.entries()) {
			expect((await call(method, path, body)).status, `${method} ${path}`).toBe(200);
			expect(await version(zone), `${method} ${path}`).toBe(i + 3);
		}
		const refused: [string, string, unknown, number][] = [
			["POST", filters, [{ expression: INVALID }], 400],
			["POST", rules, [{ filter: { expression: INVALID }, action: "block" }], 400],
			["DELETE", `${filters}/${"0".repeat(32)}`, undefined, 404],
			["GET", filters, undefined, 200],
			["GET", rules, undefined, 200],
		];
		for (const [method, path, body, status] of refused) {
			expect((await call(method, path, body)).status, `${method} ${path}`).toBe(status);
		}
		expect(await version(zone)).toBe(7);
	});
});

describe("the edge's view of a zone", () => {
	it("holds the firewall rules in evaluation order and the enabled custom rules", async () => {
		const zone = await freshZone();
		await call("POST", `/zones/${zone}/firewall/rules`, [
			{ filter: { expression: 'http.request.uri.path eq "/admin"' }, action: "block" },
			{ filter: { expression: "ip.src in {192.0.2.0/24}" }, action: "allow", priority: 1, paused: true },
		]);
		await call("PUT", `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: [
				{ action: "block", expression: 'http.host contains "shop"' },
				{ action: "log", expression: "ip.src in {192.0.2.0/24}", enabled: false },
			],
		});
		const config = await edgeConfig(zone);
		expect(config.firewallRules).toEqual([
			expect.objectContaining({
				action: "allow",
				priority: 1,
				paused: true,
				filter: expect.objectContaining({ expression: "ip.src in {192.0.2.0/24}", paused: false }),
			}),
			expect.objectContaining({
				action: "block",
				priority: null,
				paused: false,
				filter: expect.objectContaining({ expression: 'http.request.uri.path eq "/admin"' }),
			}),
		]);
		expect(config.firewallCustomRules).toEqual([
			expect.objectContaining({ action: "block", expression: 'http.host contains "shop"', enabled: true }),
		]);
	});

	it("holds the enabled rules of the redirect, rewrite, origin and header phases", async () => {
		const zone = await freshZone();
		const put = (phase: string, rule: object) =>
			call("PUT", `/zones/${zone}/rulesets/phases/${phase}/entrypoint`, {
				rules: [rule, { ...rule, enabled: false }],
			});
		const headers = {
			action: "rewrite",
			expression: "true",
			action_parameters: { headers: { "x-a": { operation: "remove" } } },
		};
		await put("http_request_dynamic_redirect", {
			action: "redirect",
			expression: "true",
			action_parameters: { from_value: { target_url: { value: "https://example.com/" } } },
		});
		await put("http_request_transform", {
			action: "rewrite",
			expression: "true",
			action_parameters: { uri: { query: { value: "" } } },
		});
		await put("http_request_origin", {
			action: "route",
			expression: "true",
			action_parameters: { origin: { port: 8080 } },
		});
		await put("http_request_late_transform", headers);
		await put("http_response_headers_transform", headers);
		const config = await edgeConfig(zone);
		for (const [field, action] of [
			["redirectRules", "redirect"],
			["urlRewriteRules", "rewrite"],
			["originRules", "route"],
			["requestHeaderRules", "rewrite"],
			["responseHeaderRules", "rewrite"],
		] as const) {
			expect(config[field], field).toEqual([expect.objectContaining({ action, enabled: true })]);
		}
	});

	it("holds the enabled custom fields of the entrypoint and the enabled jobs", async () => {
		const zone = await freshZone();
		expect(await edgeConfig(zone)).toEqual({
			version: 0,
			logCustomFields: [],
			logpushJobs: [],
			firewallRules: [],
			firewallCustomRules: [],
			logpullRetention: false,
			urlNormalization: { type: "cloudflare", scope: "incoming" },
			ipGeolocation: true,
			managedTransforms: [],
			workersRoutes: [],
			dnsRecords: [],
			saasOrigins: { customOrigins: {} },
			redirectRules: [],
			urlRewriteRules: [],
			originRules: [],
			requestHeaderRules: [],
			responseHeaderRules: [],
		});
		await call("PUT", `/zones/${zone}/rulesets/phases/http_log_custom_fields/entrypoint`, {
			rules: [
				rule("a"),
				rule("b", { enabled: false }),
				{ ...rule("c"), action_parameters: { cookie_fields: [{ name: "C" }] } },
			],
		});
		await call("POST", `/zones/${zone}/logpush/jobs`, { destination_conf: r2(zone), name: "off" });
		await call("POST", `/zones/${zone}/logpush/jobs`, { destination_conf: r2(zone), name: "on", enabled: true });
		const config = await edgeConfig(zone);
		expect(config.version).toBe(3);
		expect(config.logCustomFields).toEqual([{ request_fields: [{ name: "a" }] }, { cookie_fields: [{ name: "C" }] }]);
		expect(config.logpushJobs.map((job) => job.name)).toEqual(["on"]);
	});

	it("ignores custom rulesets of the phase: only the entrypoint counts", async () => {
		const zone = await freshZone();
		await call("POST", `/zones/${zone}/rulesets`, {
			name: "custom",
			kind: "custom",
			phase: "http_log_custom_fields",
			rules: [rule("a")],
		});
		expect((await edgeConfig(zone)).logCustomFields).toEqual([]);
	});
});
