/**
 * The bucket configurations R2 answers the same for every bucket, as a new AWS bucket answers
 * them (versioning, encryption, ACL, tagging, object lock, replication), their Put and Delete
 * refused as R2 refuses them, and the query parameters that name no sub-resource for a method.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { SCOPED_TOKEN, SCOPED_TOKEN_ID } from "../api/credentials";
import { BUCKET, clientOf, expectS3Error, s3, textOf, xmlOf } from "./helpers";

const S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";

describe("bucket configurations R2 answers the same for every bucket", () => {
	it("GetBucketVersioning: an empty configuration, versioning never enabled", async () => {
		const response = await s3(`/${BUCKET}?versioning`);
		expect(response.status).toBe(200);
		const { VersioningConfiguration: config } = await xmlOf<{ VersioningConfiguration: Record<string, string> }>(
			response,
		);
		expect(config).toEqual({ "@_xmlns": S3_NAMESPACE });
	});

	it("GetBucketEncryption: AES256 at rest", async () => {
		const response = await s3(`/${BUCKET}?encryption`);
		expect(response.status).toBe(200);
		const { ServerSideEncryptionConfiguration: config } = await xmlOf<{
			ServerSideEncryptionConfiguration: {
				Rule: { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: string }; BucketKeyEnabled: string };
			};
		}>(response);
		expect(config.Rule.ApplyServerSideEncryptionByDefault.SSEAlgorithm).toBe("AES256");
		expect(config.Rule.BucketKeyEnabled).toBe("true");
	});

	it("GetBucketAcl: the account owns the bucket, with full control and no other grant", async () => {
		const response = await s3(`/${BUCKET}?acl`);
		expect(response.status).toBe(200);
		const { AccessControlPolicy: policy } = await xmlOf<{
			AccessControlPolicy: {
				Owner: { ID: string };
				AccessControlList: { Grant: { Grantee: Record<string, string>; Permission: string } };
			};
		}>(response);
		expect(policy.Owner.ID).toBe(env.DEFAULT_ACCOUNT_ID);
		expect(policy.AccessControlList.Grant.Permission).toBe("FULL_CONTROL");
		expect(policy.AccessControlList.Grant.Grantee).toMatchObject({
			"@_xsi:type": "CanonicalUser",
			ID: env.DEFAULT_ACCOUNT_ID,
		});
	});

	it("GetBucketTagging, GetObjectLockConfiguration and GetBucketReplication: 404, none configured", async () => {
		const cases: [string, string][] = [
			["tagging", "NoSuchTagSet"],
			["object-lock", "ObjectLockConfigurationNotFoundError"],
			["replication", "ReplicationConfigurationNotFoundError"],
		];
		for (const [sub, code] of cases) {
			const error = await expectS3Error(await s3(`/${BUCKET}?${sub}`), 404, code);
			expect(error?.BucketName).toBe(BUCKET);
		}
	});

	it("refuses their Put and Delete with NotImplemented naming each, as R2 does", async () => {
		const cases: [string, string, string][] = [
			["PUT", "versioning", "PutBucketVersioning"],
			["PUT", "encryption", "PutBucketEncryption"],
			["PUT", "tagging", "PutBucketTagging"],
			["DELETE", "tagging", "DeleteBucketTagging"],
			["DELETE", "encryption", "DeleteBucketEncryption"],
		];
		for (const [method, sub, name] of cases) {
			const error = await expectS3Error(
				await s3(`/${BUCKET}?${sub}`, { method, body: method === "PUT" ? "<x/>" : undefined }),
				501,
				"NotImplemented",
			);
			expect(error?.Message).toContain(name);
		}
		const { VersioningConfiguration: config } = await xmlOf<{ VersioningConfiguration: Record<string, string> }>(
			await s3(`/${BUCKET}?versioning`),
		);
		expect(config.Status).toBeUndefined();
	});

	it("needs an Admin permission to read them, as every bucket configuration does", async () => {
		const objectWriter = await clientOf(SCOPED_TOKEN, { id: SCOPED_TOKEN_ID });
		for (const sub of ["versioning", "encryption", "acl", "tagging"]) {
			await expectS3Error(await s3(`/${BUCKET}?${sub}`, {}, objectWriter), 403, "AccessDenied");
		}
	});

	it("answers NoSuchBucket for a bucket wrangler.toml does not declare", async () => {
		await expectS3Error(await s3("/not-declared-here?versioning"), 404, "NoSuchBucket");
	});
});

describe("query parameters that name no sub-resource for the method", () => {
	it("a HEAD of a bucket is HeadBucket whatever its query", async () => {
		const response = await s3(`/${BUCKET}?website`, { method: "HEAD" });
		expect(response.status).toBe(200);
		expect(response.headers.get("x-amz-bucket-region")).toBe("auto");
	});

	it("a HEAD or a GET of an object is HeadObject or GetObject when the sub-resource is not that method's", async () => {
		const k = "s3-bucket-defaults/plain.txt";
		await env.BUCKET.put(k, "plain");
		expect((await s3(`/${BUCKET}/${k}?tagging`, { method: "HEAD" })).status).toBe(200);
		const read = await s3(`/${BUCKET}/${k}?restore`);
		expect(read.status).toBe(200);
		expect(await textOf(read)).toBe("plain");
		await env.BUCKET.delete(k);
	});

	it("DeleteObjectTagging is refused, and the object stays (R2 would delete the object)", async () => {
		const k = "s3-bucket-defaults/tagged.txt";
		await env.BUCKET.put(k, "stays");
		const error = await expectS3Error(await s3(`/${BUCKET}/${k}?tagging`, { method: "DELETE" }), 501, "NotImplemented");
		expect(error?.Message).toContain("DeleteObjectTagging");
		expect(await (await env.BUCKET.get(k))?.text()).toBe("stays");
		await env.BUCKET.delete(k);
	});

	it("a PUT or DELETE of a bucket with a parameter naming no sub-resource is refused, as R2 refuses it", async () => {
		const error = await expectS3Error(
			await s3(`/${BUCKET}?color=blue&size=1`, { method: "PUT" }),
			400,
			"InvalidArgument",
		);
		expect(error?.Message).toBe('Unsupported search param(s) "color", "size" on a PUT bucket route');
		await expectS3Error(await s3(`/${BUCKET}?color`, { method: "DELETE" }), 400, "InvalidArgument");
		expect((await s3(`/${BUCKET}`, { method: "HEAD" })).status).toBe(200);
	});

	it("names of Object.prototype are no sub-resource", async () => {
		await expectS3Error(await s3(`/${BUCKET}/s3-bucket-defaults/none?toString&constructor`), 404, "NoSuchKey");
		// A list names the parameter it does not take, as R2 does, not a sub-resource.
		const error = await expectS3Error(await s3(`/${BUCKET}?toString`), 501, "NotImplemented");
		expect(error?.Message).toBe("ListObjects with toString is not implemented by this endpoint.");
	});
});
