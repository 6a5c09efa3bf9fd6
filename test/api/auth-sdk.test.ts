/**
 * What the official `cloudflare` SDK raises for the API's authentication answers (their bodies:
 * auth.test.ts): a token that may not write gets 403 10000, which the SDK raises as its
 * PermissionDeniedError, and nothing is written.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { READ_TOKEN } from "./credentials";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

describe("the SDK against the API's authorization", () => {
	it("raises PermissionDeniedError when a read-only token creates a ruleset, and nothing is created", async () => {
		const cf = sdkClient(READ_TOKEN);
		const zone_id = await freshZone();
		await expect(
			cf.rulesets.create({ zone_id, name: "waf", kind: "zone", phase: "http_request_firewall_custom" }),
		).rejects.toBeInstanceOf(Cloudflare.PermissionDeniedError);
		expect((await cf.rulesets.list({ zone_id })).result).toEqual([]);
	});
});
