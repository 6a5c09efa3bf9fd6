/**
 * A bucket's own CORS rules (src/edge/s3/bucket-cors.ts, src/edge/s3/cors/): put, read back and
 * deleted through S3, refused as S3 refuses a bad configuration, and applied to the bucket's
 * preflights and answers in both dialects, where `CORS_ORIGINS` (here `*`) stays the default of a
 * bucket without rules.
 */
import { exports } from "cloudflare:workers";
import { afterEach, describe, expect, it } from "vitest";
import { gw } from "../gateway/helpers";
import { BUCKET, bucket, expectS3Error, ORIGIN, s3, xmlOf } from "./helpers";

const CORS = `/${BUCKET}?cors`;
const APP = "https://app.example";
const OTHER = "https://other.example";

const RULES = `<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
	<CORSRule>
		<ID>app</ID>
		<AllowedOrigin>${APP}</AllowedOrigin>
		<AllowedMethod>GET</AllowedMethod>
		<AllowedMethod>PUT</AllowedMethod>
		<AllowedHeader>content-type</AllowedHeader>
		<AllowedHeader>x-amz-*</AllowedHeader>
		<ExposeHeader>ETag</ExposeHeader>
		<MaxAgeSeconds>300</MaxAgeSeconds>
	</CORSRule>
	<CORSRule>
		<AllowedOrigin>https://*.tools.example</AllowedOrigin>
		<AllowedMethod>HEAD</AllowedMethod>
	</CORSRule>
</CORSConfiguration>`;

interface CorsXml {
	CORSConfiguration: {
		CORSRule: Record<string, string | string[]> | Record<string, string | string[]>[];
	};
}

/** A browser's preflight of `path`, without credentials. */
const preflight = (path: string, origin: string, method: string, headers?: string) =>
	exports.default.fetch(`${ORIGIN}${path}`, {
		method: "OPTIONS",
		headers: {
			origin,
			"access-control-request-method": method,
			...(headers === undefined ? {} : { "access-control-request-headers": headers }),
		},
	});

afterEach(async () => {
	expect((await s3(CORS, { method: "DELETE" })).status).toBe(204);
});

describe("PutBucketCors, GetBucketCors, DeleteBucketCors", () => {
	it("stores the rules, answers them back, and after a delete answers the default again", async () => {
		expect((await s3(CORS, { method: "PUT", body: RULES })).status).toBe(200);
		const { CORSConfiguration: config } = await xmlOf<CorsXml>(await s3(CORS));
		expect(config.CORSRule).toEqual([
			{
				ID: "app",
				AllowedOrigin: APP,
				AllowedMethod: ["GET", "PUT"],
				AllowedHeader: ["content-type", "x-amz-*"],
				ExposeHeader: "ETag",
				MaxAgeSeconds: "300",
			},
			{ AllowedOrigin: "https://*.tools.example", AllowedMethod: "HEAD" },
		]);
		expect((await s3(CORS, { method: "DELETE" })).status).toBe(204);
		const { CORSConfiguration: after } = await xmlOf<CorsXml>(await s3(CORS));
		expect(after.CORSRule).toMatchObject({ AllowedOrigin: "*" });
	});

	it("refuses what S3 refuses, and keeps the rules it had", async () => {
		expect((await s3(CORS, { method: "PUT", body: RULES })).status).toBe(200);
		const rule = (body: string) => `<CORSConfiguration><CORSRule>${body}</CORSRule></CORSConfiguration>`;
		const refusals: [string, string][] = [
			[rule(`<AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>PATCH</AllowedMethod>`), "InvalidRequest"],
			[rule("<AllowedOrigin>https://*.*.example</AllowedOrigin><AllowedMethod>GET</AllowedMethod>"), "InvalidRequest"],
			[
				rule(
					`<AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><AllowedHeader>*-*</AllowedHeader>`,
				),
				"InvalidRequest",
			],
			[rule("<AllowedMethod>GET</AllowedMethod>"), "MalformedXML"],
			[rule(`<AllowedOrigin>${APP}</AllowedOrigin>`), "MalformedXML"],
			[
				rule(
					`<AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>GET</AllowedMethod><MaxAgeSeconds>soon</MaxAgeSeconds>`,
				),
				"MalformedXML",
			],
			[
				rule(`<ID>${"i".repeat(256)}</ID><AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>GET</AllowedMethod>`),
				"InvalidArgument",
			],
			["<CORSConfiguration/>", "MalformedXML"],
			[
				`<CORSConfiguration>${`<CORSRule><AllowedOrigin>${APP}</AllowedOrigin><AllowedMethod>GET</AllowedMethod></CORSRule>`.repeat(101)}</CORSConfiguration>`,
				"MalformedXML",
			],
		];
		for (const [body, code] of refusals) {
			await expectS3Error(await s3(CORS, { method: "PUT", body }), 400, code);
		}
		const { CORSConfiguration: config } = await xmlOf<CorsXml>(await s3(CORS));
		expect([config.CORSRule].flat()).toHaveLength(2);
	});
});

describe("a bucket's CORS rules, applied", () => {
	it("answer its preflights: the matching rule's origin, methods, headers and max age, else 403", async () => {
		expect((await s3(CORS, { method: "PUT", body: RULES })).status).toBe(200);
		const allowed = await preflight(`/${BUCKET}/cors/k`, APP, "PUT", "content-type, x-amz-date");
		expect(allowed.status).toBe(200);
		expect(allowed.headers.get("access-control-allow-origin")).toBe(APP);
		expect(allowed.headers.get("access-control-allow-methods")).toBe("GET, PUT");
		expect(allowed.headers.get("access-control-allow-headers")).toBe("content-type, x-amz-date");
		expect(allowed.headers.get("access-control-max-age")).toBe("300");
		const wildcard = await preflight(`/${BUCKET}/cors/k`, "https://a.tools.example", "HEAD");
		expect(wildcard.headers.get("access-control-allow-origin")).toBe("https://a.tools.example");

		// What CORS_ORIGINS ("*") would allow, the bucket's rules do not.
		for (const refused of [
			await preflight(`/${BUCKET}/cors/k`, OTHER, "GET"),
			await preflight(`/${BUCKET}/cors/k`, APP, "DELETE"),
			await preflight(`/${BUCKET}/cors/k`, APP, "PUT", "authorization"),
		]) {
			expect(refused.status).toBe(403);
			expect(refused.headers.has("access-control-allow-origin")).toBe(false);
		}

		expect((await s3(CORS, { method: "DELETE" })).status).toBe(204);
		const byDefault = await preflight(`/${BUCKET}/cors/k`, OTHER, "GET");
		expect(byDefault.status).toBe(204);
		expect(byDefault.headers.get("access-control-allow-origin")).toBe("*");
	});

	it("answer its requests in both dialects: the allowed origin and the rule's exposed headers", async () => {
		await bucket().put("cors/read", "r");
		expect((await s3(CORS, { method: "PUT", body: RULES })).status).toBe(200);
		const viaS3 = await s3(`/${BUCKET}/cors/read`, { headers: { origin: APP } });
		expect(viaS3.status).toBe(200);
		await viaS3.arrayBuffer();
		expect(viaS3.headers.get("access-control-allow-origin")).toBe(APP);
		expect(viaS3.headers.get("access-control-expose-headers")).toBe("ETag");
		const other = await s3(`/${BUCKET}/cors/read`, { headers: { origin: OTHER } });
		await other.arrayBuffer();
		expect(other.headers.has("access-control-allow-origin")).toBe(false);

		const native = await gw("/cors/read", { headers: { origin: APP } });
		await native.arrayBuffer();
		expect(native.headers.get("access-control-allow-origin")).toBe(APP);
		expect(native.headers.get("access-control-expose-headers")).toBe("ETag");
		const nativeOther = await gw("/cors/read", { headers: { origin: OTHER } });
		await nativeOther.arrayBuffer();
		expect(nativeOther.headers.has("access-control-allow-origin")).toBe(false);
	});

	it("are the bucket's own: another bucket keeps the default", async () => {
		expect((await s3(CORS, { method: "PUT", body: RULES })).status).toBe(200);
		const logs = await preflight("/edgezone-logs/k", OTHER, "GET");
		expect(logs.status).toBe(204);
		expect(logs.headers.get("access-control-allow-origin")).toBe("*");
	});
});
