import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { errorOf, gw, put, RO, withVars } from "./helpers";

describe("bearer tokens", () => {
	afterEach(() => vi.restoreAllMocks());

	it("answers 401 with WWW-Authenticate and R2's code without a token", async () => {
		const response = await gw("/auth/x", { token: null });
		expect(response.status).toBe(401);
		expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
		expect((await errorOf(response)).code).toBe(10002);
	});

	it("answers 401 to an unknown token, and stores nothing", async () => {
		const response = await gw("/auth/x", { method: "PUT", body: "x", token: "test-rw-but-longer" });
		expect(response.status).toBe(401);
		expect(await env.BUCKET.head("auth/x")).toBeNull();
	});

	it("answers 401 to a token longer than any known one can be", async () => {
		const response = await gw("/auth/x", { token: "t".repeat(5000) });
		expect(response.status).toBe(401);
	});

	it("answers 401 to a malformed Authorization header", async () => {
		const response = await gw("/auth/x", { token: null, headers: { authorization: "Basic dXNlcjpwYXNz" } });
		expect(response.status).toBe(401);
	});

	it.each([
		["not JSON", "{"],
		["not an object of token to access", JSON.stringify({ "t-1": "admin" })],
		["holding an empty token", JSON.stringify({ "": "read-write" })],
	])("answers 500 (10001) when GATEWAY_TOKENS is %s", async (_, secret) => {
		const response = await withVars({ GATEWAY_TOKENS: secret }, "/auth/x", {
			headers: { authorization: "Bearer t-1" },
		});
		expect(response.status).toBe(500);
		const error = await errorOf(response);
		expect(error.code).toBe(10001);
		expect(error.message).toMatch(
			/^The GATEWAY_TOKENS secret must be a JSON object of token to "read-write" or "read-only": /,
		);
	});

	it.each([
		["unset", undefined],
		["empty", ""],
	])("answers 401 saying what is missing when GATEWAY_TOKENS is %s", async (_, secret) => {
		// The first request of the isolate logs the same once (startup.test.ts); not printed here.
		vi.spyOn(console, "warn").mockImplementation(() => {});
		const requests: HeadersInit[] = [{ authorization: "Bearer test-rw" }, {}];
		for (const headers of requests) {
			const response = await withVars({ GATEWAY_TOKENS: secret }, "/auth/x", { headers });
			expect(response.status).toBe(401);
			expect(await errorOf(response)).toEqual({
				code: 10002,
				message: "GATEWAY_TOKENS is not configured; run npm run dev or see .dev.vars.example.",
			});
		}
	});

	it("lets a read-only token read and list but not write", async () => {
		await put("auth/readable", "r");
		expect((await gw("/auth/readable", { token: RO })).status).toBe(200);
		expect((await gw("/?list&prefix=auth/", { token: RO })).status).toBe(200);
		for (const [path, method] of [
			["/auth/readable", "PUT"],
			["/auth/readable", "DELETE"],
			["/auth/new?uploads", "POST"],
			["/?delete", "POST"],
		] as const) {
			const response = await gw(path, { method, body: method === "DELETE" ? undefined : "{}", token: RO });
			expect(response.status).toBe(403);
			expect((await errorOf(response)).code).toBe(10003);
		}
		expect(await (await env.BUCKET.get("auth/readable"))?.text()).toBe("r");
	});
});

describe("authentication before routing", () => {
	// Without a valid token, every request is the same 401: no 405, 400 or 404 tells which
	// methods, paths or queries the gateway takes.
	it.each([
		["POST", "/auth/x"],
		["PATCH", "/auth/x"],
		["OPTIONS", "/auth/x"],
		["DELETE", "/auth/x?partNumber=1"],
		["GET", "/auth/x?list"],
		["GET", "/?list&bogus=1"],
		["PUT", "/%zz"],
		["PUT", `/${"k".repeat(2000)}`],
		["HEAD", "/auth/missing"],
	])("answers %s %s without a token with 401", async (method, path) => {
		const response = await gw(path, { method, token: null });
		expect(response.status).toBe(401);
		expect(response.headers.get("x-r2-error-code")).toBe("10002");
		const unknown = await gw(path, { method, token: "not-a-token" });
		expect(unknown.status).toBe(401);
		await unknown.body?.cancel();
		await response.body?.cancel();
	});

	it("answers a valid token's wrong method with 405, after authentication", async () => {
		const response = await gw("/auth/x", { method: "PATCH", token: RO });
		expect(response.status).toBe(405);
		await response.body?.cancel();
	});
});

describe("PUBLIC_READ", () => {
	it("lets GET and HEAD of objects through without a token when true", async () => {
		await put("auth/public", "p");
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public")).status).toBe(200);
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public", { method: "HEAD" })).status).toBe(200);
		expect((await withVars({ PUBLIC_READ: "false" }, "/auth/public")).status).toBe(401);
	});

	it("refuses a token it does not know, rather than reading anonymously", async () => {
		await put("auth/public", "p");
		const response = await withVars({ PUBLIC_READ: "true" }, "/auth/public", {
			headers: { authorization: "Bearer stale" },
		});
		expect(response.status).toBe(401);
		expect((await errorOf(response)).message).toBe("The token is not valid.");
	});

	it("still asks a token for listing and writing", async () => {
		expect((await withVars({ PUBLIC_READ: "true" }, "/?list")).status).toBe(401);
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public", { method: "PUT", body: "x" })).status).toBe(401);
	});
});
