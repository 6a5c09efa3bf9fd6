import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/common/encoding";
import {
	askForChecksums,
	CHECKSUMS,
	checksumHeader,
	checksumsFromHeaders,
	checksumsFromJson,
	checksumsFromRequest,
	checksumsToHeaders,
	checksumsToJson,
	checksumToRequest,
	wantsChecksums,
} from "../../src/wire/checksums";

const digestOf = (bytes: number, fill: number) => new Uint8Array(bytes).fill(fill);

describe("checksum headers", () => {
	it.each(
		CHECKSUMS.map((c) => [c.name, c.bytes, c.name === "md5" ? "content-md5" : `x-amz-checksum-${c.name}`] as const),
	)("sends %s (%d bytes) as %s and reads it back", (name, bytes, header) => {
		expect(checksumHeader(name)).toBe(header);
		const headers = new Headers();
		checksumToRequest(name, digestOf(bytes, 7), headers);
		const parsed = checksumsFromRequest(headers);
		expect(parsed.kind).toBe("checksums");
		if (parsed.kind === "checksums") {
			expect(parsed.checksums.map((c) => [c.name, [...c.digest]])).toEqual([[name, [...digestOf(bytes, 7)]]]);
		}
	});

	it.each([
		["not base64", "content-md5", "%%%"],
		["the wrong length", "x-amz-checksum-sha256", toBase64(digestOf(16, 1))],
		["empty", "x-amz-checksum-sha1", ""],
	])("answers invalid for a value that is %s", (_, header, value) => {
		expect(checksumsFromRequest(new Headers({ [header]: value }))).toMatchObject({ kind: "invalid", header, value });
	});

	it("writes stored checksums as base64 headers and reads them back; hex in JSON both ways", () => {
		const stored = { md5: digestOf(16, 1).buffer, sha256: digestOf(32, 2).buffer } as R2Checksums;
		const headers = new Headers();
		checksumsToHeaders(stored, headers);
		expect([...headers.keys()].sort()).toEqual(["x-amz-checksum-md5", "x-amz-checksum-sha256"]);
		const back = checksumsFromHeaders(headers);
		expect(Object.keys(back)).toEqual(["md5", "sha256"]);
		expect(new Uint8Array(back.sha256 ?? new ArrayBuffer(0))).toEqual(digestOf(32, 2));
		const json = checksumsToJson(stored);
		expect(json).toEqual({ md5: "01".repeat(16), sha256: "02".repeat(32) });
		expect(checksumsToJson(checksumsFromJson(json) as R2Checksums)).toEqual(json);
	});

	it("asks for stored checksums with x-amz-checksum-mode, case-insensitively", () => {
		const headers = new Headers();
		expect(wantsChecksums(headers)).toBe(false);
		askForChecksums(headers);
		expect(wantsChecksums(headers)).toBe(true);
		expect(wantsChecksums(new Headers({ "x-amz-checksum-mode": "enabled" }))).toBe(true);
	});
});
