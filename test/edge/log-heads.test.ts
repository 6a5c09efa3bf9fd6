/** One pass over a head's headers: its size in HTTP/1.1 form and the values an entry reads. */
import { describe, expect, it } from "vitest";
import { headBytes, headerLineBytes, scanHead } from "../../src/edge/log-heads";

describe("scanHead", () => {
	it("matches names case-insensitively and answers them lower case, only the wanted ones", () => {
		const head = scanHead(new Headers({ "X-Custom": "one", Accept: "text/html" }), new Set(["x-custom", "x-missing"]));
		expect([...head.values]).toStrictEqual([["x-custom", "one"]]);
	});

	it("keeps only the first instance of a repeated set-cookie, and counts every one", () => {
		const headers = new Headers();
		headers.append("set-cookie", "a=1; Path=/");
		headers.append("set-cookie", "b=2; Path=/");
		const head = scanHead(headers, new Set(["set-cookie"]));
		expect(head.values.get("set-cookie")).toBe("a=1; Path=/");
		expect(head.headerBytes).toBe(2 * headerLineBytes("set-cookie", "a=1; Path=/"));
	});

	it("keeps every value of the names asked for so (preserve_duplicates)", () => {
		const headers = new Headers({ "content-type": "text/plain" });
		headers.append("set-cookie", "a=1");
		headers.append("set-cookie", "b=2");
		const head = scanHead(headers, new Set(["set-cookie"]), new Set(["set-cookie", "content-type", "etag"]));
		expect(head.values.get("set-cookie")).toBe("a=1");
		expect([...head.every]).toStrictEqual([
			["content-type", ["text/plain"]],
			["set-cookie", ["a=1", "b=2"]],
		]);
	});

	it("reads another repeated header as Headers.get joins it", () => {
		const headers = new Headers();
		headers.append("x-a", "1");
		headers.append("x-a", "2");
		expect(scanHead(headers, new Set(["x-a"])).values.get("x-a")).toBe("1, 2");
	});

	it("sizes a head in HTTP/1.1 form: first line, `name: value` lines, CRLF each, a blank line", () => {
		const head = scanHead(new Headers({ Host: "a.example", "Content-Length": "5" }), new Set());
		const wire = "GET / HTTP/1.1\r\nhost: a.example\r\ncontent-length: 5\r\n\r\n";
		expect(headBytes("GET / HTTP/1.1", head)).toBe(wire.length);
		expect(headBytes("GET / HTTP/1.1", scanHead(new Headers(), new Set()))).toBe("GET / HTTP/1.1\r\n\r\n".length);
	});
});
