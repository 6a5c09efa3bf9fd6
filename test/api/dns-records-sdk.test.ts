/**
 * DNS records through the official `cloudflare` SDK, unchanged (`client.dns.records.create/list/
 * get/edit/update/delete/batch`, the list's filters); a file of its own for the SDK's size (docs/architecture.md, "Tests").
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { call, freshZone } from "./http";
import { sdkClient } from "./sdk";

describe("client.dns.records", () => {
	it("creates, lists, gets, edits, overwrites and deletes records", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zoneName = (await cf.zones.get({ zone_id })).name;
		const www = await cf.dns.records.create({
			zone_id,
			type: "A",
			name: "www",
			content: "192.0.2.1",
			ttl: 1,
			proxied: true,
		});
		expect(www).toMatchObject({ name: `www.${zoneName}`, type: "A", proxied: true, proxiable: true, ttl: 1 });
		await cf.dns.records.create({ zone_id, type: "TXT", name: "www", content: "hello", ttl: 3600 });
		await cf.dns.records.create({ zone_id, type: "MX", name: "@", content: "mx.example.net", priority: 10, ttl: 1 });

		// The SDK sends `name.exact` (qs allowDots) and pages with `page`/`per_page` until a short page.
		const listed = [];
		for await (const record of cf.dns.records.list({ zone_id, name: { exact: `www.${zoneName}` }, per_page: 1 })) {
			listed.push(`${record.type} ${record.content}`);
		}
		expect(listed).toStrictEqual(["A 192.0.2.1", "TXT hello"]);
		const txt = await cf.dns.records.list({ zone_id, type: "TXT", content: { contains: "HELL" } });
		expect(txt.result.map((r) => r.name)).toStrictEqual([`www.${zoneName}`]);

		expect(await cf.dns.records.get(www.id, { zone_id })).toStrictEqual(www);
		const edited = await cf.dns.records.edit(www.id, {
			zone_id,
			type: "A",
			name: `www.${zoneName}`,
			ttl: 1,
			comment: "origin",
		});
		expect(edited).toMatchObject({ comment: "origin", content: "192.0.2.1", proxied: true });
		const updated = await cf.dns.records.update(www.id, {
			zone_id,
			type: "CNAME",
			name: "app",
			content: "origin.example.net",
			ttl: 1,
		});
		expect(updated).toMatchObject({ type: "CNAME", name: `app.${zoneName}`, proxied: false });
		expect(await cf.dns.records.delete(www.id, { zone_id })).toStrictEqual({ id: www.id });
		const missing = await cf.dns.records.get(www.id, { zone_id }).catch((e: unknown) => e);
		expect(missing).toBeInstanceOf(Cloudflare.NotFoundError);
	});

	it("runs a batch, and refuses one whose post is invalid without writing any of it", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const a = await cf.dns.records.create({ zone_id, type: "A", name: "a", content: "192.0.2.1", ttl: 1 });
		const result = await cf.dns.records.batch({
			zone_id,
			deletes: [{ id: a.id }],
			posts: [{ type: "CNAME", name: "a", content: "elsewhere.example.net", ttl: 1 }],
		});
		expect(result.deletes?.map((r) => r.id)).toStrictEqual([a.id]);
		expect(result.posts?.[0]).toMatchObject({ type: "CNAME", content: "elsewhere.example.net" });

		const refused = await cf.dns.records
			.batch({
				zone_id,
				posts: [
					{ type: "TXT", name: "fine", content: "ok", ttl: 1 },
					{ type: "TXT", name: "proxied", content: "no", ttl: 1, proxied: true },
				],
			})
			.catch((e: unknown) => e);
		expect(refused).toBeInstanceOf(Cloudflare.BadRequestError);
		expect((refused as InstanceType<typeof Cloudflare.BadRequestError>).errors[0]).toMatchObject({ code: 9004 });
		const all = await cf.dns.records.list({ zone_id });
		expect(all.result.map((r) => r.type)).toStrictEqual(["CNAME"]);
	});

	it("lists by tags (the SDK's tag.* and tag_match, and the API's tag= shorthand) and by search", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const record = (name: string, tags: string[], comment?: string) =>
			cf.dns.records.create({
				zone_id,
				type: "A",
				name,
				content: "192.0.2.1",
				ttl: 1,
				tags,
				...(comment ? { comment } : {}),
			});
		await record("web", ["team:web", "important"]);
		await record("db", ["team:db"], "primary database");
		await record("bare", []);
		const names = async (params: Omit<Cloudflare.DNS.RecordListParams, "zone_id">) =>
			(await cf.dns.records.list({ zone_id, order: "name", ...params })).result.map((r) => r.name.split(".")[0]);
		expect(await names({ tag: { present: "TEAM" } })).toStrictEqual(["db", "web"]);
		expect(await names({ tag: { exact: "team:web", present: "team" } })).toStrictEqual(["web"]);
		expect(await names({ tag: { exact: "team:db", present: "important" }, tag_match: "any" })).toStrictEqual([
			"db",
			"web",
		]);
		expect(await names({ tag: { absent: "team" } })).toStrictEqual(["bare"]);
		expect(await names({ search: "Database" })).toStrictEqual(["db"]);
		const shorthand = await call("GET", `/zones/${zone_id}/dns_records?tag=team:db`);
		expect((shorthand.body.result as { name: string }[]).map((r) => r.name.split(".")[0])).toStrictEqual(["db"]);
		// The shadowing filters name NS delegations, which edgezone does not store: refused, not ignored.
		const shadow = await call("GET", `/zones/${zone_id}/dns_records?shadowing_name=x`);
		expect(shadow.status).toBe(400);
		expect(shadow.body.errors?.[0]?.source).toStrictEqual({ pointer: "/shadowing_name" });
	});

	it("creates a CAA record with data, as the SDK types it", async () => {
		const cf = sdkClient();
		const zone_id = await freshZone();
		const zoneName = (await cf.zones.get({ zone_id })).name;
		const caa = await cf.dns.records.create({
			zone_id,
			type: "CAA",
			name: "@",
			ttl: 1,
			data: { flags: 0, tag: "issue", value: "letsencrypt.org" },
		});
		expect(caa).toMatchObject({ name: zoneName, type: "CAA", content: '0 issue "letsencrypt.org"', proxiable: false });
		const listed = await cf.dns.records.list({ zone_id, type: "CAA" });
		expect(listed.result.map((r) => (r.type === "CAA" ? r.data : undefined))).toStrictEqual([
			{ flags: 0, tag: "issue", value: "letsencrypt.org" },
		]);
		await expect(
			cf.dns.records.create({
				zone_id,
				type: "CAA",
				name: "@",
				ttl: 1,
				data: { flags: 300, tag: "issue", value: "x" },
			}),
		).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
	});
});
