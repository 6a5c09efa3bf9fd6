/**
 * `/zones/{zone_id}/managed_headers`: the zone's Managed Transforms
 * (developers.cloudflare.com/api/resources/managed_transforms/; SDK
 * `client.managedTransforms.list/edit/delete`).
 *
 * Emulates: GET, both lists; PATCH with `managed_request_headers` and `managed_response_headers`
 * (each optional, as the SDK's `ManagedTransformEditParams` types them), each entry `{id,
 * enabled}`, answering both lists after the change; DELETE, which turns every transform off, 204
 * with no body (the OpenAPI schema's answer, github.com/cloudflare/api-schemas,
 * `deleteManagedTransforms`). An entry may carry back `has_conflict` and `conflicts_with`, as the
 * schema's request body lists them; they are ignored. Which transforms exist and what a PATCH
 * may do: `zone/managed-transforms.ts`. Permissions: the endpoints' token groups are the rulesets'
 * families (the schema's `x-api-token-group`), of which edgezone knows those of `permissions.ts`'s
 * `RULESETS`. A bad body is 400 20200 (edgezone's choice) naming the field.
 */
import type {
	ManagedTransformEditResponse,
	ManagedTransformListResponse,
} from "cloudflare/resources/managed-transforms/managed-transforms";
import { Hono } from "hono";
import { z } from "zod";
import { CODES } from "../zone/failure";
import { noContent, ok } from "./envelope";
import { unwrap } from "./errors";
import { RULESETS, reads, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { parseBody } from "./validate";

/** More entries than there are transforms is a mistake; the bound keeps the work small. */
const MAX_ENTRIES = 20;

const ENTRY = z.strictObject({
	id: z.string().min(1, "id is required").max(100, "an id is at most 100 characters"),
	enabled: z.boolean({ error: "enabled must be true or false" }),
	has_conflict: z.boolean().optional(),
	conflicts_with: z.array(z.string().max(100)).max(MAX_ENTRIES).optional(),
});

const PATCH = z.strictObject({
	managed_request_headers: z.array(ENTRY).max(MAX_ENTRIES).optional(),
	managed_response_headers: z.array(ENTRY).max(MAX_ENTRIES).optional(),
});

/** Routes under `/zones/{zone_id}/managed_headers`. */
export const managedTransforms = new Hono<ApiEnv>()
	.get("/", reads(...RULESETS), async (c) =>
		ok(unwrap(await c.var.zoneState.managedTransforms()) satisfies ManagedTransformListResponse),
	)
	.patch("/", writes(...RULESETS), async (c) => {
		const body = await parseBody(c, PATCH, CODES.managedTransformsInvalid);
		return ok(unwrap(await c.var.zoneState.editManagedTransforms(body)) satisfies ManagedTransformEditResponse);
	})
	.delete("/", writes(...RULESETS), async (c) => {
		unwrap(await c.var.zoneState.resetManagedTransforms());
		return noContent();
	});
