/**
 * `/zones/{zone_id}/custom_hostnames`: Cloudflare for SaaS custom hostnames, their fallback origin
 * and quota (developers.cloudflare.com/api/resources/custom_hostnames/; SDK
 * `client.customHostnames.*`).
 *
 * Emulates: list (filters `id`, `hostname` and the SDK's `hostname.exact` / `hostname.contain` /
 * `hostname.startsWith`, `ssl` 0|1, `ssl_status`, `hostname_status`, `certificate_authority`,
 * `wildcard`, `custom_origin_server`; `order` ssl|ssl_status, `direction`; pages of `per_page`
 * 5-50, default 20, `result: []` past the last), create, get, PATCH, DELETE (answering the
 * unenveloped `{"id": ...}`, as the real API's schema and the SDK's `delete` do), the fallback
 * origin (GET, PUT `{origin}`, DELETE) and the quota. Semantics, lifecycle and CA choice are the
 * Zone's (`zone/custom-hostnames/`); this module checks shapes, as the SDK's types spell them.
 * A new or deleted custom hostname is recorded in the registry too, which the edge routes by:
 * a hostname held by another zone is 409 1406 like a duplicate in the zone. A hostname on another
 * zone's name is accepted, as Cloudflare lists no error for a hostname already on Cloudflare
 * (developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/reference/status-codes/
 * custom-hostnames/); its ownership records are that zone's DNS records (`zone/zone-answers.ts`),
 * and its traffic stays with that zone (`edge/zone-routing.ts`).
 * Validation: hostnames per `names.ts` (lower-cased; `*.` only as the leftmost label; no IPs);
 * `ssl.certificate_authority` "" (default CA), `google`, `lets_encrypt` or `ssl_com`, anything
 * else a 400 (DigiCert no longer issues for SaaS, developers.cloudflare.com/ssl/reference/certificate-authorities/); `ssl.type` `dv`; settings
 * with the enums of reference 6.2 and cipher names from Cloudflare's supported cipher suites
 * (docs ssl/edge-certificates/additional-options/cipher-suites/supported-cipher-suites, TLS 1.2
 * and lower: TLS 1.3 suites cannot be chosen); custom certificates are refused (not emulated).
 * Size limits (edgezone's): `custom_metadata` 4,096 bytes as JSON (the docs' per-hostname custom
 * metadata limit is 4 KB), origins 253 characters, 20 ciphers. Ids: UUIDs, and the 32 hex digits
 * of custom hostnames stored before edgezone issued UUIDs (`HOSTNAME_ID`). Errors: 400 1400 naming
 * the field; unknown id 404 1436; malformed id 400 7003; no fallback origin 404 1414.
 */
import type {
	CustomHostnameCreateResponse,
	CustomHostnameDeleteResponse,
	CustomHostnameEditResponse,
	CustomHostnameGetResponse,
	CustomHostnameListResponse,
} from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type {
	FallbackOriginDeleteResponse,
	FallbackOriginGetResponse,
	FallbackOriginUpdateResponse,
} from "cloudflare/resources/custom-hostnames/fallback-origin";
import type { QuotaGetResponse } from "cloudflare/resources/custom-hostnames/quota";
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { zoneRegistry } from "../common/durable-objects";
import { forgetActiveHostnames } from "../edge/custom-hostname-routing";
import { forgetZoneNames } from "../edge/zone-names";
import { hostnameProblem, normalizeHostname } from "../zone/custom-hostnames/names";
import { CODES } from "../zone/failure";
import { UUID } from "./certificate-packs";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { HEX_ID, parseBody, parseParam, parseQuery } from "./validate";

const CODE = CODES.customHostnameInvalid;

/**
 * A custom hostname id: a UUID, the form Cloudflare issues (the SDK's examples,
 * `client.customHostnames.get('0d89c70d-ad9f-4843-b99f-6cc0252067e9', ...)`), or the 32 hex
 * digits edgezone issued before, so that stored custom hostnames stay reachable.
 */
const HOSTNAME_ID = UUID.or(HEX_ID);

/** A custom hostname: validated, then lower-cased without a trailing dot. */
const HOSTNAME = z
	.string()
	.max(254)
	.superRefine((name, ctx) => {
		const problem = hostnameProblem(name);
		if (problem !== undefined) ctx.addIssue({ code: "custom", message: `hostname ${problem}` });
	})
	.transform(normalizeHostname);

/** An origin host name (no wildcard). */
const ORIGIN = HOSTNAME.refine((name) => !name.startsWith("*."), "an origin cannot be a wildcard");

/** TLS 1.2-and-lower cipher suites Cloudflare's edge supports, in BoringSSL names (header). */
const CIPHERS = [
	"ECDHE-ECDSA-AES128-GCM-SHA256",
	"ECDHE-ECDSA-CHACHA20-POLY1305",
	"ECDHE-RSA-AES128-GCM-SHA256",
	"ECDHE-RSA-CHACHA20-POLY1305",
	"ECDHE-ECDSA-AES256-GCM-SHA384",
	"ECDHE-RSA-AES256-GCM-SHA384",
	"ECDHE-ECDSA-AES128-SHA256",
	"ECDHE-RSA-AES128-SHA256",
	"ECDHE-ECDSA-AES256-SHA384",
	"ECDHE-RSA-AES256-SHA384",
	"ECDHE-ECDSA-AES128-SHA",
	"ECDHE-RSA-AES128-SHA",
	"ECDHE-ECDSA-AES256-SHA",
	"ECDHE-RSA-AES256-SHA",
	"AES128-GCM-SHA256",
	"AES128-SHA256",
	"AES128-SHA",
	"AES256-GCM-SHA384",
	"AES256-SHA256",
	"AES256-SHA",
	"DES-CBC3-SHA",
] as const;

const ON_OFF = z.enum(["on", "off"]);

const SETTINGS = z.strictObject({
	min_tls_version: z.enum(["1.0", "1.1", "1.2", "1.3"]).optional(),
	ciphers: z
		.array(z.enum(CIPHERS, { error: "is not a cipher suite Cloudflare supports (BoringSSL name, TLS 1.2 or lower)" }))
		.max(CIPHERS.length)
		.refine((list) => new Set(list).size === list.length, "lists a cipher twice")
		.optional(),
	http2: ON_OFF.optional(),
	tls_1_3: ON_OFF.optional(),
	early_hints: ON_OFF.optional(),
});

const refused = (message: string) =>
	z
		.unknown()
		.refine((v) => v === undefined, message)
		.optional();
const NO_CUSTOM_CERTIFICATES = "custom certificates for custom hostnames are not emulated by edgezone";

const SSL = z.strictObject({
	method: z.enum(["http", "txt", "email"]).optional(),
	type: z.literal("dv", { error: 'type must be "dv"' }).optional(),
	bundle_method: z.enum(["ubiquitous", "optimal", "force"]).optional(),
	certificate_authority: z
		.enum(["", "google", "lets_encrypt", "ssl_com"], {
			error: 'certificate_authority must be "" (the default CA), "google", "lets_encrypt" or "ssl_com"',
		})
		.optional(),
	wildcard: z.boolean().optional(),
	settings: SETTINGS.optional(),
	cloudflare_branding: z.boolean().optional(),
	custom_certificate: refused(NO_CUSTOM_CERTIFICATES),
	custom_key: refused(NO_CUSTOM_CERTIFICATES),
	custom_cert_bundle: refused(NO_CUSTOM_CERTIFICATES),
	custom_csr_id: refused(NO_CUSTOM_CERTIFICATES),
});

const METADATA_MAX_BYTES = 4096;
const METADATA = z
	.record(z.string().min(1), z.string())
	.refine(
		(metadata) => new TextEncoder().encode(JSON.stringify(metadata)).byteLength <= METADATA_MAX_BYTES,
		`custom_metadata is limited to ${METADATA_MAX_BYTES} bytes of JSON`,
	);

const EDIT = z.strictObject({
	custom_metadata: METADATA.optional(),
	// "" removes the field.
	custom_origin_server: z.union([z.literal(""), ORIGIN]).optional(),
	custom_origin_sni: z.union([z.literal(""), z.literal(":request_host_header:"), ORIGIN]).optional(),
	ssl: SSL.optional(),
});

const CREATE = EDIT.extend({ hostname: HOSTNAME });

const HOSTNAME_STATUS = z.enum([
	"active",
	"pending",
	"active_redeploying",
	"moved",
	"pending_deletion",
	"deleted",
	"pending_blocked",
	"pending_migration",
	"pending_provisioned",
	"test_pending",
	"test_active",
	"test_active_apex",
	"test_blocked",
	"test_failed",
	"provisioned",
	"blocked",
]);

const SSL_STATUS = z.enum([
	"initializing",
	"pending_validation",
	"deleted",
	"pending_issuance",
	"pending_deployment",
	"pending_deletion",
	"pending_expiration",
	"expired",
	"active",
	"initializing_timed_out",
	"validation_timed_out",
	"issuance_timed_out",
	"deployment_timed_out",
	"deletion_timed_out",
	"pending_cleanup",
	"staging_deployment",
	"staging_active",
	"deactivating",
	"inactive",
	"backup_issued",
	"holding_deployment",
]);

const TEXT = z.string().min(1).max(254);

// The SDK sends nested objects with dots (`hostname.exact=...`: `qs` with `allowDots`,
// cloudflare-typescript `src/internal/utils/query.ts`).
const LIST = z
	.object({
		id: HOSTNAME_ID.optional(),
		hostname: TEXT.optional(),
		"hostname.exact": TEXT.optional(),
		"hostname.contain": TEXT.optional(),
		"hostname.startsWith": TEXT.optional(),
		ssl: z.enum(["0", "1"]).optional(),
		ssl_status: SSL_STATUS.optional(),
		hostname_status: HOSTNAME_STATUS.optional(),
		certificate_authority: z.enum(["google", "lets_encrypt", "ssl_com"]).optional(),
		wildcard: z.enum(["true", "false"]).optional(),
		custom_origin_server: TEXT.optional(),
		order: z.enum(["ssl", "ssl_status"]).default("ssl"),
		direction: z.enum(["asc", "desc"]).default("asc"),
		page: z.coerce.number().int().min(1).default(1),
		per_page: z.coerce.number().int().min(5).max(50).default(20),
	})
	.refine(
		(q) =>
			q.id === undefined ||
			[q.hostname, q["hostname.exact"], q["hostname.contain"], q["hostname.startsWith"]].every((h) => h === undefined),
		{ message: "id cannot be used with hostname", path: ["id"] },
	);

const FALLBACK = z.strictObject({ origin: ORIGIN });

/** The custom hostname id of the path (a UUID or 32 hex; 7003 otherwise). */
const idOf = (c: Context<ApiEnv>) => parseParam(c, "custom_hostname_id", HOSTNAME_ID);

/** After a write: this isolate's edge reads the registry's routes and the zone's active hostnames again. */
function forgetRoutes(zoneId: string): void {
	forgetZoneNames();
	forgetActiveHostnames(zoneId);
}

/** Routes under `/zones/{zone_id}/custom_hostnames`; the fixed paths before `/:custom_hostname_id`. */
export const customHostnames = new Hono<ApiEnv>()
	.get("/fallback_origin", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.fallbackOrigin()) satisfies FallbackOriginGetResponse),
	)
	.put("/fallback_origin", writes("SSL and Certificates"), async (c) => {
		const { origin } = await parseBody(c, FALLBACK, CODE);
		return ok(unwrap(await c.var.zoneState.setFallbackOrigin(origin)) satisfies FallbackOriginUpdateResponse);
	})
	.delete("/fallback_origin", writes("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.deleteFallbackOrigin()) satisfies FallbackOriginDeleteResponse),
	)
	.get("/quota", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.customHostnameQuota()) satisfies QuotaGetResponse),
	)
	.get("/", reads("SSL and Certificates"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const exact = q["hostname.exact"] ?? q.hostname;
		const page = unwrap(
			await c.var.zoneState.listCustomHostnames({
				id: q.id,
				hostname: {
					...(exact === undefined ? {} : { exact: exact.toLowerCase() }),
					...(q["hostname.contain"] === undefined ? {} : { contain: q["hostname.contain"].toLowerCase() }),
					...(q["hostname.startsWith"] === undefined ? {} : { startsWith: q["hostname.startsWith"].toLowerCase() }),
				},
				ssl: q.ssl === undefined ? undefined : q.ssl === "1",
				ssl_status: q.ssl_status,
				hostname_status: q.hostname_status,
				certificate_authority: q.certificate_authority,
				wildcard: q.wildcard === undefined ? undefined : q.wildcard === "true",
				custom_origin_server: q.custom_origin_server,
				order: q.order,
				direction: q.direction,
				page: q.page,
				perPage: q.per_page,
			}),
		);
		return ok(
			page.items satisfies CustomHostnameListResponse[],
			pageInfo(q.page, q.per_page, page.items.length, page.total),
		);
	})
	.post("/", writes("SSL and Certificates"), async (c) => {
		const body = await parseBody(c, CREATE, CODE);
		const registry = zoneRegistry(c.env);
		const zoneId = c.var.zone.id;
		const claimed = unwrap(await registry.claimCustomHostname(body.hostname, zoneId));
		const created = await c.var.zoneState.createCustomHostname(body);
		if (!created.ok && claimed) await registry.releaseCustomHostname(body.hostname, zoneId);
		forgetRoutes(zoneId);
		return ok(unwrap(created) satisfies CustomHostnameCreateResponse);
	})
	.get("/:custom_hostname_id", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.getCustomHostname(idOf(c))) satisfies CustomHostnameGetResponse),
	)
	.patch("/:custom_hostname_id", writes("SSL and Certificates"), async (c) => {
		const id = idOf(c);
		const body = await parseBody(c, EDIT, CODE);
		const edited = unwrap(await c.var.zoneState.editCustomHostname(id, body));
		forgetActiveHostnames(c.var.zone.id);
		return ok(edited satisfies CustomHostnameEditResponse);
	})
	.delete("/:custom_hostname_id", writes("SSL and Certificates"), async (c) => {
		const { id, hostname } = unwrap(await c.var.zoneState.deleteCustomHostname(idOf(c)));
		unwrap(await zoneRegistry(c.env).releaseCustomHostname(hostname, c.var.zone.id));
		forgetRoutes(c.var.zone.id);
		// Unenveloped, as the real API's schema answers (Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas) and the SDK's `delete` reads it.
		return c.json({ id } satisfies CustomHostnameDeleteResponse);
	});
