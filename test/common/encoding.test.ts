import { describe, expect, it } from "vitest";
import { fromBase64, fromBase64Url, fromHex, toBase64, toBase64Url, toHex } from "../../src/common/encoding";

const BYTES = Uint8Array.from([0, 1, 0x7f, 0x80, 0xfb, 0xff]);

describe("encoding", () => {
	it("writes hex in lower case, two digits a byte, and reads it back in either case", () => {
		expect(toHex(BYTES)).toBe("00017f80fbff");
		expect(fromHex("00017F80FBFF")).toEqual(BYTES);
		expect(toHex(new Uint8Array())).toBe("");
	});

	it.each(["abc", "0g", "zz"])("refuses %j as hex", (text) => {
		expect(fromHex(text)).toBeUndefined();
	});

	it("round-trips base64 with padding", () => {
		expect(toBase64(BYTES)).toBe("AAF/gPv/");
		expect(toBase64(Uint8Array.from([1]))).toBe("AQ==");
		expect(fromBase64("AAF/gPv/")).toEqual(BYTES);
		expect(fromBase64("not base64!")).toBeUndefined();
	});

	it("writes base64url without padding and with - and _ for + and /", () => {
		expect(toBase64Url(BYTES)).toBe("AAF_gPv_");
		expect(toBase64Url(Uint8Array.from([1]))).toBe("AQ");
		expect(fromBase64Url("AAF_gPv_")).toEqual(BYTES);
		expect(fromBase64Url("AQ")).toEqual(Uint8Array.from([1]));
	});

	it.each(["AAF/gPv/", "AQ==", "a b"])("refuses %j as base64url", (text) => {
		expect(fromBase64Url(text)).toBeUndefined();
	});
});
