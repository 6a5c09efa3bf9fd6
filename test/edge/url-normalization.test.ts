/**
 * URL normalization at the edge, through the front door: docs/firewall.md's rule on `/private/*`
 * holds whatever the spelling of the path, the `raw.` fields see the URL as sent, and the zone's
 * setting (`/zones/{zone_id}/url_normalization`) turns it off or extends it to the origin.
 */
import { exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { RemoteBucket, RemoteBucketError } from "../../src/client";
import { call } from "../api/http";
import { BUCKET, s3 } from "../s3/helpers";

const RW = "Bearer test-rw";

/** A new zone and its host name. */
async function zoneWithHost(): Promise<{ zone_id: string; host: string }> {
	const host = `norm-${crypto.randomUUID().slice(0, 8)}.example.net`;
	const res = await call("POST", "/zones", { name: host, account: {} });
	expect(res.status).toBe(200);
	return { zone_id: (res.body.result as { id: string }).id, host };
}

/** `method host path` through the edge, with the gateway's read-write token; answers the status and body. */
async function edge(
	host: string,
	path: string,
	init: { method?: string; body?: string; ip?: string } = {},
): Promise<{ status: number; body: string }> {
	const headers: Record<string, string> = { authorization: RW, "accept-encoding": "identity" };
	if (init.ip !== undefined) headers["cf-connecting-ip"] = init.ip;
	const response = await exports.default.fetch(`http://${host}${path}`, {
		method: init.method ?? "GET",
		headers,
		body: init.body,
	});
	return { status: response.status, body: await response.text() };
}

/** A blocking firewall rule of `expression` on the zone. */
async function block(zoneId: string, expression: string): Promise<void> {
	const res = await call("POST", `/zones/${zoneId}/firewall/rules`, [{ filter: { expression }, action: "block" }]);
	expect(res.status).toBe(200);
}

const setting = (zoneId: string, type: string, scope: string) =>
	call("PUT", `/zones/${zoneId}/url_normalization`, { type, scope });

/** The rule of docs/firewall.md's recommended flow. */
const FIREWALL_DOC_RULE = 'http.request.uri.path wildcard "/private/*" and not ip.src in {192.0.2.0/24}';

describe("docs/firewall.md's rule on /private/*", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithHost();
		expect((await edge(zone.host, "/private/report.txt", { method: "PUT", body: "quarterly figures" })).status).toBe(
			200,
		);
		await block(zone.zone_id, FIREWALL_DOC_RULE);
	});

	it.each([
		["the plain path", "/private/report.txt"],
		["an encoded unreserved byte", "/%70rivate/report.txt"],
		["escapes of unreserved bytes, in either case", "/%70%72%69%76%61%74%65/report%2etxt"],
		["the key alias", "/?key=private/report.txt"],
		["the key alias, form-encoded", "/?key=private%2Freport.txt"],
	])("blocks %s (%s) with 403, never the object", async (_, path) => {
		const answer = await edge(zone.host, path);
		expect(answer.status).toBe(403);
		expect(answer.body).not.toContain("quarterly figures");
	});

	it("refuses an encoded slash in the path (400, from the gateway): no spelling of a key escapes the rule", async () => {
		const answer = await edge(zone.host, "/private%2Freport.txt");
		expect(answer.status).toBe(400);
		expect(answer.body).toContain("encoded slash");
		expect((await edge(zone.host, "/private%2freport.txt")).status).toBe(400);
	});

	it("refuses a second key= rather than show the rules one key and reach another", async () => {
		const answer = await edge(zone.host, "/?key=public/x&key=private/report.txt");
		expect(answer.status).toBe(400);
		expect(answer.body).not.toContain("quarterly figures");
	});

	it("meets RemoteBucket's reads through the zone, which send the key's slashes as slashes", async () => {
		const bucket = new RemoteBucket({
			url: `http://${zone.host}`,
			token: "test-rw",
			fetch: (input, init) => exports.default.fetch(input, init),
		});
		const refused = await bucket.get("private/report.txt").catch((error: unknown) => error);
		expect(refused).toBeInstanceOf(RemoteBucketError);
		expect((refused as RemoteBucketError).status).toBe(403);
	});

	it("serves the office, by any spelling", async () => {
		for (const path of ["/private/report.txt", "/%70rivate/report.txt", "/?key=private/report.txt"]) {
			expect(await edge(zone.host, path, { ip: "192.0.2.10" })).toStrictEqual({
				status: 200,
				body: "quarterly figures",
			});
		}
	});

	it("blocks merged slashes and backslashes under the default type, cloudflare", async () => {
		expect((await edge(zone.host, "//private//report.txt")).status).toBe(403);
	});
});

describe("the raw. fields", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithHost();
		for (const key of ["public/a", "public/b", "public/c"]) {
			expect((await edge(zone.host, `/${key}`, { method: "PUT", body: key })).status).toBe(200);
		}
		await block(zone.zone_id, 'raw.http.request.uri.path eq "/%70ublic/a"');
		await block(zone.zone_id, 'raw.http.request.uri eq "/?key=public/b"');
		await block(zone.zone_id, 'http.request.uri.path eq "/%70ublic/c"');
	});

	it("see the path as sent: a rule on the raw spelling blocks it, and only it", async () => {
		expect((await edge(zone.host, "/%70ublic/a")).status).toBe(403);
		expect(await edge(zone.host, "/public/a")).toStrictEqual({ status: 200, body: "public/a" });
	});

	it("see the key alias as sent, while the other fields see the object's path", async () => {
		expect((await edge(zone.host, "/?key=public/b")).status).toBe(403);
		expect(await edge(zone.host, "/public/b")).toStrictEqual({ status: 200, body: "public/b" });
	});

	it("are the only fields that see an unnormalized spelling", async () => {
		expect(await edge(zone.host, "/%70ublic/c")).toStrictEqual({ status: 200, body: "public/c" });
	});
});

describe("the zone's URL normalization setting", () => {
	let zone: { zone_id: string; host: string };
	beforeAll(async () => {
		zone = await zoneWithHost();
		for (const key of ["private/report.txt", "docs/x.txt"]) {
			expect((await edge(zone.host, `/${key}`, { method: "PUT", body: key })).status).toBe(200);
		}
		await block(zone.zone_id, FIREWALL_DOC_RULE);
	});

	it("scope none: the rules see the path as sent, so an encoded path reaches the object, as on Cloudflare", async () => {
		expect((await setting(zone.zone_id, "cloudflare", "none")).status).toBe(200);
		expect(await edge(zone.host, "/%70rivate/report.txt")).toStrictEqual({ status: 200, body: "private/report.txt" });
		// The plain path, the key alias and an encoded slash are no normalization's: they hold.
		expect((await edge(zone.host, "/private/report.txt")).status).toBe(403);
		expect((await edge(zone.host, "/?key=private/report.txt")).status).toBe(403);
		expect((await edge(zone.host, "/private%2Freport.txt")).status).toBe(400);
		// DELETE puts back the default: incoming URLs normalized.
		expect((await call("DELETE", `/zones/${zone.zone_id}/url_normalization`)).status).toBe(204);
		expect((await edge(zone.host, "/%70rivate/report.txt")).status).toBe(403);
	});

	it("scope incoming (the default): the origin gets the path as sent; scope both: normalized", async () => {
		expect((await edge(zone.host, "/docs//x.txt")).status).toBe(404);
		expect((await setting(zone.zone_id, "cloudflare", "both")).status).toBe(200);
		expect(await edge(zone.host, "/docs//x.txt")).toStrictEqual({ status: 200, body: "docs/x.txt" });
		expect((await setting(zone.zone_id, "rfc3986", "both")).status).toBe(200);
		expect((await edge(zone.host, "/docs//x.txt")).status).toBe(404);
		expect(await edge(zone.host, "/%64ocs/x.txt")).toStrictEqual({ status: 200, body: "docs/x.txt" });
		expect((await call("DELETE", `/zones/${zone.zone_id}/url_normalization`)).status).toBe(204);
	});

	it("scope both: the rules see the key alias of the URL the gateway is sent, normalized", async () => {
		expect((await setting(zone.zone_id, "cloudflare", "both")).status).toBe(200);
		// `//` is `/` once normalized, where `?key=` names the object: the rule holds.
		expect((await edge(zone.host, "//?key=private/report.txt")).status).toBe(403);
		expect((await call("DELETE", `/zones/${zone.zone_id}/url_normalization`)).status).toBe(204);
	});

	it("an S3 request's rules see %2F in its path as the / S3 decodes it to", async () => {
		await block(zone.zone_id, `starts_with(http.request.uri.path, "/${BUCKET}/s3-private/")`);
		for (const path of [`/${BUCKET}/s3-private/x.txt`, `/${BUCKET}/s3-private%2Fx.txt`]) {
			const res = await s3(path, {}, undefined, `http://${zone.host}`);
			expect(res.status, path).toBe(403);
			// The firewall's block page, not S3's own answer.
			expect(res.headers.get("content-type"), path).toContain("text/html");
			await res.body?.cancel();
		}
	});

	it("type rfc3986 decodes escapes but keeps // and \\ as they are", async () => {
		expect((await setting(zone.zone_id, "rfc3986", "incoming")).status).toBe(200);
		expect((await edge(zone.host, "/%70rivate/report.txt")).status).toBe(403);
		// The rules see //private/report.txt; the gateway the key /private/report.txt, which does not exist.
		expect((await edge(zone.host, "//private/report.txt")).status).toBe(404);
		expect((await call("DELETE", `/zones/${zone.zone_id}/url_normalization`)).status).toBe(204);
	});
});
