/**
 * The URL normalization setting through the official `cloudflare` SDK, unchanged
 * (`client.urlNormalization.get/update/delete`); a file of its own for the SDK's size
 * (docs/architecture.md, "Tests").
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID } from "./credentials";
import { sdkClient } from "./sdk";

describe("client.urlNormalization", () => {
	it("gets, updates and deletes the setting of a zone", async () => {
		const cf = sdkClient();
		const zone_id = DEFAULT_ZONE_ID;
		expect(await cf.urlNormalization.get({ zone_id })).toStrictEqual({ type: "cloudflare", scope: "incoming" });
		expect(await cf.urlNormalization.update({ zone_id, type: "rfc3986", scope: "none" })).toStrictEqual({
			type: "rfc3986",
			scope: "none",
		});
		expect(await cf.urlNormalization.get({ zone_id })).toStrictEqual({ type: "rfc3986", scope: "none" });
		await cf.urlNormalization.delete({ zone_id });
		expect(await cf.urlNormalization.get({ zone_id })).toStrictEqual({ type: "cloudflare", scope: "incoming" });
	});
});
