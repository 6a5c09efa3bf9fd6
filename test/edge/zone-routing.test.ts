import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { zoneRegistry } from "../../src/common/durable-objects";
import { ZONE_NAMES_TTL_MS } from "../../src/edge/zone-names";
import { zoneForHost } from "../../src/edge/zone-routing";
import { DEFAULT_ZONE_ID } from "../api/credentials";
import { call } from "../api/http";

const unique = (label: string) => `${label}-${crypto.randomUUID().slice(0, 8)}.example.org`;

async function createZone(name: string): Promise<string> {
	const res = await call("POST", "/zones", { name, account: {} });
	expect(res.status).toBe(200);
	return (res.body.result as { id: string }).id;
}

describe("zoneForHost", () => {
	it("routes a zone's name and its subdomains to it, the nearest parent winning", async () => {
		const parent = unique("shop");
		const parentId = await createZone(parent);
		const childId = await createZone(`eu.${parent}`);
		const now = Date.now();
		expect(await zoneForHost(env, parent, now)).toEqual({ id: parentId, name: parent });
		expect(await zoneForHost(env, `www.${parent}`, now)).toEqual({ id: parentId, name: parent });
		expect(await zoneForHost(env, `cdn.eu.${parent}`, now)).toEqual({ id: childId, name: `eu.${parent}` });
	});

	it("sends any other host to the default zone, a name that merely ends alike included", async () => {
		const name = unique("alike");
		await createZone(name);
		const now = Date.now();
		for (const host of ["localhost", "127.0.0.1", `not${name}`, name.slice(1)]) {
			expect((await zoneForHost(env, host, now)).id, host).toBe(DEFAULT_ZONE_ID);
		}
	});

	it("sees a zone created or deleted through the API at the very next request", async () => {
		const name = unique("fresh");
		expect((await zoneForHost(env, name, Date.now())).id).toBe(DEFAULT_ZONE_ID);
		const id = await createZone(name);
		expect((await zoneForHost(env, name, Date.now())).id).toBe(id);
		expect((await call("DELETE", `/zones/${id}`)).status).toBe(200);
		expect((await zoneForHost(env, name, Date.now())).id).toBe(DEFAULT_ZONE_ID);
	});

	it("reads the registry again once its copy is older than the TTL", async () => {
		const name = unique("ttl");
		const start = Date.now();
		expect((await zoneForHost(env, name, start)).id).toBe(DEFAULT_ZONE_ID);
		// Created behind the API's back, as another isolate's API would: only the TTL brings it in.
		const created = await zoneRegistry(env).create({
			name,
			accountId: "01a7362d577a6c3019a474fd6f485823",
			type: "full",
		});
		expect(created.ok).toBe(true);
		expect((await zoneForHost(env, name, start + 1)).id).toBe(DEFAULT_ZONE_ID);
		expect((await zoneForHost(env, name, start + ZONE_NAMES_TTL_MS)).id).toBe(created.ok ? created.value.id : "");
	});
});
