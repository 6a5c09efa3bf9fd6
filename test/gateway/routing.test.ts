import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { errorOf, expectError, gw, put, withVars } from "./helpers";

describe("query parameters the gateway does not define", () => {
	// One row per request that must be refused, and the parameter its message must name; nothing
	// is stored, read or deleted in its place.
	it.each([
		["DELETE", "/rt/kept?partNumber=1", "partNumber"],
		["DELETE", "/rt/kept?uploadId=u&partNumber=1", "partNumber"],
		["DELETE", "/rt/kept?versionId=1", "versionId"],
		["PUT", "/rt/kept?partNumber=1", "partNumber"],
		["PUT", "/rt/kept?uploadId=u", "uploadId"],
		["PUT", "/rt/kept?uploads", "uploads"],
		["PUT", "/rt/kept?v=3", "v"],
		["PUT", "/rt/kept?uploadId=u&partNumber=1&partNumber=2", "partNumber"],
		["POST", "/rt/kept?uploads&uploadId=u", "uploadId"],
		["POST", "/rt/kept?uploadId=u&partNumber=1", "partNumber"],
		["POST", "/rt/kept?acl", "acl"],
		["POST", "/?delete&prefix=rt/", "prefix"],
		["GET", "/?list&bogus=1", "bogus"],
		["GET", "/?list&limit=1&limit=2", "limit"],
		["GET", "/?prefix=rt/", "prefix"],
		["GET", "/rt/kept?uploadId=u", "uploadId"],
		["GET", "/rt/kept?partNumber=1", "partNumber"],
		["GET", "/rt/kept?versionId=abc", "versionId"],
		["GET", "/rt/kept?response-content-type=text/html", "response-content-type"],
		["HEAD", "/rt/kept?delete", "delete"],
	])("answers %s %s with a 400 naming it", async (method, path, name) => {
		await put("rt/kept", "kept");
		const body = method === "PUT" || method === "POST" ? '{"keys": ["rt/kept"], "parts": []}' : undefined;
		const response = await gw(path, { method, body });
		const message = await expectError(response, 400, 400);
		if (method !== "HEAD") expect(message).toContain(`"${name}"`);
		expect(await (await env.BUCKET.get("rt/kept"))?.text()).toBe("kept");
	});

	it("says which forms the method takes", async () => {
		const response = await gw("/rt/kept?partNumber=1", { method: "DELETE" });
		expect((await errorOf(response)).message).toBe(
			'DELETE does not take the query parameter "partNumber" here: DELETE is DELETE /{key}?uploadId={id} or DELETE /{key} (docs/gateway.md, "Operations").',
		);
	});

	it("answers a POST naming no operation with 405, and one with an unknown parameter with 400", async () => {
		const bare = await gw("/rt/kept", { method: "POST", body: "x" });
		expect(bare.status).toBe(405);
		expect(bare.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE");
		await bare.body?.cancel();
		expect(await expectError(await gw("/rt/kept?append", { method: "POST", body: "x" }), 400, 400)).toContain(
			'"append"',
		);
	});
});

describe("query parameters of a read", () => {
	// R2's public buckets and S3's GetObject ignore parameters they give no meaning to, so cache
	// busters read the object; the gateway does the same for GET and HEAD of an object only.
	it("reads the object whatever a cache buster says", async () => {
		await put("rt/app.js", "let x;", { "content-type": "text/javascript" });
		const response = await gw("/rt/app.js?v=3&_=1700000000");
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("let x;");
		expect((await gw("/rt/app.js?v=3", { method: "HEAD" })).status).toBe(200);
	});

	it("reads it under PUBLIC_READ too", async () => {
		await put("rt/public.css", "a{}", { "content-type": "text/css" });
		const response = await withVars({ PUBLIC_READ: "true" }, "/rt/public.css?v=3");
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("a{}");
	});

	it("takes include repeated, as a list", async () => {
		const response = await gw("/?list&prefix=rt/&include=httpMetadata&include=customMetadata");
		expect(response.status).toBe(200);
		await response.body?.cancel();
	});
});
