/**
 * `/zones/{zone_id}/url_normalization`: the zone's URL normalization setting
 * (https://developers.cloudflare.com/api/resources/url_normalization/; SDK
 * `client.urlNormalization.get/update/delete`).
 *
 * Emulates: GET and PUT of `{type, scope}` (`type` "cloudflare" | "rfc3986", `scope` "incoming" |
 * "both" | "none", both required on PUT as the SDK's `URLNormalizationUpdateParams` types them),
 * and DELETE, 204 with no body (the OpenAPI schema's answer), which puts the zone back on
 * Cloudflare's default, `cloudflare` on `incoming` (`src/common/url-normalization.ts`). The edge
 * applies the setting from the next request (`src/edge/request-path.ts`). Permissions: the
 * endpoint's "Accepted Permissions" are the rulesets' families, of which edgezone knows Zone WAF
 * and Logs (`permissions.ts`). A bad body is 400 20200 (edgezone's choice) naming the field.
 */
import type {
	URLNormalizationGetResponse,
	URLNormalizationUpdateResponse,
} from "cloudflare/resources/url-normalization/url-normalization";
import { Hono } from "hono";
import { z } from "zod";
import { NORMALIZATION_SCOPES, NORMALIZATION_TYPES } from "../common/url-normalization";
import { CODES } from "../zone/failure";
import { noContent, ok } from "./envelope";
import { unwrap } from "./errors";
import { RULESETS, reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

const UPDATE = z.strictObject({
	type: z.enum(NORMALIZATION_TYPES, { error: 'type must be "cloudflare" or "rfc3986"' }),
	scope: z.enum(NORMALIZATION_SCOPES, { error: 'scope must be "incoming", "both" or "none"' }),
});

/** Routes under `/zones/{zone_id}/url_normalization`. */
export const urlNormalization = new Hono<ApiEnv>()
	.get("/", reads(...RULESETS), async (c) =>
		ok(unwrap(await c.var.zoneState.urlNormalization()) satisfies URLNormalizationGetResponse),
	)
	.put("/", writes(...RULESETS), async (c) => {
		const body = await parseBody(c, UPDATE, CODES.urlNormalizationInvalid);
		return ok(unwrap(await c.var.zoneState.setUrlNormalization(body)) satisfies URLNormalizationUpdateResponse);
	})
	.delete("/", writes(...RULESETS), async (c) => {
		unwrap(await c.var.zoneState.resetUrlNormalization());
		return noContent();
	});
