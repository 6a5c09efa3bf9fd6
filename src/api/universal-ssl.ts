/**
 * `/zones/{zone_id}/ssl/universal/settings`: Universal SSL (developers.cloudflare.com/api/
 * resources/ssl/subresources/universal/; SDK
 * `client.ssl.universal.settings.get/edit`).
 *
 * Emulates: `enabled` (false removes the universal pack, true orders a new one) and the
 * undocumented but observed `certificate_authority` (public gists, e.g. gist.github.com/kLiHz/08f28f2c803bf9d556abafef8449a8a1: GET
 * answers it, PATCH accepts it): the CA of the universal certificate in force on the zone's
 * clock, and, when PATCHed, the CA the universal certificate is re-issued from and kept on.
 * Values: `lets_encrypt`, `google` (Universal SSL does not use SSL.com, developers.cloudflare.com/ssl/reference/
 * certificate-authorities/; DigiCert
 * no longer issues new universal certificates). A bad body is 400 1474 (edgezone's code).
 */
import type { UniversalSSLSettings } from "cloudflare/resources/ssl/universal/settings";
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../zone/failure";
import { zoneRef } from "./certificate-packs";
import { ok } from "./envelope";
import { unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

const EDIT = z.strictObject({
	enabled: z.boolean().optional(),
	certificate_authority: z
		.enum(["lets_encrypt", "google"], {
			error: 'certificate_authority must be "lets_encrypt" or "google" (Universal SSL does not use SSL.com)',
		})
		.optional(),
});

/** Routes under `/zones/{zone_id}/ssl/universal/settings`. */
export const universalSsl = new Hono<ApiEnv>()
	.get("/", reads("SSL and Certificates"), async (c) =>
		ok(unwrap(await c.var.zoneState.universalSettings(zoneRef(c))) satisfies UniversalSSLSettings),
	)
	.patch("/", writes("SSL and Certificates"), async (c) => {
		const edit = await parseBody(c, EDIT, CODES.sslSettingsInvalid);
		return ok(unwrap(await c.var.zoneState.editUniversalSettings(zoneRef(c), edit)) satisfies UniversalSSLSettings);
	});
