/**
 * Every emulator route (`/zones/{zone_id}/emulator/...`) asks the permission it is registered
 * with (src/api/permissions.ts), checked by `auth.ts` before anything else: the routes are walked
 * from the app's own table, so a route added is covered here, with a token of every zone, a
 * read-only token and a token of listed zones. The lifecycle sweep acts on a bucket every zone
 * shares, so a token of listed zones is refused it, and a route registered without a permission
 * is served to no one.
 */
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { api } from "../../../src/api/app";
import { auth } from "../../../src/api/auth";
import { toErrorResponse } from "../../../src/api/errors";
import { requirementOfHandler } from "../../../src/api/permissions";
import type { ApiEnv } from "../../../src/api/types";
import { s3, xmlOf } from "../../s3/helpers";
import { DEFAULT_ZONE_ID, R2_ZONE_EDIT_TOKEN, READ_TOKEN, SCOPED_TOKEN, TOKEN } from "../credentials";
import { call, freshZone } from "../http";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });

/** A value for each path parameter of the emulator's routes; a route with another one fails the walk until it has one. */
const PARAMETERS: Record<string, string> = {
	zone_id: DEFAULT_ZONE_ID,
	bucket_name: "edgezone-bucket",
	name: "permissions-walk.example",
	certificate_id: "0".repeat(32),
};

/** The R2 groups that act on the account's buckets (R2's Admin permissions). */
const R2_ADMIN = new Set(["Workers R2 Storage Read", "Workers R2 Storage Edit"]);

/** The emulator's endpoints, each with what its first handler asks (the route's one entry). */
const ENDPOINTS = api.routes
	.filter((route) => route.method !== "ALL" && route.path.includes("/emulator/"))
	.flatMap((route) => {
		const needs = requirementOfHandler(route);
		return needs === undefined ? [] : [{ method: route.method, path: route.path, needs }];
	});

/**
 * What each token may call: every zone's token all; the read-only one no write; the listed-zone
 * one none that asks only R2's Admin groups, which act on buckets every zone shares.
 */
const TOKENS: { who: string; token: string; refused: (needs: (typeof ENDPOINTS)[number]["needs"]) => boolean }[] = [
	{ who: "every zone's", token: TOKEN, refused: () => false },
	{ who: "read-only", token: READ_TOKEN, refused: (needs) => needs.access === "write" },
	{
		who: "listed zones'",
		token: SCOPED_TOKEN,
		refused: (needs) => Array.isArray(needs.accepted) && needs.accepted.every((p) => R2_ADMIN.has(p)),
	},
];

/** The route's path with a value for each parameter, under /client/v4. */
function pathOf(route: string): string {
	return route.replace("/client/v4", "").replace(/:([a-z_]+)(\{[^}]*\})?/g, (_, name: string) => {
		const value = PARAMETERS[name];
		if (value === undefined) throw new Error(`the walk has no value for :${name} (${route})`);
		return value;
	});
}

describe("the emulator's routes", () => {
	it("each ask a permission where they are registered", () => {
		const all = api.routes.filter((route) => route.method !== "ALL" && route.path.includes("/emulator/"));
		const endpoints = [...new Set(all.map(({ method, path }) => `${method} ${path}`))];
		expect(endpoints.length).toBeGreaterThan(10);
		expect(ENDPOINTS.map(({ method, path }) => `${method} ${path}`)).toEqual(endpoints);
	});

	const rows = TOKENS.flatMap((token) => ENDPOINTS.map((endpoint) => ({ ...token, ...endpoint })));
	it.each(rows)("answer $method $path to the $who token as its permission allows", async (row) => {
		// A body no route takes: an allowed write is refused by its handler and changes nothing.
		const body = row.method === "PUT" || row.method === "POST" ? { permissions_walk: true } : undefined;
		const res = await call(row.method, pathOf(row.path), body, bearer(row.token));
		if (row.refused(row.needs)) {
			expect(res.status, JSON.stringify(res.body)).toBe(403);
			expect(res.body.errors).toEqual([{ code: 10000, message: "Authentication error" }]);
		} else {
			expect(res.status, JSON.stringify(res.body)).not.toBe(403);
		}
	});

	it("serve no route registered without a permission, to any credential", async () => {
		const app = new Hono<ApiEnv>()
			.use("*", auth)
			.get("/unregistered", (c) => c.text("served"))
			.onError((error) => toErrorResponse(error));
		const res = await app.request("/unregistered", { headers: bearer(TOKEN) }, env);
		expect(res.status).toBe(403);
		expect(((await res.json()) as { errors: unknown }).errors).toEqual([
			{ code: 10000, message: "Authentication error" },
		]);
	});
});

describe("the lifecycle sweep of a bucket every zone shares", () => {
	const rules = (prefix: string) =>
		`<LifecycleConfiguration><Rule><ID>expire</ID><Filter><Prefix>${prefix}</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule><Rule><ID>abort</ID><Filter><Prefix></Prefix></Filter><Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>1</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule></LifecycleConfiguration>`;

	async function createUpload(path: string): Promise<string> {
		const answer = await s3(`${path}?uploads`, { method: "POST" });
		const { InitiateMultipartUploadResult: result } = await xmlOf<{
			InitiateMultipartUploadResult: { UploadId: string };
		}>(answer);
		return result.UploadId;
	}

	const uploadOpen = async (path: string, id: string) => (await s3(`${path}?uploadId=${id}`)).status === 200;
	const sweep = (bucket: string, token: string) =>
		call(
			"POST",
			`/zones/${DEFAULT_ZONE_ID}/emulator/buckets/${bucket}/lifecycle`,
			{ at: "2099-01-01T00:00:00Z" },
			bearer(token),
		);

	it("is refused to another zone's token, even with Workers R2 Storage Edit, and zone A's objects and uploads survive", async () => {
		// Zone A's logs and uploads, and rules that make them all due by 2099.
		const zoneA = await freshZone();
		const logs = [`${zoneA}/logs/a.log.gz`, `${zoneA}/logs/b.log.gz`];
		for (const key of logs) await env.LOGS.put(key, "zone A's log");
		const object = `sweep-${zoneA}/kept.txt`;
		await env.BUCKET.put(object, "zone A's object");
		expect((await s3("/edgezone-logs?lifecycle", { method: "PUT", body: rules(`${zoneA}/`) })).status).toBe(200);
		expect((await s3("/edgezone-bucket?lifecycle", { method: "PUT", body: rules(`sweep-${zoneA}/`) })).status).toBe(
			200,
		);
		const uploads = [`/edgezone-logs/${zoneA}/upload`, `/edgezone-bucket/sweep-${zoneA}/upload`];
		const ids = await Promise.all(uploads.map(createUpload));

		// Zone B's tokens (the default zone's): refused, whichever bucket.
		for (const token of [SCOPED_TOKEN, R2_ZONE_EDIT_TOKEN]) {
			for (const bucket of ["edgezone-logs", "edgezone-bucket"]) {
				const res = await sweep(bucket, token);
				expect(res.status, JSON.stringify(res.body)).toBe(403);
				expect(res.body.errors).toEqual([{ code: 10000, message: "Authentication error" }]);
			}
		}
		for (const key of logs) expect(await env.LOGS.head(key)).not.toBeNull();
		expect(await env.BUCKET.head(object)).not.toBeNull();
		for (const [i, path] of uploads.entries()) expect(await uploadOpen(path, ids[i] ?? "")).toBe(true);

		// The account's token sweeps them: what the refusal kept.
		const logsSwept = await sweep("edgezone-logs", TOKEN);
		expect(logsSwept.body.result).toMatchObject({ objects_expired: 2, uploads_aborted: 1 });
		const bucketSwept = await sweep("edgezone-bucket", TOKEN);
		expect(bucketSwept.body.result).toMatchObject({ objects_expired: 1, uploads_aborted: 1 });
		for (const key of logs) expect(await env.LOGS.head(key)).toBeNull();
		for (const [i, path] of uploads.entries()) expect(await uploadOpen(path, ids[i] ?? "")).toBe(false);
		await s3("/edgezone-logs?lifecycle", { method: "DELETE" });
		await s3("/edgezone-bucket?lifecycle", { method: "DELETE" });
	});
});
