/**
 * The R2 REST API's bucket CORS, lifecycle and objects (src/api/r2-bucket-settings.ts,
 * r2-bucket-objects.ts), the routes wrangler calls: one store with the S3 dialect's, so what one
 * puts the other reads, and the same rules refused.
 */
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { s3, textOf } from "../s3/helpers";
import { R2_ADMIN_READ_TOKEN, TOKEN } from "./credentials";
import { call } from "./http";
import { sdkClient } from "./sdk";

const account_id = "01a7362d577a6c3019a474fd6f485823";
const buckets = `/accounts/${account_id}/r2/buckets`;

/** A bucket created through the API. */
async function freshBucket(): Promise<string> {
	const name = `settings-${crypto.randomUUID().slice(0, 8)}`;
	await sdkClient().r2.buckets.create({ account_id, name });
	return name;
}

describe("bucket CORS through the R2 API", () => {
	it("puts rules S3's GetBucketCors answers, lists rules S3's PutBucketCors put, and deletes them", async () => {
		const name = await freshBucket();
		const rule = {
			allowed: { origins: ["https://app.example"], methods: ["GET", "PUT"], headers: ["content-type"] },
			exposeHeaders: ["etag"],
			maxAgeSeconds: 600,
		};
		expect((await call("PUT", `${buckets}/${name}/cors`, { rules: [rule] })).status).toBe(200);
		const viaS3 = await textOf(await s3(`/${name}?cors`));
		expect(viaS3).toContain("<AllowedOrigin>https://app.example</AllowedOrigin>");
		expect(viaS3).toContain("<MaxAgeSeconds>600</MaxAgeSeconds>");
		const listed = await sdkClient().r2.buckets.cors.get(name, { account_id });
		expect(listed.rules).toEqual([rule]);
		const xml =
			"<CORSConfiguration><CORSRule><AllowedOrigin>https://other.example</AllowedOrigin><AllowedMethod>HEAD</AllowedMethod></CORSRule></CORSConfiguration>";
		expect((await s3(`/${name}?cors`, { method: "PUT", body: xml })).status).toBe(200);
		const after = await call("GET", `${buckets}/${name}/cors`);
		expect(after.body.result).toEqual({
			rules: [{ allowed: { origins: ["https://other.example"], methods: ["HEAD"], headers: [] }, exposeHeaders: [] }],
		});
		expect((await call("DELETE", `${buckets}/${name}/cors`)).status).toBe(200);
		expect((await call("GET", `${buckets}/${name}/cors`)).body.result).toEqual({ rules: [] });
	});

	it("refuses what S3 refuses (a method S3 does not take, two wildcards) with 400 10040, keeping the rules", async () => {
		const name = await freshBucket();
		const good = { allowed: { origins: ["*"], methods: ["GET"] } };
		await call("PUT", `${buckets}/${name}/cors`, { rules: [good] });
		const patch = await call("PUT", `${buckets}/${name}/cors`, {
			rules: [{ allowed: { origins: ["*"], methods: ["PATCH"] } }],
		});
		expect(patch.status).toBe(400);
		expect(patch.body.errors?.[0]?.code).toBe(10040);
		const wild = await call("PUT", `${buckets}/${name}/cors`, {
			rules: [{ allowed: { origins: ["https://*.a.*.example"], methods: ["GET"] } }],
		});
		expect(wild.status).toBe(400);
		expect(((await call("GET", `${buckets}/${name}/cors`)).body.result as { rules: unknown[] }).rules).toHaveLength(1);
	});

	it("answers 404 10006 for a bucket that does not exist, and needs Workers R2 Storage Edit to write", async () => {
		expect((await call("GET", `${buckets}/no-such-bucket-here/cors`)).body.errors?.[0]?.code).toBe(10006);
		const name = await freshBucket();
		const refused = await call(
			"PUT",
			`${buckets}/${name}/cors`,
			{ rules: [] },
			{
				Authorization: `Bearer ${R2_ADMIN_READ_TOKEN}`,
				"Content-Type": "application/json",
			},
		);
		expect(refused.status).toBe(403);
	});
});

describe("bucket lifecycle through the R2 API", () => {
	it("starts with R2's default rule, puts rules S3 reads, in seconds of whole days, and removes them all", async () => {
		const name = await freshBucket();
		const initial = await sdkClient().r2.buckets.lifecycle.get(name, { account_id });
		expect(initial.rules).toEqual([
			{
				id: "Default Multipart Abort Rule",
				enabled: true,
				conditions: { prefix: "" },
				abortMultipartUploadsTransition: { condition: { type: "Age", maxAge: 7 * 86_400 } },
			},
		]);
		const rule = {
			id: "expire-logs",
			enabled: true,
			conditions: { prefix: "logs/" },
			deleteObjectsTransition: { condition: { type: "Age", maxAge: 30 * 86_400 } },
		};
		expect((await call("PUT", `${buckets}/${name}/lifecycle`, { rules: [rule] })).status).toBe(200);
		const viaS3 = await textOf(await s3(`/${name}?lifecycle`));
		expect(viaS3).toContain("<ID>expire-logs</ID>");
		expect(viaS3).toContain("<Days>30</Days>");
		expect((await call("GET", `${buckets}/${name}/lifecycle`)).body.result).toEqual({ rules: [rule] });
		expect((await call("PUT", `${buckets}/${name}/lifecycle`, { rules: [] })).status).toBe(200);
		expect((await call("GET", `${buckets}/${name}/lifecycle`)).body.result).toEqual({ rules: [] });
	});

	it("refuses an age that is no whole day and a storage class transition with 400 10040", async () => {
		const name = await freshBucket();
		const hours = await call("PUT", `${buckets}/${name}/lifecycle`, {
			rules: [
				{
					id: "r",
					enabled: true,
					conditions: { prefix: "" },
					deleteObjectsTransition: { condition: { type: "Age", maxAge: 3600 } },
				},
			],
		});
		expect(hours.status).toBe(400);
		expect(hours.body.errors?.[0]?.code).toBe(10040);
		const transition = await call("PUT", `${buckets}/${name}/lifecycle`, {
			rules: [
				{
					id: "r",
					enabled: true,
					conditions: { prefix: "" },
					storageClassTransitions: [{ condition: { type: "Age", maxAge: 86_400 }, storageClass: "InfrequentAccess" }],
				},
			],
		});
		expect(transition.status).toBe(400);
	});
});

describe("objects through the R2 API", () => {
	it("puts, gets and deletes an object S3 sees, with its metadata; a missing key is 404 10007", async () => {
		const name = await freshBucket();
		const url = `http://localhost/client/v4${buckets}/${name}/objects/dir/file.txt`;
		const auth = { Authorization: `Bearer ${TOKEN}` };
		const put = await exports.default.fetch(url, {
			method: "PUT",
			body: "hello",
			headers: { ...auth, "content-type": "text/plain", "cf-r2-storage-class": "InfrequentAccess" },
		});
		expect(put.status).toBe(200);
		expect(((await put.json()) as { result: { key: string; size: number } }).result).toMatchObject({
			key: "dir/file.txt",
			size: 5,
		});
		const viaS3 = await s3(`/${name}/dir/file.txt`);
		expect(viaS3.headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
		expect(await textOf(viaS3)).toBe("hello");
		const got = await exports.default.fetch(url, { headers: auth });
		expect(got.headers.get("content-type")).toBe("text/plain");
		expect(await got.text()).toBe("hello");
		const deleted = await exports.default.fetch(url, { method: "DELETE", headers: auth });
		expect(deleted.status).toBe(200);
		expect(await deleted.text()).not.toBe("");
		const missing = await exports.default.fetch(url, { headers: auth });
		expect(missing.status).toBe(404);
		expect(((await missing.json()) as { errors: { code: number }[] }).errors[0]?.code).toBe(10007);
	});
});
