/** The pure parts of the proxy: which record answers a name, where it resolves, the origin URL and headers. */
import { describe, expect, it } from "vitest";
import { isUnreachable, originAddress } from "../../../src/edge/origin/address";
import { hasLooped, originRequestHeaders } from "../../../src/edge/origin/headers";
import { addressRecordOf, recordIndex, recordsOf, resolveRecord } from "../../../src/edge/origin/records";
import type { EdgeRecord } from "../../../src/zone/dns-records";

const Z = "example.com";
const rec = (name: string, type: EdgeRecord["type"], content: string, proxied = true): EdgeRecord => ({
	name,
	type,
	content,
	proxied,
});

describe("records of a name", () => {
	const records = recordIndex({
		dnsRecords: [
			rec("*.example.com", "A", "192.0.2.1"),
			rec("b.example.com", "TXT", ""),
			rec("*.c.example.com", "CNAME", "www.example.com"),
			rec("www.example.com", "A", "127.0.0.1"),
			rec("www.example.com", "A", "127.0.0.2"),
		],
	});
	it("takes its own, else the wildcard of its closest encloser (RFC 4592)", () => {
		expect(addressRecordOf("www.example.com", records)?.content).toBe("127.0.0.1");
		expect(addressRecordOf("x.y.example.com", records)?.content).toBe("192.0.2.1");
		// b.example.com exists (a TXT): a.b.example.com is not covered by *.example.com, and b itself has no address.
		expect(recordsOf("a.b.example.com", records)).toStrictEqual([]);
		expect(addressRecordOf("b.example.com", records)).toBeUndefined();
		expect(addressRecordOf("d.c.example.com", records)?.type).toBe("CNAME");
		expect(addressRecordOf("example.com", records)).toBeUndefined();
	});

	it("follows CNAMEs inside the zone; a target outside is the world's; a dead end or a loop does not resolve", () => {
		const chain = recordIndex({
			dnsRecords: [
				rec("a.example.com", "CNAME", "b.example.com"),
				rec("b.example.com", "CNAME", "c.example.com", false),
				rec("c.example.com", "AAAA", "::1", false),
				rec("out.example.com", "CNAME", "origin.example.org"),
				rec("dead.example.com", "CNAME", "nothing.example.com"),
				rec("loop1.example.com", "CNAME", "loop2.example.com"),
				rec("loop2.example.com", "CNAME", "loop1.example.com"),
			],
		});
		const resolve = (name: string) => {
			const record = addressRecordOf(name, chain);
			return record === undefined ? "none" : resolveRecord(record, Z, chain);
		};
		expect(resolve("a.example.com")).toBe("::1");
		expect(resolve("out.example.com")).toBe("origin.example.org");
		expect(resolve("dead.example.com")).toBeUndefined();
		expect(resolve("loop1.example.com")).toBeUndefined();
	});
});

describe("the origin URL", () => {
	const visitor = new URL("https://app.example.com:8443/p/a?q=1");
	it("is the address at the visitor's scheme and port, or an Origin Rule's port", () => {
		expect(originAddress(visitor, "127.0.0.1", undefined, "")).toMatchObject({ kind: "url", ip: "127.0.0.1" });
		expect((originAddress(visitor, "::1", 3000, "") as { url: string }).url).toBe("https://[::1]:3000/p/a?q=1");
		expect(originAddress(visitor, "origin.example.org", undefined, "")).toMatchObject({
			url: "https://origin.example.org:8443/p/a?q=1",
			host: "origin.example.org",
			ip: "",
		});
		expect(originAddress(new URL("http://app.example.com/"), "127.0.0.1", undefined, "")).toMatchObject({
			url: "http://127.0.0.1/",
		});
	});

	it("sends addresses that reach nothing to DEFAULT_ORIGIN_URL, else marks them unreachable", () => {
		for (const address of ["192.0.2.1", "198.51.100.7", "203.0.113.255", "2001:db8::1", "100::"])
			expect(isUnreachable(address), address).toBe(true);
		for (const address of ["127.0.0.1", "192.0.3.1", "10.0.0.1", "::1", "1000::1"])
			expect(isUnreachable(address), address).toBe(false);
		expect(originAddress(visitor, "192.0.2.1", undefined, "")).toStrictEqual({ kind: "unreachable", ip: "192.0.2.1" });
		const local = originAddress(visitor, "192.0.2.1", undefined, "http://127.0.0.1:3000");
		expect((local as { url: string }).url).toBe("http://127.0.0.1:3000/p/a?q=1");
	});
});

describe("the headers toward the origin", () => {
	it("adds Cloudflare's, drops hop-by-hop ones but keeps a WebSocket upgrade, and appends to CDN-Loop", () => {
		const incoming = new Headers({
			connection: "Upgrade, x-secret",
			upgrade: "websocket",
			"x-secret": "1",
			te: "trailers",
			"cdn-loop": "other-cdn",
			"x-edgezone-geo-country": "FR",
		});
		const facts = {
			clientIp: "203.0.113.1",
			scheme: "https",
			cfRay: "abc-LCL",
			ipCountry: "XX",
			host: "a.example.com",
			cdnLoop: incoming.get("cdn-loop"),
			geoHeadersRead: true,
		};
		const out = Object.fromEntries(originRequestHeaders(incoming, facts));
		expect(out).toStrictEqual({
			connection: "Upgrade",
			upgrade: "websocket",
			"cf-connecting-ip": "203.0.113.1",
			"x-forwarded-for": "203.0.113.1",
			"x-forwarded-proto": "https",
			"x-forwarded-host": "a.example.com",
			"cf-ray": "abc-LCL",
			"cf-visitor": '{"scheme":"https"}',
			"cf-ipcountry": "XX",
			"cdn-loop": "other-cdn, cloudflare",
		});
		// With the zone's IP Geolocation off, no CF-IPCountry, not even one the visitor sent.
		incoming.set("cf-ipcountry", "FR");
		expect(originRequestHeaders(incoming, { ...facts, ipCountry: null }).has("cf-ipcountry")).toBe(false);
		// Where the deployment does not trust the geo headers, they are ordinary headers and pass.
		expect(originRequestHeaders(incoming, { ...facts, geoHeadersRead: false }).get("x-edgezone-geo-country")).toBe(
			"FR",
		);
		expect(hasLooped("other-cdn, Cloudflare; v=1")).toBe(true);
		expect(hasLooped("other-cdn")).toBe(false);
		expect(hasLooped(null)).toBe(false);
	});

	it("removes every hop-by-hop header the request has, appends to X-Forwarded-For and keeps the rest", () => {
		const incoming = new Headers({
			"keep-alive": "timeout=5",
			"proxy-connection": "keep-alive",
			"transfer-encoding": "chunked",
			trailer: "x-checksum",
			upgrade: "h2c",
			"x-forwarded-for": "198.51.100.7",
			accept: "text/html",
		});
		const out = originRequestHeaders(incoming, {
			clientIp: "203.0.113.1",
			scheme: "http",
			cfRay: "abc-LCL",
			ipCountry: "FR",
			host: "a.example.com",
			cdnLoop: null,
			geoHeadersRead: false,
		});
		for (const gone of ["keep-alive", "proxy-connection", "transfer-encoding", "trailer", "upgrade", "connection"])
			expect(out.has(gone), gone).toBe(false);
		expect(out.get("x-forwarded-for")).toBe("198.51.100.7, 203.0.113.1");
		expect(out.get("accept")).toBe("text/html");
		expect(out.get("cf-ipcountry")).toBe("FR");
		expect(out.get("cdn-loop")).toBe("cloudflare");
	});
});
