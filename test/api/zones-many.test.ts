/**
 * `GET /zones` for a credential reaching more zones than SQLite has bound variables (100 a
 * statement in Durable Objects): the registry filters by one JSON array, so any number works.
 */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { zoneRegistry } from "../../src/common/durable-objects";
import { call, type Envelope } from "./http";
import { callWithEnv } from "./with-env";

const MANY = 150;
/** A bearer token that exists only in the env these tests pass to the Worker. */
const MANY_TOKEN = "test_token_many_zones".padEnd(40, "0");

const tag = crypto.randomUUID().slice(0, 8);
let ids: string[] = [];

beforeAll(async () => {
	ids = [];
	for (let i = 0; i < MANY; i++) {
		const res = await call("POST", "/zones", {
			name: `m${String(i).padStart(3, "0")}-${tag}.example.org`,
			account: {},
		});
		expect(res.status).toBe(200);
		ids.push((res.body.result as { id: string }).id);
	}
});

/** `GET /zones?query` with a credential reaching exactly `zones`, added to API_CREDENTIALS. */
async function listAs(zones: string[], query: string): Promise<Envelope> {
	const credentials = [...(JSON.parse(env.API_CREDENTIALS) as unknown[]), { token: MANY_TOKEN, zones }];
	const res = await callWithEnv({ API_CREDENTIALS: JSON.stringify(credentials) }, "GET", `/zones?${query}`, {
		token: MANY_TOKEN,
	});
	expect(res.status).toBe(200);
	return res.body;
}

describe("zones reachable by one credential, beyond 100", () => {
	it("the registry lists 150 visible zones page by page with the right total", async () => {
		const seen: string[] = [];
		for (let page = 1; page <= 4; page++) {
			const result = await zoneRegistry(env).list({
				visible: ids,
				order: "name",
				direction: "asc",
				page,
				perPage: 50,
			});
			if (!result.ok) throw new Error(JSON.stringify(result.failures));
			expect(result.value.total).toBe(MANY);
			expect(result.value.zones.length).toBe(page <= 3 ? 50 : 0);
			seen.push(...result.value.zones.map((z) => z.id));
		}
		expect(seen.toSorted()).toEqual(ids.toSorted());
	});

	it("GET /zones answers every page for a credential reaching 150 zones, and only those", async () => {
		const names: string[] = [];
		for (let page = 1; page <= 4; page++) {
			const body = await listAs(ids, `per_page=50&page=${page}`);
			expect(body.result_info).toEqual({
				page,
				per_page: 50,
				count: page <= 3 ? 50 : 0,
				total_count: MANY,
				total_pages: 3,
			});
			names.push(...(body.result as { name: string }[]).map((z) => z.name));
		}
		expect(names).toEqual(ids.map((_, i) => `m${String(i).padStart(3, "0")}-${tag}.example.org`));
	});

	it("combines the reach with the other filters", async () => {
		const body = await listAs([...ids, "0".repeat(32)], `name=starts_with:m14&per_page=50`);
		expect((body.result as { name: string }[]).map((z) => z.name)).toEqual(
			[140, 141, 142, 143, 144, 145, 146, 147, 148, 149].map((i) => `m${i}-${tag}.example.org`),
		);
		expect(body.result_info).toMatchObject({ total_count: 10 });
	});
});
