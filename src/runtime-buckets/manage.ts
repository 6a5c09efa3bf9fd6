/**
 * Creating and deleting buckets at run time, the same for every dialect (S3's CreateBucket and
 * DeleteBucket, the R2 buckets API and so wrangler): each answers a `Result` whose failures carry
 * R2's codes (`names.ts`), which the dialect turns into its own error.
 *
 * Deleting: a declared bucket cannot be deleted (a binding is fixed in wrangler.toml when the
 * Worker starts), and a created one only when empty, as R2 (409 BucketNotEmpty, 10008). Its row
 * goes first, so no request finds it any more; then its ledger is dropped whole (multipart
 * uploads, lifecycle and CORS rules, SSE-C and storage-class records: `BucketLedger.dropBucket`),
 * the uploads still open are aborted on the binding, and whatever a write racing the deletion
 * left in its namespace is removed.
 */

import { bucketLedger } from "../bucket/bucket-ledger";
import { zoneRegistry } from "../common/durable-objects";
import { forgetPublicHosts } from "../edge/r2-domain/hosts";
import { servedBucketNames } from "../edge/s3/buckets";
import type { Failure, Result } from "../zone/failure";
import { type CatalogBucket, lookupBucket, namesChanged } from "./catalog";
import { BUCKET_CODES, type BucketStorageClass, createdNameProblem } from "./names";
import type { BucketCreate, CreatedBucket } from "./store";

/** How many pages of leftover objects a deletion removes at most (1,000 keys a page). */
const MAX_LEFTOVER_PAGES = 10;

const failed = (kind: Failure["kind"], code: number, message: string): { ok: false; failures: Failure[] } => ({
	ok: false,
	failures: [{ kind, code, message }],
});

/**
 * The failure of a bucket that is neither declared nor created, in R2's words (as a client met
 * them: github.com/pulumi/pulumi-cloudflare/issues/1174); the name is in the request's path.
 */
export const noSuchBucket = () =>
	failed("not_found", BUCKET_CODES.noSuchBucket, "The specified bucket does not exist.");

/**
 * Creates the bucket `input.name`.
 * Fails 400 10005 for a name R2 would not take, 409 10073 for one declared or created already,
 * 400 10009 past the count cap.
 */
export async function createBucket(env: Env, input: BucketCreate): Promise<Result<CreatedBucket>> {
	const problem = createdNameProblem(input.name);
	if (problem !== undefined) return failed("invalid", BUCKET_CODES.invalidName, problem);
	const result = await zoneRegistry(env).createBucket(input, servedBucketNames(env));
	if (result.ok) namesChanged();
	return result;
}

/**
 * Deletes the bucket `name` (module comment).
 * Fails 404 10006 for none, 409 10008 for one holding an object, 409 9409 for a declared one.
 */
export async function deleteBucket(env: Env, name: string): Promise<Result<CatalogBucket>> {
	const found = await lookupBucket(env, name);
	if (found === undefined) return noSuchBucket();
	const listed = await found.bucket.list({ limit: 1 });
	if (listed.objects.length > 0) {
		return failed("conflict", BUCKET_CODES.notEmpty, "The bucket you tried to delete is not empty.");
	}
	if (found.created === undefined) {
		return failed(
			"conflict",
			BUCKET_CODES.declared,
			`${name} is declared in wrangler.toml ([[r2_buckets]] and R2_BUCKETS), as a binding fixed when the Worker starts: remove it there to stop serving it.`,
		);
	}
	const { id } = found.created;
	if (!(await zoneRegistry(env).forgetBucket(name, id))) return noSuchBucket();
	namesChanged();
	// Its custom domains and r2.dev URL went with it: this isolate's edge stops serving them now.
	forgetPublicHosts();
	const open = await bucketLedger(env, found.binding).dropBucket();
	await Promise.all(
		open.map((upload) =>
			found.bucket
				.resumeMultipartUpload(upload.key, upload.uploadId)
				.abort()
				.catch(() => undefined),
		),
	);
	await removeLeftovers(env.RUNTIME_BUCKETS, `${id}/`);
	return { ok: true, value: found };
}

/** Deletes what is left under `prefix` of `backing`: objects a write racing a deletion put there. */
async function removeLeftovers(backing: R2Bucket, prefix: string): Promise<void> {
	for (let page = 0; page < MAX_LEFTOVER_PAGES; page++) {
		const listed = await backing.list({ prefix, limit: 1000 });
		if (listed.objects.length === 0) return;
		await backing.delete(listed.objects.map((object) => object.key));
	}
}

/**
 * Sets a created bucket's default storage class.
 * Fails 404 10006 for none, 409 9409 for a declared bucket (whose class is its binding's).
 */
export async function setStorageClass(
	env: Env,
	name: string,
	storageClass: BucketStorageClass,
): Promise<Result<CreatedBucket>> {
	if (servedBucketNames(env).includes(name)) {
		return failed(
			"conflict",
			BUCKET_CODES.declared,
			`${name} is declared in wrangler.toml: its settings are its binding's, fixed when the Worker starts.`,
		);
	}
	const updated = await zoneRegistry(env).setBucketStorageClass(name, storageClass);
	return updated === null ? noSuchBucket() : { ok: true, value: updated };
}
