/**
 * Every S3 operation asks the permission its entry of the operation table names
 * (`S3_OPERATIONS`, src/edge/s3/operations.ts), and one check applies it (src/common/s3-keys.ts
 * `grantsAccess`). The table is walked whole, so an operation added to it is covered here: each
 * entry is reached by its own spelling, and is sent through the front door by an admin token, a
 * read-only token, a token of listed zones and a token of listed zones given "Workers R2 Storage
 * Edit", allowed or refused as R2's permissions say and as a token of listed zones is for a
 * bucket the zones share (never a bucket-level access).
 */
import { env } from "cloudflare:workers";
import type { AwsClient } from "aws4fetch";
import { describe, expect, it } from "vitest";
import type { S3Access } from "../../src/common/s3-keys";
import { operationOf, S3_OPERATIONS, type S3Address, type S3TableEntry } from "../../src/edge/s3/operations";
import {
	DEFAULT_ZONE_ID,
	R2_ZONE_EDIT_TOKEN,
	READ_TOKEN,
	SCOPED_TOKEN,
	SCOPED_TOKEN_ID,
	TOKEN,
} from "../api/credentials";
import { BUCKET, clientOf, expectS3Error, ORIGIN, s3, xmlOf } from "./helpers";

/** What each token may do, by the access an operation asks: R2's table, and no bucket-level access for listed zones. */
const ALLOWED: Record<string, { token: string; id?: string; allowed: readonly S3Access[] }> = {
	admin: { token: TOKEN, allowed: ["list-buckets", "read", "write", "read-bucket-config", "manage-buckets"] },
	"read-only": { token: READ_TOKEN, allowed: ["list-buckets", "read", "read-bucket-config"] },
	"zone-scoped": { token: SCOPED_TOKEN, id: SCOPED_TOKEN_ID, allowed: ["read", "write"] },
	"zone-scoped with Workers R2 Storage Edit": { token: R2_ZONE_EDIT_TOKEN, allowed: ["read", "write"] },
};

const KEY = "s3-operation-permissions/k";

/** A flag's parameter and the value a request of the walk gives it. */
const parameterOf = (flag: string): [string, string] => {
	const [name = flag, value = "1"] = flag.split("=");
	return [name, value];
};

/** The request that spells `entry`: its method, target, flags and header. */
function requestOf(entry: S3TableEntry): { path: string; init: RequestInit } {
	const target = entry.target === "service" ? "/" : entry.target === "bucket" ? `/${BUCKET}` : `/${BUCKET}/${KEY}`;
	const query = new URLSearchParams(entry.flags.map(parameterOf));
	const headers: Record<string, string> = entry.header === undefined ? {} : { [entry.header]: `${BUCKET}/${KEY}` };
	// A body no configuration or document accepts: an allowed write is refused by its handler and changes nothing.
	const body = entry.method === "PUT" || entry.method === "POST" ? "not a document" : undefined;
	return { path: `${target}${query.size > 0 ? `?${query}` : ""}`, init: { method: entry.method, headers, body } };
}

const addressOf = (entry: S3TableEntry): S3Address =>
	entry.target === "service"
		? { kind: "service" }
		: entry.target === "bucket"
			? { kind: "bucket", bucket: BUCKET }
			: { kind: "object", bucket: BUCKET, key: KEY };

describe("the S3 operation table", () => {
	it("reaches every entry by its own spelling, and names an access for each", () => {
		expect(S3_OPERATIONS.length).toBeGreaterThan(40);
		for (const entry of S3_OPERATIONS) {
			const { path, init } = requestOf(entry);
			const operation = operationOf(
				new Request(`${ORIGIN}${path}`, init),
				new URL(`${ORIGIN}${path}`),
				addressOf(entry),
			);
			const name = entry.name.replace(/\{([^}]+)\}/g, "1");
			expect({ name: operation.name, access: operation.access }).toEqual({ name, access: entry.access });
			expect(operation.handle).toBe(entry.handle);
		}
	});

	const rows = Object.entries(ALLOWED).flatMap(([who, grant]) =>
		S3_OPERATIONS.map((entry) => ({ who, grant, entry, label: `${entry.method} ${requestOf(entry).path}` })),
	);
	const clients = new Map<string, Promise<AwsClient>>();
	const clientFor = (grant: (typeof ALLOWED)[string]) => {
		const known = clients.get(grant.token);
		if (known !== undefined) return known;
		const client = clientOf(grant.token, { id: grant.id });
		clients.set(grant.token, client);
		return client;
	};

	it.each(rows)("answers $entry.name ($label) to the $who token as its access allows", async ({ grant, entry }) => {
		const { path, init } = requestOf(entry);
		const response = await s3(path, init, await clientFor(grant));
		if (entry.handle === undefined) {
			// Not done by this dialect: 501 naming it, to everyone, before any permission is weighed.
			await expectS3Error(response, 501, "NotImplemented");
		} else if (grant.allowed.includes(entry.access)) {
			const body = await response.text();
			expect(response.status, body).not.toBe(403);
		} else {
			await expectS3Error(response, 403, "AccessDenied");
		}
	});
});

describe("a token of listed zones in a log-push bucket every zone shares", () => {
	const OTHER_ZONE = "0b1e0000000000000000000000000003";
	const rule = (prefix: string) =>
		`<LifecycleConfiguration><Rule><ID>wipe</ID><Filter><Prefix>${prefix}</Prefix></Filter><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>`;
	const cors =
		"<CORSConfiguration><CORSRule><AllowedOrigin>*</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule></CORSConfiguration>";

	it("is refused its lifecycle and CORS even with Workers R2 Storage Edit, and the rules stay", async () => {
		const zoneEdit = await clientOf(R2_ZONE_EDIT_TOKEN);
		const before = await (await s3("/edgezone-logs?lifecycle")).text();

		for (const prefix of [`${OTHER_ZONE}/`, `${DEFAULT_ZONE_ID}/`, ""]) {
			const put = await s3("/edgezone-logs?lifecycle", { method: "PUT", body: rule(prefix) }, zoneEdit);
			await expectS3Error(put, 403, "AccessDenied");
		}
		await expectS3Error(await s3("/edgezone-logs?lifecycle", { method: "DELETE" }, zoneEdit), 403, "AccessDenied");
		await expectS3Error(await s3("/edgezone-logs?cors", { method: "PUT", body: cors }, zoneEdit), 403, "AccessDenied");
		// Nor does it read them: they name the other zones' prefixes.
		await expectS3Error(await s3("/edgezone-logs?lifecycle", {}, zoneEdit), 403, "AccessDenied");
		expect(await (await s3("/edgezone-logs?lifecycle")).text()).toBe(before);

		// It keeps its objects, under its zone's id only.
		const own = `${DEFAULT_ZONE_ID}/operation-permissions-${crypto.randomUUID()}`;
		expect((await s3(`/edgezone-logs/${own}`, { method: "PUT", body: "mine" }, zoneEdit)).status).toBe(200);
		const other = `${OTHER_ZONE}/operation-permissions-${crypto.randomUUID()}`;
		await expectS3Error(
			await s3(`/edgezone-logs/${other}`, { method: "PUT", body: "x" }, zoneEdit),
			403,
			"AccessDenied",
		);
		await env.LOGS.delete(own);
	});

	it("lets a token of the whole account change the same rules", async () => {
		// The admin token changes the rules; the refusals above are the zones', not the operations'.
		const admin = await s3("/edgezone-logs?lifecycle", { method: "PUT", body: rule(`${OTHER_ZONE}/`) });
		expect(admin.status).toBe(200);
		const { LifecycleConfiguration: config } = await xmlOf<{ LifecycleConfiguration: { Rule: { ID: string } } }>(
			await s3("/edgezone-logs?lifecycle"),
		);
		expect(config.Rule.ID).toBe("wipe");
		expect((await s3("/edgezone-logs?lifecycle", { method: "DELETE" })).status).toBe(204);
	});
});
