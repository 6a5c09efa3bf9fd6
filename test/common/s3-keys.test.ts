/**
 * The R2 grant of a token entry of API_CREDENTIALS (src/common/s3-keys.ts): R2's permission
 * groups, edgezone's mapping of a token's API access, "access": "read", and buckets scoping an
 * Object permission; and the entries it refuses.
 */
import { describe, expect, it } from "vitest";
import { r2GrantOf } from "../../src/common/s3-keys";

const ZONE = "023e105f4ecef8ad9ca31a8372d0c353";

describe("the R2 grant of a token", () => {
	it.each([
		[["Workers R2 Storage Edit"], "admin-read-write"],
		[["Workers R2 Storage Read"], "admin-read"],
		[["Workers R2 Storage Bucket Item Edit"], "object-read-write"],
		[["Workers R2 Storage Bucket Item Read"], "object-read"],
		[["Zone Read", "Workers R2 Storage Bucket Item Read"], "object-read"],
		[["Zone Read", "Logs Edit"], "none"],
	])("is the permission R2's group names, whatever else the token has: %j", (permissions, permission) => {
		expect(r2GrantOf({ zones: "*", access: "write", permissions })).toStrictEqual({ permission });
	});

	it("is Admin for a token of every zone and Object for one of listed zones, when it names no permissions", () => {
		expect(r2GrantOf({ zones: "*", access: "write" })).toStrictEqual({ permission: "admin-read-write" });
		expect(r2GrantOf({ zones: [ZONE], access: "write" })).toStrictEqual({ permission: "object-read-write" });
	});

	it.each([
		["*", undefined, "admin-read"],
		[[ZONE], undefined, "object-read"],
		["*", ["Workers R2 Storage Edit"], "admin-read"],
		["*", ["Workers R2 Storage Bucket Item Edit"], "object-read"],
	] as const)("is read-only with access read: zones %j, permissions %j", (zones, permissions, permission) => {
		expect(r2GrantOf({ zones, access: "read", permissions })).toStrictEqual({ permission });
	});

	it("scopes an Object permission to the buckets the entry lists", () => {
		expect(
			r2GrantOf({ zones: "*", access: "write", permissions: ["Workers R2 Storage Bucket Item Edit"], buckets: ["a"] }),
		).toStrictEqual({ permission: "object-read-write", buckets: ["a"] });
		expect(r2GrantOf({ zones: [ZONE], access: "read", buckets: ["a", "b"] })).toStrictEqual({
			permission: "object-read",
			buckets: ["a", "b"],
		});
	});

	it("refuses two of R2's groups, which no R2 token has, naming both", () => {
		const refusal = r2GrantOf({
			zones: "*",
			access: "write",
			permissions: ["Workers R2 Storage Read", "Workers R2 Storage Bucket Item Edit"],
		});
		expect(refusal).toContain('"Workers R2 Storage Read" and "Workers R2 Storage Bucket Item Edit"');
	});

	it("refuses buckets on an Admin permission or on none, which reach every bucket or none", () => {
		expect(r2GrantOf({ zones: "*", access: "write", buckets: ["a"] })).toContain("Admin Read & Write");
		expect(r2GrantOf({ zones: "*", access: "write", permissions: ["Zone Read"], buckets: ["a"] })).toContain("is none");
	});
});
