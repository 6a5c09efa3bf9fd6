/**
 * `POST /accounts/{account_id}/r2/temp-access-credentials`: R2's temporary access credentials
 * (https://developers.cloudflare.com/api/resources/r2/subresources/temporary_credentials/methods/create/;
 * SDK `client.r2.temporaryCredentials.create()`; https://developers.cloudflare.com/r2/api/tokens/,
 * "Temporary access credentials").
 *
 * Body: `bucket`, `parentAccessKeyId`, `permission` (`admin-read-write`, `admin-read-only`,
 * `object-read-write`, `object-read-only`), `ttlSeconds` (at most 604800, 7 days), optional
 * `objects` and `prefixes`; answer `{accessKeyId, secretAccessKey, sessionToken}`. The S3 dialect
 * accepts them until they expire (src/edge/s3/auth/temporary-credentials.ts says how, with no state).
 *
 * Edgezone's rules: the account is the deployment's (`DEFAULT_ACCOUNT_ID`, the account of its
 * buckets; another id is 403 10000, as a zone out of reach); the bucket is one the S3 dialect
 * serves (declared or created); the parent is the Access Key ID of a token of `API_CREDENTIALS` whose R2 permission
 * covers the one asked and reaches the bucket (an Object permission may be scoped); the caller reaches every zone (an account-wide credential, as for
 * creating zones), so a token of listed zones cannot mint credentials of another token. Refusals
 * are 400 10040 at the field's pointer (the real code is not public).
 * Size limits (edgezone's): each object or prefix 1024 characters, and the session token, which
 * carries them, at most 8192 characters so that it fits in a request header.
 */
import type { TemporaryCredentialCreateResponse } from "cloudflare/resources/r2/temporary-credentials";
import { Hono } from "hono";
import { z } from "zod";
import { narrower, reachesBucket, s3AccessKey } from "../common/s3-keys";
import {
	MAX_SESSION_TOKEN,
	mintTemporaryCredentials,
	TEMPORARY_PERMISSIONS,
} from "../edge/s3/auth/temporary-credentials";
import { lookupBucket } from "../runtime-buckets/catalog";
import { CODES } from "../zone/failure";
import { ok } from "./envelope";
import { ApiError, forbidden } from "./errors";
import { writes } from "./permissions";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam } from "./validate";

/** The longest TTL, 7 days in seconds (the API reference's `maximum`). */
const MAX_TTL_SECONDS = 604_800;

const KEY_PATH = z.string().min(1).max(1024);

const CREATE = z.strictObject({
	bucket: z.string().min(1).max(63),
	parentAccessKeyId: z.string().min(1).max(128),
	permission: z.enum(Object.keys(TEMPORARY_PERMISSIONS) as [keyof typeof TEMPORARY_PERMISSIONS]),
	ttlSeconds: z.number().int().min(1).max(MAX_TTL_SECONDS),
	objects: z.array(KEY_PATH).optional(),
	prefixes: z.array(KEY_PATH).optional(),
});

/** 400 10040 at `pointer`. */
const invalid = (message: string, pointer: string) =>
	new ApiError(400, [{ code: CODES.r2TemporaryCredentialsInvalid, message, source: { pointer } }]);

/** Routes under `/accounts/{account_id}/r2`. */
export const r2TemporaryCredentials = new Hono<ApiEnv>().post(
	"/temp-access-credentials",
	writes("Workers R2 Storage"),
	async (c) => {
		const accountId = parseParam(c, "account_id", HEX_ID);
		if (accountId !== c.env.DEFAULT_ACCOUNT_ID || c.var.caller.zones !== "*") throw forbidden();
		const body = await parseBody(c, CREATE, CODES.r2TemporaryCredentialsInvalid);
		if ((await lookupBucket(c.env, body.bucket)) === undefined) {
			throw invalid(`bucket "${body.bucket}" is not one of the account's buckets`, "/bucket");
		}
		const parent = await s3AccessKey(c.env.API_CREDENTIALS, body.parentAccessKeyId);
		if (parent === undefined) {
			throw invalid(`no API token has the access key id "${body.parentAccessKeyId}"`, "/parentAccessKeyId");
		}
		if (!reachesBucket(parent, body.bucket)) {
			throw invalid(`the parent access key's permission is not scoped to the bucket "${body.bucket}"`, "/bucket");
		}
		const permission = TEMPORARY_PERMISSIONS[body.permission];
		if (narrower(permission, parent.permission) !== permission) {
			throw invalid(`the parent access key does not have the permission ${body.permission}`, "/permission");
		}
		const credentials = await mintTemporaryCredentials(parent, {
			parent: parent.id,
			bucket: body.bucket,
			permission: body.permission,
			objects: body.objects ?? [],
			prefixes: body.prefixes ?? [],
			expiresAt: Math.floor(Date.now() / 1000) + body.ttlSeconds,
		});
		if (credentials === undefined) {
			throw invalid(
				`objects and prefixes are too long: the session token would pass ${MAX_SESSION_TOKEN} characters`,
				"/",
			);
		}
		return ok(credentials satisfies TemporaryCredentialCreateResponse);
	},
);
