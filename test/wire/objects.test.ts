import { describe, expect, it } from "vitest";
import { INCLUDE_VALUES, isIncludeValue, isPartNumber, MAX_KEYS, MAX_PART_NUMBER } from "../../src/wire/limits";
import { objectToJson } from "../../src/wire/object-json";
import {
	type ParsedStorageClass,
	storageClassFromAnswer,
	storageClassFromRequest,
	storageClassToHeader,
} from "../../src/wire/storage-class";

describe("storage classes", () => {
	it.each<[string | null, ParsedStorageClass]>([
		[null, { kind: "none" }],
		["STANDARD", { kind: "class", storageClass: "Standard" }],
		[" Standard ", { kind: "class", storageClass: "Standard" }],
		["STANDARD_IA", { kind: "class", storageClass: "InfrequentAccess" }],
		["InfrequentAccess", { kind: "class", storageClass: "InfrequentAccess" }],
		["GLACIER", { kind: "invalid" }],
	])("reads a write's %j", (value, parsed) => {
		expect(storageClassFromRequest(value)).toEqual(parsed);
	});

	it.each([
		["Standard", "STANDARD"],
		["InfrequentAccess", "STANDARD_IA"],
		["", undefined],
		["Future", "Future"],
	])("answers %j as %j and reads it back", (storageClass, header) => {
		expect(storageClassToHeader(storageClass)).toBe(header);
		expect(storageClassFromAnswer(header ?? null)).toBe(storageClass);
	});
});

describe("limits", () => {
	it.each([
		[0, false],
		[1, true],
		[MAX_PART_NUMBER, true],
		[MAX_PART_NUMBER + 1, false],
		[1.5, false],
	])("part number %d is valid: %s", (n, valid) => {
		expect(isPartNumber(n)).toBe(valid);
	});

	it("knows the include values and the 1000 keys bound", () => {
		expect(INCLUDE_VALUES.every(isIncludeValue)).toBe(true);
		expect(isIncludeValue("checksums")).toBe(false);
		expect(MAX_KEYS).toBe(1000);
	});
});

describe("objectToJson", () => {
	const object = {
		key: "a",
		version: "v",
		size: 3,
		etag: "e",
		httpEtag: '"e"',
		uploaded: new Date("2026-01-01T00:00:00.123Z"),
		checksums: { md5: new Uint8Array([1, 2]).buffer },
		storageClass: "Standard",
		httpMetadata: { contentType: "text/plain" },
		customMetadata: { owner: "ops" },
	} as unknown as R2Object;

	it("carries dates as ISO 8601, checksums as hex, and the metadata the binding gave", () => {
		expect(objectToJson(object)).toEqual({
			key: "a",
			version: "v",
			size: 3,
			etag: "e",
			httpEtag: '"e"',
			uploaded: "2026-01-01T00:00:00.123Z",
			checksums: { md5: "0102" },
			storageClass: "Standard",
			httpMetadata: { contentType: "text/plain" },
			customMetadata: { owner: "ops" },
		});
	});

	it("leaves out metadata the binding left undefined (R2's list entries without include)", () => {
		const json = objectToJson({ ...object, httpMetadata: undefined } as R2Object);
		expect(json).not.toHaveProperty("httpMetadata");
		expect(json.customMetadata).toEqual({ owner: "ops" });
	});
});
