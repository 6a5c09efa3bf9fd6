/** `/zones`: create, list (filters, pages), get, edit, delete; the default zone; the registry's schema. */

import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneRegistry, zoneState } from "../../src/common/durable-objects";
import { REGISTRY_MIGRATIONS, ZONE_MIGRATIONS } from "../../src/zone/schema";
import { DEFAULT_ZONE_ID } from "./credentials";
import { call, zonePath } from "./http";

interface ZoneResult {
	id: string;
	name: string;
	status: string;
	type: string;
	paused: boolean;
	account: { id: string };
	vanity_name_servers: string[];
}

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.example.org`;

async function create(body: unknown) {
	return call("POST", "/zones", body);
}

describe("the default zone", () => {
	it("exists from the first start with the wrangler.toml vars", async () => {
		const res = await call("GET", zonePath());
		expect(res.status).toBe(200);
		expect(res.body.result).toMatchObject({
			id: DEFAULT_ZONE_ID,
			name: "example.com",
			status: "active",
			account: { id: env.DEFAULT_ACCOUNT_ID },
		});
	});
});

describe("POST /zones", () => {
	it("creates an active zone with a 32-hex id, type full by default", async () => {
		const name = unique("new");
		const res = await create({ name, account: { id: "f".repeat(32) } });
		expect(res.status).toBe(200);
		const zone = res.body.result as ZoneResult;
		expect(zone.id).toMatch(/^[0-9a-f]{32}$/);
		expect(zone).toMatchObject({
			name,
			status: "active",
			type: "full",
			paused: false,
			account: { id: "f".repeat(32) },
		});
		expect((await call("GET", `/zones/${zone.id}`)).body.result).toEqual(zone);
	});

	it("lower-cases the name and keeps the given type", async () => {
		const name = unique("Upper");
		const zone = (await create({ name, account: {}, type: "partial" })).body.result as ZoneResult;
		expect(zone).toMatchObject({ name: name.toLowerCase(), type: "partial", account: { id: env.DEFAULT_ACCOUNT_ID } });
	});

	it("refuses a name that is taken with 1061", async () => {
		const res = await create({ name: "example.com", account: {} });
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			{ code: 1061, message: "example.com already exists", source: { pointer: "/name" } },
		]);
	});

	it.each([
		{ name: "no name", body: { account: {} }, pointer: "/name" },
		{ name: "a name that is no domain", body: { name: "not a domain", account: {} }, pointer: "/name" },
		{ name: "a one-label name", body: { name: "localhost", account: {} }, pointer: "/name" },
		{ name: "no account", body: { name: unique("x") }, pointer: "/account" },
		{ name: "a malformed account id", body: { name: unique("x"), account: { id: "123" } }, pointer: "/account/id" },
		{ name: "an unknown type", body: { name: unique("x"), account: {}, type: "huge" }, pointer: "/type" },
		{ name: "an unknown field", body: { name: unique("x"), account: {}, plan: "free" }, pointer: "/plan" },
	])("answers 400 naming the field for $name", async ({ body, pointer }) => {
		const res = await create(body);
		expect(res.status).toBe(400);
		expect(res.body.success).toBe(false);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
	});

	it("answers 400 for a body that is not JSON", async () => {
		const res = await call("POST", "/zones", "{not json");
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.message).toBe("invalid JSON: malformed request body");
	});
});

describe("GET /zones", () => {
	it("filters by exact name and by contains:, starts_with:, ends_with:", async () => {
		const tag = crypto.randomUUID().slice(0, 8);
		const names = [`alpha-${tag}.example.org`, `beta-${tag}.example.org`];
		for (const name of names) await create({ name, account: {} });
		const names_of = async (q: string) =>
			((await call("GET", `/zones?${q}`)).body.result as ZoneResult[]).map((z) => z.name);
		expect(await names_of(`name=${names[0]}`)).toEqual([names[0]]);
		expect(await names_of(`name=contains:${tag}`)).toEqual(names);
		expect(await names_of(`name=starts_with:beta-${tag}`)).toEqual([names[1]]);
		expect(await names_of(`name=ends_with:${tag}.example.org`)).toEqual(names);
		expect(await names_of("name=nothing.example.org")).toEqual([]);
	});

	it("pages with page-based result_info and answers result [] past the last page", async () => {
		const tag = crypto.randomUUID().slice(0, 8);
		for (let i = 0; i < 6; i++) await create({ name: `p${i}-${tag}.example.org`, account: {} });
		const page = async (n: number) => call("GET", `/zones?name=contains:${tag}&per_page=5&page=${n}`);
		const first = await page(1);
		expect((first.body.result as ZoneResult[]).map((z) => z.name)).toEqual(
			[0, 1, 2, 3, 4].map((i) => `p${i}-${tag}.example.org`),
		);
		expect(first.body.result_info).toEqual({ page: 1, per_page: 5, count: 5, total_count: 6, total_pages: 2 });
		expect((await page(2)).body.result_info).toEqual({
			page: 2,
			per_page: 5,
			count: 1,
			total_count: 6,
			total_pages: 2,
		});
		expect((await page(3)).body.result).toEqual([]);
	});

	it("orders by name descending when asked", async () => {
		const tag = crypto.randomUUID().slice(0, 8);
		for (const p of ["a", "b"]) await create({ name: `${p}-${tag}.example.org`, account: {} });
		const res = await call("GET", `/zones?name=contains:${tag}&order=name&direction=desc`);
		expect((res.body.result as ZoneResult[]).map((z) => z.name)).toEqual([
			`b-${tag}.example.org`,
			`a-${tag}.example.org`,
		]);
	});

	it.each([
		{ query: `name=starts_with:${"a".repeat(254)}`, pointer: "/name" },
		{ query: `name=${"a".repeat(3_000_000)}`, pointer: "/name" },
		{ query: `account.name=${"a".repeat(257)}`, pointer: "/account.name" },
		{ query: "per_page=4", pointer: "/per_page" },
		{ query: "per_page=51", pointer: "/per_page" },
		{ query: "page=0", pointer: "/page" },
		{ query: "status=sleeping", pointer: "/status" },
		{ query: "direction=up", pointer: "/direction" },
	])("answers 400 for the query $query", async ({ query, pointer }) => {
		const res = await call("GET", `/zones?${query}`);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 1001, source: { pointer } });
	});

	it("accepts a name filter of a 253-character name after its operator", async () => {
		const res = await call("GET", `/zones?name=starts_with:${"a".repeat(253)}`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual([]);
	});
});

describe("PATCH and DELETE /zones/{zone_id}", () => {
	it("edits paused, type and vanity name servers", async () => {
		const zone = (await create({ name: unique("edit"), account: {} })).body.result as ZoneResult;
		const res = await call("PATCH", `/zones/${zone.id}`, {
			paused: true,
			type: "secondary",
			vanity_name_servers: ["ns1.example.org"],
		});
		expect(res.status).toBe(200);
		expect(res.body.result).toMatchObject({
			id: zone.id,
			paused: true,
			type: "secondary",
			vanity_name_servers: ["ns1.example.org"],
		});
		expect((await call("GET", `/zones/${zone.id}`)).body.result).toMatchObject({ paused: true });
	});

	it("keeps up to five vanity name servers", async () => {
		const zone = (await create({ name: unique("five"), account: {} })).body.result as ZoneResult;
		const five = [1, 2, 3, 4, 5].map((i) => `ns${i}.example.org`);
		const res = await call("PATCH", `/zones/${zone.id}`, { vanity_name_servers: five });
		expect((res.body.result as ZoneResult).vanity_name_servers).toEqual(five);
	});

	const servers = (n: number) => Array.from({ length: n }, (_, i) => `ns${i}.example.org`);
	it.each([
		{ name: "paused that is no boolean", body: { paused: "yes" }, pointer: "/paused" },
		{ name: "a name", body: { name: "renamed.example.org" }, pointer: "/name" },
		{
			name: "a server that is no host",
			body: { vanity_name_servers: ["not a host"] },
			pointer: "/vanity_name_servers/0",
		},
		{ name: "six servers", body: { vanity_name_servers: servers(6) }, pointer: "/vanity_name_servers" },
		{ name: "10 000 servers", body: { vanity_name_servers: servers(10_000) }, pointer: "/vanity_name_servers" },
		{
			name: "a server name of 254 characters",
			body: { vanity_name_servers: [`${"a".repeat(62)}.${"b".repeat(62)}.${"c".repeat(62)}.${"d".repeat(61)}.org`] },
			pointer: "/vanity_name_servers/0",
		},
	])("refuses $name with a 400 1001 at $pointer, changing nothing", async ({ body, pointer }) => {
		const before = (await call("GET", zonePath())).body.result;
		const res = await call("PATCH", zonePath(), body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code: 1001, source: { pointer } });
		expect((await call("GET", zonePath())).body.result).toEqual(before);
	});

	it("deletes a zone with its state, answering {id}", async () => {
		const zone = (await create({ name: unique("gone"), account: {} })).body.result as ZoneResult;
		await call("POST", `/zones/${zone.id}/rulesets`, { name: "r", kind: "zone", phase: "http_log_custom_fields" });
		const res = await call("DELETE", `/zones/${zone.id}`);
		expect(res.status).toBe(200);
		expect(res.body.result).toEqual({ id: zone.id });
		expect((await call("GET", `/zones/${zone.id}`)).status).toBe(404);
		const count = await runInDurableObject(
			zoneState(env, zone.id),
			(_z, state) => state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM rulesets").one().n,
		);
		expect(count).toBe(0);
	});
});

describe("storage", () => {
	it("records each migration of the registry and of a zone", async () => {
		await call("GET", zonePath("/rulesets"));
		const names = (stub: DurableObjectStub) =>
			runInDurableObject(stub, (_o, state) =>
				state.storage.sql
					.exec<{ name: string }>("SELECT name FROM _migrations ORDER BY id")
					.toArray()
					.map((r) => r.name),
			);
		expect(await names(zoneRegistry(env))).toEqual(REGISTRY_MIGRATIONS.map((m) => m.name));
		expect(await names(zoneState(env, DEFAULT_ZONE_ID))).toEqual(ZONE_MIGRATIONS.map((m) => m.name));
		expect(ZONE_MIGRATIONS.map((m) => m.id)).toEqual(ZONE_MIGRATIONS.map((_m, i) => i + 1));
	});
});
