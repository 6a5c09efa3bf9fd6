/**
 * `/zones/{zone_id}/emulator/clock`: the zone's emulator clock (`zone/clock.ts`). Not
 * Cloudflare's: an edgezone route, listed in the README's "Emulator-only routes".
 *
 * - `GET` answers the clock: `{now, real, frozen, offset_seconds}`.
 * - `PUT {"now": "2024-06-01T00:00:00Z", "frozen": false}` sets it: `now` an RFC 3339 date-time
 *   (or null for real time again), `frozen` (default false) whether it stands still there.
 * - `POST .../advance {"seconds": 3600}` moves it forward by a whole number of seconds.
 * Errors: a bad body is 400 9400 naming the field.
 */
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../../zone/failure";
import { ok } from "../envelope";
import { unwrap } from "../errors";
import { reads, writes } from "../permissions";
import type { ApiEnv } from "../types";
import { parseBody } from "../validate";

// Years 1970 to 9999: what RFC 3339 and the certificates the clock drives can say.
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** An RFC 3339 date-time between 1970 and 9999, as a Date (the emulator routes' moments). */
export const MOMENT = z.iso
	.datetime({ offset: true, message: "must be an RFC 3339 date-time such as 2024-06-01T00:00:00Z" })
	.transform((text) => new Date(text))
	.refine((date) => date.getTime() >= 0 && date.getTime() <= LATEST, "must be between 1970 and 9999");

const SETTING = z.strictObject({ now: MOMENT.nullable(), frozen: z.boolean().default(false) });
// Up to 100 years a step; going back is a PUT.
const ADVANCE = z.strictObject({
	seconds: z
		.number()
		.int()
		.positive()
		.max(100 * 366 * 86_400),
});

/** Routes under `/zones/{zone_id}/emulator/clock`. */
export const clock = new Hono<ApiEnv>()
	.get("/", reads("Zone"), async (c) => ok(unwrap(await c.var.zoneState.clock())))
	.put("/", writes("Zone"), async (c) => {
		const setting = await parseBody(c, SETTING, CODES.emulatorInvalid);
		return ok(unwrap(await c.var.zoneState.setClock(setting)));
	})
	.post("/advance", writes("Zone"), async (c) => {
		const { seconds } = await parseBody(c, ADVANCE, CODES.emulatorInvalid);
		return ok(unwrap(await c.var.zoneState.advanceClock(seconds * 1000)));
	});
