/**
 * A tenant cannot take another zone's names with custom hostnames: the walk of a token scoped to
 * zone A (the default zone) that claims zone B's own name and its wildcard, through the API,
 * then B's visitors at the edge and both zones' Logpull.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, SCOPED_TOKEN, TOKEN } from "../api/credentials";
import { BASE, call } from "../api/http";
import { edgeRequest, flush } from "./logs-helpers";

/** Headers of the token that reaches zone A (the default zone) only. */
const A_TOKEN = { Authorization: `Bearer ${SCOPED_TOKEN}`, "Content-Type": "application/json" };
const A = DEFAULT_ZONE_ID;

interface Created {
	id: string;
	status: string;
	ownership_verification: { name: string; value: string };
	ownership_verification_http?: { http_url: string; http_body: string };
}

/** The Logpull records of `zone` for `ray` (`logs/rayids`), read with `token`. */
async function logpull(zone: string, ray: string, token: string): Promise<Record<string, unknown>[]> {
	const res = await exports.default.fetch(`${BASE}/zones/${zone}/logs/rayids/${ray}?fields=RayID,ClientRequestHost`, {
		headers: { Authorization: `Bearer ${token}` },
	});
	const text = new TextDecoder().decode(await res.arrayBuffer());
	expect(res.status, text).toBe(200);
	return text
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("custom hostnames across tenants", () => {
	it("refuses zone A's ownership records for zone B's names; B's rules and logs stay B's", async () => {
		// Zone B, another tenant's, blocks /blocked and keeps its logs.
		const b = `tenant-b-${crypto.randomUUID().slice(0, 8)}.net`;
		const zone = await call("POST", "/zones", { name: b, account: {} });
		expect(zone.status).toBe(200);
		const B = (zone.body.result as { id: string }).id;
		const rule = await call("POST", `/zones/${B}/firewall/rules`, [
			{ action: "block", filter: { expression: 'http.request.uri.path eq "/blocked"' } },
		]);
		expect(rule.status).toBe(200);
		expect((await call("POST", `/zones/${B}/logs/control/retention/flag`, { flag: true })).status).toBe(200);
		// Zone A keeps its logs too, so a visitor routed to it would show in its Logpull.
		expect((await call("POST", `/zones/${A}/logs/control/retention/flag`, { flag: true }, A_TOKEN)).status).toBe(200);
		expect((await call("GET", `/zones/${B}/custom_hostnames`, undefined, A_TOKEN)).status).toBe(403);

		// 1. A creates custom hostnames on B's name and its wildcard: Cloudflare documents no refusal
		//    of a hostname that is on Cloudflare (it stays pending until proven).
		const claims: Created[] = [];
		for (const hostname of [b, `*.${b}`]) {
			const res = await call("POST", `/zones/${A}/custom_hostnames`, { hostname, ssl: { method: "txt" } }, A_TOKEN);
			expect(res.status, JSON.stringify(res.body)).toBe(200);
			claims.push(res.body.result as Created);
		}
		// 2. B's names are answered by B's DNS records, which A's token cannot write; A's simulated
		//    DNS refuses them (it answers only for names no zone holds).
		for (const claim of claims) {
			const { name, value } = claim.ownership_verification;
			const res = await call("PUT", `/zones/${A}/emulator/dns/${name}`, { txt: [value] }, A_TOKEN);
			expect(res.status, JSON.stringify(res.body)).toBe(400);
			expect(res.body.errors?.[0]?.code).toBe(9401);
			const record = { type: "TXT", name, content: value };
			expect((await call("POST", `/zones/${B}/dns_records`, record, A_TOKEN)).status).toBe(403);
		}
		// The exact hostname's HTTP token, served from B's name, is B's to serve too.
		const { http_url, http_body } = claims[0]?.ownership_verification_http ?? { http_url: "", http_body: "" };
		expect(http_url).not.toBe("");
		const path = new URL(http_url).pathname;
		const served = await call("PUT", `/zones/${A}/emulator/dns/${b}`, { http: { [path]: http_body } }, A_TOKEN);
		expect(served.status).toBe(400);
		for (const claim of claims)
			expect(
				(await call("GET", `/zones/${A}/custom_hostnames/${claim.id}`, undefined, A_TOKEN)).body.result,
			).toMatchObject({ status: "pending" });

		// B's visitors: B's rule applies to B's name and its subdomains.
		const visits = [];
		for (const host of [b, `www.${b}`]) {
			const visit = await edgeRequest(host, "/blocked", { headers: { cookie: "session=b-visitor-secret" } });
			expect(visit.status, host).toBe(403);
			visits.push({ host, ray: visit.ray });
		}
		await flush(B);
		await flush(A);
		for (const { host, ray } of visits) {
			expect(await logpull(A, ray, SCOPED_TOKEN)).toEqual([]);
			expect(await logpull(B, ray, TOKEN)).toEqual([{ RayID: ray, ClientRequestHost: host }]);
		}
	});
});
