/** `/zones/{zone_id}/dns_records` over HTTP: CRUD, the list's filters and order, the record rules' codes, the batch. */
import { describe, expect, it } from "vitest";
import { DNS_READ_TOKEN, SSL_EDIT_TOKEN, WAF_TOKEN } from "./credentials";
import { call, freshZone } from "./http";

const bearer = (token: string) => ({ Authorization: `Bearer ${token}`, "Content-Type": "application/json" });

interface Rec {
	id: string;
	name: string;
	type: string;
	content: string;
	ttl: number;
	proxied: boolean;
	proxiable: boolean;
	priority?: number;
	comment?: string;
	tags: string[];
	created_on: string;
	modified_on: string;
	comment_modified_on?: string;
}

/** A fresh zone and its name. */
async function zone(): Promise<{ id: string; name: string; path: string }> {
	const id = await freshZone();
	const name = ((await call("GET", `/zones/${id}`)).body.result as { name: string }).name;
	return { id, name, path: `/zones/${id}/dns_records` };
}

async function create(path: string, body: object): Promise<Rec> {
	const res = await call("POST", path, body);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return res.body.result as Rec;
}

async function names(path: string, query = ""): Promise<string[]> {
	const res = await call("GET", `${path}${query}`);
	expect(res.status, JSON.stringify(res.body)).toBe(200);
	return (res.body.result as Rec[]).map((r) => `${r.type} ${r.name} ${r.content}`);
}

describe("DNS records", () => {
	it("holds CAA records: data {flags, tag, value}, content derived as Cloudflare shows it, not proxiable", async () => {
		const z = await zone();
		const made = await create(z.path, { type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "pki.goog" } });
		expect(made).toMatchObject({
			name: z.name,
			type: "CAA",
			content: '0 issue "pki.goog"',
			data: { flags: 0, tag: "issue", value: "pki.goog" },
			proxiable: false,
			proxied: false,
		});
		// Content alone is not data: each component is named missing (9101), as Cloudflare answers.
		const contentOnly = await call("POST", z.path, {
			type: "CAA",
			name: "@",
			content: '128 issuewild "letsencrypt.org"',
		});
		expect(contentOnly.status).toBe(400);
		expect(contentOnly.body.errors).toStrictEqual(
			["flags", "tag", "value"].map((field) => ({
				code: 9101,
				message: `${field} is a required data field.`,
				source: { pointer: `/data/${field}` },
			})),
		);
		const wild = await create(z.path, {
			type: "CAA",
			name: "@",
			data: { flags: 128, tag: "issuewild", value: "letsencrypt.org" },
		});
		expect(wild).toMatchObject({ content: '128 issuewild "letsencrypt.org"' });
		const again = await call("POST", z.path, {
			type: "CAA",
			name: "@",
			data: { flags: 0, tag: "issue", value: "pki.goog" },
		});
		expect(again.status).toBe(400);
		expect(again.body.errors?.[0]).toMatchObject({ code: 81058 });
		const patched = await call("PATCH", `${z.path}/${made.id}`, {
			data: { flags: 0, tag: "iodef", value: "mailto:x@example.com" },
		});
		expect(patched.body.result).toMatchObject({ content: '0 iodef "mailto:x@example.com"' });
		expect((await call("GET", `${z.path}/${made.id}`)).body.result).toMatchObject({
			data: { flags: 0, tag: "iodef", value: "mailto:x@example.com" },
		});
		expect(await names(z.path, "?type=CAA&order=content")).toStrictEqual([
			`CAA ${z.name} 0 iodef "mailto:x@example.com"`,
			`CAA ${z.name} 128 issuewild "letsencrypt.org"`,
		]);
	});

	it("creates, reads, patches, overwrites and deletes a record", async () => {
		const z = await zone();
		const made = await create(z.path, { type: "A", name: "www", content: "192.0.2.1", ttl: 300, comment: "web" });
		expect(made).toMatchObject({
			name: `www.${z.name}`,
			type: "A",
			content: "192.0.2.1",
			ttl: 300,
			proxied: false,
			proxiable: true,
			comment: "web",
			tags: [],
			meta: {},
		});
		expect(made.id).toMatch(/^[0-9a-f]{32}$/);
		expect(made.created_on).toBe(made.modified_on);
		expect(made.comment_modified_on).toBe(made.created_on);
		expect((await call("GET", `${z.path}/${made.id}`)).body.result).toStrictEqual(made);

		const patched = (await call("PATCH", `${z.path}/${made.id}`, { proxied: true })).body.result as Rec;
		// A proxied record's TTL is automatic; the fields not given stay.
		expect(patched).toMatchObject({ proxied: true, ttl: 1, content: "192.0.2.1", comment: "web" });

		const put = await call("PUT", `${z.path}/${made.id}`, {
			type: "AAAA",
			name: `www.${z.name}`,
			content: "2001:DB8::1",
		});
		expect(put.status).toBe(200);
		// PUT overwrites: the comment and proxied go back to their defaults.
		expect(put.body.result).toMatchObject({ type: "AAAA", content: "2001:db8::1", proxied: false, ttl: 1 });
		// No comment answers `"comment": null`, as the real API does (caddyserver/caddy#7301).
		expect((put.body.result as Rec).comment).toBeNull();
		expect((put.body.result as Rec).created_on).toBe(made.created_on);
		const commented = (await call("PATCH", `${z.path}/${made.id}`, { comment: "v6" })).body.result as Rec;
		expect(commented).toMatchObject({ comment: "v6", comment_modified_on: commented.modified_on });
		// A null comment clears it, its time of change with it.
		const cleared = (await call("PATCH", `${z.path}/${made.id}`, { comment: null })).body.result as Rec;
		expect(cleared.comment).toBeNull();
		expect(cleared.comment_modified_on).toBeUndefined();

		const deleted = await call("DELETE", `${z.path}/${made.id}`);
		expect(deleted.body).toStrictEqual({ result: { id: made.id }, success: true, errors: [], messages: [] });
		const gone = await call("GET", `${z.path}/${made.id}`);
		expect(gone.status).toBe(404);
		expect(gone.body.errors).toStrictEqual([{ code: 81044, message: "Record does not exist." }]);
		expect((await call("PATCH", `${z.path}/${made.id}`, { ttl: 60 })).status).toBe(404);
		expect((await call("GET", `${z.path}/not-an-id`)).body.errors?.[0]?.code).toBe(7003);
	});

	it("takes @ as the apex and an MX's priority", async () => {
		const z = await zone();
		expect(await create(z.path, { type: "MX", name: "@", content: "Mail.Example.net.", priority: 10 })).toMatchObject({
			name: z.name,
			content: "mail.example.net",
			priority: 10,
			proxiable: false,
		});
		const noPriority = await call("POST", z.path, { type: "MX", name: "@", content: "mx2.example.net" });
		expect(noPriority.status).toBe(400);
		// Cloudflare's answer for an MX without its priority (cloudflare/cloudflare-php#136).
		expect(noPriority.body.errors?.[0]).toMatchObject({
			code: 9100,
			message: "priority is a required field.",
			source: { pointer: "/priority" },
		});
	});

	it.each([
		["an A record that is not an IPv4 address", { type: "A", name: "a", content: "1" }, 9005, "/content"],
		["an A record with an IPv6 address", { type: "A", name: "a", content: "2001:db8::1" }, 9005, "/content"],
		["an AAAA record that is not an IPv6 address", { type: "AAAA", name: "a", content: "192.0.2.1" }, 9006, "/content"],
		["a proxied TXT record", { type: "TXT", name: "t", content: "hello", proxied: true }, 9004, "/proxied"],
		[
			"a proxied MX record",
			{ type: "MX", name: "m", content: "mx.example.net", priority: 1, proxied: true },
			9004,
			"/proxied",
		],
		["a CNAME to a non-host", { type: "CNAME", name: "c", content: "not a host" }, 1004, "/content"],
		["a TTL of 30", { type: "A", name: "a", content: "192.0.2.1", ttl: 30 }, 1004, "/ttl"],
		["an unknown type", { type: "SPF", name: "a", content: "v=spf1 -all" }, 1004, "/type"],
		["a name with a space", { type: "A", name: "a b", content: "192.0.2.1" }, 1004, "/name"],
		["an unknown field", { type: "A", name: "a", content: "192.0.2.1", colour: "orange" }, 1004, "/colour"],
		["a comment with a line break", { type: "A", name: "a", content: "192.0.2.1", comment: "a\nb" }, 1004, "/comment"],
		["a malformed tag", { type: "A", name: "a", content: "192.0.2.1", tags: ["bad name:x"] }, 1004, "/tags/0"],
		["an A record without content", { type: "A", name: "a" }, 1004, "/content"],
		["a CAA record without data", { type: "CAA", name: "@" }, 9101, "/data/flags"],
		[
			"a CAA flag of 256",
			{ type: "CAA", name: "@", data: { flags: 256, tag: "issue", value: "x" } },
			9053,
			"/data/flags",
		],
		[
			"a CAA flag as text",
			{ type: "CAA", name: "@", data: { flags: "0", tag: "issue", value: "x" } },
			9053,
			"/data/flags",
		],
		[
			"an unknown CAA tag",
			{ type: "CAA", name: "@", data: { flags: 0, tag: "issuemail", value: "x" } },
			1004,
			"/data/tag",
		],
		[
			"a proxied CAA record",
			{ type: "CAA", name: "@", data: { flags: 0, tag: "issue", value: "pki.goog" }, proxied: true },
			9004,
			"/proxied",
		],
	])("refuses %s with 400 and its code at its field", async (_, body, code, pointer) => {
		const z = await zone();
		const res = await call("POST", z.path, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]).toMatchObject({ code, source: { pointer } });
		expect(await names(z.path)).toStrictEqual([]);
	});

	it("keeps a CNAME alone on its name: 81053, 81054; an identical record is 81058", async () => {
		const z = await zone();
		const a = await create(z.path, { type: "A", name: "app", content: "192.0.2.1" });
		const cname = await call("POST", z.path, { type: "CNAME", name: "app", content: "other.example.net" });
		expect(cname.status).toBe(400);
		expect(cname.body.errors?.[0]).toMatchObject({
			code: 81053,
			message: "An A, AAAA, or CNAME record with that host already exists.",
		});
		// A second A on the name is fine, the same A again is not.
		await create(z.path, { type: "A", name: "app", content: "192.0.2.2" });
		const same = await call("POST", z.path, { type: "A", name: `APP.${z.name}.`, content: "192.0.2.1" });
		expect(same.status).toBe(400);
		expect(same.body.errors?.[0]).toMatchObject({ code: 81058, message: "An identical record already exists." });

		await create(z.path, { type: "CNAME", name: "alias", content: "app.example.net" });
		const beside = await call("POST", z.path, { type: "AAAA", name: "alias", content: "2001:db8::2" });
		expect(beside.body.errors?.[0]).toMatchObject({
			code: 81054,
			message: "A CNAME record with that host already exists.",
		});
		// Moving the A onto the CNAME's name by PATCH is the same refusal; the record stays as it was.
		const moved = await call("PATCH", `${z.path}/${a.id}`, { name: "alias" });
		expect(moved.body.errors?.[0]?.code).toBe(81054);
		expect(((await call("GET", `${z.path}/${a.id}`)).body.result as Rec).name).toBe(`app.${z.name}`);
		// A TXT may share a CNAME's name (the rule covers A, AAAA and CNAME only).
		await create(z.path, { type: "TXT", name: "alias", content: "v=spf1 -all" });
	});

	it("filters by name, type, content and proxied, with match all or any", async () => {
		const z = await zone();
		await create(z.path, { type: "A", name: "www", content: "192.0.2.1", proxied: true });
		await create(z.path, { type: "A", name: "api", content: "192.0.2.2" });
		await create(z.path, { type: "TXT", name: "www", content: "Hello World" });
		expect(await names(z.path, `?name=www.${z.name}`)).toStrictEqual([
			`A www.${z.name} 192.0.2.1`,
			`TXT www.${z.name} Hello World`,
		]);
		expect(await names(z.path, `?name.exact=WWW.${z.name.toUpperCase()}&type=A`)).toStrictEqual([
			`A www.${z.name} 192.0.2.1`,
		]);
		expect(await names(z.path, "?name.startswith=api.")).toStrictEqual([`A api.${z.name} 192.0.2.2`]);
		expect(await names(z.path, "?content.contains=hello")).toStrictEqual([`TXT www.${z.name} Hello World`]);
		expect(await names(z.path, "?proxied=true")).toStrictEqual([`A www.${z.name} 192.0.2.1`]);
		expect(await names(z.path, "?type=TXT&proxied=true")).toStrictEqual([]);
		expect(await names(z.path, "?type=TXT&proxied=true&match=any")).toStrictEqual([
			`A www.${z.name} 192.0.2.1`,
			`TXT www.${z.name} Hello World`,
		]);
		expect(await names(z.path, "?type=NS")).toStrictEqual([]);
		await create(z.path, { type: "TXT", name: "noted", content: "n", comment: "Owned by Team Web" });
		expect(await names(z.path, "?comment.contains=team%20web")).toStrictEqual([`TXT noted.${z.name} n`]);
		expect(await names(z.path, "?comment.present")).toStrictEqual([`TXT noted.${z.name} n`]);
		expect(await names(z.path, "?comment.absent&type=TXT")).toStrictEqual([`TXT www.${z.name} Hello World`]);
		// A filter edgezone does not apply is refused, not ignored; so is a value a filter does not take.
		const shadow = await call("GET", `${z.path}?shadowed_by_name=sub`);
		expect(shadow.status).toBe(400);
		expect(shadow.body.errors?.[0]).toMatchObject({ code: 1004, source: { pointer: "/shadowed_by_name" } });
		expect((await call("GET", `${z.path}?match=some`)).status).toBe(400);
		expect((await call("GET", `${z.path}?tag_match=some`)).status).toBe(400);
	});

	it("orders by type by default, by any of Cloudflare's keys on demand, and pages", async () => {
		const z = await zone();
		await create(z.path, { type: "TXT", name: "b", content: "1", ttl: 120 });
		await create(z.path, { type: "A", name: "c", content: "192.0.2.3", ttl: 3600 });
		await create(z.path, { type: "AAAA", name: "a", content: "2001:db8::1", ttl: 60 });
		const short = (list: string[]) => list.map((r) => r.split(" ")[1]?.split(".")[0]);
		expect(short(await names(z.path))).toStrictEqual(["c", "a", "b"]);
		expect(short(await names(z.path, "?order=name"))).toStrictEqual(["a", "b", "c"]);
		expect(short(await names(z.path, "?order=ttl&direction=desc"))).toStrictEqual(["c", "b", "a"]);
		const page = await call("GET", `${z.path}?order=name&per_page=2&page=2`);
		expect(short(await names(z.path, "?order=name&per_page=2&page=2"))).toStrictEqual(["c"]);
		expect(page.body.result_info).toStrictEqual({ page: 2, per_page: 2, count: 1, total_count: 3, total_pages: 2 });
		expect((await call("GET", `${z.path}?order=comment`)).status).toBe(400);
	});

	it("runs a batch as deletes, patches, puts, posts, in one transaction", async () => {
		const z = await zone();
		const old = await create(z.path, { type: "CNAME", name: "app", content: "old.example.net" });
		const txt = await create(z.path, { type: "TXT", name: "t", content: "one" });
		const mx = await create(z.path, { type: "MX", name: "@", content: "mx.example.net", priority: 5 });
		// The post of an A on `app` works only because the delete of its CNAME runs first.
		const res = await call("POST", `${z.path}/batch`, {
			posts: [{ type: "A", name: "app", content: "192.0.2.9" }],
			puts: [{ id: mx.id, type: "MX", name: "@", content: "mx2.example.net", priority: 20 }],
			patches: [{ id: txt.id, content: "two" }],
			deletes: [{ id: old.id, name: "ignored" }],
		});
		expect(res.status, JSON.stringify(res.body)).toBe(200);
		const result = res.body.result as Record<string, Rec[]>;
		expect(result.deletes?.map((r) => r.id)).toStrictEqual([old.id]);
		expect(result.patches?.[0]).toMatchObject({ id: txt.id, content: "two" });
		expect(result.puts?.[0]).toMatchObject({ id: mx.id, content: "mx2.example.net", priority: 20 });
		expect(result.posts?.[0]).toMatchObject({ type: "A", name: `app.${z.name}` });
		expect(await names(z.path, "?order=name")).toStrictEqual([
			`A app.${z.name} 192.0.2.9`,
			`TXT t.${z.name} two`,
			`MX ${z.name} mx2.example.net`,
		]);
	});

	it("writes nothing of a batch one of whose posts fails, and names the failed entry", async () => {
		const z = await zone();
		const keep = await create(z.path, { type: "TXT", name: "keep", content: "kept" });
		const before = await names(z.path);
		const res = await call("POST", `${z.path}/batch`, {
			deletes: [{ id: keep.id }],
			posts: [
				{ type: "A", name: "one", content: "192.0.2.1" },
				{ type: "A", name: "two", content: "999.0.0.1" },
			],
		});
		expect(res.status).toBe(400);
		expect(res.body.errors).toStrictEqual([
			{
				code: 9005,
				message: "Content for A record is invalid. Must be a valid IPv4 address",
				source: { pointer: "/posts/1/content" },
			},
		]);
		expect(await names(z.path)).toStrictEqual(before);
		const unknown = await call("POST", `${z.path}/batch`, {
			posts: [{ type: "A", name: "three", content: "192.0.2.3" }],
			patches: [{ id: "0".repeat(32), ttl: 60 }],
		});
		expect(unknown.status).toBe(404);
		expect(unknown.body.errors?.[0]).toMatchObject({ code: 81044, source: { pointer: "/patches/0/id" } });
		expect(await names(z.path)).toStrictEqual(before);
	});

	it("proxies a record to a loopback or private address, where the local origin lives", async () => {
		const z = await zone();
		for (const content of ["127.0.0.1", "192.168.1.1"]) {
			expect(await create(z.path, { type: "A", name: "local", content, proxied: true })).toMatchObject({
				proxied: true,
				proxiable: true,
			});
		}
		expect(await create(z.path, { type: "AAAA", name: "local", content: "::1", proxied: true })).toMatchObject({
			proxied: true,
		});
	});

	it("holds at most 3,500 records: the next is 400 81045, and a batch over 3,500 changes is refused whole", async () => {
		const z = await zone();
		const posts = Array.from({ length: 3500 }, (_, i) => ({ type: "TXT", name: `r${i}`, content: "x" }));
		const filled = await call("POST", `${z.path}/batch`, { posts });
		expect(filled.status).toBe(200);
		const over = await call("POST", z.path, { type: "TXT", name: "one-more", content: "x" });
		expect(over.status).toBe(400);
		expect(over.body.errors?.[0]?.code).toBe(81045);
		const tooMany = await call("POST", `${z.path}/batch`, {
			deletes: Array.from({ length: 3501 }, () => ({ id: "0".repeat(32) })),
		});
		expect(tooMany.status).toBe(400);
		expect(tooMany.body.errors?.[0]?.code).toBe(1004);
		expect((await call("GET", `${z.path}?per_page=1`)).body.result_info?.total_count).toBe(3500);
	});

	it("asks the DNS permission: DNS Read reads only; Zone WAF or SSL tokens neither read nor write", async () => {
		const z = await zone();
		const body = JSON.stringify({ type: "A", name: "a", content: "192.0.2.1" });
		expect((await call("GET", z.path, undefined, bearer(DNS_READ_TOKEN))).status).toBe(200);
		expect((await call("POST", z.path, body, bearer(DNS_READ_TOKEN))).status).toBe(403);
		for (const token of [WAF_TOKEN, SSL_EDIT_TOKEN]) {
			expect((await call("GET", z.path, undefined, bearer(token))).status).toBe(403);
			expect((await call("POST", z.path, body, bearer(token))).status).toBe(403);
		}
	});
});
