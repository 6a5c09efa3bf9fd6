/**
 * R2's temporary access credentials: made by the API (`client.r2.temporaryCredentials.create()`
 * of the official SDK), then accepted by the S3 dialect with their session token, signed, until
 * they expire, only within their bucket, objects, prefixes and permission, and never beyond the
 * parent key's.
 */
import { env } from "cloudflare:workers";
import { AwsClient } from "aws4fetch";
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { apiTokenId } from "../../src/common/api-tokens";
import { R2_BUCKET_ITEM_TOKEN, READ_TOKEN, SCOPED_TOKEN, SCOPED_TOKEN_ID, TOKEN } from "../api/credentials";
import { call } from "../api/http";
import { sdkClient } from "../api/sdk";
import { textOf } from "../bodies";
import { amzDate, BUCKET, bucket, expectS3Error, ORIGIN, s3 } from "./helpers";

type Permission = "admin-read-write" | "admin-read-only" | "object-read-write" | "object-read-only";

/** Temporary credentials from TOKEN's key (unless told), through the SDK, as an aws4fetch client. */
async function temporary(
	options: {
		permission?: Permission;
		ttlSeconds?: number;
		prefixes?: string[];
		objects?: string[];
		parent?: string;
	} = {},
): Promise<{ client: AwsClient; sessionToken: string; accessKeyId: string; secretAccessKey: string }> {
	const created = await sdkClient().r2.temporaryCredentials.create({
		account_id: env.DEFAULT_ACCOUNT_ID,
		bucket: BUCKET,
		parentAccessKeyId: options.parent ?? (await apiTokenId(TOKEN, undefined)),
		permission: options.permission ?? "object-read-write",
		ttlSeconds: options.ttlSeconds ?? 3600,
		...(options.prefixes === undefined ? {} : { prefixes: options.prefixes }),
		...(options.objects === undefined ? {} : { objects: options.objects }),
	});
	const { accessKeyId = "", secretAccessKey = "", sessionToken = "" } = created;
	const client = new AwsClient({ accessKeyId, secretAccessKey, sessionToken, service: "s3", region: "auto" });
	return { client, sessionToken, accessKeyId, secretAccessKey };
}

const unique = () => crypto.randomUUID();

/** Asks for temporary credentials of `request` (for 60 s) and expects 400 10040 at `pointer`, with none made. */
async function expectRefusedAt(
	request: { bucket: string; parentAccessKeyId: string; permission: Permission },
	pointer: string,
): Promise<void> {
	const answer = await call("POST", `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/temp-access-credentials`, {
		...request,
		ttlSeconds: 60,
	});
	expect(answer.status).toBe(400);
	expect(answer.body.result).toBeNull();
	expect(answer.body.errors?.[0]).toMatchObject({ code: 10040, source: { pointer } });
}

describe("R2 temporary credentials", () => {
	it("are answered as R2 answers them and sign GET and PUT inside their prefix", async () => {
		const prefix = `tmp-${unique()}/`;
		const { client, accessKeyId, secretAccessKey, sessionToken } = await temporary({ prefixes: [prefix] });
		expect(accessKeyId).toMatch(/^[0-9a-f]{32}$/);
		expect(secretAccessKey).toMatch(/^[0-9a-f]{64}$/);
		expect(sessionToken.length).toBeGreaterThan(0);
		const put = await s3(`/${BUCKET}/${prefix}a.txt`, { method: "PUT", body: "inside" }, client);
		expect(put.status).toBe(200);
		expect(await (await bucket().get(`${prefix}a.txt`))?.text()).toBe("inside");
		const get = await s3(`/${BUCKET}/${prefix}a.txt`, {}, client);
		expect(get.status).toBe(200);
		expect(await textOf(get)).toBe("inside");
		expect((await s3(`/${BUCKET}?list-type=2&prefix=${prefix}`, {}, client)).status).toBe(200);
	});

	it("are refused outside their prefix, in another bucket and for ListBuckets, storing nothing", async () => {
		const prefix = `tmp-${unique()}/`;
		const { client } = await temporary({ prefixes: [prefix], permission: "admin-read-write" });
		const outside = `elsewhere-${unique()}`;
		await expectS3Error(await s3(`/${BUCKET}/${outside}`, { method: "PUT", body: "x" }, client), 403, "AccessDenied");
		expect(await bucket().head(outside)).toBeNull();
		await expectS3Error(await s3(`/${BUCKET}?list-type=2`, {}, client), 403, "AccessDenied");
		await expectS3Error(
			await s3(`/edgezone-logs/${prefix}x`, { method: "PUT", body: "x" }, client),
			403,
			"AccessDenied",
		);
		expect(await env.LOGS.head(`${prefix}x`)).toBeNull();
		await expectS3Error(await s3("/", {}, client), 403, "AccessDenied");
	});

	it("scoped to objects reach those keys only, and list none of their neighbours", async () => {
		const k = `obj-${unique()}`;
		await bucket().put(k, "exact");
		await bucket().put(`${k}/under`, "under");
		const { client } = await temporary({ objects: [k], permission: "object-read-only" });
		expect(await textOf(await s3(`/${BUCKET}/${k}`, {}, client))).toBe("exact");
		await expectS3Error(await s3(`/${BUCKET}/${k}/under`, {}, client), 403, "AccessDenied");
		await expectS3Error(await s3(`/${BUCKET}?list-type=2&prefix=${k}`, {}, client), 403, "AccessDenied");
	});

	it("with a read-only permission refuse a PUT and store nothing", async () => {
		const { client } = await temporary({ permission: "object-read-only" });
		const k = `ro-${unique()}`;
		await expectS3Error(await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, client), 403, "AccessDenied");
		expect(await bucket().head(k)).toBeNull();
	});

	it("work in a presigned URL, whose query carries the session token", async () => {
		const k = `presigned-${unique()}`;
		await bucket().put(k, "presigned");
		const { client } = await temporary();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${k}`, { aws: { signQuery: true } });
		expect(new URL(signed.url).searchParams.get("X-Amz-Security-Token")).not.toBeNull();
		const response = await s3Fetch(signed.url);
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("presigned");
	});

	it("are refused with ExpiredToken once expired, storing nothing", async () => {
		const { client } = await temporary({ ttlSeconds: 60 });
		const k = `expired-${unique()}`;
		// Signed 5 minutes from now (within S3's 15 minutes of skew): after the credentials' 60 s.
		const later = await client.sign(`${ORIGIN}/${BUCKET}/${k}`, {
			method: "PUT",
			body: "late",
			aws: { datetime: amzDate(5 * 60_000) },
		});
		await expectS3Error(await s3Fetch(later), 400, "ExpiredToken");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuse an altered session token with InvalidToken, and a token without its own key with InvalidAccessKeyId", async () => {
		const { accessKeyId, secretAccessKey, sessionToken } = await temporary({ permission: "object-read-write" });
		const [payload = ""] = sessionToken.split(".");
		const forged = `${payload}.${"A".repeat(43)}`;
		const altered = new AwsClient({
			accessKeyId,
			secretAccessKey,
			sessionToken: forged,
			service: "s3",
			region: "auto",
		});
		await expectS3Error(await s3(`/${BUCKET}/x`, {}, altered), 400, "InvalidToken");
		const other = await temporary({ permission: "object-read-only" });
		const mixed = new AwsClient({
			accessKeyId,
			secretAccessKey,
			sessionToken: other.sessionToken,
			service: "s3",
			region: "auto",
		});
		await expectS3Error(await s3(`/${BUCKET}/x`, {}, mixed), 403, "InvalidAccessKeyId");
	});

	it("refuse a session token header that the signature does not cover", async () => {
		const { accessKeyId, secretAccessKey, sessionToken } = await temporary();
		const plain = new AwsClient({ accessKeyId, secretAccessKey, service: "s3", region: "auto" });
		const signed = await plain.sign(`${ORIGIN}/${BUCKET}/x`);
		signed.headers.set("x-amz-security-token", sessionToken);
		await expectS3Error(await s3Fetch(signed), 403, "AccessDenied");
	});

	it("are never made beyond the parent key's permission", async () => {
		const readKey = await apiTokenId(READ_TOKEN, undefined);
		await expectRefusedAt(
			{ bucket: BUCKET, parentAccessKeyId: readKey, permission: "object-read-write" },
			"/permission",
		);
		// Allowed by the parent: Admin Read only covers Object Read only.
		const { client } = await temporary({ parent: readKey, permission: "object-read-only" });
		const k = `parent-ro-${unique()}`;
		await expectS3Error(await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, client), 403, "AccessDenied");
	});

	it("are never made for a bucket the parent key's Object permission is not scoped to", async () => {
		const scopedKey = await apiTokenId(R2_BUCKET_ITEM_TOKEN, undefined);
		await expectRefusedAt(
			{ bucket: "edgezone-logs", parentAccessKeyId: scopedKey, permission: "object-read-only" },
			"/bucket",
		);
		// Its own bucket is allowed.
		const { client } = await temporary({ parent: scopedKey, permission: "object-read-write" });
		const k = `parent-scoped-${unique()}`;
		expect((await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "in scope" }, client)).status).toBe(200);
		await bucket().delete(k);
	});

	it("are refused to a token of listed zones, to another account and for an unknown parent or bucket", async () => {
		const body = { bucket: BUCKET, parentAccessKeyId: SCOPED_TOKEN_ID, permission: "object-read-only", ttlSeconds: 60 };
		const path = `/accounts/${env.DEFAULT_ACCOUNT_ID}/r2/temp-access-credentials`;
		await expect(
			sdkClient(SCOPED_TOKEN).r2.temporaryCredentials.create({ account_id: env.DEFAULT_ACCOUNT_ID, ...body } as never),
		).rejects.toBeInstanceOf(Cloudflare.PermissionDeniedError);
		expect((await call("POST", `/accounts/${"f".repeat(32)}/r2/temp-access-credentials`, body)).status).toBe(403);
		const unknownParent = await call("POST", path, { ...body, parentAccessKeyId: "0".repeat(32) });
		expect(unknownParent.body.errors?.[0]?.source).toStrictEqual({ pointer: "/parentAccessKeyId" });
		const unknownBucket = await call("POST", path, { ...body, bucket: "no-such-bucket" });
		expect(unknownBucket.body.errors?.[0]?.source).toStrictEqual({ pointer: "/bucket" });
		const tooLong = await call("POST", path, { ...body, ttlSeconds: 604_801 });
		expect(tooLong.body.errors?.[0]?.source).toStrictEqual({ pointer: "/ttlSeconds" });
	});
});

/** Sends a request (or URL) signed elsewhere through the Worker's front door. */
async function s3Fetch(request: Request | string): Promise<Response> {
	const { exports } = await import("cloudflare:workers");
	return exports.default.fetch(request);
}
