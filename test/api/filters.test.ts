/**
 * The Filters API through the front door (developers.cloudflare.com/firewall/api/cf-filters/):
 * create from an array or one object, list with filters and pages, get, update, delete one or many,
 * and the refusals: invalid expressions, duplicates (10102 with `meta.id`), filters in use, locked
 * filters.
 */
import { describe, expect, it } from "vitest";
import { ADMIN, INVALID, NET, SHOP } from "./expressions";
import { call, freshZone } from "./http";

interface FilterBody {
	id: string;
	expression: string;
	paused: boolean;
	description?: string;
	ref?: string;
}

async function zoneWith(...expressions: string[]): Promise<{ base: string; filters: FilterBody[] }> {
	const base = `/zones/${await freshZone()}/filters`;
	const res = await call(
		"POST",
		base,
		expressions.map((expression) => ({ expression })),
	);
	expect(res.status).toBe(200);
	return { base, filters: res.body.result as FilterBody[] };
}

describe("creating filters", () => {
	it("creates an array of filters, leaving description and ref out until set", async () => {
		const base = `/zones/${await freshZone()}/filters`;
		const res = await call("POST", base, [
			{ expression: ADMIN },
			{ expression: NET, description: "office", paused: true, ref: "FIL-1" },
		]);
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({ success: true, errors: [], messages: [] });
		const [admin, net] = res.body.result as FilterBody[];
		expect(admin).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), paused: false, expression: ADMIN });
		expect(net).toEqual({ id: expect.any(String), paused: true, description: "office", expression: NET, ref: "FIL-1" });
	});

	it("accepts one object, as SDK v4's create sends it", async () => {
		const base = `/zones/${await freshZone()}/filters`;
		const res = await call("POST", base, { expression: SHOP });
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([expect.objectContaining({ expression: SHOP })]);
	});

	it("refuses an invalid expression with the engine's text, and creates nothing of the batch", async () => {
		const base = `/zones/${await freshZone()}/filters`;
		const res = await call("POST", base, [{ expression: ADMIN }, { expression: INVALID }, { expression: NET }]);
		expect(res.status).toBe(400);
		const [error] = res.body.errors ?? [];
		expect(error?.code).toBe(10014);
		expect(error?.message).toContain("Filter parsing error (");
		expect(error?.source?.pointer).toBe("/1/expression");
		expect((await call("GET", base)).body.result).toEqual([]);
	});

	it("refuses a duplicate expression with 10102 and the existing filter's id", async () => {
		const { base, filters } = await zoneWith(ADMIN);
		const res = await call("POST", base, [{ expression: ADMIN }]);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			{
				code: 10102,
				message: "config duplicates an already existing config",
				source: { pointer: "/0/expression" },
				meta: { id: filters[0]?.id },
			},
		]);
	});

	it("refuses the same expression twice in one batch", async () => {
		const base = `/zones/${await freshZone()}/filters`;
		const res = await call("POST", base, [{ expression: SHOP }, { expression: SHOP }]);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => [e.code, e.source?.pointer])).toEqual([[10102, "/1/expression"]]);
	});

	it.each([
		["an empty array", []],
		["an unknown field", [{ expression: ADMIN, colour: "red" }]],
		["a description over 500 characters", [{ expression: ADMIN, description: "d".repeat(501) }]],
		["a ref over 50 characters", [{ expression: ADMIN, ref: "r".repeat(51) }]],
		["paused not a boolean", [{ expression: ADMIN, paused: "yes" }]],
		["no expression", [{ description: "x" }]],
		["an expression over 4096 characters", [{ expression: `http.host eq "${"a".repeat(4096)}"` }]],
	])("answers 400 in the envelope for %s", async (_name, body) => {
		const res = await call("POST", `/zones/${await freshZone()}/filters`, body);
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
	});
});

describe("reading filters", () => {
	it("gets one filter and answers 404 for an unknown id, 400 7003 for a malformed one", async () => {
		const { base, filters } = await zoneWith(ADMIN);
		expect((await call("GET", `${base}/${filters[0]?.id}`)).body.result).toEqual(filters[0]);
		const missing = await call("GET", `${base}/${"0".repeat(32)}`);
		expect(missing.status).toBe(404);
		expect(missing.body.errors?.[0]?.code).toBe(10101);
		expect((await call("GET", `${base}/nope`)).body.errors?.[0]?.code).toBe(7003);
	});

	it("lists with page-based result_info and an empty page past the last", async () => {
		const { base } = await zoneWith(ADMIN, NET, SHOP, 'http.host eq "a"', 'http.host eq "b"', 'http.host eq "c"');
		const first = await call("GET", `${base}?per_page=5`);
		expect(first.body.result_info).toEqual({ page: 1, per_page: 5, count: 5, total_count: 6, total_pages: 2 });
		const second = await call("GET", `${base}?per_page=5&page=2`);
		expect((second.body.result as FilterBody[]).map((f) => f.expression)).toEqual(['http.host eq "c"']);
		expect((await call("GET", `${base}?per_page=5&page=3`)).body.result).toEqual([]);
		expect((await call("GET", `${base}?per_page=4`)).status).toBe(400);
	});

	it("filters the list by expression (case-insensitive), description, ref, id and paused", async () => {
		const base = `/zones/${await freshZone()}/filters`;
		const created = (
			await call("POST", base, [
				{ expression: ADMIN, description: "Admin pages", ref: "A" },
				{ expression: NET, paused: true, ref: "B" },
			])
		).body.result as FilterBody[];
		const expressions = async (query: string) =>
			((await call("GET", `${base}?${query}`)).body.result as FilterBody[]).map((f) => f.expression);
		expect(await expressions("expression=URI.PATH")).toEqual([ADMIN]);
		expect(await expressions("description=Admin")).toEqual([ADMIN]);
		expect(await expressions("ref=B")).toEqual([NET]);
		expect(await expressions(`id=${created[1]?.id}`)).toEqual([NET]);
		expect(await expressions("paused=false")).toEqual([ADMIN]);
		expect((await call("GET", `${base}?paused=maybe`)).status).toBe(400);
	});
});

describe("updating filters", () => {
	it("changes the given fields of one filter and keeps the others", async () => {
		const { base, filters } = await zoneWith(ADMIN);
		const id = filters[0]?.id;
		const res = await call("PUT", `${base}/${id}`, { description: "admin", paused: true });
		expect(res.body.result).toEqual({ id, expression: ADMIN, paused: true, description: "admin" });
		const again = await call("PUT", `${base}/${id}`, { id, expression: SHOP });
		expect(again.body.result).toMatchObject({ expression: SHOP, description: "admin" });
	});

	it("updates many filters at once, or none when one is invalid", async () => {
		const { base, filters } = await zoneWith(ADMIN, NET);
		const [a, b] = filters;
		const bad = await call("PUT", base, [
			{ id: a?.id, description: "a" },
			{ id: b?.id, expression: INVALID },
		]);
		expect(bad.status).toBe(400);
		expect(bad.body.errors?.[0]).toMatchObject({ code: 10014, source: { pointer: "/1/expression" } });
		expect((await call("GET", `${base}/${a?.id}`)).body.result).not.toHaveProperty("description");
		const good = await call("PUT", base, [
			{ id: a?.id, description: "a" },
			{ id: b?.id, paused: true },
		]);
		expect(good.body.result).toEqual([
			expect.objectContaining({ id: a?.id, description: "a" }),
			expect.objectContaining({ id: b?.id, paused: true }),
		]);
	});

	it("refuses a PUT that names one filter twice, changing nothing", async () => {
		const { base, filters } = await zoneWith(ADMIN, NET);
		const [a] = filters;
		const res = await call("PUT", base, [
			{ id: a?.id, expression: SHOP },
			{ id: a?.id, description: "twice" },
		]);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			{
				code: 10100,
				message: `filter ${a?.id} is named more than once in this request (first at /0)`,
				source: { pointer: "/1/id" },
			},
		]);
		expect((await call("GET", base)).body.result).toEqual(filters);
	});

	it("refuses an expression another filter has, an id that differs from the path, and an unknown filter", async () => {
		const { base, filters } = await zoneWith(ADMIN, NET);
		const [a, b] = filters;
		const dup = await call("PUT", `${base}/${a?.id}`, { expression: NET });
		expect(dup.body.errors?.[0]).toMatchObject({ code: 10102, meta: { id: b?.id } });
		expect((await call("PUT", `${base}/${a?.id}`, { id: b?.id })).status).toBe(400);
		expect((await call("PUT", `${base}/${"0".repeat(32)}`, { paused: true })).status).toBe(404);
		expect((await call("PUT", base, [{ expression: SHOP }])).status).toBe(400);
	});
});

describe("deleting filters", () => {
	it("deletes one filter, answering its id", async () => {
		const { base, filters } = await zoneWith(ADMIN);
		const res = await call("DELETE", `${base}/${filters[0]?.id}`);
		expect(res.body.result).toEqual({ id: filters[0]?.id });
		expect((await call("GET", `${base}/${filters[0]?.id}`)).status).toBe(404);
	});

	it("deletes many by ?id=a&id=b, answering 200 without the ids that do not exist", async () => {
		const { base, filters } = await zoneWith(ADMIN, NET, SHOP);
		const [a, b, c] = filters.map((f) => f.id);
		const res = await call("DELETE", `${base}?id=${a}&id=${"0".repeat(32)}&id=${b}&id=${a}`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([{ id: a }, { id: b }]);
		expect((await call("GET", base)).body.result).toEqual([expect.objectContaining({ id: c })]);
		expect((await call("DELETE", `${base}/${a}`)).status).toBe(404);
		expect((await call("DELETE", base)).status).toBe(400);
		expect((await call("DELETE", `${base}?id=nope`)).status).toBe(400);
	});

	it("deletes nothing of a bulk DELETE when one filter is in use", async () => {
		const { base, filters } = await zoneWith(ADMIN, NET);
		const [a, b] = filters.map((f) => f.id);
		await call("POST", `/zones/${base.split("/")[2]}/firewall/rules`, [{ filter: { id: b }, action: "block" }]);
		const res = await call("DELETE", `${base}?id=${a}&id=${b}`);
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([expect.objectContaining({ code: 10103, source: { pointer: "/id" } })]);
		expect((await call("GET", base)).body.result).toHaveLength(2);
	});

	it("refuses to delete a filter a firewall rule uses", async () => {
		const { base, filters } = await zoneWith(ADMIN);
		const zone = base.split("/")[2];
		await call("POST", `/zones/${zone}/firewall/rules`, [{ filter: { id: filters[0]?.id }, action: "block" }]);
		const res = await call("DELETE", `${base}/${filters[0]?.id}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.code).toBe(10103);
		expect(res.body.errors?.[0]?.message).toContain("is used by firewall rule");
	});
});

describe("locked filters", () => {
	it("refuses PUT and DELETE through the filters API for a filter created by a firewall rules POST", async () => {
		const zone = await freshZone();
		const rules = (
			await call("POST", `/zones/${zone}/firewall/rules`, [{ filter: { expression: ADMIN }, action: "block" }])
		).body.result as { filter: FilterBody }[];
		const id = rules[0]?.filter.id;
		const base = `/zones/${zone}/filters`;
		expect((await call("GET", `${base}/${id}`)).body.result).toMatchObject({ id, expression: ADMIN });
		for (const [method, path, body] of [
			["PUT", `${base}/${id}`, { paused: true }],
			["PUT", base, [{ id, paused: true }]],
			["DELETE", `${base}/${id}`, undefined],
			["DELETE", `${base}?id=${id}`, undefined],
		] as const) {
			const res = await call(method, path, body);
			expect(res.status, `${method} ${path}`).toBe(400);
			expect(res.body.errors?.[0]?.code).toBe(10104);
			expect(res.body.errors?.[0]?.message).toContain("cannot be");
		}
	});
});
