/**
 * The R2 buckets of the account, as the API's bucket routes find them: the buckets the Worker
 * serves (`R2_BUCKETS`, `src/edge/s3/buckets.ts`), all of the deployment's one account
 * (`DEFAULT_ACCOUNT_ID`).
 */
import type { Context } from "hono";
import { servedBuckets } from "../edge/s3/buckets";
import { CODES } from "../zone/failure";
import { ApiError, forbidden } from "./errors";
import type { ApiEnv } from "./types";
import { HEX_ID, parseParam } from "./validate";

/** A jurisdiction R2 may be asked for (`cf-r2-jurisdiction`); edgezone's buckets are all in `default`. */
const JURISDICTION_HEADER = "cf-r2-jurisdiction";

/**
 * The account and bucket of an `/accounts/{account_id}/r2/buckets/{bucket_name}/...` path:
 * 403 10000 for another account, or a credential of listed zones (the buckets are the whole
 * account's); 404 10006 "The specified bucket does not exist." (R2's answer, pulumi/pulumi-cloudflare#1174)
 * for a bucket the Worker does not serve, or one asked in another jurisdiction than `default`
 * (https://developers.cloudflare.com/r2/reference/data-location/#jurisdictional-restrictions).
 */
export function accountBucket(c: Context<ApiEnv>): { accountId: string; bucket: string } {
	const accountId = parseParam(c, "account_id", HEX_ID);
	if (accountId !== c.env.DEFAULT_ACCOUNT_ID || c.var.caller.zones !== "*") throw forbidden();
	const bucket = c.req.param("bucket_name") ?? "";
	const jurisdiction = c.req.header(JURISDICTION_HEADER) ?? "default";
	if (jurisdiction !== "default" || !servedBuckets(c.env).some((served) => served.name === bucket)) {
		throw new ApiError(404, [{ code: CODES.r2BucketNotFound, message: "The specified bucket does not exist." }]);
	}
	return { accountId, bucket };
}
