/**
 * `/zones/{zone_id}/acm/total_tls`: Total TLS (SDK `client.acm.totalTLS.get/update/edit`, both
 * writes a POST; objects `TotalTLSGetResponse`: `enabled`, `certificate_authority`,
 * `validity_period` 90).
 *
 * Emulates the setting and its CA choice (`google`, `lets_encrypt`, `ssl_com`; absent: Cloudflare
 * chooses, and the answer leaves it out). Total TLS on Let's Encrypt is not moved by the 2024
 * schedule; its owner is notified (outbox). Gap: Total TLS issues a certificate for each proxied
 * host name, and edgezone zones have no proxied DNS records, so no `total_tls` packs appear.
 * A bad body is 400 1474 (edgezone's code).
 */
import type { TotalTLSGetResponse, TotalTLSUpdateResponse } from "cloudflare/resources/acm/total-tls";
import { Hono } from "hono";
import { z } from "zod";
import { AUTHORITIES } from "../zone/certificates/issuance";
import { CODES } from "../zone/failure";
import { zoneRef } from "./certificate-packs";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

const UPDATE = z.strictObject({
	enabled: z.boolean(),
	certificate_authority: z.enum(AUTHORITIES).optional(),
});

/** Routes under `/zones/{zone_id}/acm/total_tls`. */
export const totalTls = new Hono<ApiEnv>()
	.get("/", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.totalTls(zoneRef(c))) satisfies TotalTLSGetResponse),
	)
	.post("/", writes("SSL and Certificates"), async (c) => {
		const body = await parseBody(c, UPDATE, CODES.sslSettingsInvalid);
		const settings = unwrap(await c.var.zoneState.setTotalTls(zoneRef(c), body.enabled, body.certificate_authority));
		return ok(settings satisfies TotalTLSUpdateResponse);
	});
