/**
 * What each endpoint of `/client/v4` asks of a credential: whether it writes, and which
 * permissions of Cloudflare's API tokens grant it.
 *
 * A credential may be limited two ways (`API_CREDENTIALS`, see `auth.ts`):
 * - `"access": "read"`: every endpoint that writes is refused; everything that reads works,
 *   log-push jobs included. An edgezone switch, for key pairs and tokens alike.
 * - `"permissions": [...]`: a token gets only the endpoints one of its permissions grants, with
 *   the names of Cloudflare's permission groups (developers.cloudflare.com/fundamentals/api/
 *   reference/permissions/): "Zone Read", "Zone Edit", "Zone WAF Read", "Zone WAF Edit",
 *   "Logs Read", "Logs Edit". "Edit" is the dashboard's name of the API's "Write", and
 *   includes reading ("Edit is full CRUDL access", /api/tokens/create).
 * Refused, either way, is 403 10000 "Authentication error", as the real API answers a token
 * lacking a permission (hieunc229/mailflare#1, terraform-provider-cloudflare#1533).
 *
 * Which permissions each endpoint accepts follows the "Accepted Permissions" of its page in
 * the API reference: zones need Zone; rulesets accept any of their phase families, of which
 * edgezone knows Zone WAF, Logs (the family of `http_log_custom_fields`), Transform Rules, Origin
 * and Dynamic URL Redirects (`PHASE_GROUPS`), and so does the
 * URL normalization setting; all of log-push,
 * reads included, needs Logs Edit, "because Logpush jobs contain sensitive information"
 * (/logs/logpush/permissions/), while Logpull and its retention flag are read with Logs Read
 * (their API reference pages); filters and firewall rules need Firewall Services, the group
 * their API reference pages accept; custom hostnames, certificate packs, Universal SSL, Total TLS
 * and custom certificates need "SSL and Certificates", the group their API reference pages accept;
 * R2's temporary credentials need "Workers R2 Storage" (Write; the dashboard's "Edit"), as their
 * API reference page says; DNS records need "DNS" (the API's "DNS Read" / "DNS Write", the dashboard's
 * "DNS Read" / "DNS Edit"), the group their API reference pages accept; Workers routes need "Workers
 * Routes" (Read / Edit), the group theirs accept; zone settings need "Zone Settings", the group
 * theirs accept. "Workers R2 Storage Bucket Item" grants no endpoint here: it is an R2 Object
 * permission, for the S3 dialect (src/common/s3-keys.ts, with the other R2 groups).
 * An endpoint acting on a whole bucket (the emulator's lifecycle sweep, `managesBuckets`) asks
 * what the S3 operations configuring a bucket ask, through the same check (`grantsAccess`,
 * src/common/s3-keys.ts): "Workers R2 Storage Edit" (Admin Read & Write), and a credential of
 * the whole account, never one of listed zones, since every zone shares the buckets. `GET /user/tokens/verify` is answered to any token, whatever its
 * permissions (`verifiesToken`): it asks nothing but the token itself.
 * A ruleset is then checked by its phase (`permitsPhase`): a "Logs Edit" token may not write a
 * WAF ruleset, nor a "Zone WAF Edit" token the log fields. Gap: the list of rulesets shows every
 * phase's (without rules) to any ruleset family; whether the real API narrows it is not documented.
 * Permissions name no zone of their own: the credential's `zones` say which zones they apply to.
 *
 * Each endpoint says what it asks where it is registered, once: its first handler is `reads`,
 * `writes`, `readsLogpush`, `managesBuckets`, `readsBuckets`, `readsBucketConfig`, `readsObjects`, `writesObjects` or `verifiesToken` (`app.get("/", reads("Zone"),
 * handler)`), and `auth.ts` reads it from the route the request matched (`requirementOf`),
 * before the zone is looked up. An endpoint registered without one is served to no credential.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import type { Context, MiddlewareHandler } from "hono";
import { matchedRoutes } from "hono/route";
import { METHOD_NAME_ALL } from "hono/router";
import type { RouterRoute } from "hono/types";
import { z } from "zod";
import { grantsAccess, r2GrantOf, type S3Access } from "../common/s3-keys";
import type { ApiEnv } from "./types";

/** The permission groups edgezone's endpoints use. */
const GROUPS = [
	"Zone",
	"Zone WAF",
	"Firewall Services",
	"Logs",
	"SSL and Certificates",
	"Workers R2 Storage",
	"Workers R2 Storage Bucket Item",
	"DNS",
	"Workers Routes",
	"Transform Rules",
	"Origin",
	"Dynamic URL Redirects",
	"Zone Settings",
] as const;
type Group = (typeof GROUPS)[number];

/** A permission of an API token: a group and "Read" or "Edit". */
export type Permission = `${Group} Read` | `${Group} Edit`;

/** The schema of one permission name in `API_CREDENTIALS`. */
export const PERMISSION = z.enum(GROUPS.flatMap((group): Permission[] => [`${group} Read`, `${group} Edit`]));

/** What a credential allows, as `API_CREDENTIALS` says; no `permissions`: every endpoint. */
export interface Grant {
	/** `"*"`: every zone, and may create zones; otherwise these zone ids only. */
	zones: "*" | string[];
	/** `"read"`: no endpoint that writes. */
	access: "read" | "write";
	/** The token's permissions; undefined for a credential not limited by permissions. */
	permissions: readonly Permission[] | undefined;
}

/** What an endpoint asks: whether it writes, and the permissions of which any one grants it. */
export interface Requirement {
	access: "read" | "write";
	/**
	 * `"any"`: every token may call it, whatever its permissions; `"none"`: no credential (an
	 * endpoint registered without a requirement, `requirementOf`).
	 */
	accepted: readonly Permission[] | "any" | "none";
	/**
	 * For an endpoint acting on a bucket: the S3 access it amounts to, which the credential's R2
	 * permission and zones must allow as for an S3 client (`grantsAccess`).
	 */
	r2?: S3Access;
	/** An endpoint about the bearer token itself: a key pair or an unknown token is 401 1000 (`auth.ts`). */
	ownToken?: true;
}

/**
 * What each endpoint asks, by the first handler it is registered with (`reads(...)`,
 * `writes(...)`, `readsLogpush`): a pass-through middleware, looked up by identity.
 */
const REQUIREMENTS = new WeakMap<object, Requirement>();

/** A pass-through handler that registers its route as asking `needs` (read by `requirementOf`). */
function asking(needs: Requirement): MiddlewareHandler<ApiEnv> {
	const handler: MiddlewareHandler<ApiEnv> = (_c, next) => next();
	REQUIREMENTS.set(handler, needs);
	return handler;
}

/**
 * The first handler of an endpoint that reads, granted by Read or Edit of any of `groups`:
 * `app.get("/", reads("Zone"), handler)`.
 */
export const reads = (...groups: Group[]): MiddlewareHandler<ApiEnv> =>
	asking({ access: "read", accepted: groups.flatMap((group): Permission[] => [`${group} Read`, `${group} Edit`]) });

/** The first handler of an endpoint that writes, granted by Edit of any of `groups`. */
export const writes = (...groups: Group[]): MiddlewareHandler<ApiEnv> =>
	asking({ access: "write", accepted: groups.map((group): Permission => `${group} Edit`) });

/** The first handler of a log-push endpoint that reads: no write, yet Logs Edit (/logs/logpush/permissions/). */
export const readsLogpush: MiddlewareHandler<ApiEnv> = asking({ access: "read", accepted: ["Logs Edit"] });

/**
 * The first handler of an endpoint that changes a whole bucket, as the S3 operations configuring
 * it do (manage-buckets): "Workers R2 Storage Edit", and a credential of the whole account
 * (`grantsAccess`, src/common/s3-keys.ts).
 */
export const managesBuckets: MiddlewareHandler<ApiEnv> = asking({
	access: "write",
	accepted: ["Workers R2 Storage Edit"],
	r2: "manage-buckets",
});

/**
 * The first handler of an endpoint that reads the account's buckets (the R2 buckets API's list
 * and get), as S3's ListBuckets does (list-buckets): "Workers R2 Storage" Read or Edit, and a
 * credential of the whole account (`grantsAccess`).
 */
export const readsBuckets: MiddlewareHandler<ApiEnv> = asking({
	access: "read",
	accepted: ["Workers R2 Storage Read", "Workers R2 Storage Edit"],
	r2: "list-buckets",
});

/**
 * The first handlers of the R2 REST API's object routes (what `wrangler r2 object get/put/delete
 * --remote` calls): an R2 permission reading or writing objects, as S3's GetObject and PutObject
 * ask (read, write; `grantsAccess`).
 */
export const readsObjects: MiddlewareHandler<ApiEnv> = asking({
	access: "read",
	accepted: [
		"Workers R2 Storage Read",
		"Workers R2 Storage Edit",
		"Workers R2 Storage Bucket Item Read",
		"Workers R2 Storage Bucket Item Edit",
	],
	r2: "read",
});

/** See `readsObjects`. */
export const writesObjects: MiddlewareHandler<ApiEnv> = asking({
	access: "write",
	accepted: ["Workers R2 Storage Edit", "Workers R2 Storage Bucket Item Edit"],
	r2: "write",
});

/**
 * The first handler of an endpoint that reads a bucket's configuration (its public access, CORS
 * or lifecycle rules), as the S3 operations reading it do (read-bucket-config): "Workers R2
 * Storage Read" or "Edit", and a credential of the whole account (`grantsAccess`,
 * src/common/s3-keys.ts).
 */
export const readsBucketConfig: MiddlewareHandler<ApiEnv> = asking({
	access: "read",
	accepted: ["Workers R2 Storage Read", "Workers R2 Storage Edit"],
	r2: "read-bucket-config",
});

/** The first handler of `GET /user/tokens/verify`: any token, about itself. */
export const verifiesToken: MiddlewareHandler<ApiEnv> = asking({ access: "read", accepted: "any", ownToken: true });

/** The groups of the rulesets' endpoints: their phase families edgezone knows. */
export const RULESETS = ["Zone WAF", "Logs", "Transform Rules", "Origin", "Dynamic URL Redirects"] as const;

/** What `route`'s handler asks, when it is one of `reads`, `writes` or `readsLogpush`. */
export function requirementOfHandler(route: RouterRoute): Requirement | undefined {
	return REQUIREMENTS.get(route.handler);
}

/**
 * What the endpoint `c` matched asks: the requirement of its first handler, the first route
 * of the request's method the app matched (in registration order, the one that answers; HEAD
 * is served by GET's). An endpoint registered without one is refused to every credential (403
 * 10000, `UNREGISTERED`), so none is served until it says what it asks (the coverage test in
 * test/api/auth.test.ts names it).
 */
export function requirementOf(c: Context): Requirement {
	const endpoint = matchedRoutes(c).find((route) => route.method !== METHOD_NAME_ALL);
	const needs = endpoint === undefined ? undefined : REQUIREMENTS.get(endpoint.handler);
	return needs ?? UNREGISTERED;
}

/** What an endpoint registered without a requirement asks: what no credential has. */
const UNREGISTERED: Requirement = { access: "write", accepted: "none" };

/**
 * The family of the phases edgezone knows one for: the WAF's phases (docs waf/custom-rules,
 * rate limiting, managed rules: "Zone WAF"), the custom log fields (docs logs/reference/
 * custom-fields: "Logs"), Transform Rules' three phases ("Transform Rules"), Origin Rules
 * ("Origin") and Single Redirects ("Dynamic URL Redirects"), as the Rulesets API's pages list
 * their token permissions ("Transform Rules Write", "Origin Write", "Dynamic URL Redirects
 * Write": developers.cloudflare.com/rules/url-forwarding/single-redirects/create-api/). A phase
 * not listed is granted by any of them, as its endpoint is.
 */
const PHASE_GROUPS: Partial<Record<Phase, Group>> = {
	http_log_custom_fields: "Logs",
	http_request_transform: "Transform Rules",
	http_request_late_transform: "Transform Rules",
	http_response_headers_transform: "Transform Rules",
	http_request_origin: "Origin",
	http_request_dynamic_redirect: "Dynamic URL Redirects",
	http_request_firewall_custom: "Zone WAF",
	http_request_firewall_managed: "Zone WAF",
	http_response_firewall_managed: "Zone WAF",
	http_ratelimit: "Zone WAF",
};

/**
 * Whether `grant` may read or write a ruleset of `phase`: a credential not limited by
 * permissions always may; a token needs its phase's group (Read or Edit to read, Edit to write).
 */
export function permitsPhase(grant: Grant, phase: Phase, access: "read" | "write"): boolean {
	const group = PHASE_GROUPS[phase];
	if (grant.permissions === undefined || group === undefined) return true;
	const accepted: Permission[] = access === "read" ? [`${group} Read`, `${group} Edit`] : [`${group} Edit`];
	return grant.permissions.some((p) => accepted.includes(p));
}

/** Whether `grant` allows calling an endpoint that asks `needs` (`requirementOf`): the one check of every endpoint. */
export function permits(grant: Grant, needs: Requirement): boolean {
	const accepted = needs.accepted;
	if (accepted === "none") return false;
	if (needs.access === "write" && grant.access === "read") return false;
	if (needs.r2 !== undefined && !grantsR2(grant, needs.r2)) return false;
	return accepted === "any" || grant.permissions === undefined || grant.permissions.some((p) => accepted.includes(p));
}

/** Whether the R2 permission `grant` gives its S3 keys (`r2GrantOf`) allows `access` in its zones. */
function grantsR2(grant: Grant, access: S3Access): boolean {
	const r2 = r2GrantOf(grant);
	return typeof r2 !== "string" && grantsAccess({ permission: r2.permission, zones: grant.zones }, access);
}
