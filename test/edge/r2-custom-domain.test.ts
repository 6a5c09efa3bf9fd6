/**
 * A bucket served publicly on a connected custom domain or its r2.dev URL, through the Worker's
 * front door: GET and HEAD with no credential, ranges and conditionals, no listing, R2's 404,
 * other methods refused, the zone's firewall first and its log tap after; a disabled or removed
 * domain no longer serves the bucket; an r2.dev URL passes no zone's rules and no zone's log; a
 * bucket created at run time is served until it is deleted.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID } from "../api/credentials";
import { call } from "../api/http";
import { gw } from "../gateway/helpers";
import { configure, edgeRequest, flush, records, zoneWithHost } from "./logs-helpers";

const BUCKET = "edgezone-bucket";
const domains = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/buckets/${BUCKET}/domains`;

/** A fresh zone, with `cdn.<zone>` connected to the bucket, and an object stored under a fresh prefix. */
async function connected(): Promise<{ zone_id: string; domain: string; key: string }> {
	const { zone_id, host } = await zoneWithHost("r2pub");
	const domain = `cdn.${host}`;
	const res = await call("POST", `${domains}/custom`, { domain, zoneId: zone_id, enabled: true });
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	const key = `public-${crypto.randomUUID().slice(0, 8)}/hello.txt`;
	await env.BUCKET.put(key, "hello, world", {
		httpMetadata: { contentType: "text/plain", cacheControl: "max-age=60" },
		customMetadata: { owner: "tests" },
	});
	return { zone_id, domain, key };
}

/** A request to `host` with no credential at all. */
async function visit(host: string, path: string, init: { method?: string; headers?: HeadersInit } = {}) {
	const response = await exports.default.fetch(`http://${host}${path}`, init);
	return { status: response.status, headers: response.headers, text: await response.text() };
}

describe("a custom domain connected to a bucket", () => {
	it("serves GET and HEAD of its objects with no credential, with the object's headers only", async () => {
		const { domain, key } = await connected();
		const got = await visit(domain, `/${key}`);
		expect(got.status).toBe(200);
		expect(got.text).toBe("hello, world");
		expect(got.headers.get("content-type")).toBe("text/plain");
		expect(got.headers.get("cache-control")).toBe("max-age=60");
		expect(got.headers.get("content-length")).toBe("12");
		expect(got.headers.get("accept-ranges")).toBe("bytes");
		expect(got.headers.get("etag")).toMatch(/^"[0-9a-f]{32}"$/);
		expect(got.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		const dialect = [...got.headers.keys()].filter((name) => /^x-(r2|amz)-/.test(name));
		expect(dialect).toStrictEqual([]);
		const head = await visit(domain, `/${key}`, { method: "HEAD" });
		expect(head.status).toBe(200);
		expect(head.text).toBe("");
		expect(head.headers.get("content-length")).toBe("12");
	});

	it("answers ranges, conditionals, R2's 404 and no listing", async () => {
		const { domain, key } = await connected();
		const range = await visit(domain, `/${key}`, { headers: { range: "bytes=7-" } });
		expect(range.status).toBe(206);
		expect(range.text).toBe("world");
		expect(range.headers.get("content-range")).toBe("bytes 7-11/12");
		const beyond = await visit(domain, `/${key}`, { headers: { range: "bytes=50-60" } });
		expect(beyond.status).toBe(416);
		expect(beyond.headers.get("content-range")).toBe("bytes */12");
		const etag = (await visit(domain, `/${key}`)).headers.get("etag") ?? "";
		const fresh = await visit(domain, `/${key}`, { headers: { "if-none-match": etag } });
		expect(fresh.status).toBe(304);
		expect(fresh.text).toBe("");
		const stale = await visit(domain, `/${key}`, { headers: { "if-match": '"0000"' } });
		expect(stale.status).toBe(412);
		for (const path of ["/", "/missing.txt", `/${key.split("/")[0]}/`]) {
			const missing = await visit(domain, path);
			expect(missing.status, path).toBe(404);
			expect(missing.text).toBe("404 Not Found");
		}
		// The gateway's ?key= alias is no public bucket's: the path names the key.
		expect((await visit(domain, `/?key=${encodeURIComponent(key)}`)).status).toBe(404);
	});

	it("refuses every method but GET and HEAD, storing nothing", async () => {
		const { domain, key } = await connected();
		for (const method of ["PUT", "POST", "DELETE"]) {
			const refused = await visit(domain, `/${key}`, {
				method,
				headers: { authorization: "Bearer test-rw" },
			});
			expect(refused.status, method).toBe(405);
			expect(refused.headers.get("allow")).toBe("GET, HEAD");
		}
		expect(await (await env.BUCKET.get(key))?.text()).toBe("hello, world");
	});

	it("passes the zone's firewall first and its log tap after", async () => {
		const { zone_id, domain, key } = await connected();
		const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{
				action: "block",
				filter: { expression: `http.host eq "${domain}" and http.request.uri.path contains "secret"` },
			},
		]);
		expect(rule.status).toBe(200);
		await env.BUCKET.put(`${key}.secret`, "no");
		expect((await visit(domain, `/${key}.secret`)).status).toBe(403);
		const { path } = await configure(zone_id, { request_fields: [{ name: "user-agent" }] });
		const served = await edgeRequest(domain, `/${key}`, { headers: { authorization: "" } });
		expect(served.status).toBe(200);
		const deliveries = await flush(zone_id);
		const rays = (await records(deliveries.flatMap((d) => d.objects).filter((k) => k.startsWith(path)))).map(
			(r) => r.RayID,
		);
		expect(rays).toContain(served.ray);
	});

	it("stops serving when disabled or removed: the host is the gateway's again", async () => {
		const { domain, key } = await connected();
		expect((await visit(domain, `/${key}`)).status).toBe(200);
		const off = await call("PUT", `${domains}/custom/${domain}`, { enabled: false });
		expect(off.status).toBe(200);
		expect((await visit(domain, `/${key}`)).status).toBe(401);
		await call("PUT", `${domains}/custom/${domain}`, { enabled: true });
		expect((await visit(domain, `/${key}`)).status).toBe(200);
		expect((await call("DELETE", `${domains}/custom/${domain}`)).status).toBe(200);
		expect((await visit(domain, `/${key}`)).status).toBe(401);
	});
});

describe("a bucket's r2.dev URL", () => {
	it("serves the bucket while it is on", async () => {
		const key = `dev-${crypto.randomUUID().slice(0, 8)}.txt`;
		await env.LOGS.put(key, "from r2.dev");
		const path = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/buckets/edgezone-logs/domains/managed`;
		const on = await call("PUT", path, { enabled: true });
		const host = (on.body.result as { domain: string }).domain;
		const served = await visit(host, `/${key}`);
		expect(served.status).toBe(200);
		expect(served.text).toBe("from r2.dev");
		expect((await visit(host, "/")).status).toBe(404);
		await call("PUT", path, { enabled: false });
		const off = await visit(host, `/${key}`);
		expect(off.status).toBe(401);
		expect(off.text).toBe("401 Unauthorized");
		// No gateway behind it: a token reads nothing there either.
		expect((await visit(host, `/${key}`, { headers: { authorization: "Bearer test-rw" } })).status).toBe(401);
	});

	it("is no zone's: the default zone's firewall and log leave it alone", async () => {
		const key = `dev-${crypto.randomUUID().slice(0, 8)}.txt`;
		await env.LOGS.put(key, "unfiltered");
		const managed = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/buckets/edgezone-logs/domains/managed`;
		const host = ((await call("PUT", managed, { enabled: true })).body.result as { domain: string }).domain;
		const zone = DEFAULT_ZONE_ID;
		const rule = await call("POST", `/zones/${zone}/firewall/rules`, [
			{ action: "block", filter: { expression: `http.host eq "${host}" or http.request.uri.path eq "/${key}"` } },
		]);
		expect(rule.status, JSON.stringify(rule.body)).toBe(200);
		const { job_id, path } = await configure(zone, { request_fields: [{ name: "user-agent" }] });
		try {
			// The rule holds in the default zone: a host that zone serves is blocked there.
			expect((await edgeRequest("localhost", `/${key}`)).status).toBe(403);
			const served = await edgeRequest(host, `/${key}`, { headers: { authorization: "" } });
			expect(served.status).toBe(200);
			expect(served.text).toBe("unfiltered");
			expect(served.ray).toMatch(/^[0-9a-f]{16}$/);
			const logged = await edgeRequest("localhost", "/");
			const delivered = (await flush(zone)).flatMap((d) => d.objects).filter((k) => k.startsWith(path));
			const rays = (await records(delivered)).map((r) => r.RayID);
			expect(rays).toContain(logged.ray);
			expect(rays).not.toContain(served.ray);
		} finally {
			const [created] = rule.body.result as { id: string }[];
			await call("DELETE", `/zones/${zone}/firewall/rules/${created?.id}`);
			await call("DELETE", `/zones/${zone}/logpush/jobs/${job_id}`);
			await call("PUT", managed, { enabled: false });
		}
	});
});

describe("a bucket created at run time", () => {
	const buckets = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/buckets`;

	/** Creates the bucket `name` through the API, holding `hello.txt` with `body`. */
	async function created(name: string, body: string): Promise<void> {
		expect((await call("POST", buckets, { name })).status).toBe(200);
		const put = await gw("/hello.txt", { method: "PUT", body, headers: { "x-r2-bucket": name } });
		expect(put.status).toBe(200);
	}

	it("is served on its custom domain until it is deleted, and not again when created anew under its name", async () => {
		const name = `pub-run-${crypto.randomUUID().slice(0, 8)}`;
		await created(name, "first");
		const { zone_id, host } = await zoneWithHost("r2run");
		const domain = `cdn.${host}`;
		const connected = await call("POST", `${buckets}/${name}/domains/custom`, { domain, zoneId: zone_id });
		expect(connected.status, JSON.stringify(connected.body)).toBe(200);
		const served = await visit(domain, "/hello.txt");
		expect(served.status).toBe(200);
		expect(served.text).toBe("first");
		expect((await gw("/hello.txt", { method: "DELETE", headers: { "x-r2-bucket": name } })).status).toBe(204);
		expect((await call("DELETE", `${buckets}/${name}`)).status).toBe(200);
		// Its domain went with it: the host is the gateway's again, which asks a token.
		expect((await visit(domain, "/hello.txt")).status).toBe(401);
		await created(name, "second");
		expect((await visit(domain, "/hello.txt")).status).toBe(401);
		expect((await call("GET", `${buckets}/${name}/domains/custom`)).body.result).toStrictEqual({ domains: [] });
	});
});
