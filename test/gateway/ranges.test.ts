import { beforeAll, describe, expect, it } from "vitest";
import { textOf } from "../bodies";
import { errorOf, expectError, gw, put } from "./helpers";

const BODY = "0123456789"; // 10 bytes

beforeAll(async () => {
	await put("ranges/ten", BODY);
	await put("ranges/empty", "");
});

describe("Range on GET and HEAD", () => {
	const satisfiable: [string, string, string][] = [
		["bytes=0-0", "bytes 0-0/10", "0"],
		["bytes=2-5", "bytes 2-5/10", "2345"],
		["bytes=7-", "bytes 7-9/10", "789"],
		["bytes=-3", "bytes 7-9/10", "789"],
		["bytes=-30", "bytes 0-9/10", BODY],
		["bytes=8-100", "bytes 8-9/10", "89"],
		["bytes=9-9", "bytes 9-9/10", "9"],
	];
	it.each(satisfiable)("answers 206 to %s with Content-Range %s", async (range, contentRange, body) => {
		const get = await gw("/ranges/ten", { headers: { range } });
		expect(get.status).toBe(206);
		expect(get.headers.get("content-range")).toBe(contentRange);
		expect(get.headers.get("content-length")).toBe(String(body.length));
		expect(await textOf(get)).toBe(body);
		const head = await gw("/ranges/ten", { method: "HEAD", headers: { range } });
		expect(head.status).toBe(206);
		expect(head.headers.get("content-range")).toBe(contentRange);
		expect(head.headers.get("content-length")).toBe(String(body.length));
	});

	const malformed = ["bytes=5-2", "bytes=0-1,3-4", "bytes=a-b", "items=0-1", "bytes=", "bytes=-", "0-1"];
	it.each(malformed)("answers 400 to the malformed range %s", async (range) => {
		const get = await gw("/ranges/ten", { headers: { range } });
		await expectError(get, 400, 400);
		await expectError(await gw("/ranges/ten", { method: "HEAD", headers: { range } }), 400, 400);
	});

	const unsatisfiable: [string, string][] = [
		["ten", "bytes=10-"],
		["ten", "bytes=10-20"],
		["ten", "bytes=-0"],
		["empty", "bytes=0-"],
		["empty", "bytes=-5"],
	];
	it.each(unsatisfiable)("answers 416 naming the size for %s with %s", async (name, range) => {
		const size = name === "ten" ? 10 : 0;
		const get = await gw(`/ranges/${name}`, { headers: { range } });
		expect(get.status).toBe(416);
		expect(get.headers.get("content-range")).toBe(`bytes */${size}`);
		expect((await errorOf(get)).code).toBe(10039);
		const head = await gw(`/ranges/${name}`, { method: "HEAD", headers: { range } });
		expect(head.status).toBe(416);
		expect(head.headers.get("content-range")).toBe(`bytes */${size}`);
	});

	it("answers 404 to a range on a missing key", async () => {
		expect((await gw("/ranges/missing", { headers: { range: "bytes=50-" } })).status).toBe(404);
	});

	it("serves the whole object with Accept-Ranges when no range is asked", async () => {
		const response = await gw("/ranges/ten");
		expect(response.status).toBe(200);
		expect(response.headers.get("accept-ranges")).toBe("bytes");
		expect(response.headers.get("content-range")).toBeNull();
		expect(await textOf(response)).toBe(BODY);
	});
});
