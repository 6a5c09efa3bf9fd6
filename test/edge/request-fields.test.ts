import { describe, expect, it } from "vitest";
import { requestFields } from "../../src/edge/request-fields";

const CONTEXT = { rayId: "0123456789abcdef", zoneName: "example.com", receivedAt: 1_700_000_000_123 };

function fieldsOf(url: string, init: RequestInit = {}, cf?: Record<string, unknown>) {
	const request = new Request(url, { ...init, cf } as RequestInit);
	return requestFields(request, new URL(request.url), CONTEXT);
}

describe("requestFields", () => {
	it("splits the URL into the uri fields, the query kept as written", () => {
		const fields = fieldsOf("https://shop.example.com/a/Photo.JPG?x=1&y=%20z&x=2&flag");
		expect(fields).toMatchObject({
			"http.host": "shop.example.com",
			"http.request.uri": "/a/Photo.JPG?x=1&y=%20z&x=2&flag",
			"http.request.uri.path": "/a/Photo.JPG",
			"http.request.uri.path.extension": "jpg",
			"http.request.uri.query": "x=1&y=%20z&x=2&flag",
			"http.request.uri.args": { x: ["1", "2"], y: ["%20z"], flag: [""] },
			"http.request.uri.args.names": ["x", "y", "flag"],
			"http.request.uri.args.values": ["1", "2", "%20z", ""],
			"http.request.full_uri": "https://shop.example.com/a/Photo.JPG?x=1&y=%20z&x=2&flag",
			ssl: true,
			"cf.edge.server_port": 443,
		});
	});

	it("gives the uri fields the path the edge says the rules see, and the raw. fields the URL as sent", () => {
		const request = new Request("https://shop.example.com/%70rivate//Report.TXT?x=1&y");
		const fields = requestFields(request, new URL(request.url), { ...CONTEXT, path: () => "/private/Report.TXT" });
		expect(fields).toMatchObject({
			"http.request.uri": "/private/Report.TXT?x=1&y",
			"http.request.uri.path": "/private/Report.TXT",
			"http.request.full_uri": "https://shop.example.com/private/Report.TXT?x=1&y",
			"raw.http.request.uri": "/%70rivate//Report.TXT?x=1&y",
			"raw.http.request.uri.path": "/%70rivate//Report.TXT",
			"raw.http.request.uri.path.extension": "txt",
			"raw.http.request.uri.query": "x=1&y",
			"raw.http.request.uri.args": { x: ["1"], y: [""] },
			"raw.http.request.uri.args.names": ["x", "y"],
			"raw.http.request.uri.args.values": ["1", ""],
			"raw.http.request.full_uri": "https://shop.example.com/%70rivate//Report.TXT?x=1&y",
		});
	});

	it.each([
		["/", ""],
		["/archive.tar.gz", "gz"],
		["/dir.d/file", ""],
		["/file.", ""],
	])("gives %s the extension %j", (path, extension) => {
		expect(fieldsOf(`http://localhost:8787${path}`)["http.request.uri.path.extension"]).toBe(extension);
	});

	it("reads method, headers, cookies and the client IP", () => {
		const fields = fieldsOf("http://localhost:8787/k", {
			method: "put",
			headers: {
				"User-Agent": "curl/8",
				Referer: "https://ref.example/",
				"X-Forwarded-For": "198.51.100.1",
				Cookie: "session=abc; caf%C3%A9=1; session=def",
				"CF-Connecting-IP": "203.0.113.7",
			},
		});
		expect(fields).toMatchObject({
			"http.request.method": "PUT",
			"http.user_agent": "curl/8",
			"http.referer": "https://ref.example/",
			"http.x_forwarded_for": "198.51.100.1",
			"http.cookie": "session=abc; caf%C3%A9=1; session=def",
			"http.request.cookies": { session: ["abc", "def"], café: ["1"] },
			"ip.src": "203.0.113.7",
			ssl: false,
			"cf.edge.server_port": 8787,
		});
		expect(fields["http.request.headers"]["user-agent"]).toEqual(["curl/8"]);
		expect(fields["http.request.headers.names"]).toContain("cf-connecting-ip");
	});

	it("takes names such as __proto__ as names like any other", () => {
		const fields = fieldsOf("http://localhost/k?__proto__=1&constructor=2", {
			headers: { Cookie: "__proto__=x; toString=y" },
		});
		const PROTO = "__proto__";
		expect(Object.getOwnPropertyDescriptor(fields["http.request.uri.args"], PROTO)?.value).toEqual(["1"]);
		expect(fields["http.request.uri.args"].constructor).toEqual(["2"]);
		expect(Object.getOwnPropertyDescriptor(fields["http.request.cookies"], PROTO)?.value).toEqual(["x"]);
		expect(fields["http.request.cookies"].toString).toEqual(["y"]);
		expect(fields["http.request.uri.args.names"]).toEqual(["__proto__", "constructor"]);
	});

	it("leaves fields with no local source missing rather than inventing them", () => {
		const fields = fieldsOf("http://localhost/k");
		for (const name of [
			"ip.src",
			"ip.src.country",
			"ip.src.asnum",
			"cf.client.bot",
			"http.cookie",
			"http.user_agent",
		]) {
			expect(Object.hasOwn(fields, name), name).toBe(false);
		}
	});

	it("takes geo and bot fields from request.cf where present", () => {
		const fields = fieldsOf(
			"http://localhost/k",
			{},
			{
				country: "PT",
				asn: 64500,
				continent: "EU",
				city: "Lisbon",
				region: "Lisbon",
				regionCode: "11",
				postalCode: "1000-001",
				metroCode: "0",
				latitude: "38.71667",
				longitude: "-9.13333",
				isEUCountry: "1",
				httpProtocol: "HTTP/2",
				botManagement: { verifiedBot: true },
			},
		);
		expect(fields).toMatchObject({
			"ip.src.country": "PT",
			"ip.geoip.country": "PT",
			"ip.src.asnum": 64500,
			"ip.geoip.asnum": 64500,
			"ip.src.continent": "EU",
			"ip.geoip.continent": "EU",
			"ip.src.city": "Lisbon",
			"ip.src.region": "Lisbon",
			"ip.src.region_code": "11",
			"ip.src.postal_code": "1000-001",
			"ip.src.metro_code": "0",
			"ip.src.lat": "38.71667",
			"ip.src.lon": "-9.13333",
			"ip.src.subdivision_1_iso_code": "PT-11",
			"ip.src.is_in_european_union": true,
			"http.request.version": "HTTP/2",
			"cf.client.bot": true,
		});
	});

	it("carries the Ray ID, the zone and the time of the request", () => {
		expect(fieldsOf("http://localhost/k")).toMatchObject({
			"cf.ray_id": "0123456789abcdef",
			"cf.zone.name": "example.com",
			"http.request.timestamp.sec": 1_700_000_000,
			"http.request.timestamp.msec": 1_700_000_000_123,
		});
	});

	it("computes only the named fields when given names, and leaves the missing ones absent", () => {
		const request = new Request("https://shop.example.com/a.txt?x=1", {
			headers: { "X-A": "1", "User-Agent": "curl/8", Cookie: "a=b" },
		});
		const fields = requestFields(request, new URL(request.url), CONTEXT, [
			"http.request.headers",
			"http.request.full_uri",
			"ip.src",
			"http.user_agent",
			"cf.threat_score",
		]);
		expect(Object.keys(fields).sort()).toEqual(["http.request.full_uri", "http.request.headers", "http.user_agent"]);
		expect(fields["http.request.headers"]?.["x-a"]).toEqual(["1"]);
		expect(fields["http.request.full_uri"]).toBe("https://shop.example.com/a.txt?x=1");
		expect(fields["http.user_agent"]).toBe("curl/8");
	});

	it("gives every field the same value whether computed alone or with all the others", () => {
		const request = new Request("http://localhost:8787/a/b.JPG?x=1&x=2", {
			headers: { "CF-Connecting-IP": "203.0.113.7", Cookie: "s=1; t=2", Referer: "r" },
			cf: { country: "PT", httpProtocol: "HTTP/2" },
		} as RequestInit);
		const url = new URL(request.url);
		const all = requestFields(request, url, CONTEXT);
		expect(Object.keys(all).length).toBeGreaterThan(25);
		for (const [name, value] of Object.entries(all)) {
			expect(requestFields(request, url, CONTEXT, [name]), name).toEqual({ [name]: value });
		}
	});
});
