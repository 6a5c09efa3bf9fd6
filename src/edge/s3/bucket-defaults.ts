/**
 * The bucket configurations R2 answers the same for every bucket, as a new AWS bucket answers
 * them, so that clients which read them before they write (Terraform's AWS provider, backup tools,
 * bucket browsers) work unchanged:
 * - GetBucketVersioning (no status: never enabled), GetBucketTagging (404 NoSuchTagSet),
 *   GetObjectLockConfiguration (404) and GetBucketReplication (404): R2 keeps none of these and
 *   answers "the response that a basic AWS S3 bucket will return when first created"
 *   (https://developers.cloudflare.com/r2/platform/changelog/, 2022-07-20);
 * - GetBucketEncryption: R2 encrypts every object at rest with AES-256, with no per-bucket setting
 *   (https://developers.cloudflare.com/r2/reference/data-security/; implemented on
 *   https://developers.cloudflare.com/r2/api/s3/api/);
 * - GetBucketAcl: the account owns the bucket, with full control (R2 has no ACLs to grant more;
 *   the owner as ListBuckets names it, `bucket-operations.ts`).
 * The answers' codes and messages are R2's, as Miniflare's S3 endpoint records them
 * (workers-sdk, packages/miniflare/src/workers/r2/s3/operations.worker.ts). Their Put and Delete
 * operations stay 501 NotImplemented (`operations.ts`): R2 does not implement them either, and a
 * setting accepted but never applied would be a lie.
 */
import type { S3Context } from "./context";
import { S3Error } from "./errors";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

/** `GET /<bucket>?versioning`: an empty VersioningConfiguration (versioning never enabled). */
export async function getBucketVersioning(_c: S3Context): Promise<Response> {
	return xmlAnswer("VersioningConfiguration", { "@_xmlns": S3_NAMESPACE });
}

/** `GET /<bucket>?encryption`: SSE with AES256 by default, R2's encryption at rest. */
export async function getBucketEncryption(_c: S3Context): Promise<Response> {
	return xmlAnswer("ServerSideEncryptionConfiguration", {
		"@_xmlns": S3_NAMESPACE,
		Rule: { ApplyServerSideEncryptionByDefault: { SSEAlgorithm: "AES256" }, BucketKeyEnabled: true },
	});
}

/** `GET /<bucket>?acl`: the account as owner, with the one grant of FULL_CONTROL to itself. */
export async function getBucketAcl(c: S3Context): Promise<Response> {
	const owner = { ID: c.env.DEFAULT_ACCOUNT_ID, DisplayName: c.env.DEFAULT_ACCOUNT_ID };
	return xmlAnswer("AccessControlPolicy", {
		"@_xmlns": S3_NAMESPACE,
		Owner: owner,
		AccessControlList: {
			Grant: {
				Grantee: {
					"@_xmlns:xsi": "http://www.w3.org/2001/XMLSchema-instance",
					"@_xsi:type": "CanonicalUser",
					...owner,
				},
				Permission: "FULL_CONTROL",
			},
		},
	});
}

/** `GET /<bucket>?tagging`: 404 NoSuchTagSet. */
export async function getBucketTagging(c: S3Context): Promise<Response> {
	throw new S3Error("NoSuchTagSet", undefined, { BucketName: c.bucket.name });
}

/** `GET /<bucket>?object-lock`: 404 ObjectLockConfigurationNotFoundError. */
export async function getObjectLockConfiguration(c: S3Context): Promise<Response> {
	throw new S3Error("ObjectLockConfigurationNotFoundError", undefined, { BucketName: c.bucket.name });
}

/** `GET /<bucket>?replication`: 404 ReplicationConfigurationNotFoundError. */
export async function getBucketReplication(c: S3Context): Promise<Response> {
	throw new S3Error("ReplicationConfigurationNotFoundError", undefined, { BucketName: c.bucket.name });
}
