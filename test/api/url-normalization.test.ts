/** `/zones/{zone_id}/url_normalization`: the zone's URL normalization setting over HTTP. */
import { describe, expect, it } from "vitest";
import { LOGS_READ_TOKEN, SSL_EDIT_TOKEN, WAF_TOKEN } from "./credentials";
import { call, freshZone } from "./http";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

describe("URL normalization settings", () => {
	it("answers Cloudflare's default to a new zone: cloudflare on incoming URLs", async () => {
		const zone = await freshZone();
		const res = await call("GET", `/zones/${zone}/url_normalization`);
		expect(res.status).toBe(200);
		expect(res.body).toStrictEqual({
			result: { type: "cloudflare", scope: "incoming" },
			success: true,
			errors: [],
			messages: [],
		});
	});

	it("replaces the setting with PUT, and DELETE puts the default back with 204 and no body", async () => {
		const zone = await freshZone();
		const put = await call("PUT", `/zones/${zone}/url_normalization`, { type: "rfc3986", scope: "both" });
		expect(put.status).toBe(200);
		expect(put.body.result).toStrictEqual({ type: "rfc3986", scope: "both" });
		expect((await call("GET", `/zones/${zone}/url_normalization`)).body.result).toStrictEqual({
			type: "rfc3986",
			scope: "both",
		});
		const deleted = await call("DELETE", `/zones/${zone}/url_normalization`);
		expect(deleted.status).toBe(204);
		expect(deleted.body).toStrictEqual({});
		expect((await call("GET", `/zones/${zone}/url_normalization`)).body.result).toStrictEqual({
			type: "cloudflare",
			scope: "incoming",
		});
	});

	it.each([
		["an unknown type", { type: "strict", scope: "incoming" }, "/type"],
		["an unknown scope", { type: "cloudflare", scope: "origin" }, "/scope"],
		["a missing scope", { type: "cloudflare" }, "/scope"],
		["an unknown field", { type: "cloudflare", scope: "none", extra: 1 }, "/extra"],
	])("refuses %s with 400 20200 naming the field, changing nothing", async (_, body, pointer) => {
		const zone = await freshZone();
		const res = await call("PUT", `/zones/${zone}/url_normalization`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 20200, source: { pointer } });
		expect((await call("GET", `/zones/${zone}/url_normalization`)).body.result).toStrictEqual({
			type: "cloudflare",
			scope: "incoming",
		});
	});

	it("takes the rulesets' permissions: Zone WAF Edit writes, Logs Read reads, SSL Edit neither", async () => {
		const zone = await freshZone();
		const path = `/zones/${zone}/url_normalization`;
		const none = { type: "cloudflare", scope: "none" };
		expect((await call("PUT", path, none, bearer(WAF_TOKEN))).status).toBe(200);
		expect((await call("GET", path, undefined, bearer(LOGS_READ_TOKEN))).status).toBe(200);
		expect((await call("PUT", path, none, bearer(LOGS_READ_TOKEN))).status).toBe(403);
		expect((await call("GET", path, undefined, bearer(SSL_EDIT_TOKEN))).status).toBe(403);
		expect((await call("DELETE", path, undefined, bearer(SSL_EDIT_TOKEN))).status).toBe(403);
	});
});
