/**
 * `/zones/{zone_id}/emulator/outbox`: the e-mails Cloudflare would have sent about the zone's
 * certificates (`zone/outbox.ts`). Not Cloudflare's: an edgezone route, listed in the README's
 * "Emulator-only routes".
 *
 * `GET` answers the notices sent by the zone's current clock, oldest first: `{id, date,
 * recipient, subject, text, certificate_type, certificate_id}`. The clock's moves are applied
 * when any certificate route or this one is read, so setting the clock and reading the outbox
 * shows what was sent by then.
 */
import { Hono } from "hono";
import { zoneRef } from "../certificate-packs";
import { ok } from "../envelope";
import { unwrap } from "../errors";
import { reads } from "../permissions";
import type { ApiEnv } from "../types";

/** Routes under `/zones/{zone_id}/emulator/outbox`. */
export const outbox = new Hono<ApiEnv>().get("/", reads("Zone"), async (c) =>
	ok(unwrap(await c.var.zoneState.outbox(zoneRef(c)))),
);
