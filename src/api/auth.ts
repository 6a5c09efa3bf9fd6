/**
 * Authentication of `/client/v4`: `X-Auth-Email` + `X-Auth-Key`, or `Authorization: Bearer`.
 *
 * Follows cloudflare-api-v4.md §2: header formats are checked first (6003 with an
 * `error_chain` of 6102 / 6103 / 6111), then the values (9103 for a key, 9109 for a
 * token), then the zones the credential may reach (10000, in `zone-access.ts`).
 * Formats follow the real credentials: a global API key is 37 lower-case hex, an API
 * token 40 characters of `[A-Za-z0-9_-]`.
 *
 * Credentials come from the secret `API_CREDENTIALS`, a JSON array such as
 * `[{"token": "...", "zones": "*"}, {"email": "a@b.c", "key": "...", "zones": ["<zone id>"]}]`.
 * `"*"` reaches every zone and may create zones; a list reaches only those zone ids.
 */
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { ApiError, invalidHeaders, invalidToken, missingCredentials, unknownKey } from "./errors";
import type { ApiEnv } from "./types";

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const KEY = /^[0-9a-f]{37}$/;
const BEARER = /^Bearer ([A-Za-z0-9_-]{40})$/i;

const ZONES = z.union([z.literal("*"), z.array(z.string().regex(/^[0-9a-f]{32}$/))]);
const CREDENTIALS = z.array(
	z.union([
		z.strictObject({ token: z.string().regex(/^[A-Za-z0-9_-]{40}$/), zones: ZONES }),
		z.strictObject({ email: z.string().regex(EMAIL), key: z.string().regex(KEY), zones: ZONES }),
	]),
);
type Credential = z.output<typeof CREDENTIALS>[number];

/** Who is calling: the zones they may reach. */
export interface Caller {
	/** `"*"`: every zone, and may create zones; otherwise these zone ids only. */
	zones: "*" | string[];
	/** Whether the credential may reach this zone id. */
	canReach(zoneId: string): boolean;
}

function callerOf({ zones }: Credential): Caller {
	return { zones, canReach: (id) => zones === "*" || zones.includes(id) };
}

/** Parses `API_CREDENTIALS`; a malformed secret is a server misconfiguration (500 with the reason logged). */
function credentials(secret: string | undefined): Credential[] {
	let raw: unknown;
	try {
		raw = JSON.parse(secret ?? "");
	} catch {
		raw = undefined;
	}
	const parsed = CREDENTIALS.safeParse(raw);
	if (!parsed.success) {
		console.error("edgezone API: API_CREDENTIALS is not a valid credentials document", parsed.error.issues);
		throw new ApiError(500, [{ code: 10001, message: "API credentials are not configured" }]);
	}
	return parsed.data;
}

/** Constant-time comparison of two secrets of any length (hashes first so lengths match). */
async function sameSecret(a: string, b: string): Promise<boolean> {
	const enc = new TextEncoder();
	const [ha, hb] = await Promise.all([
		crypto.subtle.digest("SHA-256", enc.encode(a)),
		crypto.subtle.digest("SHA-256", enc.encode(b)),
	]);
	return crypto.subtle.timingSafeEqual(ha, hb);
}

/**
 * Authenticates a request: returns the Caller or throws the real API's error.
 * A present `Authorization` header wins over the key pair.
 */
export async function authenticate(headers: Headers, secret: string | undefined): Promise<Caller> {
	const authorization = headers.get("Authorization");
	const email = headers.get("X-Auth-Email");
	const key = headers.get("X-Auth-Key");
	if (authorization === null && email === null && key === null) throw missingCredentials();
	const known = credentials(secret);

	if (authorization !== null) {
		const token = BEARER.exec(authorization)?.[1];
		if (token === undefined) throw invalidHeaders([{ code: 6111, message: "Invalid format for Authorization header" }]);
		for (const credential of known) {
			if ("token" in credential && (await sameSecret(credential.token, token))) return callerOf(credential);
		}
		throw invalidToken();
	}

	const chain = [
		...(email !== null && EMAIL.test(email) ? [] : [{ code: 6102, message: "Invalid format for X-Auth-Email header" }]),
		...(key !== null && KEY.test(key) ? [] : [{ code: 6103, message: "Invalid format for X-Auth-Key header" }]),
	];
	if (chain.length > 0 || email === null || key === null) throw invalidHeaders(chain);
	for (const credential of known) {
		if (
			"key" in credential &&
			credential.email.toLowerCase() === email.toLowerCase() &&
			(await sameSecret(credential.key, key))
		) {
			return callerOf(credential);
		}
	}
	throw unknownKey();
}

/** Hono middleware: authenticates and stores the Caller in `c.var.caller`. */
export const auth = createMiddleware<ApiEnv>(async (c, next) => {
	c.set("caller", await authenticate(c.req.raw.headers, c.env.API_CREDENTIALS));
	await next();
});
