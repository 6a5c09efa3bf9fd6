/**
 * The Firewall Rules API through the front door
 * (developers.cloudflare.com/firewall/api/cf-firewall-rules/): the single POST that creates filters
 * and rules or nothing, rules on existing filters, the quota exception, list / get / PUT / PATCH /
 * DELETE, and the recommended flow of developers.cloudflare.com/firewall/api/call-sequence/.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, INVALID, NET, SHOP } from "./expressions";
import { call, freshZone } from "./http";
import { callWithEnv } from "./with-env";

interface Rule {
	id: string;
	action: string;
	priority: number | null;
	paused: boolean;
	description: string;
	ref: string;
	products?: string[];
	filter: { id: string; expression: string; paused: boolean; deleted?: boolean };
}

const paths = (zone: string) => ({ rules: `/zones/${zone}/firewall/rules`, filters: `/zones/${zone}/filters` });

describe("the single POST", () => {
	it("creates filters and rules, answered as the docs' POST example is", async () => {
		const { rules, filters } = paths(await freshZone());
		const res = await call("POST", rules, [{ filter: { expression: ADMIN }, action: "block" }]);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([
			{
				id: expect.stringMatching(/^[0-9a-f]{32}$/),
				paused: false,
				description: "",
				action: "block",
				priority: null,
				filter: { id: expect.stringMatching(/^[0-9a-f]{32}$/), paused: false, expression: ADMIN },
				ref: "",
			},
		]);
		expect((await call("GET", filters)).body.result).toEqual([expect.objectContaining({ expression: ADMIN })]);
	});

	it("creates nothing when one member of a batch of three is invalid, naming the filter's index", async () => {
		const { rules, filters } = paths(await freshZone());
		const res = await call("POST", rules, [
			{ filter: { expression: ADMIN }, action: "block" },
			{ filter: { expression: INVALID }, action: "challenge" },
			{ filter: { expression: NET }, action: "allow" },
		]);
		expect(res.status).toBe(400);
		const [error] = res.body.errors ?? [];
		expect(error?.code).toBe(10202);
		expect(error?.message).toMatch(/^filter at index 1: Filter parsing error \(/);
		expect(error?.source?.pointer).toBe("/1/filter/expression");
		expect((await call("GET", rules)).body.result).toEqual([]);
		expect((await call("GET", filters)).body.result).toEqual([]);
	});

	it.each([
		["an unknown action", { filter: { expression: ADMIN }, action: "explode" }, "/1/action"],
		["products without bypass", { filter: { expression: ADMIN }, action: "block", products: ["waf"] }, "/1/products"],
		["an unknown product", { filter: { expression: ADMIN }, action: "bypass", products: ["nope"] }, "/1/products/0"],
		["a negative priority", { filter: { expression: ADMIN }, action: "block", priority: -1 }, "/1/priority"],
		["no filter", { action: "block" }, "/1/filter"],
		["an empty filter", { filter: {}, action: "block" }, "/1/filter"],
		["an unknown field", { filter: { expression: ADMIN }, action: "block", colour: 1 }, "/1/colour"],
		[
			"a description over 500 characters",
			{ filter: { expression: ADMIN }, action: "block", description: "d".repeat(501) },
			"/1/description",
		],
	])("refuses %s with 400 at its field, creating nothing", async (_name, rule, pointer) => {
		const { rules, filters } = paths(await freshZone());
		const res = await call("POST", rules, [{ filter: { expression: SHOP }, action: "log" }, rule]);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect((await call("GET", filters)).body.result).toEqual([]);
	});

	it("refuses a filter expression that exists with 10202 and the existing filter's id", async () => {
		const { rules, filters } = paths(await freshZone());
		const existing = (await call("POST", filters, [{ expression: ADMIN }])).body.result as { id: string }[];
		const res = await call("POST", rules, [{ filter: { expression: ADMIN }, action: "block" }]);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({
			code: 10202,
			message: "filter at index 0: config duplicates an already existing config",
			meta: { id: existing[0]?.id },
		});
	});

	it("refuses an unknown filter id with 10202 at /N/filter/id", async () => {
		const { rules } = paths(await freshZone());
		const res = await call("POST", rules, [{ filter: { id: "0".repeat(32) }, action: "block" }]);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 10202, source: { pointer: "/0/filter/id" } });
	});

	it("accepts one object whose action is the SDK's {mode} object, mapping ban to block and simulate to log", async () => {
		const { rules } = paths(await freshZone());
		const ban = await call("POST", rules, { filter: { expression: ADMIN }, action: { mode: "ban" } });
		expect(ban.body.result).toEqual([expect.objectContaining({ action: "block" })]);
		const simulate = await call("POST", rules, { filter: { expression: NET }, action: { mode: "simulate" } });
		expect(simulate.body.result).toEqual([expect.objectContaining({ action: "log" })]);
	});

	it("takes the whole SDK action object: timeout and response are shape-checked and not kept", async () => {
		const { rules } = paths(await freshZone());
		const response = { body: "<error>slow down</error>", content_type: "text/xml" };
		const ban = await call("POST", rules, {
			filter: { expression: SHOP },
			action: { mode: "ban", timeout: 60, response },
		});
		expect(ban.status, JSON.stringify(ban.body)).toBe(200);
		const [rule] = ban.body.result as { id: string; action: unknown }[];
		expect(rule?.action).toBe("block");
		const stored = await call("GET", `${rules}/${rule?.id}`);
		expect(JSON.stringify(stored.body.result)).not.toMatch(/timeout|slow down/);
		for (const action of [
			{ mode: "ban", timeout: 0 },
			{ mode: "ban", timeout: 1.5 },
			{ mode: "ban", response: { content_type: "text/html" } },
			{ mode: "ban", period: 60 },
			{ timeout: 60 },
		]) {
			const res = await call("POST", rules, { filter: { expression: NET }, action });
			expect(res.status, JSON.stringify(action)).toBe(400);
			expect(res.body.errors?.[0]?.code).toBe(10200);
		}
	});

	it("does not create a duplicate filter under 50 concurrent POSTs of one expression", async () => {
		const { rules, filters } = paths(await freshZone());
		const answers = await Promise.all(
			Array.from({ length: 50 }, () => call("POST", rules, [{ filter: { expression: ADMIN }, action: "block" }])),
		);
		expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(49).fill(400)]);
		expect(answers.filter((a) => a.status === 400).every((a) => a.body.errors?.[0]?.code === 10202)).toBe(true);
		expect((await call("GET", filters)).body.result).toHaveLength(1);
		expect((await call("GET", rules)).body.result).toHaveLength(1);
	});
});

describe("the rule quota", () => {
	it("keeps the filters of a POST past the quota without their rules, and says so", async () => {
		const zone = await freshZone();
		const { rules, filters } = paths(zone);
		const low = { FIREWALL_RULES_QUOTA: "2" };
		const first = await callWithEnv(low, "POST", rules, { body: [{ filter: { expression: ADMIN }, action: "block" }] });
		expect(first.status).toBe(200);
		const over = await callWithEnv(low, "POST", rules, {
			body: [
				{ filter: { expression: NET }, action: "block" },
				{ filter: { expression: SHOP }, action: "block" },
			],
		});
		expect(over.status).toBe(400);
		const [error] = over.body.errors ?? [];
		expect(error?.code).toBe(10203);
		expect(error?.message).toContain("quota of 2 firewall rules");
		expect(error?.message).toContain("no rule was created, but the filters of this request were");
		const kept = (await call("GET", filters)).body.result as { id: string; expression: string }[];
		expect(kept.map((f) => f.expression)).toEqual([ADMIN, NET, SHOP]);
		for (const filter of kept.slice(1)) expect(error?.message).toContain(filter.id);
		expect((await call("GET", rules)).body.result).toHaveLength(1);
	});

	it("leaves the filters it kept deletable through the filters API, as no rule uses them", async () => {
		const zone = await freshZone();
		const { rules, filters } = paths(zone);
		const low = { FIREWALL_RULES_QUOTA: "1" };
		const [rule] = (
			await callWithEnv(low, "POST", rules, { body: [{ filter: { expression: ADMIN }, action: "block" }] })
		).body.result as Rule[];
		const over = await callWithEnv(low, "POST", rules, {
			body: [
				{ filter: { expression: NET }, action: "block" },
				{ filter: { expression: SHOP }, action: "block" },
			],
		});
		expect(over.body.errors?.[0]?.code).toBe(10203);
		const kept = ((await call("GET", filters)).body.result as { id: string }[]).slice(1).map((f) => f.id);
		expect(kept).toHaveLength(2);
		const [net, shop] = kept;
		expect((await call("DELETE", `${filters}/${net}`)).body.result).toEqual({ id: net });
		expect((await call("DELETE", `${filters}?id=${shop}`)).body.result).toEqual([{ id: shop }]);
		// The filter of the rule that exists stays locked.
		const locked = await call("DELETE", `${filters}/${rule?.filter.id}`);
		expect(locked.status).toBe(400);
		expect(locked.body.errors?.[0]?.code).toBe(10104);
		expect((await call("GET", filters)).body.result).toEqual([rule?.filter]);
	});

	it("creates nothing past the quota when every filter is given by id", async () => {
		const zone = await freshZone();
		const { rules, filters } = paths(zone);
		const [f] = (await call("POST", filters, [{ expression: ADMIN }])).body.result as { id: string }[];
		const over = await callWithEnv({ FIREWALL_RULES_QUOTA: "0" }, "POST", rules, {
			body: [{ filter: { id: f?.id }, action: "block" }],
		});
		expect(over.status).toBe(400);
		expect(over.body.errors?.[0]?.message).toContain("no rule or filter was created");
	});
});

describe("reading, changing and deleting rules", () => {
	async function zoneWithRules() {
		const zone = await freshZone();
		const p = paths(zone);
		const created = (
			await call("POST", p.rules, [
				{ filter: { expression: ADMIN }, action: "block", description: "admin" },
				{ filter: { expression: NET }, action: "allow", priority: 10 },
				{ filter: { expression: SHOP }, action: "bypass", products: ["waf"], priority: 1, paused: true },
			])
		).body.result as Rule[];
		return { ...p, created };
	}

	it("lists in evaluation order, filters the list and pages it", async () => {
		const { rules, created } = await zoneWithRules();
		const list = await call("GET", rules);
		expect((list.body.result as Rule[]).map((r) => r.action)).toEqual(["bypass", "allow", "block"]);
		expect(list.body.result_info).toEqual({ page: 1, per_page: 25, count: 3, total_count: 3, total_pages: 1 });
		const actions = async (query: string) =>
			((await call("GET", `${rules}?${query}`)).body.result as Rule[]).map((r) => r.action);
		expect(await actions("action=allow")).toEqual(["allow"]);
		expect(await actions("description=adm")).toEqual(["block"]);
		expect(await actions("paused=true")).toEqual(["bypass"]);
		expect(await actions(`id=${created[0]?.id}`)).toEqual(["block"]);
		expect(await actions("per_page=5&page=2")).toEqual([]);
	});

	it("gets one rule; 404 for an unknown one", async () => {
		const { rules, created } = await zoneWithRules();
		expect((await call("GET", `${rules}/${created[0]?.id}`)).body.result).toEqual(created[0]);
		const missing = await call("GET", `${rules}/${"0".repeat(32)}`);
		expect(missing.status).toBe(404);
		expect(missing.body.errors?.[0]?.code).toBe(10201);
	});

	it("replaces one rule with PUT, keeping its filter for the same expression", async () => {
		const { rules, created } = await zoneWithRules();
		const rule = created[0];
		const res = await call("PUT", `${rules}/${rule?.id}`, { filter: { expression: ADMIN }, action: "challenge" });
		expect(res.body.result).toMatchObject({ id: rule?.id, action: "challenge", description: "", filter: rule?.filter });
		const moved = await call("PUT", `${rules}/${rule?.id}`, { filter: { id: created[1]?.filter.id }, action: "log" });
		expect(moved.body.result).toMatchObject({ filter: { id: created[1]?.filter.id } });
	});

	it("replaces many rules with PUT, or none when one is invalid", async () => {
		const { rules, created } = await zoneWithRules();
		const [a, b] = created;
		const bad = await call("PUT", rules, [
			{ id: a?.id, filter: { id: a?.filter.id }, action: "log" },
			{ id: b?.id, filter: { expression: INVALID }, action: "log" },
		]);
		expect(bad.status).toBe(400);
		expect((await call("GET", `${rules}/${a?.id}`)).body.result).toMatchObject({ action: "block" });
		const good = await call("PUT", rules, [
			{ id: a?.id, filter: { id: a?.filter.id }, action: "log" },
			{ id: b?.id, filter: { id: b?.filter.id }, action: "managed_challenge" },
		]);
		expect((good.body.result as Rule[]).map((r) => r.action)).toEqual(["log", "managed_challenge"]);
	});

	it("refuses a PUT that names one rule 50 times, each with a new expression, and creates no filter", async () => {
		const { rules, filters, created } = await zoneWithRules();
		const [a] = created;
		const before = (await call("GET", filters)).body.result;
		const res = await call(
			"PUT",
			rules,
			Array.from({ length: 50 }, (_, i) => ({
				id: a?.id,
				filter: { expression: `http.request.uri.path eq "/p${i}"` },
				action: "block",
			})),
		);
		expect(res.status).toBe(400);
		expect(res.body.errors).toHaveLength(49);
		expect(res.body.errors?.[0]).toMatchObject({
			code: 10200,
			message: `firewall rule ${a?.id} is named more than once in this request (first at /0)`,
			source: { pointer: "/1/id" },
		});
		expect((await call("GET", filters)).body.result).toEqual(before);
		expect((await call("GET", `${rules}/${a?.id}`)).body.result).toEqual(a);
	});

	it("refuses a PATCH that names one rule twice, changing nothing", async () => {
		const { rules, created } = await zoneWithRules();
		const [a] = created;
		const res = await call("PATCH", rules, [
			{ id: a?.id, priority: 5 },
			{ id: a?.id, paused: true },
		]);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 10200, source: { pointer: "/1/id" } });
		expect((await call("GET", `${rules}/${a?.id}`)).body.result).toEqual(a);
	});

	it("edits priorities with PATCH, one rule or many, answering arrays", async () => {
		const { rules, created } = await zoneWithRules();
		const [a, b] = created;
		const one = await call("PATCH", `${rules}/${a?.id}`, { id: a?.id, priority: 0 });
		expect(one.body.result).toEqual([expect.objectContaining({ id: a?.id, priority: 0 })]);
		const many = await call("PATCH", rules, [
			{ id: a?.id, priority: 50 },
			{ id: b?.id, priority: null },
		]);
		expect((many.body.result as Rule[]).map((r) => r.priority)).toEqual([50, null]);
		expect((await call("PATCH", `${rules}/${a?.id}`, { products: ["waf"] })).status).toBe(400);
		expect((await call("PATCH", rules, [{ id: "0".repeat(32), priority: 1 }])).status).toBe(404);
	});

	it("deletes a rule and keeps its filter unless delete_filter_if_unused", async () => {
		const { rules, filters, created } = await zoneWithRules();
		const [a, b, c] = created;
		expect((await call("DELETE", `${rules}/${a?.id}`)).body.result).toEqual({ id: a?.id });
		expect((await call("GET", `${filters}/${a?.filter.id}`)).status).toBe(200);
		const gone = await call("DELETE", `${rules}/${b?.id}`, { delete_filter_if_unused: true });
		expect(gone.body.result).toEqual({ id: b?.id, filter: { id: b?.filter.id, deleted: true } });
		expect((await call("GET", `${filters}/${b?.filter.id}`)).status).toBe(404);
		const bulk = await call("DELETE", `${rules}?id=${c?.id}&delete_filter_if_unused=true`);
		expect(bulk.body.result).toEqual([{ id: c?.id, filter: { id: c?.filter.id, deleted: true } }]);
		expect((await call("DELETE", `${rules}/${c?.id}`)).status).toBe(404);
		expect((await call("DELETE", rules)).status).toBe(400);
	});

	it("deletes a rule named twice in ?id=R&id=R once, answering 200 as the filters API does", async () => {
		const { rules, filters, created } = await zoneWithRules();
		const [a, b] = created;
		const res = await call("DELETE", `${rules}?id=${a?.id}&id=${a?.id}&delete_filter_if_unused=true`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([{ id: a?.id, filter: { id: a?.filter.id, deleted: true } }]);
		const [f] = (await call("POST", filters, [{ expression: 'http.host eq "twice"' }])).body.result as { id: string }[];
		const same = await call("DELETE", `${filters}?id=${f?.id}&id=${f?.id}`);
		expect(same.status).toBe(200);
		expect(same.body.result).toEqual([{ id: f?.id }]);
		expect(((await call("GET", rules)).body.result as Rule[]).map((r) => r.id)).not.toContain(a?.id);
		expect((await call("GET", `${rules}/${b?.id}`)).status).toBe(200);
	});

	it("answers 200 to a bulk DELETE naming rules that do not exist, deleting the others", async () => {
		const { rules, created } = await zoneWithRules();
		const [a] = created;
		const unknown = "0".repeat(32);
		const res = await call("DELETE", `${rules}?id=${unknown}&id=${a?.id}`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([{ id: a?.id }]);
		expect((await call("GET", `${rules}/${a?.id}`)).status).toBe(404);
		expect((await call("DELETE", `${rules}?id=${unknown}`)).body).toMatchObject({ success: true, result: [] });
		expect((await call("DELETE", `${rules}/${unknown}`)).status).toBe(404);
	});

	it("leaves a locked filter its rule no longer uses deletable through the filters API", async () => {
		const { rules, filters, created } = await zoneWithRules();
		const [a, b] = created;
		await call("PUT", `${rules}/${a?.id}`, { filter: { expression: 'http.host eq "moved"' }, action: "block" });
		expect((await call("DELETE", `${filters}/${a?.filter.id}`)).body.result).toEqual({ id: a?.filter.id });
		await call("DELETE", `${rules}/${b?.id}`);
		const res = await call("DELETE", `${filters}?id=${b?.filter.id}`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([{ id: b?.filter.id }]);
		// Deletable, not changeable: a PUT of an orphan is still refused.
		const [c] = created.slice(2);
		await call("DELETE", `${rules}/${c?.id}`);
		expect((await call("PUT", `${filters}/${c?.filter.id}`, { paused: true })).body.errors?.[0]?.code).toBe(10104);
	});

	it("deletes with an empty body, as a proxy such as wrangler dev's hands on an absent one", async () => {
		const { rules, created } = await zoneWithRules();
		const [a, b] = created;
		expect((await call("DELETE", `${rules}/${a?.id}`, "")).body.result).toEqual({ id: a?.id });
		expect((await call("DELETE", `${rules}?id=${b?.id}`, "")).body.result).toEqual([{ id: b?.id }]);
		expect((await call("DELETE", `${rules}/${a?.id}`, "{")).status).toBe(400);
	});

	it("keeps a shared filter that another rule still uses, even with delete_filter_if_unused", async () => {
		const { rules, filters } = paths(await freshZone());
		const [f] = (await call("POST", filters, [{ expression: ADMIN }])).body.result as { id: string }[];
		const created = (
			await call("POST", rules, [
				{ filter: { id: f?.id }, action: "block" },
				{ filter: { id: f?.id }, action: "log" },
			])
		).body.result as Rule[];
		const res = await call("DELETE", `${rules}/${created[0]?.id}`, { delete_filter_if_unused: true });
		expect(res.body.result).toEqual({ id: created[0]?.id });
		expect((await call("GET", `${filters}/${f?.id}`)).status).toBe(200);
	});
});

describe("the recommended flow of the call-sequence docs", () => {
	it("creates the filter, then the rule by filter id; deletes in reverse", async () => {
		const { rules, filters } = paths(await freshZone());
		const [filter] = (await call("POST", filters, [{ expression: NET, description: "office" }])).body.result as {
			id: string;
		}[];
		const [rule] = (await call("POST", rules, [{ filter: { id: filter?.id }, action: "allow" }])).body.result as Rule[];
		expect(rule?.filter).toEqual({ id: filter?.id, paused: false, description: "office", expression: NET });
		expect((await call("DELETE", `${filters}/${filter?.id}`)).status).toBe(400);
		expect((await call("DELETE", `${rules}/${rule?.id}`)).status).toBe(200);
		expect((await call("DELETE", `${filters}/${filter?.id}`)).body.result).toEqual({ id: filter?.id });
	});
});
