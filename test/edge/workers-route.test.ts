/**
 * A Worker behind a Workers route, end to end: the echo fixture (test/fixtures/workers/echo),
 * bound as ECHO and listed in WORKER_SCRIPTS by vitest.config.ts, answers the requests a route
 * of the zone matches, after the firewall, with the emulated location in `request.cf`; its
 * answer's headers reach the log entry; a no-script route and the other URLs stay the gateway's.
 */
import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { zoneState } from "../../src/common/durable-objects";
import { call } from "../api/http";
import { configure, edgeRequest, flush, records, zoneWithHost } from "./logs-helpers";

/** What the echo Worker answers (its src/index.js). */
interface Echo {
	method: string;
	url: string;
	headers: Record<string, string>;
	bodyLength: number;
	cf: { country?: string; colo?: string; httpProtocol?: string; tlsVersion?: string; city?: string };
}

async function route(zone_id: string, pattern: string, script?: string): Promise<string> {
	const res = await call(
		"POST",
		`/zones/${zone_id}/workers/routes`,
		script === undefined ? { pattern } : { pattern, script },
	);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as { id: string }).id;
}

describe("a Worker behind a route", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithHost("route");
		await route(zone.zone_id, `${zone.host}/app/*`, "echo");
		await route(zone.zone_id, `${zone.host}/app/static/*`);
		// A route whose Worker WORKER_SCRIPTS no longer lists (the API refuses to write one, 10019):
		// straight into the Zone, as a route written before the var changed.
		const stale = await zoneState(env, zone.zone_id).createWorkersRoute(
			{ pattern: `${zone.host}/missing/*`, script: "not-listed" },
			zone.host,
		);
		expect(stale.ok).toBe(true);
		await route(zone.zone_id, `${zone.host}/unbound/*`, "unbound");
		const rule = await call("POST", `/zones/${zone.zone_id}/firewall/rules`, [
			{ filter: { expression: 'http.request.uri.path eq "/app/blocked"' }, action: "block" },
		]);
		expect(rule.status, JSON.stringify(rule.body)).toBe(200);
	}, 30_000);

	it("runs the Worker with the visitor's method, URL, headers and body, and the emulated location in request.cf", async () => {
		const answer = await edgeRequest(zone.host, "/app/hello?x=1", {
			method: "POST",
			body: "hello",
			headers: {
				"x-edgezone-geo-country": "FR",
				"x-edgezone-geo-city": "Lyon",
				"x-edgezone-geo-timezone-name": "Europe/Paris",
				"x-custom": "yes",
			},
		});
		expect(answer.status, answer.text).toBe(200);
		expect(answer.headers.get("x-echo-worker")).toBe("echo");
		expect(answer.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-[A-Z]{3}$/);
		const echo = JSON.parse(answer.text) as Echo;
		expect(echo).toMatchObject({
			method: "POST",
			url: `http://${zone.host}/app/hello?x=1`,
			bodyLength: 5,
			headers: { "x-custom": "yes", "cf-ray": answer.headers.get("cf-ray") },
		});
		expect(echo.cf).toMatchObject({ country: "FR", city: "Lyon", timezone: "Europe/Paris" });
	});

	it("adds the headers Cloudflare's edge adds for a Worker, overwriting the visitor's own", async () => {
		const answer = await edgeRequest(zone.host, "/app/headers", {
			headers: {
				"cf-connecting-ip": "203.0.113.9",
				"x-forwarded-proto": "https",
				"x-real-ip": "198.51.100.1",
				"cf-visitor": '{"scheme":"https"}',
			},
		});
		expect(answer.status, answer.text).toBe(200);
		const { headers } = JSON.parse(answer.text) as Echo;
		expect(headers).toMatchObject({
			"x-forwarded-proto": "http",
			"cf-visitor": '{"scheme":"http"}',
			"x-real-ip": "203.0.113.9",
			"cf-connecting-ip": "203.0.113.9",
		});
		// The country is the Worker's to read in request.cf (the route's file header says why).
		expect(headers["cf-ipcountry"]).toBeUndefined();
	});

	it("passes on what the runtime's request.cf holds, the emulated location in place of its own", async () => {
		// Locally wrangler gives request.cf its placeholder; here the test gives one, as Cloudflare would fill it.
		const cf = { colo: "LHR", httpProtocol: "HTTP/2", tlsVersion: "TLSv1.3", country: "GB", city: "London" };
		const send = (headers: Record<string, string>) =>
			exports.default.fetch(new Request(`http://${zone.host}/app/cf`, { headers, cf })).then((r) => r.json<Echo>());
		expect((await send({})).cf).toStrictEqual(cf);
		// A location set by the geo headers is the whole location: the placeholder's city is not kept.
		expect((await send({ "x-edgezone-geo-country": "JP" })).cf).toStrictEqual({
			colo: "LHR",
			httpProtocol: "HTTP/2",
			tlsVersion: "TLSv1.3",
			country: "JP",
		});
	});

	it("passes a WebSocket upgrade through to the Worker and back", async () => {
		const answer = await exports.default.fetch(`http://${zone.host}/app/socket`, { headers: { upgrade: "websocket" } });
		expect(answer.status).toBe(101);
		expect(answer.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		const socket = answer.webSocket;
		if (socket === null) throw new Error("no WebSocket in the answer");
		socket.accept();
		const reply = new Promise((resolve) => socket.addEventListener("message", (event) => resolve(event.data)));
		socket.send("hello");
		expect(await reply).toBe("echo: hello");
		socket.close();
	});

	it("lets the firewall act first: a blocked request never reaches the Worker", async () => {
		const answer = await edgeRequest(zone.host, "/app/blocked");
		expect(answer.status).toBe(403);
		expect(answer.headers.get("x-echo-worker")).toBeNull();
		expect(answer.text).toContain("Sorry, you have been blocked");
	});

	it.each(["/app/static/a.txt", "/app", "/other/a.txt"])(
		"leaves %s to the gateway (a no-script route, or no route)",
		async (path) => {
			const answer = await edgeRequest(zone.host, path);
			expect(answer.headers.get("x-echo-worker")).toBeNull();
			expect(answer.status).toBe(404);
			expect(answer.text).toContain("The specified key does not exist.");
		},
	);

	it.each(["/missing/a", "/unbound/a"])(
		"answers %s, whose Worker no binding reaches (no longer listed, listed unbound), with error 1022",
		async (path) => {
			const answer = await edgeRequest(zone.host, path);
			expect(answer.status).toBe(500);
			expect(answer.headers.get("content-type")).toBe("text/html; charset=UTF-8");
			expect(answer.text).toContain("Error 1022");
			expect(answer.text).toContain(answer.ray);
		},
	);

	it("answers a Worker that throws with error 1101", async () => {
		const answer = await edgeRequest(zone.host, "/app/throw");
		expect(answer.status).toBe(500);
		expect(answer.text).toContain("Error 1101");
	});
});

describe("a route's Worker and the zone's configuration", () => {
	it("logs the Worker's response headers (custom log fields' response_fields)", async () => {
		const { zone_id, host } = await zoneWithHost("route-log");
		await route(zone_id, `${host}/*`, "echo");
		await configure(zone_id, { response_fields: [{ name: "x-echo-worker" }, { name: "content-type" }] });
		const answer = await edgeRequest(host, "/logged");
		expect(answer.status).toBe(200);
		const [delivery] = await flush(zone_id);
		const entry = (await records(delivery?.objects ?? [])).find((e) => e.RayID === answer.ray);
		expect(entry?.ResponseHeaders).toStrictEqual({ "x-echo-worker": "echo", "content-type": "application/json" });
	});

	it("hands the Worker the URL the origin would get: as sent, or normalized when the zone normalizes URLs to the origin", async () => {
		const { zone_id, host } = await zoneWithHost("route-normalized");
		await route(zone_id, `${host}/*`, "echo");
		const url = async () => (JSON.parse((await edgeRequest(host, "/a/%7Eb")).text) as Echo).url;
		expect(await url()).toBe(`http://${host}/a/%7Eb`);
		const set = await call("PUT", `/zones/${zone_id}/url_normalization`, { type: "cloudflare", scope: "both" });
		expect(set.status, JSON.stringify(set.body)).toBe(200);
		expect(await url()).toBe(`http://${host}/a/~b`);
	});

	it("follows the routes as they change: the most specific wins, a deleted route stops", async () => {
		const { zone_id, host } = await zoneWithHost("route-change");
		const all = await route(zone_id, `*${host}/*`, "echo");
		expect((await edgeRequest(host, "/a")).headers.get("x-echo-worker")).toBe("echo");
		// More specific, without a Worker: the gateway again for /a/*.
		await route(zone_id, `${host}/a/*`);
		expect((await edgeRequest(host, "/a/b")).headers.get("x-echo-worker")).toBeNull();
		expect((await edgeRequest(host, "/b")).headers.get("x-echo-worker")).toBe("echo");
		expect((await call("DELETE", `/zones/${zone_id}/workers/routes/${all}`)).status).toBe(200);
		expect((await edgeRequest(host, "/b")).headers.get("x-echo-worker")).toBeNull();
	});
	it("reads the Worker's path as an origin's: no gateway key alias for the rules, and no S3 question", async () => {
		const { zone_id, host } = await zoneWithHost("route-path");
		await route(zone_id, `${host}/*`, "echo");
		const rule = await call("POST", `/zones/${zone_id}/firewall/rules`, [
			{ filter: { expression: 'http.request.uri.path eq "/private/report.txt"' }, action: "block" },
		]);
		expect(rule.status, JSON.stringify(rule.body)).toBe(200);
		expect((await edgeRequest(host, "/private/report.txt")).status).toBe(403);
		// The gateway reads ?key= on / as the object's path; a Worker's path is / itself.
		const aliased = await edgeRequest(host, "/?key=private/report.txt");
		expect(aliased.status, aliased.text).toBe(200);
		expect(aliased.headers.get("x-echo-worker")).toBe("echo");
		// A request signed for S3 is the Worker's too: a route takes every request it matches.
		const signed = await edgeRequest(host, "/bucket/key", {
			headers: {
				authorization:
					"AWS4-HMAC-SHA256 Credential=AKIA/20260101/auto/s3/aws4_request, SignedHeaders=host, Signature=00",
				"x-amz-content-sha256": "UNSIGNED-PAYLOAD",
				"x-amz-date": "20260101T000000Z",
			},
		});
		expect(signed.status, signed.text).toBe(200);
		expect(signed.headers.get("x-echo-worker")).toBe("echo");
	});
});
