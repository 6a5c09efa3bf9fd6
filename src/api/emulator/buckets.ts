/**
 * `/zones/{zone_id}/emulator/buckets/{bucket_name}/lifecycle`: applies a bucket's object
 * lifecycle rules now, as at the moment asked (not Cloudflare's API; README "Emulator-only
 * routes"). R2 applies them within a day of an object being due; this shows a rule of 30 days
 * act without waiting 30 days (src/edge/s3/lifecycle/).
 *
 * - `POST {"at": "2030-01-01T00:00:00Z"}` (or no body: now) deletes the objects due by `at` and
 *   aborts the multipart uploads due by then, and answers `{bucket, at, objects_expired,
 *   uploads_aborted}`. An object's age is its upload time, as the binding keeps it; the zone's
 *   clock plays no part (a bucket is not a zone's).
 * Permission (`managesBuckets`): what changing the bucket's lifecycle rules over S3 needs, by the
 * same check (src/common/s3-keys.ts `grantsAccess`): Workers R2 Storage Edit (R2's Admin Read &
 * Write, developers.cloudflare.com/r2/api/tokens/), and a credential of the whole account: the
 * sweep acts on every zone's objects in a bucket they share, so a credential of listed zones is
 * refused 403 10000, whichever zone the path names. Errors: a bad body is 400 9400, a bucket
 * neither declared in wrangler.toml nor created 404 9404.
 */
import { Hono } from "hono";
import { z } from "zod";
import { bucketLedger } from "../../bucket/bucket-ledger";
import { lookupBucket } from "../../runtime-buckets/catalog";
import { CODES } from "../../zone/failure";
import { ok } from "../envelope";
import { ApiError } from "../errors";
import { managesBuckets } from "../permissions";
import type { ApiEnv } from "../types";
import { parseBody } from "../validate";
import { MOMENT } from "./clock";

const SWEEP = z.strictObject({ at: MOMENT.optional() });

/** Routes under `/zones/{zone_id}/emulator/buckets`. */
export const emulatorBuckets = new Hono<ApiEnv>().post("/:bucket_name/lifecycle", managesBuckets, async (c) => {
	const { at } = await parseBody(c, SWEEP, CODES.emulatorInvalid, { whenEmpty: {} });
	const name = c.req.param("bucket_name");
	const bucket = await lookupBucket(c.env, name);
	if (bucket === undefined) {
		const message = `bucket "${name}" is neither declared in wrangler.toml (R2_BUCKETS) nor created`;
		throw new ApiError(404, [{ code: CODES.emulatorNotFound, message }]);
	}
	const sweep = await bucketLedger(c.env, bucket.binding).applyLifecycle(bucket.binding, (at ?? new Date()).getTime());
	return ok({
		bucket: name,
		at: new Date(sweep.at).toISOString(),
		objects_expired: sweep.objectsExpired,
		uploads_aborted: sweep.uploadsAborted,
	});
});
