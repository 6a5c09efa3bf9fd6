/**
 * `/zones/{zone_id}/rulesets`: zone-level rulesets, their phase entrypoints and versions
 * (developers.cloudflare.com/ruleset-engine/rulesets-api/; SDK `client.rulesets.*`, `.phases.*`,
 * `.versions.*`).
 *
 * This module owns HTTP: it validates bodies and queries fully, each rule by the schema of
 * its action (unknown fields refused, as the real API does), and renders answers; the
 * semantics (one zone ruleset per phase, the actions and limits of a phase, versions) are
 * the Zone's (`src/zone/rulesets.ts`).
 * Lists omit `rules` and page with a cursor (`result_info.cursor`, absent on the last page).
 * The versions list is one page, as the SDK reads it (`versions.list` is a `SinglePage`):
 * it is bounded by keeping only the latest 100 versions (`KEPT_VERSIONS`, zone/limits.ts);
 * reading an older one is a 404 that says so.
 * `?dry_run=true` on a write (every POST, PUT, PATCH and DELETE here and in `ruleset-rules.ts`)
 * validates it without persisting, as Cloudflare's API does (cloudflare-typescript
 * `RulesetCreateParams.dry_run`: "Validates the request without persisting changes when set to
 * `true`. Responses that normally return 200 return `result: null`; endpoints that normally
 * return 204 continue to return 204"): the Zone runs the very write and rolls it back
 * (`rehearse`, zone/failure.ts), so it fails with the errors the write would have, and a success
 * leaves the ruleset, its versions and the zone's config version as they were.
 * A phase's entrypoint versions (`/phases/{phase}/entrypoint/versions[/{version}]`, SDK
 * `rulesets.phases.versions.*`) are its `kind: zone` ruleset's: the list is `[]` and a version
 * 404 10003 when the phase has no entrypoint (developers.cloudflare.com/ruleset-engine/rulesets-api/view/).
 * Gaps: version deletion is not served.
 */

import type {
	VersionListResponse as PhaseVersionListResponse,
	VersionGetResponse,
} from "cloudflare/resources/rulesets/phases/versions";
import type { RulesetGetResponse, RulesetListResponse } from "cloudflare/resources/rulesets/rulesets";
import type { VersionListResponse } from "cloudflare/resources/rulesets/versions";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { fromBase64Url, fromHex, toBase64Url, toHex } from "../common/encoding";
import { CODES } from "../zone/failure";
import { MAX_RULESET_DESCRIPTION, MAX_RULESET_NAME } from "../zone/limits";
import { RULE } from "../zone/phases/actions";
import { PHASES } from "../zone/phases/table";
import { noContent, ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { RULESETS, reads, writes } from "./permissions";
import { requirePhase, requireRulesetPhase } from "./phase-access";
import type { ApiEnv } from "./types";
import { HEX_ID, INT_ID, parseBody, parseParam, parseQuery } from "./validate";

const PHASE = z.enum(PHASES);
// Each rule is checked by its action's schema here, so only typed rules reach the Zone.
const RULES = z.array(RULE);

const NAME = z.string().min(1).max(MAX_RULESET_NAME);
const DESCRIPTION = z.string().max(MAX_RULESET_DESCRIPTION);

const CREATE = z.strictObject({
	name: NAME,
	kind: z.enum(["zone", "custom"], { error: "kind must be zone or custom for a zone-level ruleset" }),
	phase: PHASE,
	description: DESCRIPTION.default(""),
	rules: RULES.default([]),
});

const UPDATE = z.strictObject({
	rules: RULES,
	name: NAME.optional(),
	description: DESCRIPTION.optional(),
	kind: z.enum(["zone", "custom"]).optional(),
	phase: PHASE.optional(),
});

const ENTRYPOINT_UPDATE = z.strictObject({
	rules: RULES,
	name: NAME.optional(),
	description: DESCRIPTION.optional(),
});

// Cursor pagination as the SDK's CursorPagination sends it; the cursor is opaque (base64url of an id's bytes).
const LIST = z.object({
	cursor: z
		.string()
		.transform((cursor, ctx) => {
			const id = decodeCursor(cursor);
			if (id === undefined) ctx.addIssue({ code: "custom", message: "invalid cursor" });
			return id ?? "";
		})
		.optional(),
	per_page: z.coerce.number().int().min(1).max(100).default(50),
});

/**
 * Whether a ruleset write is a dry run: `?dry_run=true`; absent or `false` is the normal write,
 * any other value a 400, as the real API answers (the file header). Read before the body, so a
 * bad `dry_run` is the error whatever the body holds.
 * @throws ApiError 400 (20200) at `/dry_run`.
 */
export function dryRunOf(c: Context<ApiEnv>): boolean {
	const value = c.req.query("dry_run");
	if (value === undefined || value === "false") return false;
	if (value === "true") return true;
	throw new ApiError(400, [
		{ code: CODES.rulesetInvalid, message: "dry_run must be true or false", source: { pointer: "/dry_run" } },
	]);
}

/** The answer to a ruleset write that answers 200: the ruleset, or `result: null` for a dry run (the file header). */
export function written(ruleset: RulesetGetResponse, dryRun: boolean) {
	return ok(dryRun ? null : ruleset);
}

/** Routes under `/zones/{zone_id}/rulesets` (rules are in `ruleset-rules.ts`). */
export const rulesets = new Hono<ApiEnv>()
	.get("/", reads(...RULESETS), async (c) => {
		const q = parseQuery(c, LIST, CODES.rulesetInvalid);
		const page = unwrap(await c.var.zoneState.listRulesets(q.per_page, q.cursor));
		const cursor = page.nextAfter === undefined ? {} : { cursor: encodeCursor(page.nextAfter) };
		return ok(page.items satisfies RulesetListResponse[], {
			count: page.items.length,
			per_page: q.per_page,
			...cursor,
		});
	})
	.post("/", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const body = await parseBody(c, CREATE, CODES.rulesetInvalid);
		requirePhase(c, body.phase, "write");
		return written(unwrap(await c.var.zoneState.createRuleset(body, dryRun)), dryRun);
	})
	.get("/phases/:phase/entrypoint", reads(...RULESETS), async (c) => {
		const phase = parseParam(c, "phase", PHASE);
		requirePhase(c, phase, "read");
		return ok(unwrap(await c.var.zoneState.getEntrypoint(phase)) satisfies RulesetGetResponse);
	})
	.put("/phases/:phase/entrypoint", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const phase = parseParam(c, "phase", PHASE);
		requirePhase(c, phase, "write");
		const body = await parseBody(c, ENTRYPOINT_UPDATE, CODES.rulesetInvalid);
		return written(unwrap(await c.var.zoneState.putEntrypoint(phase, body, dryRun)), dryRun);
	})
	.get("/phases/:phase/entrypoint/versions", reads(...RULESETS), async (c) => {
		const phase = parseParam(c, "phase", PHASE);
		requirePhase(c, phase, "read");
		return ok(unwrap(await c.var.zoneState.listEntrypointVersions(phase)) satisfies PhaseVersionListResponse[]);
	})
	.get("/phases/:phase/entrypoint/versions/:version", reads(...RULESETS), async (c) => {
		const phase = parseParam(c, "phase", PHASE);
		// The phase's permission first, as the list route above: a caller without it learns nothing of the version.
		requirePhase(c, phase, "read");
		const version = parseParam(c, "version", INT_ID);
		return ok(unwrap(await c.var.zoneState.getEntrypointVersion(phase, version)) satisfies VersionGetResponse);
	})
	.get("/:ruleset_id", reads(...RULESETS), async (c) => {
		const ruleset = unwrap(await c.var.zoneState.getRuleset(parseParam(c, "ruleset_id", HEX_ID)));
		requirePhase(c, ruleset.phase, "read");
		return ok(ruleset satisfies RulesetGetResponse);
	})
	.put("/:ruleset_id", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "write");
		const body = await parseBody(c, UPDATE, CODES.rulesetInvalid);
		return written(unwrap(await c.var.zoneState.updateRuleset(id, body, dryRun)), dryRun);
	})
	.delete("/:ruleset_id", writes(...RULESETS), async (c) => {
		const dryRun = dryRunOf(c);
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "write");
		unwrap(await c.var.zoneState.deleteRuleset(id, dryRun));
		return noContent();
	})
	.get("/:ruleset_id/versions", reads(...RULESETS), async (c) => {
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "read");
		return ok(unwrap(await c.var.zoneState.listRulesetVersions(id)) satisfies VersionListResponse[]);
	})
	.get("/:ruleset_id/versions/:version", reads(...RULESETS), async (c) => {
		const id = parseParam(c, "ruleset_id", HEX_ID);
		const version = parseParam(c, "version", INT_ID);
		await requireRulesetPhase(c, id, "read");
		return ok(unwrap(await c.var.zoneState.getRulesetVersion(id, version)) satisfies RulesetGetResponse);
	});

/** A ruleset id as an opaque cursor: its 16 bytes in base64url (22 characters). */
function encodeCursor(id: string): string {
	return toBase64Url(fromHex(id) ?? new Uint8Array());
}

/** The ruleset id of a cursor, or undefined when `cursor` is not one `encodeCursor` makes. */
function decodeCursor(cursor: string): string | undefined {
	const bytes = fromBase64Url(cursor);
	return bytes?.length === 16 ? toHex(bytes) : undefined;
}
