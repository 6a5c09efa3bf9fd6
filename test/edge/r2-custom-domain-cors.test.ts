/**
 * A bucket served publicly answers browsers as its CORS policy says (developers.cloudflare.com/
 * r2/buckets/cors/, "Use CORS with a public bucket"): the policy set through R2's API on a bucket
 * created at run time (one per test: no test sees another's policy), its custom domain visited
 * as a browser would, preflight first.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { call } from "../api/http";
import { gw } from "../gateway/helpers";
import { zoneWithHost } from "./logs-helpers";

const buckets = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/buckets`;
const PAGE = "http://localhost:3000";

/** A bucket created through the API, holding `hello.txt`, connected to `cdn.<fresh zone>`. */
async function publicBucket(): Promise<{ name: string; domain: string }> {
	const name = `pub-cors-${crypto.randomUUID().slice(0, 8)}`;
	const created = await call("POST", buckets, { name });
	expect(created.status, JSON.stringify(created.body)).toBe(200);
	const put = await gw("/hello.txt", {
		method: "PUT",
		body: "hello, world",
		headers: { "x-r2-bucket": name, "content-type": "text/plain" },
	});
	expect(put.status).toBe(200);
	const { zone_id, host } = await zoneWithHost("r2cors");
	const domain = `cdn.${host}`;
	const connected = await call("POST", `${buckets}/${name}/domains/custom`, { domain, zoneId: zone_id, enabled: true });
	expect(connected.status, JSON.stringify(connected.body)).toBe(200);
	return { name, domain };
}

/** A request to `host` with no credential, as a page's `fetch` sends it. */
async function visit(host: string, path: string, init: { method?: string; headers?: Record<string, string> } = {}) {
	const response = await exports.default.fetch(`http://${host}${path}`, init);
	return { status: response.status, headers: response.headers, text: await response.text() };
}

const corsHeaders = (headers: Headers) => [...headers.keys()].filter((name) => name.startsWith("access-control-"));

describe("a public bucket's CORS policy", () => {
	it("sends no CORS headers while the bucket has no policy, and refuses a preflight", async () => {
		const { domain } = await publicBucket();
		const got = await visit(domain, "/hello.txt", { headers: { origin: PAGE } });
		expect(got.status).toBe(200);
		expect(corsHeaders(got.headers)).toStrictEqual([]);
		const preflight = await visit(domain, "/hello.txt", {
			method: "OPTIONS",
			headers: { origin: PAGE, "access-control-request-method": "GET" },
		});
		expect(preflight.status).toBe(403);
		expect(corsHeaders(preflight.headers)).toStrictEqual([]);
	});

	it("answers a preflight and the read after it as the policy's first matching rule says", async () => {
		const { name, domain } = await publicBucket();
		const policy = await call("PUT", `${buckets}/${name}/cors`, {
			rules: [
				{
					allowed: { origins: [PAGE], methods: ["GET", "HEAD"], headers: ["range"] },
					exposeHeaders: ["Content-Range", "ETag"],
					maxAgeSeconds: 3600,
				},
			],
		});
		expect(policy.status, JSON.stringify(policy.body)).toBe(200);
		const preflight = await visit(domain, "/hello.txt", {
			method: "OPTIONS",
			headers: { origin: PAGE, "access-control-request-method": "GET", "access-control-request-headers": "range" },
		});
		expect(preflight.status).toBe(200);
		expect(preflight.headers.get("access-control-allow-origin")).toBe(PAGE);
		expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, HEAD");
		expect(preflight.headers.get("access-control-allow-headers")).toBe("range");
		expect(preflight.headers.get("access-control-max-age")).toBe("3600");
		const ranged = await visit(domain, "/hello.txt", { headers: { origin: PAGE, range: "bytes=7-" } });
		expect(ranged.status).toBe(206);
		expect(ranged.text).toBe("world");
		expect(ranged.headers.get("access-control-allow-origin")).toBe(PAGE);
		expect(ranged.headers.get("access-control-expose-headers")).toBe("Content-Range, ETag");
		expect(ranged.headers.get("vary")).toContain("Origin");
		// R2's 404 is a cross-origin answer too: the page's script can read that the key is missing.
		const missing = await visit(domain, "/missing.txt", { headers: { origin: PAGE } });
		expect(missing.status).toBe(404);
		expect(missing.headers.get("access-control-allow-origin")).toBe(PAGE);
		// Without an Origin, no CORS headers, whatever the policy.
		expect(corsHeaders((await visit(domain, "/hello.txt")).headers)).toStrictEqual([]);
	});

	it("gives nothing to an origin, a method or a header the policy does not allow", async () => {
		const { name, domain } = await publicBucket();
		const rules = [{ allowed: { origins: [PAGE], methods: ["GET"] } }];
		expect((await call("PUT", `${buckets}/${name}/cors`, { rules })).status).toBe(200);
		const stranger = await visit(domain, "/hello.txt", { headers: { origin: "https://evil.example" } });
		expect(stranger.status).toBe(200);
		expect(corsHeaders(stranger.headers)).toStrictEqual([]);
		const asks: Record<string, string>[] = [
			{ origin: "https://evil.example", "access-control-request-method": "GET" },
			{ origin: PAGE, "access-control-request-method": "PUT" },
			{ origin: PAGE, "access-control-request-method": "GET", "access-control-request-headers": "x-user-id" },
		];
		for (const headers of asks) {
			const refused = await visit(domain, "/hello.txt", { method: "OPTIONS", headers });
			expect(refused.status, JSON.stringify(headers)).toBe(403);
			expect(corsHeaders(refused.headers)).toStrictEqual([]);
		}
		// An OPTIONS that is no preflight is a method a public bucket does not serve.
		expect((await visit(domain, "/hello.txt", { method: "OPTIONS" })).status).toBe(405);
	});

	it("stops answering browsers once the policy is deleted", async () => {
		const { name, domain } = await publicBucket();
		const rules = [{ allowed: { origins: ["*"], methods: ["GET"] } }];
		expect((await call("PUT", `${buckets}/${name}/cors`, { rules })).status).toBe(200);
		const open = await visit(domain, "/hello.txt", { headers: { origin: PAGE } });
		expect(open.headers.get("access-control-allow-origin")).toBe("*");
		expect((await call("DELETE", `${buckets}/${name}/cors`)).status).toBe(200);
		const closed = await visit(domain, "/hello.txt", { headers: { origin: PAGE } });
		expect(corsHeaders(closed.headers)).toStrictEqual([]);
	});
});
