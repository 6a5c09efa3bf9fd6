/**
 * A zone's regular expressions cannot stall the Worker: `matches` runs in time linear in the
 * subject, as wirefilter's engine does, so patterns that make a backtracking engine explode
 * (nested quantifiers, overlapping alternatives) answer on 64 KiB subjects, and another zone is
 * served at the same time.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { compiledCacheCounts } from "../../src/rules-language/compiled-cache";
import { call } from "../api/http";

const RW = "Bearer test-rw";
const KIB64 = 64 * 1024;

/** A new zone with one blocking firewall rule, and its host name. */
async function zoneBlocking(expression: string): Promise<string> {
	const host = `re-${crypto.randomUUID().slice(0, 8)}.example.net`;
	const zone = await call("POST", "/zones", { name: host, account: {} });
	expect(zone.status).toBe(200);
	const zone_id = (zone.body.result as { id: string }).id;
	const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [{ action: "block", filter: { expression } }]);
	expect(rule.status, JSON.stringify(rule.body)).toBe(200);
	return host;
}

/** A GET to `host`; resolves to the status once the whole answer is read. */
async function get(host: string, pathAndQuery: string): Promise<number> {
	const response = await exports.default.fetch(`http://${host}${pathAndQuery}`, { headers: { authorization: RW } });
	await response.arrayBuffer();
	return response.status;
}

describe("a zone's regular expression on a 64 KiB subject", () => {
	let other: string;
	beforeAll(async () => {
		other = await zoneBlocking('http.request.uri.path eq "/blocked"');
		const put = await exports.default.fetch(`http://${other}/served`, {
			method: "PUT",
			headers: { authorization: RW },
			body: "served",
		});
		expect(put.status).toBe(200);
		await put.arrayBuffer();
		// A zone's first request starts its Durable Object: slow on a loaded machine.
	}, 60_000);

	// [rule, subject that does not match, subject that matches]: for a backtracking engine the
	// first is exponential in its length; the engine (a Thompson NFA) answers in linear time.
	it.each([
		["http.request.uri.path matches", "^/(a+)+$", `/${"a".repeat(KIB64)}!`, `/${"a".repeat(KIB64)}`],
		["http.request.uri.path matches", "^/(a|aa)+$", `/${"a".repeat(KIB64)}!`, `/${"a".repeat(KIB64)}`],
		["http.request.uri.query matches", "^(x*)*y$", `/q?${"x".repeat(KIB64)}`, `/q?${"x".repeat(KIB64)}y`],
	])("%s %j answers as the engine decides, and another zone is served meanwhile", async (lhs, pattern, miss, hit) => {
		const host = await zoneBlocking(`${lhs} "${pattern}"`);
		const [missed, served, blocked, otherBlocked] = await Promise.all([
			get(host, miss),
			get(other, "/served"),
			get(host, hit),
			get(other, "/blocked"),
		]);
		// Not blocked: the gateway answers (no object has that key).
		expect(missed).not.toBe(403);
		expect([400, 404]).toContain(missed);
		expect(blocked).toBe(403);
		expect(served).toBe(200);
		expect(otherBlocked).toBe(403);
	});
});

describe("a pattern the engine accepts, too costly for one request here", () => {
	// Within the engine's 10 MiB program limit and edgezone's: the API accepts them, and a request
	// whose path would make them run for seconds is refused before they run.
	it.each(["(?:[a-z]{100}){30}[0-9]", "a[ab]{200}c"])(
		"%j: a 64 KiB path is refused at once while another zone is served",
		async (pattern) => {
			const host = await zoneBlocking(`http.request.uri.path matches "${pattern}"`);
			const other = await zoneBlocking('http.request.uri.path eq "/blocked"');
			const [long, served, short] = await Promise.all([
				exports.default.fetch(`http://${host}/${"a".repeat(KIB64)}`, { headers: { authorization: RW } }),
				get(other, "/blocked"),
				get(host, "/short"),
			]);
			expect(long.status).toBe(400);
			expect(await long.text()).toContain("This request is too costly for the zone");
			expect(long.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
			expect(served).toBe(403);
			// Short enough for the budget: the rules run, and let it through to the gateway.
			expect(short).not.toBe(403);
			expect(short).not.toBe(400);
		},
	);

	it("a wildcard of 1,000 bytes: a 32 KiB path is refused at once while another zone is served", async () => {
		const host = await zoneBlocking(`http.request.uri.path strict wildcard "/*${"a".repeat(1000)}b"`);
		const other = await zoneBlocking('http.request.uri.path eq "/blocked"');
		const [long, served, matching] = await Promise.all([
			exports.default.fetch(`http://${host}/${"a".repeat(32 * 1024)}`, { headers: { authorization: RW } }),
			get(other, "/blocked"),
			get(host, `/${"a".repeat(1000)}b`),
		]);
		expect(long.status).toBe(400);
		expect(await long.text()).toContain("This request is too costly for the zone");
		expect(served).toBe(403);
		expect(matching).toBe(403);
	});

	it("the API refuses (?:[a-z]{1000}){30}[0-9], past what edgezone compiles for one expression", async () => {
		const zone = await call("POST", "/zones", {
			name: `rbig-${crypto.randomUUID().slice(0, 8)}.example.net`,
			account: {},
		});
		const zoneId = (zone.body.result as { id: string }).id;
		const expression = 'http.request.uri.path matches "(?:[a-z]{1000}){30}[0-9]"';
		const refused = await call("POST", `/zones/${zoneId}/firewall/rules`, [
			{ action: "block", filter: { expression } },
		]);
		expect(refused.status).toBe(400);
		expect(refused.body.errors?.[0]?.message).toContain("regular expressions too large: they compile to");
		const custom = await call("PUT", `/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: [{ action: "block", expression }],
		});
		expect(custom.status).toBe(400);
		expect(custom.body.errors?.[0]?.message).toContain("regular expressions too large");
	});

	it("the API refuses a rule of 65 regular expressions, as Cloudflare does", async () => {
		const zone = await call("POST", "/zones", {
			name: `r65-${crypto.randomUUID().slice(0, 8)}.example.net`,
			account: {},
		});
		const zoneId = (zone.body.result as { id: string }).id;
		const expression = Array.from({ length: 65 }, (_, i) => `http.request.uri.path matches "^/r${i}/"`).join(" or ");
		const refused = await call("POST", `/zones/${zoneId}/firewall/rules`, [
			{ action: "block", filter: { expression } },
		]);
		expect(refused.status).toBe(400);
		expect(refused.body.errors?.[0]?.message).toContain(
			"too many regular expressions: an expression may hold at most 64",
		);
		const custom = await call("PUT", `/zones/${zoneId}/rulesets/phases/http_request_firewall_custom/entrypoint`, {
			rules: [{ action: "block", expression }],
		});
		expect(custom.status).toBe(400);
		expect(custom.body.errors?.[0]?.message).toContain("too many regular expressions");
	});
});

describe("a write to one rule compiles that rule alone", () => {
	/** A zone with `count` blocking firewall rules, each on its own regex: its id, host and the created rules. */
	async function zoneWithRegexRules(count: number) {
		const host = `rc-${crypto.randomUUID().slice(0, 8)}.example.net`;
		const zone = await call("POST", "/zones", { name: host, account: {} });
		const zoneId = (zone.body.result as { id: string }).id;
		const token = crypto.randomUUID().slice(0, 8);
		const rules = Array.from({ length: count }, (_, i) => ({
			action: "block",
			description: `rule ${i}`,
			filter: { expression: `http.request.uri.path matches "^/blocked-${token}-${i}/[a-z]{1,40}$"` },
		}));
		const created = await call("POST", `/zones/${zoneId}/firewall/rules`, rules);
		expect(created.status, JSON.stringify(created.body)).toBe(200);
		return { zoneId, host, token, created: created.body.result as { id: string; filter: { id: string } }[] };
	}

	it("a PATCH of one rule's description compiles no rule; a new expression compiles one", async () => {
		const { zoneId, host, token, created } = await zoneWithRegexRules(5);
		// The edge compiles the zone's rules for its first request.
		expect(await get(host, `/blocked-${token}-3/abc`)).toBe(403);
		expect(await get(host, "/open")).not.toBe(403);
		const before = compiledCacheCounts();
		const patched = await call("PATCH", `/zones/${zoneId}/firewall/rules/${created[0]?.id}`, {
			id: created[0]?.id,
			description: "renamed",
		});
		expect(patched.status, JSON.stringify(patched.body)).toBe(200);
		// A new configuration version: the edge builds the zone's rules again, from the cache.
		expect(await get(host, `/blocked-${token}-4/abc`)).toBe(403);
		const afterPatch = compiledCacheCounts();
		expect(afterPatch.compilations - before.compilations).toBe(0);
		expect(afterPatch.hits - before.hits).toBeGreaterThanOrEqual(5);
		// A new expression for one rule: that expression alone is compiled (on write, then kept).
		const edited = await call("PUT", `/zones/${zoneId}/firewall/rules/${created[1]?.id}`, {
			action: "block",
			filter: { expression: `http.request.uri.path matches "^/other-${token}/[0-9]+$"` },
		});
		expect(edited.status, JSON.stringify(edited.body)).toBe(200);
		expect(await get(host, `/other-${token}/42`)).toBe(403);
		expect(await get(host, `/blocked-${token}-1/abc`)).not.toBe(403);
		expect(compiledCacheCounts().compilations - afterPatch.compilations).toBe(1);
	});
});
