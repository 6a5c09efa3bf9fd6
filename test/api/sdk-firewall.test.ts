/**
 * Filters, firewall rules and custom rules driven by the official `cloudflare` SDK, unchanged,
 * over the Worker's front door: arrays for `filters.create`, the
 * single object with an action object that `firewall.rules.create` and `.update` send, the
 * empty body of `.edit`, page-based auto-pagination, and `rulesets.phases.update`.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { ADMIN, INVALID, NET, SHOP } from "./expressions";
import { freshZone } from "./http";
import { sdkClient } from "./sdk";

const client = sdkClient;

describe("the cloudflare SDK and filters", () => {
	it("creates, lists, gets, updates, bulk-updates, deletes and bulk-deletes filters", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const page = await cf.filters.create({
			zone_id,
			body: [{ expression: ADMIN }, { expression: NET }, { expression: SHOP }],
		});
		const [a, b, c] = page.result;
		expect(a).toMatchObject({ expression: ADMIN, paused: false });

		const seen: string[] = [];
		for await (const f of cf.filters.list({ zone_id, per_page: 5 })) seen.push(f.expression ?? "");
		expect(seen).toEqual([ADMIN, NET, SHOP]);

		expect(await cf.filters.get(a?.id ?? "", { zone_id })).toEqual(a);
		expect(await cf.filters.update(a?.id ?? "", { zone_id, description: "admin" })).toMatchObject({
			id: a?.id,
			description: "admin",
		});
		// The SDK's bulk body type has no `id`, though the API needs one per filter (developers.cloudflare.com/firewall/api/cf-filters/put/).
		const edits = [
			{ id: b?.id ?? "", paused: true },
			{ id: c?.id ?? "", description: "shop" },
		];
		const bulk = await cf.filters.bulkUpdate({ zone_id, body: edits });
		expect(bulk.result).toMatchObject([
			{ id: b?.id, expression: NET, paused: true },
			{ id: c?.id, expression: SHOP, description: "shop" },
		]);
		expect(await cf.filters.delete(a?.id ?? "", { zone_id })).toEqual({ id: a?.id });
		expect(await cf.filters.bulkDelete({ zone_id, id: [b?.id ?? "", c?.id ?? ""] })).toEqual([
			{ id: b?.id },
			{ id: c?.id },
		]);
		expect((await cf.filters.list({ zone_id })).result).toEqual([]);
	});

	it("raises BadRequestError for an invalid expression", async () => {
		const error = await client()
			.filters.create({ zone_id: await freshZone(), body: [{ expression: INVALID }] })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
		const [entry] = (error as InstanceType<typeof Cloudflare.BadRequestError>).errors;
		expect(entry?.code).toBe(10014);
		expect(entry?.message).toContain("Filter parsing error (");
	});
});

describe("the cloudflare SDK and firewall rules", () => {
	it("creates a rule with an action object, then lists, gets, edits, updates and deletes it", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const created = await cf.firewall.rules.create({
			zone_id,
			action: { mode: "challenge" },
			filter: { expression: ADMIN },
		});
		const [rule] = created.result;
		expect(rule).toMatchObject({ action: "challenge", filter: { expression: ADMIN } });
		const id = rule?.id ?? "";

		const listed: string[] = [];
		for await (const r of cf.firewall.rules.list({ zone_id })) listed.push(r.id ?? "");
		expect(listed).toEqual([id]);
		expect(await cf.firewall.rules.get(id, { zone_id })).toEqual(rule);
		expect((await cf.firewall.rules.edit(id, { zone_id })).result).toEqual([rule]);

		const updated = await cf.firewall.rules.update(id, {
			zone_id,
			action: { mode: "ban" },
			filter: { expression: ADMIN },
		});
		expect(updated).toMatchObject({ id, action: "block", filter: rule?.filter });

		expect(await cf.firewall.rules.delete(id, { zone_id })).toEqual({ id });
		await expect(cf.firewall.rules.get(id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("follows the recommended flow: filter, then rule by filter id; delete in reverse", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const [filter] = (await cf.filters.create({ zone_id, body: [{ expression: NET }] })).result;
		// The SDK's FirewallFilterParam has no `id`, though the API takes `{id}` (developers.cloudflare.com/firewall/api/cf-firewall-rules/post/).
		const [rule] = (
			await cf.firewall.rules.create({
				zone_id,
				action: { mode: "managed_challenge" },
				filter: { id: filter?.id } as { expression?: string },
			})
		).result;
		expect(rule?.filter).toEqual(filter);
		await expect(cf.filters.delete(filter?.id ?? "", { zone_id })).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
		await cf.firewall.rules.delete(rule?.id ?? "", { zone_id });
		expect(await cf.filters.delete(filter?.id ?? "", { zone_id })).toEqual({ id: filter?.id });
	});

	it("answers the bulk calls as the SDK sends them: one object with an id, or no ids at all", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const [rule] = (await cf.firewall.rules.create({ zone_id, action: { mode: "ban" }, filter: { expression: ADMIN } }))
			.result;
		const id = rule?.id ?? "";
		// bulkEdit sends PATCH /firewall/rules with `{"id": ...}`: an edit of that rule changing nothing.
		expect((await cf.firewall.rules.bulkEdit({ zone_id, id })).result).toEqual([rule]);
		// bulkUpdate sends PUT with `{"id": ...}` alone, where the API takes whole rules with id, action and
		// filter.id (developers.cloudflare.com/firewall/api/cf-firewall-rules/put/): refused, naming a missing field.
		const update = await cf.firewall.rules.bulkUpdate({ zone_id, id }).catch((e: unknown) => e);
		expect(update).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((update as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]?.code).toBe(10200);
		// bulkDelete sends DELETE /firewall/rules without ids, where the API takes them in `?id=`
		// (developers.cloudflare.com/firewall/api/cf-firewall-rules/delete/): refused, and nothing is deleted.
		const remove = await cf.firewall.rules.bulkDelete({ zone_id }).catch((e: unknown) => e);
		expect(remove).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((remove as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]?.source?.pointer).toBe("/id");
		expect(await cf.firewall.rules.get(id, { zone_id })).toEqual(rule);
		// With the ids as the request option `query`, bulkDelete deletes them.
		const deleted = await cf.firewall.rules.bulkDelete({ zone_id }, { query: { id: [id] } });
		expect(deleted.result).toEqual([{ id }]);
		await expect(cf.firewall.rules.get(id, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("creates and updates with the SDK's whole action type: {mode, timeout, response}", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const [rule] = (
			await cf.firewall.rules.create({
				zone_id,
				action: { mode: "ban", timeout: 3600, response: { body: "no", content_type: "text/plain" } },
				filter: { expression: ADMIN },
			})
		).result;
		expect(rule).toMatchObject({ action: "block", filter: { expression: ADMIN } });
		const updated = await cf.firewall.rules.update(rule?.id ?? "", {
			zone_id,
			action: { mode: "js_challenge", timeout: 60 },
			filter: { expression: ADMIN },
		});
		expect(updated).toMatchObject({ id: rule?.id, action: "js_challenge" });
	});
});

describe("the cloudflare SDK and custom rules", () => {
	it("puts custom rules into the http_request_firewall_custom entrypoint", async () => {
		const cf = client();
		const zone_id = await freshZone();
		const ruleset = await cf.rulesets.phases.update("http_request_firewall_custom", {
			zone_id,
			rules: [
				{
					action: "block",
					expression: ADMIN,
					action_parameters: { response: { status_code: 403, content: "no", content_type: "text/plain" } },
				},
				{ action: "skip", expression: NET, action_parameters: { ruleset: "current" } },
			],
		});
		expect(ruleset).toMatchObject({ kind: "zone", phase: "http_request_firewall_custom" });
		expect((ruleset as { rules: { action: string }[] }).rules.map((r) => r.action)).toEqual(["block", "skip"]);
		const error = await cf.rulesets.phases
			.update("http_request_firewall_custom", { zone_id, rules: [{ action: "log", expression: INVALID }] })
			.catch((e: unknown) => e);
		expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((error as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]?.code).toBe(20125);
	});
});
