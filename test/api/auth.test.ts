/**
 * Authentication and routing errors of /client/v4: the real API's codes, messages,
 * statuses and envelope shapes (cloudflare-api-v4.md §2.2, §2.3).
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { api } from "../../src/api/app";
import { DEFAULT_ZONE_ID, EMAIL, KEY, OTHER_EMAIL, OTHER_KEY, SCOPED_TOKEN, TOKEN } from "./credentials";
import { call, freshZone, zonePath } from "./http";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const unknownToken = "x".repeat(40);

describe("authentication", () => {
	const cases: { name: string; headers: Record<string, string>; status: number; body: unknown }[] = [
		{
			name: "no credentials at all: 400 9106 without result or messages",
			headers: {},
			status: 400,
			body: {
				success: false,
				errors: [{ code: 9106, message: "Missing X-Auth-Key, X-Auth-Email or Authorization headers" }],
			},
		},
		{
			name: "a token sent as X-Auth-Key: 400 6003 with 6103",
			headers: { "X-Auth-Email": EMAIL, "X-Auth-Key": TOKEN },
			status: 400,
			body: {
				result: null,
				success: false,
				errors: [
					{
						code: 6003,
						message: "Invalid request headers",
						error_chain: [{ code: 6103, message: "Invalid format for X-Auth-Key header" }],
					},
				],
				messages: [],
			},
		},
		{
			name: "malformed email and key: 400 6003 with 6102 and 6103",
			headers: { "X-Auth-Email": "not-an-email", "X-Auth-Key": "short" },
			status: 400,
			body: {
				result: null,
				success: false,
				errors: [
					{
						code: 6003,
						message: "Invalid request headers",
						error_chain: [
							{ code: 6102, message: "Invalid format for X-Auth-Email header" },
							{ code: 6103, message: "Invalid format for X-Auth-Key header" },
						],
					},
				],
				messages: [],
			},
		},
		{
			name: "a key without an email: 400 6003 with 6102",
			headers: { "X-Auth-Key": KEY },
			status: 400,
			body: {
				result: null,
				success: false,
				errors: [
					{
						code: 6003,
						message: "Invalid request headers",
						error_chain: [{ code: 6102, message: "Invalid format for X-Auth-Email header" }],
					},
				],
				messages: [],
			},
		},
		{
			name: "a malformed Authorization header: 400 6003 with 6111",
			headers: { Authorization: "Bearer too-short" },
			status: 400,
			body: {
				result: null,
				success: false,
				errors: [
					{
						code: 6003,
						message: "Invalid request headers",
						error_chain: [{ code: 6111, message: "Invalid format for Authorization header" }],
					},
				],
				messages: [],
			},
		},
		{
			name: "a Basic Authorization header: 400 6003 with 6111",
			headers: { Authorization: `Basic ${btoa("a:b")}` },
			status: 400,
			body: {
				result: null,
				success: false,
				errors: [
					{
						code: 6003,
						message: "Invalid request headers",
						error_chain: [{ code: 6111, message: "Invalid format for Authorization header" }],
					},
				],
				messages: [],
			},
		},
		{
			name: "a well-formed but unknown key: 403 9103",
			headers: { "X-Auth-Email": EMAIL, "X-Auth-Key": "f".repeat(37) },
			status: 403,
			body: {
				result: null,
				success: false,
				errors: [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }],
				messages: [],
			},
		},
		{
			name: "a known key with another email: 403 9103",
			headers: { "X-Auth-Email": "someone@example.org", "X-Auth-Key": KEY },
			status: 403,
			body: {
				result: null,
				success: false,
				errors: [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }],
				messages: [],
			},
		},
		{
			name: "one pair's email with another pair's key: 403 9103",
			headers: { "X-Auth-Email": OTHER_EMAIL, "X-Auth-Key": KEY },
			status: 403,
			body: {
				result: null,
				success: false,
				errors: [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }],
				messages: [],
			},
		},
		{
			name: "a well-formed but unknown token: 403 9109",
			headers: bearer(unknownToken),
			status: 403,
			body: { result: null, success: false, errors: [{ code: 9109, message: "Invalid access token" }], messages: [] },
		},
	];
	it.each(cases)("answers $name", async ({ headers, status, body }) => {
		const res = await call("GET", zonePath("/rulesets"), undefined, headers);
		expect(res.status).toBe(status);
		expect(res.headers.get("Content-Type")).toBe("application/json");
		expect(res.body).toStrictEqual(body);
	});

	it.each([
		{ name: "a bearer token", headers: bearer(TOKEN) },
		{
			name: "an email and key (email case-insensitive)",
			headers: { "X-Auth-Email": EMAIL.toUpperCase(), "X-Auth-Key": KEY },
		},
		{ name: "a token scoped to this zone", headers: bearer(SCOPED_TOKEN) },
		{ name: "a key pair listed after others", headers: { "X-Auth-Email": OTHER_EMAIL, "X-Auth-Key": OTHER_KEY } },
	])("accepts $name", async ({ headers }) => {
		const res = await call("GET", zonePath("/rulesets"), undefined, headers);
		expect(res.status).toBe(200);
		expect(res.body.success).toBe(true);
	});

	it("answers 403 10000 without result or messages for a zone outside the token's scope", async () => {
		const other = await freshZone();
		const res = await call("GET", `/zones/${other}/rulesets`, undefined, bearer(SCOPED_TOKEN));
		expect(res.status).toBe(403);
		expect(res.body).toStrictEqual({ success: false, errors: [{ code: 10000, message: "Authentication error" }] });
	});

	it("answers 403 10000 when a scoped token creates a zone", async () => {
		const res = await call(
			"POST",
			"/zones",
			{ name: "scoped.example.org", account: {} },
			{ ...bearer(SCOPED_TOKEN), "Content-Type": "application/json" },
		);
		expect(res.status).toBe(403);
		expect(res.body.errors?.[0]?.code).toBe(10000);
	});

	it("lists only the zones a scoped token may reach", async () => {
		await freshZone();
		const res = await call("GET", "/zones", undefined, bearer(SCOPED_TOKEN));
		expect((res.body.result as { id: string }[]).map((z) => z.id)).toEqual([DEFAULT_ZONE_ID]);
	});
});

describe("a malformed API_CREDENTIALS", () => {
	it.each([
		{ name: "not JSON", raw: "[{" },
		{ name: "not an array", raw: JSON.stringify({ token: TOKEN, zones: "*" }) },
		{ name: "a zone id that is not 32 hex", raw: JSON.stringify([{ token: TOKEN, zones: ["example.com"] }]) },
		{ name: "an unknown field", raw: JSON.stringify([{ token: TOKEN, zones: "*", role: "admin" }]) },
		{ name: "a key of the wrong format", raw: JSON.stringify([{ email: EMAIL, key: "short", zones: "*" }]) },
	])("answers 500 10001 when it is $name, and logs why", async ({ raw }) => {
		const log = vi.spyOn(console, "error").mockImplementation(() => {});
		const res = await api.request(
			`/client/v4${zonePath("/rulesets")}`,
			{ headers: bearer(TOKEN) },
			{ ...env, API_CREDENTIALS: raw },
		);
		expect(res.status).toBe(500);
		expect(await res.json()).toStrictEqual({
			result: null,
			success: false,
			errors: [{ code: 10001, message: "API credentials are not configured" }],
			messages: [],
		});
		expect(log).toHaveBeenCalledWith(expect.stringContaining("API_CREDENTIALS is not valid"));
		log.mockRestore();
	});
});

describe("routing", () => {
	const cases: { name: string; method: string; path: string; status: number; errors: unknown }[] = [
		{
			name: "an unknown path: 400 7000",
			method: "GET",
			path: "/nothing/here",
			status: 400,
			errors: [{ code: 7000, message: "No route for that URI" }],
		},
		{
			name: "the bare API root: 400 7000",
			method: "GET",
			path: "",
			status: 400,
			errors: [{ code: 7000, message: "No route for that URI" }],
		},
		{
			name: "PUT on /zones: 405 7001",
			method: "PUT",
			path: "/zones",
			status: 405,
			errors: [{ code: 7001, message: "Method PUT not available for that URI." }],
		},
		{
			name: "POST on a ruleset: 405 7001",
			method: "POST",
			path: zonePath(`/rulesets/${"a".repeat(32)}`),
			status: 405,
			errors: [{ code: 7001, message: "Method POST not available for that URI." }],
		},
		{
			name: "OPTIONS on jobs: 405 7001",
			method: "OPTIONS",
			path: zonePath("/logpush/jobs"),
			status: 405,
			errors: [{ code: 7001, message: "Method OPTIONS not available for that URI." }],
		},
		{
			name: "a zone name instead of its id: 400 7003",
			method: "GET",
			path: "/zones/example.com/rulesets",
			status: 400,
			errors: [
				{
					code: 7003,
					message:
						"Could not route to /client/v4/zones/example.com/rulesets, perhaps your object identifier is invalid?",
				},
			],
		},
		{
			name: "an upper-case ruleset id: 400 7003",
			method: "GET",
			path: zonePath(`/rulesets/${"A".repeat(32)}`),
			status: 400,
			errors: [
				{
					code: 7003,
					message: `Could not route to /client/v4${zonePath(`/rulesets/${"A".repeat(32)}`)}, perhaps your object identifier is invalid?`,
				},
			],
		},
		{
			name: "a non-numeric job id: 400 7003",
			method: "GET",
			path: zonePath("/logpush/jobs/abc"),
			status: 400,
			errors: [
				{
					code: 7003,
					message: `Could not route to /client/v4${zonePath("/logpush/jobs/abc")}, perhaps your object identifier is invalid?`,
				},
			],
		},
		{
			name: "an unknown phase: 400 7003",
			method: "GET",
			path: zonePath("/rulesets/phases/http_nothing/entrypoint"),
			status: 400,
			errors: [
				{
					code: 7003,
					message: `Could not route to /client/v4${zonePath("/rulesets/phases/http_nothing/entrypoint")}, perhaps your object identifier is invalid?`,
				},
			],
		},
	];
	it.each(cases)("answers $name", async ({ method, path, status, errors }) => {
		const res = await call(method, path);
		expect(res.status).toBe(status);
		expect(res.body).toStrictEqual({ result: null, success: false, errors, messages: [] });
	});

	it("decides routing errors before authentication", async () => {
		const res = await call("GET", "/nothing/here", undefined, {});
		expect(res.body.errors?.[0]?.code).toBe(7000);
	});

	it("answers 404 for a well-formed zone id that does not exist", async () => {
		const res = await call("GET", `/zones/${"0".repeat(32)}/rulesets`);
		expect(res.status).toBe(404);
		expect(res.body.errors).toEqual([{ code: 1003, message: "Invalid zone identifier" }]);
	});

	it.each(["http://localhost/client/v4x/zones", "http://localhost/zones", "http://localhost/client"])(
		"leaves %s to the data plane",
		async (url) => {
			const text = await (await exports.default.fetch(url, { headers: { Authorization: `Bearer ${TOKEN}` } })).text();
			expect(text).not.toContain('"success"');
		},
	);
});
