import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { errorOf, gw, put, RO, withVars } from "./helpers";

describe("bearer tokens", () => {
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

	it("knows no token when GATEWAY_TOKENS is empty", async () => {
		const response = await withVars({ GATEWAY_TOKENS: "" }, "/auth/x", {
			headers: { authorization: "Bearer test-rw" },
		});
		expect(response.status).toBe(401);
		expect((await errorOf(response)).code).toBe(10002);
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

describe("PUBLIC_READ", () => {
	it("lets GET and HEAD of objects through without a token when true", async () => {
		await put("auth/public", "p");
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public")).status).toBe(200);
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public", { method: "HEAD" })).status).toBe(200);
		expect((await withVars({ PUBLIC_READ: "false" }, "/auth/public")).status).toBe(401);
	});

	it("still asks a token for listing and writing", async () => {
		expect((await withVars({ PUBLIC_READ: "true" }, "/?list")).status).toBe(401);
		expect((await withVars({ PUBLIC_READ: "true" }, "/auth/public", { method: "PUT", body: "x" })).status).toBe(401);
	});
});
