/**
 * The bucket operations on declared buckets, and the bucket's CORS, as an S3 client sees
 * them: CreateBucket of a declared name is "already yours" (created buckets: created-buckets.test.ts);
 * DeleteBucket never deletes a declared bucket; GetBucketCors tells the CORS the gateway
 * applies, and Put/DeleteBucketCors are refused saying where it is set. Each needs R2's Admin
 * permission, and a refused one changes nothing.
 */
import { createExecutionContext, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { READ_TOKEN, SCOPED_TOKEN, SCOPED_TOKEN_ID } from "../api/credentials";
import { BUCKET, bucket, clientOf, expectS3Error, ORIGIN, s3, xmlOf } from "./helpers";

const LOGS_BUCKET = "edgezone-logs";

/** The names ListBuckets answers. */
async function listedBuckets(): Promise<string[]> {
	const { ListAllMyBucketsResult: result } = await xmlOf<{
		ListAllMyBucketsResult: { Buckets: { Bucket: { Name: string }[] } };
	}>(await s3("/"));
	return result.Buckets.Bucket.map((b) => b.Name);
}

const CREATE_BODY =
	'<CreateBucketConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><LocationConstraint>auto</LocationConstraint></CreateBucketConfiguration>';

describe("CreateBucket", () => {
	it("answers a declared bucket as one you already own", async () => {
		const error = await expectS3Error(
			await s3(`/${BUCKET}`, { method: "PUT", body: CREATE_BODY }),
			409,
			"BucketAlreadyOwnedByYou",
		);
		expect(error?.BucketName).toBe(BUCKET);
		expect(await listedBuckets()).toEqual([BUCKET, LOGS_BUCKET]);
	});

	it("refuses a name S3 would not take with InvalidBucketName", async () => {
		await expectS3Error(await s3("/Upper_Case", { method: "PUT" }), 400, "InvalidBucketName");
	});

	it("needs Admin Read & Write: Admin Read only and Object Read & Write are AccessDenied", async () => {
		await expectS3Error(await s3(`/${BUCKET}`, { method: "PUT" }, await clientOf(READ_TOKEN)), 403, "AccessDenied");
		const objectWriter = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		await expectS3Error(await s3("/another-bucket", { method: "PUT" }, objectWriter), 403, "AccessDenied");
	});
});

describe("DeleteBucket", () => {
	it("refuses a bucket holding objects with BucketNotEmpty, and its objects stay", async () => {
		const key = `buckets/${crypto.randomUUID()}`;
		await bucket().put(key, "stays");
		const error = await expectS3Error(await s3(`/${BUCKET}`, { method: "DELETE" }), 409, "BucketNotEmpty");
		expect(error?.BucketName).toBe(BUCKET);
		expect(await (await bucket().get(key))?.text()).toBe("stays");
	});

	it("refuses an empty declared bucket, saying it is declared in wrangler.toml, and it is still served", async () => {
		expect((await env.LOGS.list({ limit: 1 })).objects).toEqual([]);
		const error = await expectS3Error(await s3(`/${LOGS_BUCKET}`, { method: "DELETE" }), 501, "NotImplemented");
		expect(error?.Message).toContain("wrangler.toml");
		expect(await listedBuckets()).toContain(LOGS_BUCKET);
		expect((await s3(`/${LOGS_BUCKET}`, { method: "HEAD" })).status).toBe(200);
	});

	it("answers NoSuchBucket for an undeclared bucket", async () => {
		await expectS3Error(await s3("/not-declared-here", { method: "DELETE" }), 404, "NoSuchBucket");
	});

	it("needs Admin Read & Write", async () => {
		await expectS3Error(await s3(`/${BUCKET}`, { method: "DELETE" }, await clientOf(READ_TOKEN)), 403, "AccessDenied");
	});
});

interface CorsXml {
	CORSConfiguration: {
		"@_xmlns": string;
		CORSRule: {
			AllowedOrigin: string | string[];
			AllowedMethod: string[];
			AllowedHeader: string[];
			ExposeHeader: string[];
			MaxAgeSeconds: string;
		};
	};
}

/** A signed S3 request answered by the Worker with some vars changed. */
async function s3WithVars(vars: Partial<Env>, path: string, init: RequestInit = {}): Promise<Response> {
	const signed = await (await clientOf()).sign(`${ORIGIN}${path}`, init);
	return worker.fetch(
		signed as Request<unknown, IncomingRequestCfProperties>,
		{ ...env, ...vars },
		createExecutionContext(),
	);
}

describe("ListBuckets, with R2's extension of ListObjectsV2's parameters", () => {
	type Listed = {
		ListAllMyBucketsResult: {
			Buckets: { Bucket: { Name: string } | { Name: string }[] } | "";
			IsTruncated: string;
			KeyCount: string;
			MaxKeys: string;
			NextContinuationToken?: string;
		};
	};
	const namesOf = (result: Listed["ListAllMyBucketsResult"]) =>
		result.Buckets === "" ? [] : [result.Buckets.Bucket].flat().map((b) => b.Name);

	it("pages by max-keys and continuation-token, in name order, with the cf-* answer headers", async () => {
		const first = await s3("/?max-keys=1");
		expect(first.headers.get("cf-is-truncated")).toBe("true");
		const { ListAllMyBucketsResult: page } = await xmlOf<Listed>(first);
		expect(namesOf(page)).toEqual([BUCKET]);
		expect(page.IsTruncated).toBe("true");
		expect(page.KeyCount).toBe("1");
		expect(first.headers.get("cf-next-continuation-token")).toBe(page.NextContinuationToken);
		const token = encodeURIComponent(page.NextContinuationToken ?? "");
		const second = await s3(`/?max-keys=1&continuation-token=${token}`);
		const { ListAllMyBucketsResult: rest } = await xmlOf<Listed>(second);
		expect(namesOf(rest)).toEqual([LOGS_BUCKET]);
		expect(second.headers.get("cf-is-truncated")).toBe("false");
	});

	it("takes prefix and start-after, from the cf-* headers too, which win over the query", async () => {
		const { ListAllMyBucketsResult: byPrefix } = await xmlOf<Listed>(await s3("/?prefix=edgezone-l"));
		expect(namesOf(byPrefix)).toEqual([LOGS_BUCKET]);
		const { ListAllMyBucketsResult: after } = await xmlOf<Listed>(
			await s3("/?start-after=zzz", { headers: { "cf-start-after": BUCKET } }),
		);
		expect(namesOf(after)).toEqual([LOGS_BUCKET]);
		const { ListAllMyBucketsResult: none } = await xmlOf<Listed>(
			await s3("/", { headers: { "cf-prefix": "nothing-" } }),
		);
		expect(namesOf(none)).toEqual([]);
	});

	it("refuses a max-keys that is not a number with InvalidMaxKeys", async () => {
		await expectS3Error(await s3("/?max-keys=many"), 400, "InvalidMaxKeys");
	});

	it("dates each bucket when the edge first saw it, as its ledger recorded, the same on every listing", async () => {
		type Dated = { ListAllMyBucketsResult: { Buckets: { Bucket: { Name: string; CreationDate: string }[] } } };
		const list = async () => (await xmlOf<Dated>(await s3("/"))).ListAllMyBucketsResult.Buckets.Bucket;
		const first = await list();
		expect(first.map((b) => b.Name)).toEqual([BUCKET, LOGS_BUCKET]);
		for (const { Name, CreationDate } of first) {
			expect(CreationDate, Name).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(Date.parse(CreationDate), Name).toBeGreaterThan(Date.parse("2020-01-01T00:00:00Z"));
			expect(Date.parse(CreationDate), Name).toBeLessThanOrEqual(Date.now());
		}
		// The date is the ledger's, kept in its storage: when its first migration ran.
		const ledger = env.BUCKET_LEDGERS.get(env.BUCKET_LEDGERS.idFromName("BUCKET"));
		const recorded = await runInDurableObject(ledger, (_, state) => {
			const [row] = state.storage.sql
				.exec<{ applied_at: string }>("SELECT applied_at FROM _migrations WHERE id = 1")
				.toArray();
			return row?.applied_at;
		});
		expect(first[0]?.CreationDate).toBe(recorded);
		expect(await list()).toEqual(first);
	});
});

// Creating a missing bucket: created-buckets.test.ts.
describe("R2's cf-create-bucket-if-missing", () => {
	it("changes nothing for a declared bucket", async () => {
		const k = "s3-buckets/created-if-missing.txt";
		const put = await s3(`/${BUCKET}/${k}`, {
			method: "PUT",
			body: "x",
			headers: { "cf-create-bucket-if-missing": "true" },
		});
		expect(put.status).toBe(200);
		expect(await (await bucket().get(k))?.text()).toBe("x");
		await bucket().delete(k);
	});
});

describe("bucket CORS", () => {
	// A bucket's own rules (PutBucketCors) are test/s3/bucket-cors.test.ts's.
	it("GetBucketCors of a bucket without rules answers the CORS the gateway applies from CORS_ORIGINS", async () => {
		const response = await s3(`/${BUCKET}?cors`);
		expect(response.status).toBe(200);
		const { CORSConfiguration: config } = await xmlOf<CorsXml>(response);
		expect(config["@_xmlns"]).toBe("http://s3.amazonaws.com/doc/2006-03-01/");
		expect(config.CORSRule.AllowedOrigin).toBe("*");
		expect(config.CORSRule.AllowedMethod).toEqual(expect.arrayContaining(["GET", "HEAD", "PUT", "POST", "DELETE"]));
		expect(config.CORSRule.AllowedHeader).toEqual(expect.arrayContaining(["authorization", "range", "x-amz-meta-*"]));
		expect(config.CORSRule.ExposeHeader).toEqual(expect.arrayContaining(["etag", "content-length"]));
		expect(config.CORSRule.MaxAgeSeconds).toBe("86400");
	});

	it("tells each configured origin, and what a preflight from one of them is answered agrees", async () => {
		const vars = { CORS_ORIGINS: "https://a.example, https://b.example" };
		const response = await s3WithVars(vars, `/${BUCKET}?cors`);
		expect(response.status).toBe(200);
		const { CORSConfiguration: config } = await xmlOf<CorsXml>(response);
		expect(config.CORSRule.AllowedOrigin).toEqual(["https://a.example", "https://b.example"]);
		const preflight = await worker.fetch(
			new Request(`${ORIGIN}/${BUCKET}/k`, {
				method: "OPTIONS",
				headers: { origin: "https://b.example", "access-control-request-method": "PUT" },
			}) as Request<unknown, IncomingRequestCfProperties>,
			{ ...env, ...vars },
			createExecutionContext(),
		);
		expect(preflight.headers.get("access-control-allow-origin")).toBe("https://b.example");
		expect(preflight.headers.get("access-control-max-age")).toBe(config.CORSRule.MaxAgeSeconds);
	});

	it("GetBucketCors answers NoSuchCORSConfiguration when CORS_ORIGINS allows no origin", async () => {
		await expectS3Error(await s3WithVars({ CORS_ORIGINS: "" }, `/${BUCKET}?cors`), 404, "NoSuchCORSConfiguration");
	});

	it("GetBucketCors needs an Admin permission; Put needs Admin Read & Write", async () => {
		const objectWriter = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		await expectS3Error(await s3(`/${BUCKET}?cors`, {}, objectWriter), 403, "AccessDenied");
		expect((await s3(`/${BUCKET}?cors`, {}, await clientOf(READ_TOKEN))).status).toBe(200);
		await expectS3Error(
			await s3(`/${BUCKET}?cors`, { method: "PUT", body: "<CORSConfiguration/>" }, await clientOf(READ_TOKEN)),
			403,
			"AccessDenied",
		);
	});

	it("GetBucketCors of an undeclared bucket is NoSuchBucket", async () => {
		await expectS3Error(await s3("/not-declared-here?cors"), 404, "NoSuchBucket");
	});
});
