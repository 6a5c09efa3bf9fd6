/**
 * Proxied records reach their origin: a real Node HTTP server (`origin-server.ts`) behind an A
 * record at the request's port, with the headers Cloudflare adds, bodies both ways, a WebSocket,
 * wildcards, and the records that do not proxy (DNS-only, none) left to the gateway.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sdkClient } from "../../api/sdk";
import { type Echo, originCount, originPort, originZone, record, visit } from "./helpers";

describe("a proxied record's origin", () => {
	it("receives the request with Cloudflare's headers, hop-by-hop headers removed (records made with the SDK)", async () => {
		const cf = sdkClient();
		const { zone_id, zone } = await originZone();
		await cf.dns.records.create({ zone_id, type: "A", name: "app", content: "127.0.0.1", proxied: true, ttl: 1 });
		const host = `app.${zone}:${originPort()}`;
		const res = await visit(`http://${host}/hello?x=1`, {
			headers: {
				"cf-connecting-ip": "203.0.113.7",
				"x-edgezone-geo-country": "FR",
				"keep-alive": "timeout=5",
				connection: "keep-alive, x-drop-me",
				"x-drop-me": "1",
				"x-kept": "yes",
			},
		});
		expect(res.status).toBe(200);
		const echo = JSON.parse(res.text) as Echo;
		expect(echo.url).toBe("/hello?x=1");
		// workerd drops CF-Connecting-IP from a Worker's fetch (origin/headers.ts, gaps): X-Forwarded-For carries it.
		expect(echo.headers).toMatchObject({
			"x-forwarded-for": "203.0.113.7",
			"x-forwarded-proto": "http",
			"x-forwarded-host": host,
			"cf-visitor": '{"scheme":"http"}',
			"cf-ipcountry": "FR",
			"cdn-loop": "cloudflare",
			"cf-ray": res.headers.get("cf-ray"),
			"x-kept": "yes",
		});
		for (const gone of ["keep-alive", "x-drop-me", "x-edgezone-geo-country"])
			expect(echo.headers).not.toHaveProperty(gone);
		// The origin's answer, less what Cloudflare strips, with both cookies.
		expect(res.headers.get("x-accel-redirect")).toBeNull();
		expect(res.headers.getSetCookie()).toStrictEqual(["first=1; Path=/", "second=2; Path=/"]);
		expect(res.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
	});

	it("passes a compressed answer on as the origin sent it, with its Content-Encoding", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		// The visitor's client keeps the bytes too, as a browser's network layer would before decoding them.
		const res = await exports.default.fetch(`http://app.${zone}:${originPort()}/gzip/a`, {
			encodeResponseBody: "manual",
		});
		expect(res.status).toBe(200);
		expect(res.headers.get("content-encoding")).toBe("gzip");
		const bytes = new Uint8Array(await res.arrayBuffer());
		// gzip's magic number (RFC 1952 §2.3.1): the bytes were not decoded on the way.
		expect([bytes[0], bytes[1]]).toStrictEqual([0x1f, 0x8b]);
		const text = await new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"))).text();
		expect(text).toBe("compressed by the origin");
	});

	it("appends the visitor's IP to its X-Forwarded-For", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const res = await visit(`http://app.${zone}:${originPort()}/xff`, {
			headers: { "cf-connecting-ip": "203.0.113.7", "x-forwarded-for": "198.51.100.1" },
		});
		const echo = JSON.parse(res.text) as Echo;
		expect(echo.headers["x-forwarded-for"]).toBe("198.51.100.1, 203.0.113.7");
	});

	it("sends the country of request.cf in CF-IPCountry (XX when unknown) while the zone's IP Geolocation is on", async () => {
		const cf = sdkClient();
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const country = async (init: RequestInit) => {
			const res = await visit(`http://app.${zone}:${originPort()}/country`, init);
			return (JSON.parse(res.text) as Echo).headers["cf-ipcountry"];
		};
		expect(await country({ cf: { country: "DE" } })).toBe("DE");
		expect(await country({ cf: {} })).toBe("XX");
		await cf.zones.settings.edit("ip_geolocation", { zone_id, value: "off" });
		// Off: none, not even the one a visitor sent.
		expect(await country({ cf: { country: "DE" }, headers: { "cf-ipcountry": "FR" } })).toBeUndefined();
		await cf.zones.settings.edit("ip_geolocation", { zone_id, value: "on" });
		expect(await country({ cf: { country: "DE" }, headers: { "cf-ipcountry": "FR" } })).toBe("DE");
	});

	it("streams a request body to the origin and a large answer back", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const posted = await visit(`http://app.${zone}:${originPort()}/upload`, {
			method: "POST",
			body: "x".repeat(100_000),
		});
		expect(JSON.parse(posted.text)).toMatchObject({ method: "POST", body: "x".repeat(100_000) });
		const response = await exports.default.fetch(`http://app.${zone}:${originPort()}/stream/${8 * 1024 * 1024}`);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-length")).toBeNull();
		let bytes = 0;
		for await (const chunk of response.body ?? new ReadableStream()) bytes += (chunk as Uint8Array).byteLength;
		expect(bytes).toBe(8 * 1024 * 1024);
	});

	it("follows a CNAME inside the zone and a wildcard record; an exact record beneath the wildcard wins", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "backend", "127.0.0.1", false);
		await record(zone_id, "CNAME", "www", `backend.${zone}`);
		await record(zone_id, "CNAME", "*.tenants", `backend.${zone}`);
		await record(zone_id, "A", "plain.tenants", "127.0.0.1", false);
		const port = originPort();
		expect((await visit(`http://www.${zone}:${port}/cname`)).status).toBe(200);
		expect(await originCount("/cname")).toBe(1);
		expect((await visit(`http://a.b.tenants.${zone}:${port}/wild`)).status).toBe(200);
		expect(await originCount("/wild")).toBe(1);
		// DNS-only records (backend, plain.tenants) would not reach Cloudflare: the gateway answers their names.
		for (const name of [`backend.${zone}`, `plain.tenants.${zone}`, zone]) {
			const res = await visit(`http://${name}:${port}/dns-only`);
			expect(res.status, name).not.toBe(200);
		}
		expect(await originCount("/dns-only")).toBe(0);
	});

	it("passes a WebSocket upgrade through", async () => {
		const { zone_id, zone } = await originZone();
		await record(zone_id, "A", "app", "127.0.0.1");
		const response = await exports.default.fetch(`http://app.${zone}:${originPort()}/socket`, {
			headers: { upgrade: "websocket" },
		});
		expect(response.status).toBe(101);
		const socket = response.webSocket;
		if (socket === null) throw new Error("no WebSocket");
		socket.accept();
		const echoed = new Promise<string>((resolve) => socket.addEventListener("message", (e) => resolve(String(e.data))));
		socket.send("ping");
		expect(await echoed).toBe("ping");
		socket.close();
	});

	it("applies a record written a moment ago: DNS writes bump the zone's config version", async () => {
		const { zone_id, zone } = await originZone();
		const url = `http://late.${zone}:${originPort()}/late`;
		expect((await visit(url)).status).not.toBe(200);
		const id = await record(zone_id, "A", "late", "127.0.0.1");
		expect((await visit(url)).status).toBe(200);
		const { call } = await import("../../api/http");
		expect((await call("PATCH", `/zones/${zone_id}/dns_records/${id}`, { proxied: false })).status).toBe(200);
		expect((await visit(url)).status).not.toBe(200);
		expect(await originCount("/late")).toBe(1);
	});
});
