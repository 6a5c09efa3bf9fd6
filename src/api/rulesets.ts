/**
 * `/zones/{zone_id}/rulesets`: zone-level rulesets, their phase entrypoints and versions
 * (cloudflare-api-v4.md §3.1; SDK `client.rulesets.*`, `.phases.*`, `.versions.*`).
 *
 * This module owns HTTP: it validates bodies and queries fully, each rule by the schema of
 * its action (unknown fields refused, as the real API does), and renders answers; the
 * semantics (one zone ruleset per phase, the actions and limits of a phase, versions) are
 * the Zone's (`src/zone/rulesets.ts`).
 * Lists omit `rules` and page with a cursor (`result_info.cursor`, absent on the last page).
 * The versions list is one page, as the SDK reads it (`versions.list` is a `SinglePage`):
 * it is bounded by keeping only the latest 100 versions (`KEPT_VERSIONS`, zone/limits.ts);
 * reading an older one is a 404 that says so.
 * Gaps: version deletion and the entrypoint versions endpoints are not served;
 * `?dry_run=true` is refused with a 400 rather than ignored, so no client mistakes a
 * write for a dry run.
 */
import type { RulesetGetResponse, RulesetListResponse } from "cloudflare/resources/rulesets/rulesets";
import type { VersionListResponse } from "cloudflare/resources/rulesets/versions";
import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { fromBase64Url, fromHex, toBase64Url, toHex } from "../common/encoding";
import { CODES } from "../zone/failure";
import { MAX_RULESET_DESCRIPTION, MAX_RULESET_NAME } from "../zone/limits";
import { RULE } from "../zone/phases/actions";
import { PHASES } from "../zone/phases/table";
import { noContent, ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
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
 * Refuses `?dry_run=true` on writes (reference §3.1: validate without persisting), which
 * edgezone does not emulate; `dry_run=false` is the normal write, other values are a 400
 * as in the real API. Registered in `app.ts` for every path under `.../rulesets`.
 */
export const refuseDryRun = createMiddleware<ApiEnv>(async (c, next) => {
	const dryRun = c.req.query("dry_run");
	if (c.req.method !== "GET" && dryRun !== undefined && dryRun !== "false") {
		const message = dryRun === "true" ? "dry_run is not supported by edgezone" : "dry_run must be true or false";
		throw new ApiError(400, [{ code: CODES.rulesetInvalid, message, source: { pointer: "/dry_run" } }]);
	}
	await next();
});

/** Routes under `/zones/{zone_id}/rulesets` (rules are in `ruleset-rules.ts`). */
export const rulesets = new Hono<ApiEnv>()
	.get("/", async (c) => {
		const q = parseQuery(c, LIST, CODES.rulesetInvalid);
		const page = unwrap(await c.var.zoneState.listRulesets(q.per_page, q.cursor));
		const cursor = page.nextAfter === undefined ? {} : { cursor: encodeCursor(page.nextAfter) };
		return ok(page.items satisfies RulesetListResponse[], {
			count: page.items.length,
			per_page: q.per_page,
			...cursor,
		});
	})
	.post("/", async (c) => {
		const body = await parseBody(c, CREATE, CODES.rulesetInvalid);
		requirePhase(c, body.phase, "write");
		return ok(unwrap(await c.var.zoneState.createRuleset(body)) satisfies RulesetGetResponse);
	})
	.get("/phases/:phase/entrypoint", async (c) => {
		const phase = parseParam(c, "phase", PHASE);
		requirePhase(c, phase, "read");
		return ok(unwrap(await c.var.zoneState.getEntrypoint(phase)) satisfies RulesetGetResponse);
	})
	.put("/phases/:phase/entrypoint", async (c) => {
		const phase = parseParam(c, "phase", PHASE);
		requirePhase(c, phase, "write");
		const body = await parseBody(c, ENTRYPOINT_UPDATE, CODES.rulesetInvalid);
		return ok(unwrap(await c.var.zoneState.putEntrypoint(phase, body)) satisfies RulesetGetResponse);
	})
	.get("/:ruleset_id", async (c) => {
		const ruleset = unwrap(await c.var.zoneState.getRuleset(parseParam(c, "ruleset_id", HEX_ID)));
		requirePhase(c, ruleset.phase, "read");
		return ok(ruleset satisfies RulesetGetResponse);
	})
	.put("/:ruleset_id", async (c) => {
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "write");
		const body = await parseBody(c, UPDATE, CODES.rulesetInvalid);
		return ok(unwrap(await c.var.zoneState.updateRuleset(id, body)) satisfies RulesetGetResponse);
	})
	.delete("/:ruleset_id", async (c) => {
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "write");
		unwrap(await c.var.zoneState.deleteRuleset(id));
		return noContent();
	})
	.get("/:ruleset_id/versions", async (c) => {
		const id = parseParam(c, "ruleset_id", HEX_ID);
		await requireRulesetPhase(c, id, "read");
		return ok(unwrap(await c.var.zoneState.listRulesetVersions(id)) satisfies VersionListResponse[]);
	})
	.get("/:ruleset_id/versions/:version", async (c) => {
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
