/**
 * The spec's whole custom-log-fields flow (area A, "Rules" 2) driven by the official
 * `cloudflare` SDK over the Worker's front door: list rulesets, create the
 * `http_log_custom_fields` ruleset if missing, PUT the rule, create the job. Also the
 * SDK's auto-pagination of `rulesets.list` and its error classes for 400 / 403 / 404.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { DEFAULT_ZONE_ID, SCOPED_TOKEN } from "./credentials";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

const client = sdkClient;

describe("the cloudflare SDK", () => {
	it("configures custom log fields and a job, as the spec's flow does", async () => {
		const cf = client();
		const zone_id = await freshZone();

		let ruleset = undefined as { id: string } | undefined;
		for await (const r of cf.rulesets.list({ zone_id })) {
			if (r.kind === "zone" && r.phase === "http_log_custom_fields") ruleset = r;
		}
		expect(ruleset).toBeUndefined();
		const created = await cf.rulesets.create({
			zone_id,
			name: "Zone-level phase entry point",
			kind: "zone",
			description: "This ruleset configures custom log fields.",
			phase: "http_log_custom_fields",
		});
		ruleset = created as { id: string };

		const updated = await cf.rulesets.update(ruleset.id, {
			zone_id,
			rules: [
				{
					action: "log_custom_field",
					expression: "true",
					description: "Set Logpush custom fields for HTTP requests",
					action_parameters: {
						request_fields: [{ name: "content-type" }, { name: "x-forwarded-for" }],
						response_fields: [{ name: "server" }],
						cookie_fields: [{ name: "__ga" }, { name: "accountNumber" }],
					},
				},
			],
		});
		expect(updated).toMatchObject({ id: ruleset.id, kind: "zone", phase: "http_log_custom_fields", version: "2" });
		const rule = (
			updated as { rules: { id: string; ref: string; enabled: boolean; version: string; last_updated: string }[] }
		).rules[0];
		expect(rule).toMatchObject({ version: "1", enabled: true });
		expect(rule?.ref).toBe(rule?.id);
		expect(rule?.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);

		const job = await cf.logpush.jobs.create({
			zone_id,
			name: "example-com",
			destination_conf: `r2://edgezone-logs/${zone_id}/logs/{DATE}`,
			dataset: "http_requests",
			output_options: {
				field_names: ["RayID", "EdgeStartTimestamp", "Cookies", "RequestHeaders", "ResponseHeaders"],
				timestamp_format: "rfc3339",
			},
		});
		expect(job).toMatchObject({
			id: 1,
			enabled: false,
			dataset: "http_requests",
			output_options: { timestamp_format: "rfc3339" },
		});

		const jobs = await cf.logpush.jobs.list({ zone_id });
		expect(jobs.result.map((j) => j?.id)).toEqual([1]);
	});

	it("auto-paginates rulesets.list across cursor pages", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const names = ["a", "b", "c", "d", "e"];
		for (const name of names)
			await cf.rulesets.create({ zone_id, name, kind: "custom", phase: "http_request_firewall_custom" });

		const seen: string[] = [];
		for await (const r of cf.rulesets.list({ zone_id, per_page: 2 })) seen.push(r.name);
		expect(seen.sort()).toEqual(names);

		const first = await cf.rulesets.list({ zone_id, per_page: 2 });
		expect(first.result).toHaveLength(2);
		expect(first.hasNextPage()).toBe(true);
	});

	it("raises BadRequestError for invalid input, with the API's errors", async () => {
		const error = await client()
			.rulesets.create({ zone_id: DEFAULT_ZONE_ID, name: "x", kind: "managed", phase: "http_log_custom_fields" })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((error as InstanceType<typeof Cloudflare.BadRequestError>).errors).toEqual([
			expect.objectContaining({ source: { pointer: "/kind" } }),
		]);
	});

	it("raises PermissionDeniedError for a zone the token may not reach", async () => {
		const zone_id = await freshZone();
		const error = await client(SCOPED_TOKEN)
			.rulesets.list({ zone_id })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Cloudflare.PermissionDeniedError);
		expect((error as InstanceType<typeof Cloudflare.PermissionDeniedError>).errors).toEqual([
			{ code: 10000, message: "Authentication error" },
		]);
	});

	it("raises NotFoundError for an unknown ruleset", async () => {
		const error = await client()
			.rulesets.get("0".repeat(32), { zone_id: DEFAULT_ZONE_ID })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("deletes a ruleset (204) and a job", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const r = (await cf.rulesets.create({ zone_id, name: "gone", kind: "zone", phase: "http_log_custom_fields" })) as {
			id: string;
		};
		// A 204 has no body: the SDK resolves to null (cloudflare-typescript src/core.ts reads an empty body as null).
		await expect(cf.rulesets.delete(r.id, { zone_id })).resolves.toBeNull();
		await expect(cf.rulesets.get(r.id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
		const job = await cf.logpush.jobs.create({ zone_id, destination_conf: `r2://edgezone-logs/${zone_id}` });
		await expect(cf.logpush.jobs.delete(job?.id ?? 0, { zone_id })).resolves.toEqual({ id: job?.id });
	});
});
