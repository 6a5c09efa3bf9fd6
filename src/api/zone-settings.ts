/**
 * `/zones/{zone_id}/settings/{setting_id}`: one zone setting (developers.cloudflare.com/api/
 * resources/zones/subresources/settings/; SDK `client.zones.settings.get/edit`).
 *
 * Emulates: GET and PATCH of the settings edgezone applies (`zone/zone-settings.ts`, today
 * `ip_geolocation`), each answered as `{id, value, editable, modified_on}`; the PATCH body is
 * `{value}` (an `id` beside it, as some clients send, must name the same setting). A setting
 * edgezone does not know is 400 1006, Cloudflare's "Unrecognized zone setting name"; a value it
 * does not take 400 1007 at `/value`. Permissions: the "Zone Settings" group (Read to read, Edit,
 * the API's "Zone Settings Write", to write), the group the endpoints' API reference pages accept.
 */
import type { SettingEditResponse, SettingGetResponse } from "cloudflare/resources/zones/settings";
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../zone/failure";
import { ok } from "./envelope";
import { fromFailures, unwrap } from "./errors";
import { reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

const EDIT = z.strictObject({
	id: z.string().optional(),
	value: z.unknown(),
});

/** Routes under `/zones/{zone_id}/settings`. */
export const zoneSettings = new Hono<ApiEnv>()
	.get("/:setting_id", reads("Zone Settings"), async (c) =>
		ok(unwrap(await c.var.zoneState.zoneSetting(c.req.param("setting_id"))) satisfies SettingGetResponse),
	)
	.patch("/:setting_id", writes("Zone Settings"), async (c) => {
		const id = c.req.param("setting_id");
		const body = await parseBody(c, EDIT, CODES.zoneSettingInvalid);
		if (body.id !== undefined && body.id !== id) {
			const message = `id must name the setting of the path, ${id}`;
			throw fromFailures([{ kind: "invalid", code: CODES.zoneSettingInvalid, message, pointer: "/id" }]);
		}
		return ok(unwrap(await c.var.zoneState.editZoneSetting(id, body.value)) satisfies SettingEditResponse);
	});
