/**
 * Authentication and routing errors of /client/v4: the real API's codes, messages,
 * statuses and envelope shapes, as public reports quote them (cloudflare-python#2678,
 * cloudflare-typescript#161, hieunc229/mailflare#1, timothymiller/cloudflare-ddns#152).
 * What the official SDK raises for them: auth-sdk.test.ts. This file imports the API's app but
 * not the SDK: the vitest pool hands workerd a test file's modules in one WebSocket message,
 * which workerd refuses past 32 MiB, and the two together came to 33.6 MB.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { api } from "../../src/api/app";
import { requirementOfHandler } from "../../src/api/permissions";
import {
	DEFAULT_ZONE_ID,
	EMAIL,
	KEY,
	LOGS_READ_TOKEN,
	OTHER_EMAIL,
	OTHER_KEY,
	READ_EMAIL,
	READ_KEY,
	READ_TOKEN,
	SCOPED_TOKEN,
	SSL_EDIT_TOKEN,
	SSL_READ_TOKEN,
	TOKEN,
	TRANSFORM_TOKEN,
	WAF_TOKEN,
} from "./credentials";
import { call, freshZone, zonePath } from "./http";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const unknownToken = "x".repeat(40);
const unknownKeyBody = {
	result: null,
	success: false,
	errors: [{ code: 9103, message: "Unknown X-Auth-Key or X-Auth-Email" }],
	messages: [],
};

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
			body: unknownKeyBody,
		},
		{
			name: "a known key with another email: 403 9103",
			headers: { "X-Auth-Email": "someone@example.org", "X-Auth-Key": KEY },
			status: 403,
			body: unknownKeyBody,
		},
		{
			name: "one pair's email with another pair's key: 403 9103",
			headers: { "X-Auth-Email": OTHER_EMAIL, "X-Auth-Key": KEY },
			status: 403,
			body: unknownKeyBody,
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

describe("read-only and permission-limited credentials", () => {
	// A zone's destinations lie under its id in the shared buckets.
	const r2 = (zone: string) => `r2://edgezone-logs/${zone}/logs/{DATE}`;
	const rule = (name: string) => ({
		action: "log_custom_field",
		expression: "true",
		action_parameters: { request_fields: [{ name }] },
	});
	const block = { action: "block", expression: 'http.request.uri.path eq "/admin"' };
	const rules = { rules: [] };
	const [LOG, WAF] = ["http_log_custom_fields", "http_request_firewall_custom"];
	const readKey = { "X-Auth-Email": READ_EMAIL, "X-Auth-Key": READ_KEY };
	const as = (headers: Record<string, string>, body: unknown) =>
		body === undefined ? headers : { ...headers, "Content-Type": "application/json" };

	/** A fresh zone with a ruleset of one rule and a job, made with the read-write token. */
	async function world() {
		const zone = await freshZone();
		const z = `/zones/${zone}`;
		const created = await call("POST", `${z}/rulesets`, {
			name: "fields",
			kind: "zone",
			phase: "http_log_custom_fields",
			rules: [rule("a")],
		});
		const ruleset = created.body.result as { id: string; rules: { id: string }[] };
		const waf = (
			await call("POST", `${z}/rulesets`, { name: "waf", kind: "custom", phase: "http_request_firewall_custom" })
		).body.result as { id: string };
		const job = (await call("POST", `${z}/logpush/jobs`, { destination_conf: r2(zone) })).body.result as {
			id: number;
		};
		return {
			zone,
			z,
			ruleset: `${z}/rulesets/${ruleset.id}`,
			waf: `${z}/rulesets/${waf.id}`,
			rule: `${z}/rulesets/${ruleset.id}/rules/${ruleset.rules[0]?.id}`,
			job: `${z}/logpush/jobs/${job.id}`,
		};
	}
	type World = Awaited<ReturnType<typeof world>>;

	/** Everything a write could have changed, read with the read-write token. */
	async function snapshot(w: World) {
		const read = async (path: string) => (await call("GET", path)).body;
		return {
			zones: (await read("/zones?per_page=50")).result_info?.total_count,
			zone: await read(w.z),
			rulesets: await read(`${w.z}/rulesets`),
			ruleset: await read(w.ruleset),
			jobs: await read(`${w.z}/logpush/jobs`),
			objects: (await env.LOGS.list({ prefix: w.zone })).objects.length,
		};
	}

	const writes: { name: string; method: string; path: (w: World) => string; body?: (w: World) => unknown }[] = [
		{
			name: "creating a zone",
			method: "POST",
			path: () => "/zones",
			body: () => ({ name: `ro${crypto.randomUUID().slice(0, 8)}.example.net`, account: {} }),
		},
		{ name: "editing a zone", method: "PATCH", path: (w) => w.z, body: () => ({ paused: true }) },
		{ name: "deleting a zone", method: "DELETE", path: (w) => w.z },
		{
			name: "creating a ruleset",
			method: "POST",
			path: (w) => `${w.z}/rulesets`,
			body: () => ({ name: "waf", kind: "zone", phase: "http_request_firewall_custom" }),
		},
		{ name: "replacing a ruleset", method: "PUT", path: (w) => w.ruleset, body: () => ({ rules: [rule("b")] }) },
		{ name: "deleting a ruleset", method: "DELETE", path: (w) => w.ruleset },
		{
			name: "replacing an entry point",
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/http_log_custom_fields/entrypoint`,
			body: () => ({ rules: [rule("c")] }),
		},
		{ name: "adding a rule", method: "POST", path: (w) => `${w.ruleset}/rules`, body: () => rule("d") },
		{ name: "editing a rule", method: "PATCH", path: (w) => w.rule, body: () => ({ enabled: false }) },
		{ name: "deleting a rule", method: "DELETE", path: (w) => w.rule },
		{
			name: "creating a job",
			method: "POST",
			path: (w) => `${w.z}/logpush/jobs`,
			body: (w) => ({ destination_conf: r2(w.zone) }),
		},
		{ name: "editing a job", method: "PUT", path: (w) => w.job, body: () => ({ name: "renamed" }) },
		{ name: "deleting a job", method: "DELETE", path: (w) => w.job },
		{
			name: "an ownership challenge (writes a file)",
			method: "POST",
			path: (w) => `${w.z}/logpush/ownership`,
			body: (w) => ({ destination_conf: `r2://edgezone-logs/${w.zone}/challenge` }),
		},
	];
	it.each(writes)(
		"refuses $name to read-only credentials with 403 10000, changing nothing; read-write may",
		async (c) => {
			const w = await world();
			const before = await snapshot(w);
			for (const headers of [bearer(READ_TOKEN), readKey]) {
				const body = c.body?.(w);
				const res = await call(c.method, c.path(w), body, as(headers, body));
				expect(res.status).toBe(403);
				expect(res.body).toStrictEqual({ success: false, errors: [{ code: 10000, message: "Authentication error" }] });
			}
			expect(await snapshot(w)).toStrictEqual(before);
			const res = await call(c.method, c.path(w), c.body?.(w));
			// Deleting a ruleset answers 204 without a body, as the real API does
			// (`deleteZoneRuleset` in Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas).
			expect([200, 204], JSON.stringify(res.body)).toContain(res.status);
		},
	);

	const reads: { name: string; method?: string; path: (w: World) => string; body?: (w: World) => unknown }[] = [
		{ name: "zones", path: () => "/zones" },
		{ name: "a zone", path: (w) => w.z },
		{ name: "rulesets", path: (w) => `${w.z}/rulesets` },
		{ name: "a ruleset", path: (w) => w.ruleset },
		{ name: "an entry point", path: (w) => `${w.z}/rulesets/phases/http_log_custom_fields/entrypoint` },
		{ name: "versions", path: (w) => `${w.ruleset}/versions` },
		{ name: "a version", path: (w) => `${w.ruleset}/versions/1` },
		{ name: "jobs", path: (w) => `${w.z}/logpush/jobs` },
		{ name: "a job", path: (w) => w.job },
		{ name: "dataset fields", path: (w) => `${w.z}/logpush/datasets/http_requests/fields` },
		{
			name: "an ownership validation (a POST that only reads)",
			method: "POST",
			path: (w) => `${w.z}/logpush/ownership/validate`,
			body: (w) => ({ destination_conf: r2(w.zone), ownership_challenge: "x" }),
		},
		{ name: "zones, with HEAD", method: "HEAD", path: () => "/zones" },
	];
	it.each(reads)("lets read-only credentials read $name", async (c) => {
		const w = await world();
		for (const headers of [bearer(READ_TOKEN), readKey]) {
			const body = c.body?.(w);
			const res = await call(c.method ?? "GET", c.path(w), body, as(headers, body));
			expect(res.status, JSON.stringify(res.body)).toBe(200);
		}
	});

	it("answers a read-only write to an unknown zone 403 10000, not 404: it learns nothing about zones", async () => {
		const res = await call("DELETE", `/zones/${"0".repeat(32)}`, undefined, bearer(READ_TOKEN));
		expect(res.status).toBe(403);
		expect(res.body.errors).toEqual([{ code: 10000, message: "Authentication error" }]);
	});

	const permitted: { token: string; method: string; path: (w: World) => string; body?: unknown; status: number }[] = [
		{ token: WAF_TOKEN, method: "GET", path: () => "/zones", status: 200 },
		{ token: WAF_TOKEN, method: "GET", path: (w) => w.z, status: 200 },
		{ token: WAF_TOKEN, method: "PATCH", path: (w) => w.z, body: { paused: true }, status: 403 },
		{
			token: WAF_TOKEN,
			method: "POST",
			path: () => "/zones",
			body: { name: "waf.example.net", account: {} },
			status: 403,
		},
		// Rulesets by their phase: Zone WAF for the WAF's, Logs for the custom log fields.
		{ token: WAF_TOKEN, method: "GET", path: (w) => w.waf, status: 200 },
		{ token: WAF_TOKEN, method: "POST", path: (w) => `${w.waf}/rules`, body: block, status: 200 },
		{ token: WAF_TOKEN, method: "GET", path: (w) => `${w.waf}/versions`, status: 200 },
		{
			token: WAF_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/${WAF}/entrypoint`,
			body: rules,
			status: 200,
		},
		{ token: WAF_TOKEN, method: "GET", path: (w) => w.ruleset, status: 403 },
		{ token: WAF_TOKEN, method: "GET", path: (w) => `${w.ruleset}/versions/1`, status: 403 },
		{ token: WAF_TOKEN, method: "POST", path: (w) => `${w.ruleset}/rules`, body: rule("e"), status: 403 },
		{ token: WAF_TOKEN, method: "DELETE", path: (w) => w.rule, status: 403 },
		{ token: WAF_TOKEN, method: "DELETE", path: (w) => w.ruleset, status: 403 },
		{
			token: WAF_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/${LOG}/entrypoint`,
			body: rules,
			status: 403,
		},
		{
			token: WAF_TOKEN,
			method: "POST",
			path: (w) => `${w.z}/rulesets`,
			body: { name: "fields", kind: "custom", phase: LOG },
			status: 403,
		},
		// Transform Rules, Origin Rules and Single Redirects: each phase its own group.
		{
			token: TRANSFORM_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/http_request_late_transform/entrypoint`,
			body: {
				rules: [
					{
						action: "rewrite",
						expression: "true",
						action_parameters: { headers: { "x-a": { operation: "set", value: "1" } } },
					},
				],
			},
			status: 200,
		},
		{
			token: TRANSFORM_TOKEN,
			method: "GET",
			path: (w) => `${w.z}/rulesets/phases/http_response_headers_transform/entrypoint`,
			status: 404,
		},
		{
			token: TRANSFORM_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/${WAF}/entrypoint`,
			body: rules,
			status: 403,
		},
		{
			token: TRANSFORM_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/http_request_origin/entrypoint`,
			body: { rules: [] },
			status: 403,
		},
		{
			token: WAF_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/http_request_dynamic_redirect/entrypoint`,
			body: { rules: [] },
			status: 403,
		},
		{
			token: WAF_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/http_request_transform/entrypoint`,
			body: { rules: [] },
			status: 403,
		},
		{ token: LOGS_READ_TOKEN, method: "GET", path: (w) => `${w.z}/rulesets/phases/${LOG}/entrypoint`, status: 200 },
		{ token: LOGS_READ_TOKEN, method: "GET", path: (w) => w.waf, status: 403 },
		{ token: WAF_TOKEN, method: "GET", path: (w) => `${w.z}/logpush/jobs`, status: 403 },
		{ token: LOGS_READ_TOKEN, method: "GET", path: () => "/zones", status: 403 },
		{ token: LOGS_READ_TOKEN, method: "GET", path: (w) => w.ruleset, status: 200 },
		{ token: LOGS_READ_TOKEN, method: "PUT", path: (w) => w.ruleset, body: { rules: [] }, status: 403 },
		// Every log-push endpoint, reads included, needs Logs Edit.
		{ token: LOGS_READ_TOKEN, method: "GET", path: (w) => w.job, status: 403 },
		{
			token: LOGS_READ_TOKEN,
			method: "POST",
			path: (w) => `${w.z}/logpush/ownership/validate`,
			body: { destination_conf: r2(DEFAULT_ZONE_ID), ownership_challenge: "x" },
			status: 403,
		},
		// Custom hostnames and certificates: SSL and Certificates, and nothing else.
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => `${w.z}/custom_hostnames`, status: 200 },
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => `${w.z}/ssl/certificate_packs`, status: 200 },
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => `${w.z}/custom_certificates`, status: 200 },
		{
			token: SSL_READ_TOKEN,
			method: "PATCH",
			path: (w) => `${w.z}/custom_hostnames/${"0".repeat(32)}`,
			body: {},
			status: 403,
		},
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => w.waf, status: 403 },
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => w.job, status: 403 },
		{ token: SSL_READ_TOKEN, method: "GET", path: (w) => w.z, status: 403 },
		// Edit passes the permission check: the handler answers (the hostname does not exist).
		{
			token: SSL_EDIT_TOKEN,
			method: "PATCH",
			path: (w) => `${w.z}/custom_hostnames/${"0".repeat(32)}`,
			body: {},
			status: 404,
		},
		{
			token: SSL_EDIT_TOKEN,
			method: "PUT",
			path: (w) => `${w.z}/rulesets/phases/${WAF}/entrypoint`,
			body: rules,
			status: 403,
		},
	];
	it.each(permitted)("answers $status to $method with permission-limited token $token", async (c) => {
		const w = await world();
		const res = await call(c.method, c.path(w), c.body, as(bearer(c.token), c.body));
		expect(res.status, JSON.stringify(res.body)).toBe(c.status);
		if (c.status === 403) expect(res.body.errors).toEqual([{ code: 10000, message: "Authentication error" }]);
	});

	it("registers every endpoint of the app with exactly one permission, as its first handler", () => {
		const endpoints = new Map<string, boolean[]>();
		for (const route of api.routes.filter((r) => r.method !== "ALL")) {
			const key = `${route.method} ${route.path}`;
			endpoints.set(key, [...(endpoints.get(key) ?? []), requirementOfHandler(route) !== undefined]);
		}
		const asks = ([, handlers]: [string, boolean[]]) => handlers[0] === true && handlers.filter(Boolean).length === 1;
		expect([...endpoints].filter((endpoint) => !asks(endpoint)).map(([key]) => key)).toEqual([]);
		expect(endpoints.size).toBeGreaterThan(0);
	});
});

describe("an unset API_CREDENTIALS", () => {
	it.each([
		["unset", undefined],
		["empty", ""],
	])("answers 500 10001 saying what is missing when it is %s", async (_, raw) => {
		const res = await api.request(
			`/client/v4${zonePath("/rulesets")}`,
			{ headers: bearer(TOKEN) },
			{ ...env, API_CREDENTIALS: raw },
		);
		expect(res.status).toBe(500);
		expect(await res.json()).toStrictEqual({
			result: null,
			success: false,
			errors: [{ code: 10001, message: "API_CREDENTIALS is not configured; run npm run dev or see .dev.vars.example" }],
			messages: [],
		});
	});
});

describe("a malformed API_CREDENTIALS", () => {
	it.each([
		{ name: "not JSON", raw: "[{" },
		{ name: "not an array", raw: JSON.stringify({ token: TOKEN, zones: "*" }) },
		{ name: "a zone id that is not 32 hex", raw: JSON.stringify([{ token: TOKEN, zones: ["example.com"] }]) },
		{ name: "an unknown field", raw: JSON.stringify([{ token: TOKEN, zones: "*", role: "admin" }]) },
		{ name: "a key of the wrong format", raw: JSON.stringify([{ email: EMAIL, key: "short", zones: "*" }]) },
		{
			name: "an access other than read or write",
			raw: JSON.stringify([{ token: TOKEN, zones: "*", access: "admin" }]),
		},
		{
			name: "a permission edgezone does not know",
			raw: JSON.stringify([{ token: TOKEN, zones: "*", permissions: ["Cache Purge Edit"] }]),
		},
		{ name: "an empty permission list", raw: JSON.stringify([{ token: TOKEN, zones: "*", permissions: [] }]) },
		{
			name: "two of R2's permission groups",
			raw: JSON.stringify([
				{ token: TOKEN, zones: "*", permissions: ["Workers R2 Storage Read", "Workers R2 Storage Bucket Item Edit"] },
			]),
		},
		{ name: "buckets on an Admin R2 permission", raw: JSON.stringify([{ token: TOKEN, zones: "*", buckets: ["b"] }]) },
		{
			name: "permissions on a key pair",
			raw: JSON.stringify([{ email: EMAIL, key: KEY, zones: "*", permissions: ["Zone Read"] }]),
		},
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
