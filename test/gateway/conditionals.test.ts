import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { errorOf, expectError, gw, put } from "./helpers";

let etag: string;
let lastModified: Date;
const before = (seconds: number) => new Date(lastModified.getTime() - seconds * 1000).toUTCString();
const after = (seconds: number) => new Date(lastModified.getTime() + seconds * 1000).toUTCString();

beforeAll(async () => {
	const object = await put("cond/object", "conditional body");
	etag = object.etag;
	lastModified = new Date(Math.floor(Date.parse(object.uploaded) / 1000) * 1000);
});

type Row = [name: string, headers: () => Record<string, string>, status: number];

// RFC 9110 §13.2.2: If-Match, then If-Unmodified-Since (412); then If-None-Match, then
// If-Modified-Since only without If-None-Match (304 on GET and HEAD).
const matrix: Row[] = [
	["If-Match matching", () => ({ "if-match": `"${etag}"` }), 200],
	["If-Match in a list", () => ({ "if-match": `"other", "${etag}"` }), 200],
	["If-Match *", () => ({ "if-match": "*" }), 200],
	["If-Match not matching", () => ({ "if-match": '"other"' }), 412],
	["If-Match weak never matches", () => ({ "if-match": `W/"${etag}"` }), 412],
	["If-None-Match matching", () => ({ "if-none-match": `"${etag}"` }), 304],
	["If-None-Match weak matches", () => ({ "if-none-match": `W/"${etag}"` }), 304],
	["If-None-Match *", () => ({ "if-none-match": "*" }), 304],
	["If-None-Match not matching", () => ({ "if-none-match": '"other"' }), 200],
	["If-Modified-Since before", () => ({ "if-modified-since": before(60) }), 200],
	["If-Modified-Since equal", () => ({ "if-modified-since": lastModified.toUTCString() }), 304],
	["If-Modified-Since after", () => ({ "if-modified-since": after(60) }), 304],
	["If-Modified-Since not a date is ignored", () => ({ "if-modified-since": "yesterday" }), 200],
	["If-Unmodified-Since after", () => ({ "if-unmodified-since": after(60) }), 200],
	["If-Unmodified-Since equal passes (RFC 9110)", () => ({ "if-unmodified-since": lastModified.toUTCString() }), 200],
	["If-Unmodified-Since before", () => ({ "if-unmodified-since": before(60) }), 412],
	["If-Unmodified-Since not a date is ignored", () => ({ "if-unmodified-since": "soon" }), 200],
	[
		"If-Match failing beats If-None-Match failing",
		() => ({ "if-match": '"other"', "if-none-match": `"${etag}"` }),
		412,
	],
	["If-Match passing, If-None-Match failing", () => ({ "if-match": `"${etag}"`, "if-none-match": `"${etag}"` }), 304],
	[
		"If-Match passing, If-Modified-Since failing",
		() => ({ "if-match": `"${etag}"`, "if-modified-since": after(60) }),
		304,
	],
	[
		"If-Match passing overrides If-Unmodified-Since failing",
		() => ({ "if-match": `"${etag}"`, "if-unmodified-since": before(60) }),
		200,
	],
	[
		"If-None-Match passing overrides If-Modified-Since failing",
		() => ({ "if-none-match": '"other"', "if-modified-since": after(60) }),
		200,
	],
	[
		"If-Unmodified-Since failing beats If-None-Match failing",
		() => ({ "if-unmodified-since": before(60), "if-none-match": `"${etag}"` }),
		412,
	],
];

describe("conditional GET and HEAD", () => {
	it.each(matrix)("%s answers %i", async (_, headers, status) => {
		const get = await gw("/cond/object", { headers: headers() });
		expect(get.status).toBe(status);
		const head = await gw("/cond/object", { method: "HEAD", headers: headers() });
		expect(head.status).toBe(status);
		if (status === 200) expect(await textOf(get)).toBe("conditional body");
		if (status === 304) {
			expect(get.headers.get("etag")).toBe(`"${etag}"`);
			expect(await textOf(get)).toBe("");
		}
		if (status === 412) {
			const body = await get.json<{ error: { code: number }; object: { etag: string } }>();
			expect(body.error.code).toBe(10031);
			expect(body.object.etag).toBe(etag);
		}
	});

	it("answers 304 without Content-Range when a condition fails with a Range", async () => {
		const response = await gw("/cond/object", { headers: { "if-none-match": `"${etag}"`, range: "bytes=0-3" } });
		expect(response.status).toBe(304);
		expect(response.headers.get("content-range")).toBeNull();
	});

	it("serves the range when the conditions hold", async () => {
		const response = await gw("/cond/object", { headers: { "if-match": `"${etag}"`, range: "bytes=0-3" } });
		expect(response.status).toBe(206);
		expect(await textOf(response)).toBe("cond");
	});

	it("answers 304 before 416 when a failed condition meets an unsatisfiable range", async () => {
		const response = await gw("/cond/object", { headers: { "if-none-match": "*", range: "bytes=500-" } });
		expect(response.status).toBe(304);
	});

	it("answers 404 to a missing key whatever the conditions", async () => {
		expect((await gw("/cond/missing", { headers: { "if-match": "*" } })).status).toBe(404);
		expect((await gw("/cond/missing", { headers: { "if-none-match": "*" } })).status).toBe(404);
	});

	it("answers 400 to an unquoted entity tag", async () => {
		const response = await gw("/cond/object", { headers: { "if-match": etag } });
		expect(await expectError(response, 400, 400)).toMatch(/If-Match/);
	});
});

describe("conditional PUT", () => {
	it("stores nothing and answers 412 when If-Match fails", async () => {
		const response = await gw("/cond/object", { method: "PUT", body: "replaced", headers: { "if-match": '"other"' } });
		expect(response.status).toBe(412);
		expect((await errorOf(response)).code).toBe(10031);
		expect(await textOf(await gw("/cond/object"))).toBe("conditional body");
	});

	it("creates only when absent with If-None-Match: *", async () => {
		const first = await gw("/cond/create-once", { method: "PUT", body: "first", headers: { "if-none-match": "*" } });
		expect(first.status).toBe(200);
		const second = await gw("/cond/create-once", { method: "PUT", body: "second", headers: { "if-none-match": "*" } });
		expect(second.status).toBe(412);
		expect(await textOf(await gw("/cond/create-once"))).toBe("first");
	});

	it("replaces when If-Match holds", async () => {
		const object = await put("cond/replace", "v1");
		const response = await gw("/cond/replace", {
			method: "PUT",
			body: "v2",
			headers: { "if-match": `"${object.etag}"` },
		});
		expect(response.status).toBe(200);
		expect(await textOf(await gw("/cond/replace"))).toBe("v2");
	});

	it("answers 412 to If-Match on a missing key", async () => {
		const response = await gw("/cond/absent", { method: "PUT", body: "x", headers: { "if-match": "*" } });
		expect(response.status).toBe(412);
		expect((await gw("/cond/absent")).status).toBe(404);
	});
});
