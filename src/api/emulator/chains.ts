/**
 * `/zones/{zone_id}/emulator/chains/{certificate_id}`: for a certificate pack, a custom
 * certificate or a custom hostname and an instant, which CA issued each of its certificates, the chain Cloudflare
 * serves after the leaf, and which client platforms validate it (`src/certificates/`:
 * `servedChain`, `validatingClients`). Not Cloudflare's: an edgezone route, listed in the README's
 * "Emulator-only routes", so a provider sees who breaks before switching.
 *
 * `GET ...?at=2024-09-30T18:14:04Z` (RFC 3339; default: the zone's clock). Managed packs answer
 * one entry per key type (ECDSA, RSA) with the schedule's events from the first issue up to
 * `at` (renewals, the move to Google, chain changes, e-mails); a custom hostname answers its RSA
 * certificate as its own lifecycle has it at `at`. Errors: a malformed id is 7003, a bad `at` 400
 * 9400, an id the zone does not hold 404 9404.
 */
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../../zone/failure";
import { UUID, zoneRef } from "../certificate-packs";
import { ok } from "../envelope";
import { unwrap } from "../errors";
import { reads } from "../permissions";
import type { ApiEnv } from "../types";
import { HEX_ID, parseParam, parseQuery } from "../validate";

const QUERY = z.object({
	at: z.iso
		.datetime({ offset: true, message: "must be an RFC 3339 date-time such as 2024-09-09T00:00:00Z" })
		.transform((text) => Date.parse(text))
		.optional(),
});

/** Routes under `/zones/{zone_id}/emulator/chains`. */
export const chains = new Hono<ApiEnv>().get("/:certificate_id", reads("Zone"), async (c) => {
	// Packs, custom certificates and custom hostnames have UUIDs; custom hostnames stored before
	// edgezone issued UUIDs keep their 32 hex digits.
	const id = parseParam(c, "certificate_id", UUID.or(HEX_ID));
	const { at } = parseQuery(c, QUERY, CODES.emulatorInvalid);
	return ok(unwrap(await c.var.zoneState.chains(zoneRef(c), id, at ?? null)));
});
