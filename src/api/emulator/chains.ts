/**
 * `/zones/{zone_id}/emulator/chains/{certificate_id}`: for a certificate pack or a custom
 * certificate and an instant, which CA issued each of its certificates, the chain Cloudflare
 * serves after the leaf, and which client platforms validate it (`src/certificates/`:
 * `servedChain`, `validatingClients`). Not Cloudflare's: an edgezone route, listed in the README's
 * "Emulator-only routes", so a provider sees who breaks before switching.
 *
 * `GET ...?at=2024-09-30T18:14:04Z` (RFC 3339; default: the zone's clock). Managed packs answer
 * one entry per key type (ECDSA, RSA) with the schedule's events from the first issue up to
 * `at` (renewals, the move to Google, chain changes, e-mails). Errors: a malformed id is 7003, a
 * bad `at` 400 9400, an id the zone does not hold 404 9404.
 * Gap: custom hostnames are not answered here yet.
 */
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../../zone/failure";
import { UUID, zoneRef } from "../certificate-packs";
import { ok } from "../envelope";
import { unwrap } from "../errors";
import type { ApiEnv } from "../types";
import { parseParam, parseQuery } from "../validate";

const QUERY = z.object({
	at: z.iso
		.datetime({ offset: true, message: "must be an RFC 3339 date-time such as 2024-09-09T00:00:00Z" })
		.transform((text) => Date.parse(text))
		.optional(),
});

/** Routes under `/zones/{zone_id}/emulator/chains`. */
export const chains = new Hono<ApiEnv>().get("/:certificate_id", async (c) => {
	const id = parseParam(c, "certificate_id", UUID);
	const { at } = parseQuery(c, QUERY, CODES.emulatorInvalid);
	return ok(unwrap(await c.var.zoneState.chains(zoneRef(c), id, at ?? null)));
});
