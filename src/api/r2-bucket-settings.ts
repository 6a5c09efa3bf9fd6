/**
 * A bucket's CORS and object lifecycle rules through R2's REST API, as `wrangler r2 bucket cors
 * set/list/delete` and `wrangler r2 bucket lifecycle add/list/remove/set` call them
 * (https://developers.cloudflare.com/api/resources/r2/subresources/buckets/subresources/cors/,
 * .../subresources/lifecycle/; SDK `client.r2.buckets.cors.*`, `.lifecycle.*`):
 * - `GET|PUT|DELETE /accounts/{account_id}/r2/buckets/{bucket_name}/cors`, `{rules: [{allowed:
 *   {origins, methods, headers?}, id?, exposeHeaders?, maxAgeSeconds?}]}`;
 * - `GET|PUT /accounts/{account_id}/r2/buckets/{bucket_name}/lifecycle`, `{rules: [{id, enabled,
 *   conditions: {prefix}, deleteObjectsTransition?: {condition: {type: "Age", maxAge} | {type:
 *   "Date", date}}, abortMultipartUploadsTransition?: {condition: {type: "Age", maxAge}}}]}`,
 *   ages in seconds, whole days (S3's rules count days).
 *
 * One source of truth with the S3 dialect: the rules are the ones PutBucketCors and
 * PutBucketLifecycleConfiguration store, in the bucket's ledger, and a configuration put here is
 * checked by the very parser S3's document goes through (turned into that document first), so
 * both refuse the same rules. A PUT with no rule removes them all; a refused one changes nothing
 * (400 10040, edgezone's code). Storage class transitions are refused, as through S3. GET of CORS
 * answers the stored rules only (none: the gateway's default `CORS_ORIGINS` applies, which S3's
 * GetBucketCors shows as a rule). Permissions: what the S3 operations configuring a bucket ask
 * (`managesBuckets`; reading: `readsBucketConfig`).
 */
import { Hono } from "hono";
import { z } from "zod";
import { ledgerOf } from "../bucket/bucket-ledger";
import { setCorsRules, storedCorsRules } from "../edge/s3/cors/cached-rules";
import { type CorsRule, corsDocument, parseCors } from "../edge/s3/cors/rules";
import { S3Error } from "../edge/s3/errors";
import { setLifecycleRules } from "../edge/s3/lifecycle/cached-rules";
import { type LifecycleRule, lifecycleDocument, parseLifecycle } from "../edge/s3/lifecycle/rules";
import { xmlDocument } from "../edge/s3/xml";
import { BUCKET_CODES } from "../runtime-buckets/names";
import { ok } from "./envelope";
import { ApiError } from "./errors";
import { managesBuckets, readsBucketConfig } from "./permissions";
import { bucketOfPath } from "./r2-buckets";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

const DAY_SECONDS = 86_400;

const CODE = BUCKET_CODES.invalidConfiguration;

const CORS = z.object({
	rules: z
		.array(
			z.object({
				id: z.string().optional(),
				allowed: z.object({
					origins: z.array(z.string()),
					methods: z.array(z.string()),
					headers: z.array(z.string()).optional(),
				}),
				exposeHeaders: z.array(z.string()).optional(),
				maxAgeSeconds: z.number().int().min(0).optional(),
			}),
		)
		.default([]),
});

const AGE = z.object({ type: z.literal("Age"), maxAge: z.number().int().min(0) });
const DATE = z.object({ type: z.literal("Date"), date: z.string() });

const LIFECYCLE = z.object({
	rules: z
		.array(
			z.object({
				id: z.string(),
				enabled: z.boolean(),
				conditions: z.object({ prefix: z.string() }).default({ prefix: "" }),
				deleteObjectsTransition: z.object({ condition: z.union([AGE, DATE]).optional() }).optional(),
				abortMultipartUploadsTransition: z.object({ condition: AGE.optional() }).optional(),
				storageClassTransitions: z.array(z.unknown()).optional(),
			}),
		)
		.default([]),
});

/** 400 10040 with `message`. */
const refused = (message: string) => new ApiError(400, [{ code: CODE, message }]);

/** Runs S3's parser over `document`: the same rules as S3. @throws 400 10040 with S3's message. */
function checkedAsS3<T>(parse: () => T): T {
	try {
		return parse();
	} catch (error) {
		if (error instanceof S3Error) throw refused(error.message);
		throw error;
	}
}

/** R2's JSON of a CORS rule. */
const corsJson = (rule: CorsRule) => ({
	...(rule.id === undefined ? {} : { id: rule.id }),
	allowed: { origins: rule.allowedOrigins, methods: rule.allowedMethods, headers: rule.allowedHeaders },
	exposeHeaders: rule.exposeHeaders,
	...(rule.maxAgeSeconds === undefined ? {} : { maxAgeSeconds: rule.maxAgeSeconds }),
});

/** Whole days of an age in seconds. @throws 400 10040 for an age that is not whole days. */
function daysOf(seconds: number): number {
	if (seconds % DAY_SECONDS !== 0 || seconds === 0)
		throw refused(`maxAge ${seconds} is not a whole number of days in seconds`);
	return seconds / DAY_SECONDS;
}

/** R2's JSON of a lifecycle rule. */
function lifecycleJson(rule: LifecycleRule) {
	const expiration = rule.expiration;
	return {
		id: rule.id,
		enabled: rule.enabled,
		conditions: { prefix: rule.prefix },
		...(expiration === undefined
			? {}
			: {
					deleteObjectsTransition: {
						condition:
							"days" in expiration
								? { type: "Age", maxAge: expiration.days * DAY_SECONDS }
								: { type: "Date", date: expiration.date },
					},
				}),
		...(rule.abortAfterDays === undefined
			? {}
			: { abortMultipartUploadsTransition: { condition: { type: "Age", maxAge: rule.abortAfterDays * DAY_SECONDS } } }),
	};
}

/** Routes under `/accounts/{account_id}/r2/buckets/{bucket_name}/cors`. */
export const r2BucketCors = new Hono<ApiEnv>()
	.get("/", readsBucketConfig, async (c) => {
		const bucket = await bucketOfPath(c);
		return ok({ rules: (await storedCorsRules(c.env, bucket.binding)).map(corsJson) });
	})
	.put("/", managesBuckets, async (c) => {
		const bucket = await bucketOfPath(c);
		const body = await parseBody(c, CORS, CODE);
		const given: CorsRule[] = body.rules.map((rule) => ({
			...(rule.id === undefined ? {} : { id: rule.id }),
			allowedOrigins: rule.allowed.origins,
			allowedMethods: rule.allowed.methods,
			allowedHeaders: rule.allowed.headers ?? [],
			exposeHeaders: rule.exposeHeaders ?? [],
			...(rule.maxAgeSeconds === undefined ? {} : { maxAgeSeconds: rule.maxAgeSeconds }),
		}));
		const rules =
			given.length === 0 ? [] : checkedAsS3(() => parseCors(xmlDocument("CORSConfiguration", corsDocument(given))));
		await setCorsRules(c.env, bucket.binding, rules);
		return ok({});
	})
	.delete("/", managesBuckets, async (c) => {
		const bucket = await bucketOfPath(c);
		await setCorsRules(c.env, bucket.binding, []);
		return ok({});
	});

/** Routes under `/accounts/{account_id}/r2/buckets/{bucket_name}/lifecycle`. */
export const r2BucketLifecycle = new Hono<ApiEnv>()
	.get("/", readsBucketConfig, async (c) => {
		const bucket = await bucketOfPath(c);
		return ok({ rules: (await ledgerOf({ env: c.env, bucket }).lifecycle()).map(lifecycleJson) });
	})
	.put("/", managesBuckets, async (c) => {
		const bucket = await bucketOfPath(c);
		const body = await parseBody(c, LIFECYCLE, CODE);
		const given = body.rules.map((rule): LifecycleRule => {
			if ((rule.storageClassTransitions ?? []).length > 0) {
				throw refused("Storage class transitions are not implemented by this endpoint (as through S3).");
			}
			const parsed: LifecycleRule = { id: rule.id, enabled: rule.enabled, prefix: rule.conditions.prefix };
			const expiry = rule.deleteObjectsTransition?.condition;
			if (expiry !== undefined) {
				parsed.expiration = expiry.type === "Age" ? { days: daysOf(expiry.maxAge) } : { date: expiry.date };
			}
			const abort = rule.abortMultipartUploadsTransition?.condition;
			if (abort !== undefined) parsed.abortAfterDays = daysOf(abort.maxAge);
			return parsed;
		});
		const rules =
			given.length === 0
				? []
				: checkedAsS3(() => parseLifecycle(xmlDocument("LifecycleConfiguration", lifecycleDocument(given))));
		await setLifecycleRules({ env: c.env, bucket }, rules);
		return ok({});
	});
