/** The Bucket page's pure helpers (src/dash/bucket/browse.ts): sizes, folders, previews, addresses. */
import { describe, expect, it } from "vitest";
import { crumbs, formatBytes, nameUnder, previewKind, proxyObjectUrl } from "../../src/dash/bucket/browse";

describe("the Bucket page's helpers", () => {
	it.each([
		[0, "0 B"],
		[1023, "1023 B"],
		[1024, "1.0 KiB"],
		[20 * 1024 * 1024, "20.0 MiB"],
		[3 * 1024 ** 4, "3.0 TiB"],
	])("formats %i bytes as %s", (bytes, text) => {
		expect(formatBytes(bytes)).toBe(text);
	});

	it("names the folders down to a prefix, each with the prefix that opens it", () => {
		expect(crumbs("")).toEqual([]);
		expect(crumbs("a/b c/")).toEqual([
			{ name: "a", prefix: "a/" },
			{ name: "b c", prefix: "a/b c/" },
		]);
		expect(nameUnder("a/", "a/x.txt")).toBe("x.txt");
	});

	it.each([
		["notes.bin", "text/plain; charset=utf-8", undefined, "text"],
		["data", "application/json", undefined, "text"],
		["feed", "application/atom+xml", undefined, "text"],
		["x", "image/png", undefined, "image"],
		["x", "audio/mpeg", undefined, "audio"],
		["x", "video/mp4", undefined, "video"],
		["x", "application/zip", undefined, "none"],
		["photo.PNG", undefined, undefined, "image"],
		["clip.webm", "application/octet-stream", undefined, "video"],
		["log.txt", "text/plain", "gzip", "none"],
		["noextension", undefined, undefined, "none"],
	] as const)("previews %s (%s, encoding %s) as %s", (key, type, encoding, kind) => {
		expect(previewKind(key, type, encoding)).toBe(kind);
	});

	it("puts every key, . and .. included, in ?key= of the proxy, with the bucket when not the default", () => {
		expect(proxyObjectUrl("z", "", "a/b c.txt")).toBe("/zones/z/bucket/o/?key=a%2Fb+c.txt");
		expect(proxyObjectUrl("z", "edgezone-logs", "..")).toBe("/zones/z/bucket/o/?key=..&bucket=edgezone-logs");
	});
});
