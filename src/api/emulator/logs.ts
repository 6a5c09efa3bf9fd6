/**
 * `/zones/{zone_id}/emulator/logs`: edgezone's own routes over a zone's edge logs (not
 * Cloudflare's API; README "Emulator-only routes"), authenticated like the API, with the
 * permissions of log-push (Logs Edit; `permissions.ts`).
 *
 * - `GET` answers the pending log: entries held, the oldest one's time, entries still waiting
 *   in this isolate's buffer, and per enabled `http_requests` job its undelivered entries, the
 *   oldest of them, and its failure back-off.
 * - `POST /flush` appends what waits in this isolate to the zone's pending log, then delivers
 *   everything pending at once, for every enabled job, ignoring batch limits and back-off
 *   (`Zone.flushLogs`); it answers what each job delivered: entries, records, object keys, and
 *   the error of a failed delivery (the job's `last_error`/`error_message` say it too).
 */
import { Hono } from "hono";
import { flushZone, waitingCount } from "../../edge/log-buffer";
import { ok } from "../envelope";
import { readsLogpush, writes } from "../permissions";
import type { ApiEnv } from "../types";

/** Routes under `/zones/{zone_id}/emulator/logs`. */
export const emulatorLogs = new Hono<ApiEnv>()
	// The pending log holds request data, as jobs do: log-push's permissions.
	.get("/", readsLogpush, async (c) =>
		ok({ ...(await c.var.zoneState.logStatus()), waiting_in_isolate: waitingCount(c.var.zone.id) }),
	)
	.post("/flush", writes("Logs"), async (c) => {
		await flushZone(c.env, c.var.zone.id);
		return ok({ deliveries: await c.var.zoneState.flushLogs() });
	});
