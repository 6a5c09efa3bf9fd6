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
 * lacking a permission (cloudflare-api-v4.md §2.2).
 *
 * Which permissions each endpoint accepts follows the "Accepted Permissions" of its page in
 * the API reference: zones need Zone; rulesets accept any of their phase families, of which
 * edgezone knows Zone WAF and Logs (the family of `http_log_custom_fields`); all of log-push,
 * reads included, needs Logs Edit, "because Logpush jobs contain sensitive information"
 * (/logs/logpush/permissions/), while Logpull and its retention flag are read with Logs Read
 * (their API reference pages); filters and firewall rules need Firewall Services, the group
 * their API reference pages accept; custom hostnames, certificate packs, Universal SSL, Total TLS
 * and custom certificates need "SSL and Certificates", the group their API reference pages accept.
 * A ruleset is then checked by its phase (`permitsPhase`): a "Logs Edit" token may not write a
 * WAF ruleset, nor a "Zone WAF Edit" token the log fields. Gap: the list of rulesets shows every
 * phase's (without rules) to any ruleset family; whether the real API narrows it is not documented.
 * Permissions name no zone of their own: the credential's `zones` say which zones they apply to.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import { PatternRouter } from "hono/router/pattern-router";
import { z } from "zod";

/** The permission groups edgezone's endpoints use. */
const GROUPS = ["Zone", "Zone WAF", "Firewall Services", "Logs", "SSL and Certificates"] as const;
type Group = (typeof GROUPS)[number];

/** A permission of an API token: a group and "Read" or "Edit". */
export type Permission = `${Group} Read` | `${Group} Edit`;

/** The schema of one permission name in `API_CREDENTIALS`. */
export const PERMISSION = z.enum(GROUPS.flatMap((group): Permission[] => [`${group} Read`, `${group} Edit`]));

/** What a credential allows, as `API_CREDENTIALS` says; no `permissions`: every endpoint. */
export interface Grant {
	/** `"read"`: no endpoint that writes. */
	access: "read" | "write";
	/** The token's permissions; undefined for a credential not limited by permissions. */
	permissions: readonly Permission[] | undefined;
}

/** What an endpoint asks: whether it writes, and the permissions of which any one grants it. */
export interface Requirement {
	access: "read" | "write";
	accepted: readonly Permission[];
}

/** Reading, granted by Read or Edit of any of `groups`. */
const reads = (...groups: Group[]): Requirement => ({
	access: "read",
	accepted: groups.flatMap((group): Permission[] => [`${group} Read`, `${group} Edit`]),
});
/** Writing, granted by Edit of any of `groups`. */
const writes = (...groups: Group[]): Requirement => ({
	access: "write",
	accepted: groups.map((group): Permission => `${group} Edit`),
});
/** Log-push reads: no write, yet Logs Edit (/logs/logpush/permissions/). */
const readsLogpush: Requirement = { access: "read", accepted: ["Logs Edit"] };
const RULESETS = ["Zone WAF", "Logs"] as const;

/** Every endpoint under `/client/v4`, as `app.ts` routes them, with what it asks. */
export const ENDPOINTS: readonly { method: string; path: string; needs: Requirement }[] = [
	{ method: "GET", path: "/zones", needs: reads("Zone") },
	// Creating also needs `"zones": "*"` (zones.ts).
	{ method: "POST", path: "/zones", needs: writes("Zone") },
	{ method: "GET", path: "/zones/:zone_id", needs: reads("Zone") },
	{ method: "PATCH", path: "/zones/:zone_id", needs: writes("Zone") },
	{ method: "DELETE", path: "/zones/:zone_id", needs: writes("Zone") },
	{ method: "GET", path: "/zones/:zone_id/rulesets", needs: reads(...RULESETS) },
	{ method: "POST", path: "/zones/:zone_id/rulesets", needs: writes(...RULESETS) },
	{ method: "GET", path: "/zones/:zone_id/rulesets/phases/:phase/entrypoint", needs: reads(...RULESETS) },
	{ method: "PUT", path: "/zones/:zone_id/rulesets/phases/:phase/entrypoint", needs: writes(...RULESETS) },
	{ method: "GET", path: "/zones/:zone_id/rulesets/:ruleset_id", needs: reads(...RULESETS) },
	{ method: "PUT", path: "/zones/:zone_id/rulesets/:ruleset_id", needs: writes(...RULESETS) },
	{ method: "DELETE", path: "/zones/:zone_id/rulesets/:ruleset_id", needs: writes(...RULESETS) },
	{ method: "GET", path: "/zones/:zone_id/rulesets/:ruleset_id/versions", needs: reads(...RULESETS) },
	{ method: "GET", path: "/zones/:zone_id/rulesets/:ruleset_id/versions/:version", needs: reads(...RULESETS) },
	{ method: "POST", path: "/zones/:zone_id/rulesets/:ruleset_id/rules", needs: writes(...RULESETS) },
	{ method: "PATCH", path: "/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id", needs: writes(...RULESETS) },
	{ method: "DELETE", path: "/zones/:zone_id/rulesets/:ruleset_id/rules/:rule_id", needs: writes(...RULESETS) },
	{ method: "GET", path: "/zones/:zone_id/logpush/jobs", needs: readsLogpush },
	{ method: "POST", path: "/zones/:zone_id/logpush/jobs", needs: writes("Logs") },
	{ method: "GET", path: "/zones/:zone_id/logpush/jobs/:job_id", needs: readsLogpush },
	{ method: "PUT", path: "/zones/:zone_id/logpush/jobs/:job_id", needs: writes("Logs") },
	{ method: "DELETE", path: "/zones/:zone_id/logpush/jobs/:job_id", needs: writes("Logs") },
	// Writes: puts a challenge file into the destination bucket.
	{ method: "POST", path: "/zones/:zone_id/logpush/ownership", needs: writes("Logs") },
	// A POST that only reads: compares a token with the challenge file, changes nothing.
	{ method: "POST", path: "/zones/:zone_id/logpush/ownership/validate", needs: readsLogpush },
	{ method: "GET", path: "/zones/:zone_id/logpush/datasets/:dataset_id/fields", needs: readsLogpush },
	// Logpull (src/api/logpull.ts): "Logs Read" or "Logs Write" reads, as the API reference's
	// "Accepted Permissions" say; the retention flag's POST needs Logs Write.
	{ method: "GET", path: "/zones/:zone_id/logs/received", needs: reads("Logs") },
	{ method: "GET", path: "/zones/:zone_id/logs/received/fields", needs: reads("Logs") },
	{ method: "GET", path: "/zones/:zone_id/logs/rayids/:ray_id", needs: reads("Logs") },
	{ method: "GET", path: "/zones/:zone_id/logs/control/retention/flag", needs: reads("Logs") },
	{ method: "POST", path: "/zones/:zone_id/logs/control/retention/flag", needs: writes("Logs") },
	// Emulator-only (src/api/emulator/logs.ts): the pending log holds request data, as jobs do.
	{ method: "GET", path: "/zones/:zone_id/emulator/logs", needs: readsLogpush },
	{ method: "POST", path: "/zones/:zone_id/emulator/logs/flush", needs: writes("Logs") },
	{ method: "GET", path: "/zones/:zone_id/filters", needs: reads("Firewall Services") },
	{ method: "POST", path: "/zones/:zone_id/filters", needs: writes("Firewall Services") },
	{ method: "PUT", path: "/zones/:zone_id/filters", needs: writes("Firewall Services") },
	{ method: "DELETE", path: "/zones/:zone_id/filters", needs: writes("Firewall Services") },
	{ method: "GET", path: "/zones/:zone_id/filters/:filter_id", needs: reads("Firewall Services") },
	{ method: "PUT", path: "/zones/:zone_id/filters/:filter_id", needs: writes("Firewall Services") },
	{ method: "DELETE", path: "/zones/:zone_id/filters/:filter_id", needs: writes("Firewall Services") },
	{ method: "GET", path: "/zones/:zone_id/firewall/rules", needs: reads("Firewall Services") },
	{ method: "POST", path: "/zones/:zone_id/firewall/rules", needs: writes("Firewall Services") },
	{ method: "PUT", path: "/zones/:zone_id/firewall/rules", needs: writes("Firewall Services") },
	{ method: "PATCH", path: "/zones/:zone_id/firewall/rules", needs: writes("Firewall Services") },
	{ method: "DELETE", path: "/zones/:zone_id/firewall/rules", needs: writes("Firewall Services") },
	{ method: "GET", path: "/zones/:zone_id/firewall/rules/:rule_id", needs: reads("Firewall Services") },
	{ method: "PUT", path: "/zones/:zone_id/firewall/rules/:rule_id", needs: writes("Firewall Services") },
	{ method: "PATCH", path: "/zones/:zone_id/firewall/rules/:rule_id", needs: writes("Firewall Services") },
	{ method: "DELETE", path: "/zones/:zone_id/firewall/rules/:rule_id", needs: writes("Firewall Services") },
	// Custom hostnames: "SSL and Certificates" is the group their API reference pages accept.
	{ method: "GET", path: "/zones/:zone_id/custom_hostnames", needs: reads("SSL and Certificates") },
	{ method: "POST", path: "/zones/:zone_id/custom_hostnames", needs: writes("SSL and Certificates") },
	{ method: "GET", path: "/zones/:zone_id/custom_hostnames/fallback_origin", needs: reads("SSL and Certificates") },
	{ method: "PUT", path: "/zones/:zone_id/custom_hostnames/fallback_origin", needs: writes("SSL and Certificates") },
	{
		method: "DELETE",
		path: "/zones/:zone_id/custom_hostnames/fallback_origin",
		needs: writes("SSL and Certificates"),
	},
	{ method: "GET", path: "/zones/:zone_id/custom_hostnames/quota", needs: reads("SSL and Certificates") },
	{ method: "GET", path: "/zones/:zone_id/custom_hostnames/:custom_hostname_id", needs: reads("SSL and Certificates") },
	{
		method: "PATCH",
		path: "/zones/:zone_id/custom_hostnames/:custom_hostname_id",
		needs: writes("SSL and Certificates"),
	},
	{
		method: "DELETE",
		path: "/zones/:zone_id/custom_hostnames/:custom_hostname_id",
		needs: writes("SSL and Certificates"),
	},
	{ method: "GET", path: "/zones/:zone_id/ssl/certificate_packs", needs: reads("SSL and Certificates") },
	{ method: "POST", path: "/zones/:zone_id/ssl/certificate_packs/order", needs: writes("SSL and Certificates") },
	{ method: "GET", path: "/zones/:zone_id/ssl/certificate_packs/quota", needs: reads("SSL and Certificates") },
	{
		method: "GET",
		path: "/zones/:zone_id/ssl/certificate_packs/:certificate_pack_id",
		needs: reads("SSL and Certificates"),
	},
	{
		method: "PATCH",
		path: "/zones/:zone_id/ssl/certificate_packs/:certificate_pack_id",
		needs: writes("SSL and Certificates"),
	},
	{
		method: "DELETE",
		path: "/zones/:zone_id/ssl/certificate_packs/:certificate_pack_id",
		needs: writes("SSL and Certificates"),
	},
	{ method: "GET", path: "/zones/:zone_id/ssl/universal/settings", needs: reads("SSL and Certificates") },
	{ method: "PATCH", path: "/zones/:zone_id/ssl/universal/settings", needs: writes("SSL and Certificates") },
	{ method: "GET", path: "/zones/:zone_id/acm/total_tls", needs: reads("SSL and Certificates") },
	{ method: "POST", path: "/zones/:zone_id/acm/total_tls", needs: writes("SSL and Certificates") },
	{ method: "GET", path: "/zones/:zone_id/custom_certificates", needs: reads("SSL and Certificates") },
	{ method: "POST", path: "/zones/:zone_id/custom_certificates", needs: writes("SSL and Certificates") },
	{
		method: "GET",
		path: "/zones/:zone_id/custom_certificates/:custom_certificate_id",
		needs: reads("SSL and Certificates"),
	},
	{
		method: "PATCH",
		path: "/zones/:zone_id/custom_certificates/:custom_certificate_id",
		needs: writes("SSL and Certificates"),
	},
	{
		method: "DELETE",
		path: "/zones/:zone_id/custom_certificates/:custom_certificate_id",
		needs: writes("SSL and Certificates"),
	},
	// Emulator-only routes (not Cloudflare's): the zone's own settings, so the Zone group.
	{ method: "GET", path: "/zones/:zone_id/emulator/clock", needs: reads("Zone") },
	{ method: "PUT", path: "/zones/:zone_id/emulator/clock", needs: writes("Zone") },
	{ method: "POST", path: "/zones/:zone_id/emulator/clock/advance", needs: writes("Zone") },
	{ method: "GET", path: "/zones/:zone_id/emulator/outbox", needs: reads("Zone") },
	{ method: "GET", path: "/zones/:zone_id/emulator/chains/:certificate_id", needs: reads("Zone") },
	{ method: "GET", path: "/zones/:zone_id/emulator/dns", needs: reads("Zone") },
	{ method: "GET", path: "/zones/:zone_id/emulator/dns/:name", needs: reads("Zone") },
	{ method: "PUT", path: "/zones/:zone_id/emulator/dns/:name", needs: writes("Zone") },
	{ method: "DELETE", path: "/zones/:zone_id/emulator/dns/:name", needs: writes("Zone") },
];

const router = new PatternRouter<Requirement>();
for (const { method, path, needs } of ENDPOINTS) router.add(method, `/client/v4${path}`, needs);

/**
 * What `method path` asks (path with `/client/v4`); HEAD asks what GET does. An endpoint
 * missing from ENDPOINTS falls back to its method: GET and HEAD read, others write, and no
 * permission grants it, so a token limited by permissions is refused until it is listed.
 */
export function requirementOf(method: string, path: string): Requirement {
	const asked = method === "HEAD" ? "GET" : method;
	const [matches] = router.match(asked, path);
	return matches[0]?.[0] ?? { access: asked === "GET" ? "read" : "write", accepted: [] };
}

/**
 * The family of the phases edgezone knows one for: the WAF's phases (docs waf/custom-rules,
 * rate limiting, managed rules: "Zone WAF") and the custom log fields (docs logs/reference/
 * custom-fields: "Logs"). A phase not listed is granted by either, as its endpoint is.
 */
const PHASE_GROUPS: Partial<Record<Phase, Group>> = {
	http_log_custom_fields: "Logs",
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

/** Whether `grant` allows calling `method path` (path with `/client/v4`). */
export function permits(grant: Grant, method: string, path: string): boolean {
	const needs = requirementOf(method, path);
	if (needs.access === "write" && grant.access === "read") return false;
	return grant.permissions === undefined || grant.permissions.some((p) => needs.accepted.includes(p));
}
