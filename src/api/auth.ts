/**
 * Authentication of `/client/v4`: `X-Auth-Email` + `X-Auth-Key`, or `Authorization: Bearer`.
 *
 * Answers as the real API does, as observed in public reports (cloudflare-typescript#161,
 * cloudflare-python#2678, Posh-ACME#126): header formats are checked first (6003 with an
 * `error_chain` of 6102 / 6103 / 6111), then the values (9103 for a key, 9109 for a
 * token), then the zones the credential may reach (10000, in `zone-access.ts`).
 * Formats follow the real credentials: a global API key is 37 lower-case hex, an API
 * token 40 characters of `[A-Za-z0-9_-]`.
 *
 * Credentials come from the secret `API_CREDENTIALS`, a JSON array such as
 * `[{"token": "...", "zones": "*"}, {"email": "a@b.c", "key": "...", "zones": ["<zone id>"]}]`.
 * `"*"` reaches every zone and may create zones; a list reaches only those zone ids. An entry
 * may be limited further (`permissions.ts`): `"access": "read"` (default `"write"`) refuses
 * every endpoint that writes; a token's `"permissions": ["Zone Read", "Logs Edit", ...]`
 * allows only the endpoints those grant. A token's R2 permission for the S3 dialect, and its
 * `"buckets"`, are src/common/s3-keys.ts's (`r2GrantOf`), checked here too.
 *
 * Order: authentication, then permission, both here, then reach (`zone-access.ts`). A token
 * lacking a permission and one out of reach get the same 403 10000, so which of the two is
 * decided first cannot be seen; deciding the permission here, before the zone is looked up,
 * means a credential that may not write learns nothing about which zones exist (no 404
 * before the 403), as `zone-access.ts` does for reach.
 *
 * Timing: a presented token is compared with every token credential, and a presented email and
 * key with the email and the key of every key credential, each comparison over fixed-size
 * buffers (`common/secrets.ts`) and none skipped on an earlier result, so how long a request
 * takes tells neither which emails or tokens exist nor which credential matched.
 */
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { apiTokenId } from "../common/api-tokens";
import { ConfigError, jsonVar } from "../common/config";
import { HEX_ID_PATTERN } from "../common/ids";
import { r2GrantOf } from "../common/s3-keys";
import { fixedSecret, MAX_SECRET_BYTES, sameSecret } from "../common/secrets";
import { notConfigured } from "../startup";
import {
	ApiError,
	forbidden,
	invalidApiToken,
	invalidHeaders,
	invalidToken,
	missingCredentials,
	unknownKey,
} from "./errors";
import { type Grant, PERMISSION, permits, requirementOf } from "./permissions";
import type { ApiEnv } from "./types";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const KEY = /^[0-9a-f]{37}$/;
const TOKEN = /^[A-Za-z0-9_-]{40}$/;
const BEARER = /^Bearer ([A-Za-z0-9_-]{40})$/i;

/** Who is calling: the zones they may reach, and what they may do there. */
export interface Caller extends Grant {
	/** Whether the credential may reach this zone id. */
	canReach(zoneId: string): boolean;
	/** For an API token, its id (src/common/api-tokens.ts), derived once; undefined for a key pair. */
	tokenId?: () => Promise<string>;
}

/** A secret of the configuration: its value, and the fixed-size buffer it is compared in. */
const secretAndValue = (format: z.ZodType<string>) =>
	format.transform((value, ctx) => {
		const fixed = fixedSecret(value);
		if (fixed === undefined) ctx.addIssue({ code: "custom", message: `longer than ${MAX_SECRET_BYTES} bytes` });
		return fixed === undefined ? z.NEVER : { value, fixed };
	});

/** A secret of the configuration as the fixed-size buffer it is compared in. */
const secret = (format: z.ZodType<string>) => secretAndValue(format).transform(({ fixed }) => fixed);

const ZONES = z.union([z.literal("*"), z.array(z.string().regex(HEX_ID_PATTERN))]);
const ACCESS = z.enum(["read", "write"]).default("write");
const callerOf = (zones: "*" | string[], access: Grant["access"], permissions?: Grant["permissions"]): Caller => ({
	zones,
	canReach: (id) => zones === "*" || zones.includes(id),
	access,
	permissions,
});

const TOKEN_CREDENTIAL = z
	.strictObject({
		// The value is kept to derive the token's id (`tokenId`) when it is asked for.
		token: secretAndValue(z.string().regex(TOKEN)),
		// The token's id, as Cloudflare gives every token one; derived from the value when absent
		// (src/common/api-tokens.ts). R2's S3 Access Key ID is this id.
		id: z.string().regex(HEX_ID_PATTERN).optional(),
		zones: ZONES,
		access: ACCESS,
		permissions: z.array(PERMISSION).min(1).optional(),
		// The buckets the token's R2 Object permission is scoped to (src/common/s3-keys.ts).
		buckets: z.array(z.string().min(1)).min(1).optional(),
	})
	.superRefine((entry, ctx) => {
		const grant = r2GrantOf(entry);
		if (typeof grant === "string") ctx.addIssue({ code: "custom", message: grant });
	})
	.transform(({ token, id, zones, access, permissions }) => {
		let tokenId: Promise<string> | undefined;
		const caller: Caller = {
			...callerOf(zones, access, permissions),
			tokenId: () => (tokenId ??= apiTokenId(token.value, id)),
		};
		return { token: token.fixed, caller };
	});
const KEY_CREDENTIAL = z
	.strictObject({
		// Emails match whatever their case, so both sides are compared in lower case.
		email: secret(
			z
				.string()
				.regex(EMAIL)
				.transform((email) => email.toLowerCase()),
		),
		key: secret(z.string().regex(KEY)),
		zones: ZONES,
		// No `permissions`: they belong to API tokens; a global API key can do all its user can.
		access: ACCESS,
	})
	.transform(({ email, key, zones, access }) => ({ email, key, caller: callerOf(zones, access) }));
type TokenCredential = z.output<typeof TOKEN_CREDENTIAL>;
type KeyCredential = z.output<typeof KEY_CREDENTIAL>;

const CREDENTIALS = z.array(z.union([TOKEN_CREDENTIAL, KEY_CREDENTIAL])).transform((all) => ({
	tokens: all.filter((c): c is TokenCredential => "token" in c),
	keys: all.filter((c): c is KeyCredential => "key" in c),
}));

/**
 * Parses `API_CREDENTIALS` (once per value). Unset: 500 saying what is missing and how to get
 * it locally; malformed: a server misconfiguration, 500 with the reason logged.
 */
function credentials(raw: string | undefined): z.output<typeof CREDENTIALS> {
	if (raw === undefined || raw === "") {
		throw new ApiError(500, [{ code: 10001, message: notConfigured("API_CREDENTIALS") }]);
	}
	try {
		return jsonVar("API_CREDENTIALS", raw, CREDENTIALS);
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error;
		console.error(`edgezone API: ${error.message}`);
		throw new ApiError(500, [{ code: 10001, message: "API credentials are not configured" }]);
	}
}

/**
 * The Caller of the first credential `matches` accepts, or undefined. `matches` runs on every
 * credential, so the time taken tells neither which credential matched nor whether one did.
 */
function firstMatch<C extends { caller: Caller }>(known: C[], matches: (credential: C) => boolean): Caller | undefined {
	let found: Caller | undefined;
	for (const credential of known) {
		if (matches(credential)) found ??= credential.caller;
	}
	return found;
}

/**
 * Authenticates a request: returns the Caller or throws the real API's error.
 * A present `Authorization` header wins over the key pair.
 * @throws ApiError 400 9106 / 6003, 403 9109 / 9103, or 500 10001 when `API_CREDENTIALS` is not valid.
 */
export function authenticate(headers: Headers, secret: string | undefined): Caller {
	const authorization = headers.get("Authorization");
	const email = headers.get("X-Auth-Email");
	const key = headers.get("X-Auth-Key");
	if (authorization === null && email === null && key === null) throw missingCredentials();
	const known = credentials(secret);

	if (authorization !== null) {
		const token = BEARER.exec(authorization)?.[1];
		if (token === undefined) throw invalidHeaders([{ code: 6111, message: "Invalid format for Authorization header" }]);
		const presented = fixedSecret(token);
		const caller = firstMatch(known.tokens, (credential) => sameSecret(presented, credential.token));
		if (caller === undefined) throw invalidToken();
		return caller;
	}

	const chain = [
		...(email !== null && EMAIL.test(email) ? [] : [{ code: 6102, message: "Invalid format for X-Auth-Email header" }]),
		...(key !== null && KEY.test(key) ? [] : [{ code: 6103, message: "Invalid format for X-Auth-Key header" }]),
	];
	if (chain.length > 0 || email === null || key === null) throw invalidHeaders(chain);
	const presentedEmail = fixedSecret(email.toLowerCase());
	const presentedKey = fixedSecret(key);
	const caller = firstMatch(known.keys, (credential) => {
		// Both comparisons run before either result is looked at: a known email costs no more than an unknown one.
		const sameEmail = sameSecret(presentedEmail, credential.email);
		const sameKey = sameSecret(presentedKey, credential.key);
		return sameEmail && sameKey;
	});
	if (caller === undefined) throw unknownKey();
	return caller;
}

/**
 * Authenticates a request to an endpoint about the bearer token itself (`/user/tokens/verify`):
 * as `authenticate`, but a token that matches no credential, or a key pair (which is no token),
 * is 401 1000 "Invalid API Token", as that endpoint answers (`invalidApiToken`).
 */
function ownToken(headers: Headers, secret: string | undefined): Caller {
	let caller: Caller;
	try {
		caller = authenticate(headers, secret);
	} catch (error) {
		if (error instanceof ApiError && error.errors[0]?.code === 9109) throw invalidApiToken();
		throw error;
	}
	if (caller.tokenId === undefined) throw invalidApiToken();
	return caller;
}

/**
 * Hono middleware: authenticates, refuses an endpoint the credential may not call (403 10000,
 * by what the matched route asks, `permissions.ts`), and stores the Caller in `c.var.caller`.
 */
export const auth = createMiddleware<ApiEnv>(async (c, next) => {
	const needs = requirementOf(c);
	const caller = needs.ownToken
		? ownToken(c.req.raw.headers, c.env.API_CREDENTIALS)
		: authenticate(c.req.raw.headers, c.env.API_CREDENTIALS);
	if (!permits(caller, needs)) throw forbidden();
	c.set("caller", caller);
	await next();
});
