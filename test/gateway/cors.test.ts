import { describe, expect, it } from "vitest";
import { gw, put, withVars } from "./helpers";

/** Splits a CORS list header into lower-case names. */
const names = (value: string | null) => (value ?? "").split(",").map((name) => name.trim().toLowerCase());

const ORIGIN = "https://app.example";

/** A preflight as a browser sends it: no credentials, the method and headers the request will use. */
const preflight = (method: string, headers: string, vars: Partial<Env> = {}, origin = ORIGIN) =>
	withVars(vars, "/cors/x", {
		method: "OPTIONS",
		headers: { origin, "access-control-request-method": method, "access-control-request-headers": headers },
	});

describe("CORS preflight", () => {
	// Every header RemoteBucket sends for some binding call (src/client/options.ts), in the form a
	// browser puts in Access-Control-Request-Headers: lower case, sorted, comma-separated.
	const EVERY_HEADER = [
		"authorization",
		"cache-control",
		"content-disposition",
		"content-encoding",
		"content-language",
		"content-md5",
		"content-type",
		"expires",
		"if-match",
		"if-modified-since",
		"if-none-match",
		"if-unmodified-since",
		"range",
		"x-amz-checksum-mode",
		"x-amz-checksum-sha1",
		"x-amz-checksum-sha256",
		"x-amz-checksum-sha384",
		"x-amz-checksum-sha512",
		"x-amz-meta-owner",
		"x-amz-meta-team",
		"x-amz-storage-class",
	];

	it.each(["GET", "HEAD", "PUT", "POST", "DELETE"])("allows %s with every header the gateway reads", async (method) => {
		const response = await preflight(method, EVERY_HEADER.join(","));
		expect(response.status).toBe(204);
		expect(response.headers.get("access-control-allow-origin")).toBe("*");
		expect(names(response.headers.get("access-control-allow-methods"))).toContain(method.toLowerCase());
		expect(names(response.headers.get("access-control-allow-headers"))).toEqual(expect.arrayContaining(EVERY_HEADER));
		expect(response.headers.get("access-control-max-age")).toBe("86400");
	});

	it("leaves out a header the gateway does not read, so the browser refuses before sending", async () => {
		const response = await preflight("PUT", "authorization,x-requested-with");
		const allowed = names(response.headers.get("access-control-allow-headers"));
		expect(allowed).toContain("authorization");
		expect(allowed).not.toContain("x-requested-with");
	});

	it("answers without a token, and before routing", async () => {
		const response = await preflight("PATCH", "authorization");
		expect(response.status).toBe(204);
		expect(names(response.headers.get("access-control-allow-methods"))).not.toContain("patch");
	});

	it("allows only the configured origins", async () => {
		const vars = { CORS_ORIGINS: "https://a.example, https://b.example" };
		const allowed = await preflight("GET", "range", vars, "https://b.example");
		expect(allowed.headers.get("access-control-allow-origin")).toBe("https://b.example");
		expect(allowed.headers.get("vary")).toMatch(/origin/i);
		const refused = await preflight("GET", "range", vars, "https://evil.example");
		expect(refused.headers.get("access-control-allow-origin")).toBeNull();
		expect(refused.headers.get("access-control-allow-headers")).toBeNull();
	});
});

describe("CORS on answers", () => {
	const headers = { origin: ORIGIN };

	it("exposes every header a script needs to read an object", async () => {
		await put("cors/obj", "hello", { "x-amz-meta-team": "web", "content-md5": "XUFAKrxLKna5cZ2REBfFkg==" });
		const response = await gw("/cors/obj", { headers: { ...headers, range: "bytes=0-1" } });
		expect(response.status).toBe(206);
		await response.arrayBuffer();
		expect(response.headers.get("access-control-allow-origin")).toBe("*");
		expect(names(response.headers.get("access-control-expose-headers"))).toEqual(
			expect.arrayContaining([
				"etag",
				"content-range",
				"content-length",
				"last-modified",
				"accept-ranges",
				"content-encoding",
				"x-amz-meta-team",
				"x-amz-checksum-md5",
				"x-amz-checksum-sha256",
				"x-amz-storage-class",
				"x-r2-version",
				"x-r2-uploaded",
			]),
		);
	});

	it("exposes the error code of an error, and of an answer to HEAD", async () => {
		for (const method of ["GET", "HEAD"]) {
			const response = await gw("/cors/missing", { method, headers });
			expect(response.status).toBe(404);
			await response.body?.cancel();
			expect(names(response.headers.get("access-control-expose-headers"))).toContain("x-r2-error-code");
		}
	});

	it("carries the allowed origin on a 401, so a page can read why", async () => {
		const response = await gw("/cors/obj", { token: null, headers });
		expect(response.status).toBe(401);
		await response.body?.cancel();
		expect(response.headers.get("access-control-allow-origin")).toBe("*");
		expect(names(response.headers.get("access-control-expose-headers"))).toContain("www-authenticate");
	});
});
