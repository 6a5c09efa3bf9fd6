import { describe, expect, it } from "vitest";
import {
	answerCustomMetadata,
	customMetadataFromHeaders,
	customMetadataToHeaders,
} from "../../src/wire/custom-metadata";
import { decodeMetadataValue, encodeMetadataValue } from "../../src/wire/encoded-words";
import {
	copyHttpMetadataHeaders,
	DEFAULT_CONTENT_TYPE,
	HTTP_METADATA_HEADERS,
	httpMetadataFromHeaders,
	httpMetadataFromJson,
	httpMetadataToHeaders,
	httpMetadataToJson,
} from "../../src/wire/http-metadata";

const ALL: R2HTTPMetadata = {
	contentType: "text/plain",
	contentLanguage: "de-CH",
	contentDisposition: "inline",
	contentEncoding: "gzip",
	cacheControl: "no-store",
	cacheExpiry: new Date("2030-01-02T03:04:05.000Z"),
};

describe("httpMetadata", () => {
	it("writes the six headers and reads them back", () => {
		const headers = new Headers();
		httpMetadataToHeaders(ALL, headers);
		expect([...headers.keys()].sort()).toEqual([...HTTP_METADATA_HEADERS].sort());
		expect(headers.get("expires")).toBe("Wed, 02 Jan 2030 03:04:05 GMT");
		expect(httpMetadataFromHeaders(headers)).toEqual({ kind: "metadata", metadata: ALL });
	});

	it("answers invalid for an Expires that is not a date", () => {
		expect(httpMetadataFromHeaders(new Headers({ expires: "soon" }))).toEqual({ kind: "invalid", expires: "soon" });
	});

	it("leaves out a Content-Type the gateway marked as its default", () => {
		const headers = new Headers({ "content-type": "application/octet-stream", [DEFAULT_CONTENT_TYPE]: "true" });
		expect(httpMetadataFromHeaders(headers)).toEqual({ kind: "metadata", metadata: {} });
	});

	it("copies only the six headers from a Headers option", () => {
		const to = new Headers();
		copyHttpMetadataHeaders(new Headers({ "content-type": "a/b", range: "bytes=0-1", expires: "x" }), to);
		expect([...to]).toEqual([
			["content-type", "a/b"],
			["expires", "x"],
		]);
	});

	it("carries cacheExpiry as ISO 8601 in JSON, both ways", () => {
		const json = httpMetadataToJson(ALL);
		expect(json.cacheExpiry).toBe("2030-01-02T03:04:05.000Z");
		expect(httpMetadataFromJson(json)).toEqual(ALL);
		expect(httpMetadataToJson({ contentType: "a/b" })).toEqual({ contentType: "a/b" });
	});
});

describe("custom metadata values (RFC 2047)", () => {
	it.each([
		["ops", "ops"],
		["", ""],
		["a=b; c", "a=b; c"],
		["Zürich ☃", "=?UTF-8?B?WsO8cmljaCDimIM=?="],
		[" padded ", "=?UTF-8?B?IHBhZGRlZCA=?="],
		["=?looks-encoded", "=?UTF-8?B?PT9sb29rcy1lbmNvZGVk?="],
	])("sends %j as %j and reads it back", (value, header) => {
		expect(encodeMetadataValue(value)).toBe(header);
		expect(decodeMetadataValue(header)).toBe(value);
	});

	it.each([
		["a Q word", "=?utf-8?q?Z=C3=BCrich_x?=", "Zürich x"],
		["raw UTF-8 bytes, one character per byte", "Z\u00c3\u00bcrich", "Zürich"],
		["a B word that is not base64", "=?UTF-8?B?***?=", "=?UTF-8?B?***?="],
		["a word that is not UTF-8", "=?UTF-8?Q?=FF?=", "=?UTF-8?Q?=FF?="],
		["Latin-1 that is not UTF-8", "caf\u00e9", "caf\u00e9"],
	])("decodes %s", (_, header, value) => {
		expect(decodeMetadataValue(header)).toBe(value);
	});

	it("maps customMetadata to x-amz-meta-* headers and back, names lower case", () => {
		const headers = new Headers({ "content-type": "x/y" });
		customMetadataToHeaders({ Owner: "ops", city: "Zürich" }, headers);
		expect(headers.get("x-amz-meta-owner")).toBe("ops");
		expect(customMetadataFromHeaders(headers)).toEqual({ owner: "ops", city: "Zürich" });
	});

	it("answers the names a header can carry, and counts the others in x-amz-missing-meta", () => {
		const headers = new Headers();
		answerCustomMetadata({ ok: "yes", ünï: "v", "with space": "s", "a.b_c~1": "t" }, headers);
		expect(customMetadataFromHeaders(headers)).toEqual({ ok: "yes", "a.b_c~1": "t" });
		expect(headers.get("x-amz-missing-meta")).toBe("2");
		const whole = new Headers();
		answerCustomMetadata({ ok: "yes" }, whole);
		expect(whole.has("x-amz-missing-meta")).toBe(false);
	});
});
