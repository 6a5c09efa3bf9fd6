/**
 * `/accounts/{account_id}/r2/buckets`: R2's buckets API
 * (https://developers.cloudflare.com/api/resources/r2/subresources/buckets/; SDK
 * `client.r2.buckets.*`; what `wrangler r2 bucket create/list/info/delete/update storage-class`
 * calls). The buckets are edgezone's one list (src/runtime-buckets/catalog.ts): those declared in
 * wrangler.toml and those created at run time, here or through S3.
 *
 * - `POST` `{name, locationHint?, storageClass?}` creates a bucket (src/runtime-buckets/manage.ts):
 *   400 10005 for a name R2 would not take, 409 10073 for one that exists, 400 10009 past 1,000.
 * - `GET` lists, in name order (`direction=desc` reversed), filtered by `name_contains`, from
 *   after `start_after`, `per_page` at a time (default 20, at most 1000), `result_info.cursor`
 *   (the base64url of the page's last name) resuming; `result` is `{buckets: [...]}`.
 * - `GET /{bucket_name}` one bucket, 404 10006 for none.
 * - `DELETE /{bucket_name}`: 409 10008 while it holds an object; a declared bucket is 409 9409
 *   (edgezone's code: wrangler.toml declares it).
 * - `PATCH /{bucket_name}` with `cf-r2-storage-class`: a created bucket's default storage class.
 *
 * A bucket answers `{name, creation_date, location?, storage_class, jurisdiction}`; `location` is
 * the hint it was created with (none for a declared bucket), `jurisdiction` always `default`:
 * edgezone has no jurisdictions, and `cf-r2-jurisdiction` is not read. Permissions: reads as S3's
 * ListBuckets (`readsBuckets`), writes as CreateBucket (`managesBuckets`), and the account is
 * the deployment's (`DEFAULT_ACCOUNT_ID`; another is 403 10000), reached by a credential of every
 * zone, since the buckets are the account's.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { fromBase64Url, toBase64Url } from "../common/encoding";
import {
	allBuckets,
	type BucketInfo,
	bucketInfo,
	type CatalogBucket,
	infoOf,
	lookupBucket,
} from "../runtime-buckets/catalog";
import { createBucket, deleteBucket, noSuchBucket, setStorageClass } from "../runtime-buckets/manage";
import { BUCKET_CODES, BUCKET_STORAGE_CLASSES, LOCATION_HINTS } from "../runtime-buckets/names";
import { ok } from "./envelope";
import { ApiError, forbidden, fromFailures, unwrap } from "./errors";
import { managesBuckets, readsBuckets } from "./permissions";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam, parseQuery } from "./validate";

/** The code of a bad body or query of these routes: R2's InvalidBucketName's, its closest. */
const INVALID = BUCKET_CODES.invalidName;

const CREATE = z.object({
	name: z.string().max(64),
	locationHint: z
		.string()
		.transform((hint) => hint.toLowerCase())
		.pipe(z.enum(LOCATION_HINTS))
		.optional(),
	storageClass: z.enum(BUCKET_STORAGE_CLASSES).optional(),
});

const LIST = z.object({
	name_contains: z.string().max(64).optional(),
	start_after: z.string().max(64).optional(),
	per_page: z.coerce.number().int().min(1).max(1000).default(20),
	order: z.literal("name").optional(),
	direction: z.enum(["asc", "desc"]).default("asc"),
	cursor: z.string().max(128).optional(),
});

/** R2's `Bucket`. */
function bucketJson(bucket: BucketInfo) {
	return {
		name: bucket.name,
		creation_date: bucket.creationDate,
		...(bucket.location === null ? {} : { location: bucket.location }),
		storage_class: bucket.storageClass,
		jurisdiction: "default",
	};
}

/** Checks the path's account: the deployment's, reached by a credential of every zone. @throws 403 10000. */
function checkAccount(c: Context<ApiEnv>): void {
	const accountId = parseParam(c, "account_id", HEX_ID);
	if (accountId !== c.env.DEFAULT_ACCOUNT_ID || c.var.caller.zones !== "*") throw forbidden();
}

/** A jurisdiction R2 may be asked for (`cf-r2-jurisdiction`); edgezone's buckets are all in `default`. */
const JURISDICTION_HEADER = "cf-r2-jurisdiction";

/**
 * The bucket the path's `bucket_name` names, declared or created, after checking the path's account
 * (the one lookup of the routes under a bucket: its CORS, lifecycle, objects, public access).
 * A bucket asked in another jurisdiction than `default` is none
 * (https://developers.cloudflare.com/r2/reference/data-location/#jurisdictional-restrictions).
 * @throws ApiError 403 10000 (`checkAccount`), 404 10006 "The specified bucket does not exist."
 * for none (R2's answer, pulumi/pulumi-cloudflare#1174).
 */
export async function bucketOfPath(c: Context<ApiEnv>): Promise<CatalogBucket> {
	checkAccount(c);
	const name = c.req.param("bucket_name") ?? "";
	const jurisdiction = c.req.header(JURISDICTION_HEADER) ?? "default";
	const found = jurisdiction === "default" ? await lookupBucket(c.env, name) : undefined;
	if (found === undefined) throw fromFailures(noSuchBucket().failures);
	return found;
}

/**
 * The bucket `name` as the API tells it (the one lookup of the routes under a bucket).
 * @throws ApiError 404 10006 for none.
 */
async function requireBucket(env: Env, name: string): Promise<BucketInfo> {
	const found = await bucketInfo(env, name);
	if (found === undefined) throw fromFailures(noSuchBucket().failures);
	return found;
}

/** The name a list cursor resumes after. @throws 400 for a cursor not given here. */
function cursorName(cursor: string): string {
	const bytes = fromBase64Url(cursor);
	if (bytes === undefined) throw new ApiError(400, [{ code: INVALID, message: "The cursor is not valid." }]);
	return new TextDecoder().decode(bytes);
}

/** Routes under `/accounts/{account_id}/r2/buckets`. */
export const r2Buckets = new Hono<ApiEnv>()
	.post("/", managesBuckets, async (c) => {
		checkAccount(c);
		const body = await parseBody(c, CREATE, INVALID);
		const created = unwrap(
			await createBucket(c.env, {
				name: body.name,
				location: body.locationHint ?? null,
				storageClass: body.storageClass ?? "Standard",
			}),
		);
		return ok(bucketJson(infoOf(created)));
	})
	.get("/", readsBuckets, async (c) => {
		checkAccount(c);
		const query = parseQuery(c, LIST, INVALID);
		const descending = query.direction === "desc";
		const after = query.cursor === undefined ? query.start_after : cursorName(query.cursor);
		const all = await allBuckets(c.env);
		const ordered = descending ? all.reverse() : all;
		const matching = ordered.filter(
			(bucket) =>
				(query.name_contains === undefined || bucket.name.includes(query.name_contains)) &&
				(after === undefined || (descending ? bucket.name < after : bucket.name > after)),
		);
		const page = matching.slice(0, query.per_page);
		const last = page.at(-1)?.name;
		const more = matching.length > page.length && last !== undefined;
		return ok(
			{ buckets: page.map(bucketJson) },
			{
				count: page.length,
				per_page: query.per_page,
				...(more ? { cursor: toBase64Url(new TextEncoder().encode(last)) } : {}),
			},
		);
	})
	.get("/:bucket_name", readsBuckets, async (c) => {
		checkAccount(c);
		return ok(bucketJson(await requireBucket(c.env, c.req.param("bucket_name"))));
	})
	.delete("/:bucket_name", managesBuckets, async (c) => {
		checkAccount(c);
		unwrap(await deleteBucket(c.env, c.req.param("bucket_name")));
		return ok({});
	})
	.patch("/:bucket_name", managesBuckets, async (c) => {
		checkAccount(c);
		const storageClass = z.enum(BUCKET_STORAGE_CLASSES).safeParse(c.req.header("cf-r2-storage-class"));
		if (!storageClass.success) {
			const message = `cf-r2-storage-class must be one of ${BUCKET_STORAGE_CLASSES.join(", ")}`;
			throw new ApiError(400, [{ code: INVALID, message }]);
		}
		const updated = unwrap(await setStorageClass(c.env, c.req.param("bucket_name"), storageClass.data));
		return ok(bucketJson(infoOf(updated)));
	});
