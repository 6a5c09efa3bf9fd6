/**
 * Who may speak S3: credentials as R2 derives them from the API tokens of API_CREDENTIALS,
 * SigV4 in the header and in presigned URLs, each refusal with S3's code, and nothing stored by
 * a refused write.
 */
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
	DEFAULT_ZONE_ID,
	R2_ADMIN_READ_TOKEN,
	R2_BUCKET_ITEM_TOKEN,
	READ_TOKEN,
	SCOPED_TOKEN,
	SCOPED_TOKEN_ID,
	WAF_TOKEN,
} from "../api/credentials";
import { textOf } from "../bodies";
import { amzDate, BUCKET, bucket, clientOf, credentialsOf, expectS3Error, ORIGIN, presign, s3, xmlOf } from "./helpers";

/** A zone id the scoped token does not list. */
const OTHER_ZONE_ID = "0b1e0000000000000000000000000002";

const key = (label: string) => `s3-auth/${label}-${crypto.randomUUID()}`;

describe("S3 credentials", () => {
	it("lets a token reaching every zone list the buckets declared in wrangler.toml, by their bucket_name", async () => {
		const response = await s3("/");
		expect(response.status).toBe(200);
		expect(response.headers.get("x-amz-request-id")).toMatch(/^[0-9a-f]{16}$/);
		const { ListAllMyBucketsResult: result } = await xmlOf<{
			ListAllMyBucketsResult: { "@_xmlns": string; Buckets: { Bucket: { Name: string }[] } };
		}>(response);
		expect(result["@_xmlns"]).toBe("http://s3.amazonaws.com/doc/2006-03-01/");
		expect(result.Buckets.Bucket.map((b) => b.Name)).toEqual(["edgezone-bucket", "edgezone-logs"]);
	});

	it("takes the id a token's entry declares as its Access Key ID", async () => {
		const client = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		const k = key("declared");
		expect((await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "declared" }, client)).status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("declared");
	});

	it("refuses an unknown Access Key ID with InvalidAccessKeyId and stores nothing", async () => {
		const client = await clientOf(undefined, { accessKeyId: "0123456789abcdef0123456789abcdef" });
		const k = key("unknown-key");
		const error = await expectS3Error(
			await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, client),
			403,
			"InvalidAccessKeyId",
		);
		expect(error?.AWSAccessKeyId).toBe("0123456789abcdef0123456789abcdef");
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a signature made with another secret with SignatureDoesNotMatch and stores nothing", async () => {
		const client = await clientOf(undefined, { secretAccessKey: "0".repeat(64) });
		const k = key("wrong-secret");
		await expectS3Error(
			await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, client),
			403,
			"SignatureDoesNotMatch",
		);
		expect(await bucket().head(k)).toBeNull();
	});

	it("refuses a request changed after signing", async () => {
		const client = await clientOf();
		const signed = await client.sign(`${ORIGIN}/${BUCKET}/${key("changed")}`, { method: "GET" });
		const url = new URL(signed.url);
		url.pathname = `/${BUCKET}/another-key`;
		await expectS3Error(await exports.default.fetch(new Request(url, signed)), 403, "SignatureDoesNotMatch");
	});

	it("refuses a header-signed request more than 15 minutes from the server's clock with RequestTimeTooSkewed", async () => {
		const error = await expectS3Error(
			await s3("/", { aws: { datetime: amzDate(-16 * 60_000) } }),
			403,
			"RequestTimeTooSkewed",
		);
		expect(error?.MaxAllowedSkewMilliseconds).toBe("900000");
		expect((await s3("/", { aws: { datetime: amzDate(-14 * 60_000) } })).status).toBe(200);
	});

	it("dates every answer, so a client whose clock is off can correct it from a RequestTimeTooSkewed", async () => {
		// The AWS SDKs take the server's time from the Date header of the refusal, then sign again.
		const before = Date.now() - 1000;
		const refused = await s3("/", { aws: { datetime: amzDate(-60 * 60_000) } });
		await expectS3Error(refused, 403, "RequestTimeTooSkewed");
		const served = await s3("/");
		await served.arrayBuffer();
		for (const response of [refused, served]) {
			const date = Date.parse(response.headers.get("date") ?? "");
			expect(date).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
			expect(date).toBeLessThanOrEqual(Date.now());
		}
	});

	it("refuses a malformed Authorization header with AuthorizationHeaderMalformed", async () => {
		const response = await exports.default.fetch(`${ORIGIN}/`, {
			headers: {
				authorization: "AWS4-HMAC-SHA256 Credential=abc",
				"x-amz-date": amzDate(),
				"x-amz-content-sha256": "UNSIGNED-PAYLOAD",
			},
		});
		await expectS3Error(response, 400, "AuthorizationHeaderMalformed");
	});
});

describe("AWS Signature Version 2", () => {
	/** R2's answer to SigV2, as its S3 endpoint sends it (cited in src/edge/s3/auth/detect.ts). */
	const SIGV2_MESSAGE = "SigV2 authorization is not supported. Please use SigV4 instead.";
	const ACCESS_KEY_ID = "0123456789abcdef0123456789abcdef";
	/** A SigV2 signature's shape: base64 of an HMAC-SHA1 (its value is not checked: R2 refuses the scheme). */
	const SIGNATURE = "bWq2s1WEIj+Ydj0vQ697zp+IXMU=";

	it("is refused in the header as R2 refuses it, 401 Unauthorized in XML with CF-Ray, and stores nothing", async () => {
		const k = key("sigv2");
		const authorization = `AWS ${ACCESS_KEY_ID}:${SIGNATURE}`;
		const date = new Date().toUTCString();
		for (const init of [
			{ method: "GET" },
			{ method: "PUT", body: "sigv2", headers: { "content-type": "text/plain" } },
		] as RequestInit[]) {
			const response = await exports.default.fetch(`${ORIGIN}/${BUCKET}/${k}`, {
				...init,
				headers: { ...(init.headers as Record<string, string>), authorization, date },
			});
			const error = await expectS3Error(response, 401, "Unauthorized");
			expect(error?.Message).toBe(SIGV2_MESSAGE);
			expect(response.headers.get("cf-ray")).toMatch(/^[0-9a-f]{16}-/);
		}
		const head = await exports.default.fetch(`${ORIGIN}/${BUCKET}/${k}`, {
			method: "HEAD",
			headers: { authorization, date },
		});
		expect([head.status, head.headers.get("x-amz-request-id")?.length]).toEqual([401, 16]);
		expect(await bucket().head(k)).toBeNull();
	});

	it("is refused in a presigned URL as R2 refuses it", async () => {
		const k = key("sigv2-presigned");
		await bucket().put(k, "private");
		const query = new URLSearchParams({
			AWSAccessKeyId: ACCESS_KEY_ID,
			Expires: String(Math.floor(Date.now() / 1000) + 600),
			Signature: SIGNATURE,
		});
		const response = await exports.default.fetch(`${ORIGIN}/${BUCKET}/${k}?${query}`);
		const error = await expectS3Error(response, 401, "Unauthorized");
		expect(error?.Message).toBe(SIGV2_MESSAGE);
	});
});

describe("R2 permissions of a token", () => {
	it("refuses a write by a read-only token with AccessDenied and stores nothing", async () => {
		const k = key("read-only");
		await expectS3Error(
			await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "x" }, await clientOf(READ_TOKEN)),
			403,
			"AccessDenied",
		);
		expect(await bucket().head(k)).toBeNull();
		// It still reads and lists the buckets (Admin Read only).
		expect((await s3("/", {}, await clientOf(READ_TOKEN))).status).toBe(200);
	});

	it("gives a token limited to listed zones Object permissions: objects, not the bucket list", async () => {
		const client = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		await expectS3Error(await s3("/", {}, client), 403, "AccessDenied");
		expect((await s3(`/${BUCKET}?list-type=2&max-keys=1`, {}, client)).status).toBe(200);
	});

	it("limits a token of listed zones to its zones' keys in the log buckets, which every zone shares", async () => {
		const client = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		const own = `${DEFAULT_ZONE_ID}/s3-scope-${crypto.randomUUID()}`;
		const other = `${OTHER_ZONE_ID}/s3-scope-${crypto.randomUUID()}`;
		await env.LOGS.put(other, "another zone's log");
		expect((await s3(`/edgezone-logs/${own}`, { method: "PUT", body: "mine" }, client)).status).toBe(200);
		expect(await textOf(await s3(`/edgezone-logs/${own}`, {}, client))).toBe("mine");
		expect((await s3(`/edgezone-logs?list-type=2&prefix=${DEFAULT_ZONE_ID}/`, {}, client)).status).toBe(200);

		await expectS3Error(await s3(`/edgezone-logs/${other}`, {}, client), 403, "AccessDenied");
		await expectS3Error(await s3(`/edgezone-logs/${other}`, { method: "PUT", body: "x" }, client), 403, "AccessDenied");
		await expectS3Error(await s3(`/edgezone-logs/${other}`, { method: "DELETE" }, client), 403, "AccessDenied");
		await expectS3Error(await s3("/edgezone-logs?list-type=2", {}, client), 403, "AccessDenied");
		await expectS3Error(await s3(`/edgezone-logs?prefix=${OTHER_ZONE_ID}`, {}, client), 403, "AccessDenied");
		const document = `<Delete><Object><Key>${own}</Key></Object><Object><Key>${other}</Key></Object></Delete>`;
		const deletion = await s3(`/edgezone-logs?delete`, { method: "POST", body: document }, client);
		await expectS3Error(deletion, 403, "AccessDenied");
		expect(await (await env.LOGS.get(other))?.text()).toBe("another zone's log");
		expect(await (await env.LOGS.get(own))?.text()).toBe("mine");
		// A token reaching every zone reaches every key.
		expect(await textOf(await s3(`/edgezone-logs/${other}`))).toBe("another zone's log");
		await env.LOGS.delete([own, other]);
	});

	it("gives a token limited to API permissions no R2 permission", async () => {
		await expectS3Error(await s3(`/${BUCKET}?list-type=2`, {}, await clientOf(WAF_TOKEN)), 403, "AccessDenied");
	});

	it("gives a token with Workers R2 Storage Bucket Item Edit Object Read & Write in the buckets it is scoped to only", async () => {
		const client = await clientOf(R2_BUCKET_ITEM_TOKEN);
		const k = key("bucket-item");
		expect((await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "scoped" }, client)).status).toBe(200);
		expect(await textOf(await s3(`/${BUCKET}/${k}`, {}, client))).toBe("scoped");
		expect((await s3(`/${BUCKET}?list-type=2&prefix=s3-auth/`, {}, client)).status).toBe(200);

		const other = `s3-auth/bucket-item-${crypto.randomUUID()}`;
		await expectS3Error(await s3(`/edgezone-logs/${other}`, { method: "PUT", body: "x" }, client), 403, "AccessDenied");
		expect(await env.LOGS.head(other)).toBeNull();
		await expectS3Error(await s3("/edgezone-logs?list-type=2", {}, client), 403, "AccessDenied");
		await expectS3Error(await s3("/edgezone-logs", { method: "HEAD" }, client), 403, "AccessDenied");
		// An Object permission neither lists the account's buckets nor manages them.
		await expectS3Error(await s3("/", {}, client), 403, "AccessDenied");
		// CopyObject reads its source with the same scope.
		await env.LOGS.put(other, "another bucket's");
		const copy = await s3(
			`/${BUCKET}/${k}-copy`,
			{ method: "PUT", headers: { "x-amz-copy-source": `/edgezone-logs/${other}` } },
			client,
		);
		await expectS3Error(copy, 403, "AccessDenied");
		expect(await bucket().head(`${k}-copy`)).toBeNull();
		await env.LOGS.delete(other);
		await bucket().delete(k);
	});

	it("gives a token with Workers R2 Storage Read Admin Read only: the bucket list and reads, no writes", async () => {
		const client = await clientOf(R2_ADMIN_READ_TOKEN);
		const k = key("admin-read");
		await bucket().put(k, "readable");
		expect((await s3("/", {}, client)).status).toBe(200);
		expect(await textOf(await s3(`/${BUCKET}/${k}`, {}, client))).toBe("readable");
		expect(await textOf(await s3(`/edgezone-logs?list-type=2&max-keys=1`, {}, client))).toContain("<ListBucketResult");
		await expectS3Error(await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "changed" }, client), 403, "AccessDenied");
		await expectS3Error(await s3(`/${BUCKET}/${k}`, { method: "DELETE" }, client), 403, "AccessDenied");
		expect(await (await bucket().get(k))?.text()).toBe("readable");
		await bucket().delete(k);
	});
});

describe("presigned URLs", () => {
	it("serves a presigned GET to a client holding no credentials", async () => {
		const k = key("presigned");
		await bucket().put(k, "shared");
		const response = await exports.default.fetch(await presign(`/${BUCKET}/${k}`, { expires: 60 }));
		expect(response.status).toBe(200);
		expect(await textOf(response)).toBe("shared");
	});

	it("refuses a presigned URL past its X-Amz-Expires with AccessDenied", async () => {
		const url = await presign(`/${BUCKET}/${key("expired")}`, { expires: 60, datetime: amzDate(-61_000) });
		const error = await expectS3Error(await exports.default.fetch(url), 403, "AccessDenied");
		expect(error?.Message).toBe("Request has expired");
	});

	it("refuses an X-Amz-Expires over 7 days", async () => {
		const url = await presign(`/${BUCKET}/${key("too-long")}`, { expires: 604_801 });
		await expectS3Error(await exports.default.fetch(url), 400, "AuthorizationQueryParametersError");
		expect((await exports.default.fetch(await presign(`/${BUCKET}/${key("week")}`, { expires: 604_800 }))).status).toBe(
			404,
		);
	});

	it("refuses a presigned URL whose signature was altered", async () => {
		const url = new URL(await presign(`/${BUCKET}/${key("altered")}`, { method: "PUT" }));
		url.searchParams.set("X-Amz-Signature", "f".repeat(64));
		const k = new URL(url).pathname.slice(BUCKET.length + 2);
		await expectS3Error(await exports.default.fetch(url, { method: "PUT", body: "x" }), 403, "SignatureDoesNotMatch");
		expect(await bucket().head(k)).toBeNull();
	});
});

describe("the native dialect beside S3", () => {
	it("still answers bearer-token requests and unsigned ones in its own JSON", async () => {
		const k = key("native");
		const put = await exports.default.fetch(`${ORIGIN}/${k}`, {
			method: "PUT",
			body: "native",
			headers: { authorization: "Bearer test-rw" },
		});
		expect(put.status).toBe(200);
		expect((await put.json<{ key: string }>()).key).toBe(k);
		const anonymous = await exports.default.fetch(`${ORIGIN}/${k}`);
		expect(anonymous.status).toBe(401);
		expect(anonymous.headers.get("x-amz-request-id")).toBeNull();
		expect(await anonymous.json()).toMatchObject({ error: { code: 10002 } });
	});
});

describe("an unsigned request plainly an S3 client's", () => {
	/** An unsigned request as an S3 client sends it (no credential), to `origin` (ORIGIN unless told). */
	const unsigned = (path: string, init: RequestInit = {}, origin = ORIGIN) =>
		exports.default.fetch(`${origin}${path}`, init);

	it("gets R2's answer to an anonymous S3 request, 403 AccessDenied in XML with CF-Ray, and stores nothing", async () => {
		const k = key("anonymous");
		await bucket().put(k, "private");
		const sdk = { "amz-sdk-invocation-id": crypto.randomUUID(), "amz-sdk-request": "attempt=1; max=3" };
		const requests: [string, RequestInit, string?][] = [
			[`/${BUCKET}?list-type=2`, {}],
			[`/${BUCKET}/${k}?x-id=GetObject`, {}],
			[`/${BUCKET}/${k}`, { headers: sdk }],
			[`/${BUCKET}/${k}`, { headers: { "x-amz-content-sha256": "UNSIGNED-PAYLOAD", "x-amz-date": amzDate() } }],
			[`/${BUCKET}/${k}?X-Amz-Credential=x`, {}],
			[`/${BUCKET}?location`, {}],
			[`/${BUCKET}/?cors`, {}],
			[`/${k}`, {}, `http://${BUCKET}.localhost`],
			["/?list-type=2", {}, `http://${BUCKET}.localhost`],
		];
		for (const [path, init, origin] of requests) {
			const response = await unsigned(path, init, origin);
			const error = await expectS3Error(response, 403, "AccessDenied");
			expect(error?.Message, path).toBe("Access Denied");
			expect(response.headers.get("cf-ray"), path).toMatch(/^[0-9a-f]{16}-/);
		}
		const put = await unsigned(`/${BUCKET}/${k}`, { method: "PUT", body: "overwritten", headers: sdk });
		await expectS3Error(put, 403, "AccessDenied");
		const copy = await unsigned(`/${BUCKET}/${key("copy")}`, {
			method: "PUT",
			headers: { "x-amz-copy-source": `${BUCKET}/${k}` },
		});
		await expectS3Error(copy, 403, "AccessDenied");
		expect(await (await bucket().get(k))?.text()).toBe("private");
		const head = await unsigned(`/${BUCKET}/${k}`, { method: "HEAD", headers: sdk });
		expect([head.status, head.headers.get("x-amz-request-id")?.length]).toEqual([403, 16]);
	});

	it("leaves the native dialect's requests to it: a bearer token, its own x-amz-* headers, its key operations", async () => {
		const k = key("native-amz");
		const put = await exports.default.fetch(`${ORIGIN}/${k}`, {
			method: "PUT",
			body: "native",
			headers: {
				authorization: "Bearer test-rw",
				"x-amz-meta-owner": "me",
				"amz-sdk-invocation-id": crypto.randomUUID(),
				"x-amz-date": amzDate(),
			},
		});
		expect(put.status).toBe(200);
		expect((await put.json<{ key: string }>()).key).toBe(k);
		const native: [string, RequestInit][] = [
			[
				`/${k}`,
				{ headers: { "x-amz-checksum-mode": "ENABLED", "x-amz-meta-a": "b", "x-amz-storage-class": "STANDARD" } },
			],
			[`/${BUCKET}?uploads`, { method: "POST" }],
			[`/${BUCKET}?uploadId=x&partNumber=1`, { method: "PUT", body: "x" }],
			[`/${k}?location`, {}],
			["/?list&prefix=x", {}],
		];
		for (const [path, init] of native) {
			const response = await exports.default.fetch(`${ORIGIN}${path}`, init);
			expect(response.status, path).toBe(401);
			expect(response.headers.get("x-amz-request-id"), path).toBeNull();
			expect(await response.json(), path).toMatchObject({ error: { code: 10002 } });
		}
	});
});

describe("presigned URLs from a browser", () => {
	it("answers the preflight of a presigned PUT, and the PUT with CORS headers", async () => {
		const k = key("browser");
		const url = await presign(`/${BUCKET}/${k}`, { method: "PUT", expires: 60 });
		const origin = "https://app.example";
		const preflight = await exports.default.fetch(url, {
			method: "OPTIONS",
			headers: { origin, "access-control-request-method": "PUT", "access-control-request-headers": "content-type" },
		});
		expect(preflight.status).toBe(204);
		expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
		expect(preflight.headers.get("access-control-allow-methods")).toContain("PUT");
		const put = await exports.default.fetch(url, {
			method: "PUT",
			body: "from a page",
			headers: { origin, "content-type": "text/plain" },
		});
		expect(put.status).toBe(200);
		expect(put.headers.get("access-control-allow-origin")).toBe("*");
		expect(put.headers.get("access-control-expose-headers")).toContain("etag");
		expect(await (await bucket().get(k))?.text()).toBe("from a page");
	});
});

describe("header-signed requests from a browser", () => {
	it("are allowed by the preflight with the headers an AWS SDK sends, and answered with readable S3 headers", async () => {
		const origin = "https://app.example";
		const requested = [
			"authorization",
			"x-amz-date",
			"x-amz-content-sha256",
			"x-amz-user-agent",
			"amz-sdk-invocation-id",
			"amz-sdk-request",
			"x-amz-checksum-crc32",
			"x-amz-sdk-checksum-algorithm",
			"content-type",
		];
		const preflight = await exports.default.fetch(`${ORIGIN}/${BUCKET}/${key("sdk")}`, {
			method: "OPTIONS",
			headers: {
				origin,
				"access-control-request-method": "PUT",
				"access-control-request-headers": requested.join(","),
			},
		});
		expect(preflight.status).toBe(204);
		const allowed = (preflight.headers.get("access-control-allow-headers") ?? "").split(/\s*,\s*/);
		expect(allowed).toEqual(expect.arrayContaining(requested));
		const k = key("sdk-put");
		const put = await s3(`/${BUCKET}/${k}`, { method: "PUT", body: "signed in a page", headers: { origin } });
		expect(put.status).toBe(200);
		const exposed = put.headers.get("access-control-expose-headers") ?? "";
		expect(exposed).toContain("x-amz-request-id");
		expect(exposed).toContain("etag");
		expect(await (await bucket().get(k))?.text()).toBe("signed in a page");
	});
});

describe("the local credentials of docs/s3.md", () => {
	it("are those R2 derives from npm run dev's default API token", async () => {
		// .dev.vars.example's first token; a change to the derivation would break every configured client.
		const { accessKeyId, secretAccessKey } = await credentialsOf("edgezone_dev_token_000000000000000000000");
		expect(accessKeyId).toBe("38cba963a34a25df28b6e7a6e80f828e");
		expect(secretAccessKey).toBe("fa39b6fb4dca9fff1cdaf8d365f0346ed42b9ee1e823c0a2beadf5aa6a613a2f");
	});
});

describe("a key with an encoded slash", () => {
	it("takes a signature over the path with %2F read as /, as aws4fetch signs it, and stores the key with /", async () => {
		const folder = key("encoded-slash");
		const put = await s3(`/${BUCKET}/${folder}%2Freport.txt`, { method: "PUT", body: "quarterly" });
		expect(put.status).toBe(200);
		expect(await (await bucket().get(`${folder}/report.txt`))?.text()).toBe("quarterly");
		const get = await s3(`/${BUCKET}/${folder}%2Freport.txt`);
		expect(await textOf(get)).toBe("quarterly");
	});

	it("still refuses that signature for another key", async () => {
		const folder = key("encoded-slash-moved");
		const signed = await (await clientOf()).sign(`${ORIGIN}/${BUCKET}/${folder}%2Fa.txt`, { method: "PUT", body: "x" });
		const moved = new Request(signed.url.replace("%2Fa.txt", "%2Fb.txt"), signed);
		await expectS3Error(await exports.default.fetch(moved), 403, "SignatureDoesNotMatch");
		expect(await bucket().head(`${folder}/b.txt`)).toBeNull();
	});
});
