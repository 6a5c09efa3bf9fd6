/**
 * `/zones/{zone_id}/ssl/certificate_packs`: certificate packs (developers.cloudflare.com/api/
 * resources/ssl/subresources/certificate_packs/; SDK
 * `client.ssl.certificatePacks.*`, objects `CertificatePackListResponse` and friends).
 *
 * Emulates: list (`status=all`, else only active packs; `deploy=staging` answers none, as
 * edgezone has no staging environment; page-based `result_info`, `result: []` past the last
 * page), get, PATCH (restarts validation of an advanced pack, `cloudflare_branding`), DELETE
 * (advanced packs; the universal pack is refused, 1472), `POST .../order` of advanced packs and
 * `GET .../quota`. The Zone derives status and certificates from the zone's clock
 * (`zone/certificates/`).
 * Order checks (400 1470 at the field's pointer; codes not public, edgezone's): `type`
 * `advanced`; 1 to 50 `hosts` (SDK: "may not contain more than 50 hosts, and may not be empty"),
 * each a host name of the zone, wildcards as `*.` first label, no duplicates, the zone apex among
 * them ("Must contain the zone apex"); `validation_method` `txt`/`http`/`email`, `http` not for
 * wildcards (docs: HTTP DCV cannot validate wildcards); `certificate_authority` `google`,
 * `lets_encrypt`, `ssl_com`; `validity_days` one the CA issues (developers.cloudflare.com/ssl/reference/
 * certificate-authorities/: Let's Encrypt 90,
 * Google 14/30/90, SSL.com 14/30/90; SSL.com's 365 is Enterprise-only and edgezone zones have no
 * plan, so it is refused).
 */
import type {
	CertificatePackCreateResponse,
	CertificatePackDeleteResponse,
	CertificatePackEditResponse,
	CertificatePackGetResponse,
	CertificatePackListResponse,
} from "cloudflare/resources/ssl/certificate-packs/certificate-packs";
import type { QuotaGetResponse } from "cloudflare/resources/ssl/certificate-packs/quota";
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { checkValidity } from "../certificates";
import { AUTHORITIES } from "../zone/certificates/issuance";
import type { ZoneRef } from "../zone/certificates/store";
import { CODES } from "../zone/failure";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { PAGE_QUERY, pageInfo } from "./pagination";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody, parseOptionalBody, parseParam, parseQuery } from "./validate";

const CODE = CODES.certificatePackInvalid;

/** A pack or custom certificate id: a UUID (the SDK's examples). */
export const UUID = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

/** A host name, or a wildcard with `*.` as its first label; lower-cased (RFC 1035 §2.3.1 labels). */
const HOST = z
	.string()
	.max(253)
	.transform((host) => host.toLowerCase())
	.pipe(
		z
			.string()
			.regex(
				/^(?:\*\.)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/,
				"must be a host name such as www.example.com or *.example.com",
			),
	);

const ORDER = z
	.strictObject({
		type: z.literal("advanced", { error: 'type must be "advanced": only advanced packs are ordered' }),
		hosts: z.array(HOST).min(1).max(50),
		validation_method: z.enum(["txt", "http", "email"]),
		validity_days: z.union([z.literal(14), z.literal(30), z.literal(90), z.literal(365)]),
		certificate_authority: z.enum(AUTHORITIES),
		cloudflare_branding: z.boolean().optional(),
	})
	.superRefine((order, ctx) => {
		// edgezone zones have no plan: SSL.com's Enterprise-only year is not available.
		const validity = checkValidity(order.certificate_authority, "advanced", order.validity_days, false);
		if (!validity.ok) ctx.addIssue({ code: "custom", path: ["validity_days"], message: validity.reason });
		order.hosts.forEach((host, i) => {
			if (order.hosts.indexOf(host) !== i)
				ctx.addIssue({ code: "custom", path: ["hosts", i], message: `duplicate host "${host}"` });
			if (host.startsWith("*.") && order.validation_method === "http")
				ctx.addIssue({
					code: "custom",
					path: ["validation_method"],
					message: `HTTP validation cannot validate the wildcard "${host}"; use txt`,
				});
		});
	});

const EDIT = z.strictObject({ cloudflare_branding: z.boolean().optional() });

const LIST = z.object({
	status: z.literal("all", { error: 'status must be "all" (or absent: active packs only)' }).optional(),
	deploy: z.enum(["staging", "production"]).optional(),
	...PAGE_QUERY,
});

/** The zone of the path, as the Zone's certificate methods take it. */
export function zoneRef(c: Context<ApiEnv>): ZoneRef {
	return { id: c.var.zone.id, name: c.var.zone.name };
}

/** 400 unless every host of an order is the zone or under it, and the apex is among them. */
function checkHosts(zone: ZoneRef, hosts: string[]): void {
	const errors = hosts.flatMap((host, i) => {
		const name = host.replace(/^\*\./, "");
		return name === zone.name || name.endsWith(`.${zone.name}`)
			? []
			: [
					{
						code: CODE,
						message: `"${host}" is not a host of the zone ${zone.name}`,
						source: { pointer: `/hosts/${i}` },
					},
				];
	});
	if (errors.length === 0 && !hosts.includes(zone.name))
		errors.push({
			code: CODE,
			message: `hosts must contain the zone apex ${zone.name}`,
			source: { pointer: "/hosts" },
		});
	if (errors.length > 0) throw new ApiError(400, errors);
}

/** Routes under `/zones/{zone_id}/ssl/certificate_packs`. */
export const certificatePacks = new Hono<ApiEnv>()
	.get("/", reads("SSL and Certificates"), async (c) => {
		const q = parseQuery(c, LIST, CODE);
		const all = q.deploy === "staging" ? [] : unwrap(await c.var.zoneState.listCertificatePacks(zoneRef(c)));
		const shown = q.status === "all" ? all : all.filter((pack) => pack.status === "active");
		const page = shown.slice((q.page - 1) * q.per_page, q.page * q.per_page);
		return ok(page satisfies CertificatePackListResponse[], pageInfo(q.page, q.per_page, page.length, shown.length));
	})
	.post("/order", writes("SSL and Certificates"), async (c) => {
		const body = await parseBody(c, ORDER, CODE);
		const zone = zoneRef(c);
		checkHosts(zone, body.hosts);
		const pack = unwrap(
			await c.var.zoneState.orderCertificatePack(zone, {
				hosts: body.hosts,
				certificate_authority: body.certificate_authority,
				validation_method: body.validation_method,
				validity_days: body.validity_days,
				cloudflare_branding: body.cloudflare_branding ?? false,
			}),
		);
		return ok(pack satisfies CertificatePackCreateResponse);
	})
	.get("/quota", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.certificatePackQuota(zoneRef(c))) satisfies QuotaGetResponse),
	)
	.get("/:certificate_pack_id", reads("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "certificate_pack_id", UUID);
		return ok(unwrap(await c.var.zoneState.getCertificatePack(zoneRef(c), id)) satisfies CertificatePackGetResponse);
	})
	.patch("/:certificate_pack_id", writes("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "certificate_pack_id", UUID);
		const body = await parseOptionalBody(c, EDIT, CODE);
		const pack = unwrap(await c.var.zoneState.restartCertificatePack(zoneRef(c), id, body.cloudflare_branding));
		return ok(pack satisfies CertificatePackEditResponse);
	})
	.delete("/:certificate_pack_id", writes("SSL and Certificates"), async (c) => {
		const id = parseParam(c, "certificate_pack_id", UUID);
		return ok(
			unwrap(await c.var.zoneState.deleteCertificatePack(zoneRef(c), id)) satisfies CertificatePackDeleteResponse,
		);
	});
