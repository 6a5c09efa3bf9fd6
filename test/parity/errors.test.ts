/**
 * The binding's errors, compared whole: RemoteBucket must throw an error equal to the binding's
 * (`toThrow(new Error(message))` compares name, message and own enumerable properties), with the
 * binding's message and code for each case (workerd `src/workerd/api/r2-rpc.c++`, `throwIfError`).
 */
import { describe, expect, it } from "vitest";
import { BUCKETS, scope, store } from "./buckets";

/** The binding's error for `action`, code and message, as workerd formats it. */
const r2Error = (action: string, message: string, code: number) => new Error(`${action}: ${message} (${code})`);

const LONG_KEY = "ü".repeat(513);
const INVALID_NAME = "The specified object name is not valid.";
const MAX_KEYS = "MaxKeys params must be positive integer <= 1000.";
const METADATA_TOO_LARGE = "Your metadata headers exceed the maximum allowed metadata size.";

describe.each(BUCKETS)("errors on $name", ({ bucket }) => {
	it("throws errors equal to the binding's: same name, message, no extra enumerable fields", async () => {
		await expect(bucket.put(LONG_KEY, "x")).rejects.toThrow(r2Error("put", INVALID_NAME, 10020));
		await expect(bucket.get(LONG_KEY)).rejects.toThrow(r2Error("get", INVALID_NAME, 10020));
	});

	it("head reports the binding's message and code, although an answer to HEAD has no body", async () => {
		await expect(bucket.head(LONG_KEY)).rejects.toThrow(r2Error("head", INVALID_NAME, 10020));
	});

	it("refuses a list limit out of range with the binding's message and 10022", async () => {
		for (const limit of [0, 1001, 0.5, Number.NaN, Number.POSITIVE_INFINITY]) {
			await expect(bucket.list({ limit }), String(limit)).rejects.toThrow(r2Error("list", MAX_KEYS, 10022));
		}
	});

	it("reads a list limit as the binding does: truncated, a negative one as none, past 32 bits a TypeError", async () => {
		const prefix = scope("errors-limit");
		for (const name of ["a", "b", "c"]) await store(bucket, `${prefix}${name}`, name);
		expect((await bucket.list({ prefix, limit: 1.5 })).objects).toHaveLength(1);
		expect((await bucket.list({ prefix, limit: -1 })).objects).toHaveLength(3);
		await expect(bucket.list({ prefix, limit: 2 ** 40 })).rejects.toThrow(TypeError);
	});

	it("answers a complete naming a part twice with the binding's error, not 'no such upload'", async () => {
		const upload = await bucket.createMultipartUpload(`${scope("errors-duplicate")}d`);
		const part = await upload.uploadPart(1, "abc");
		await expect(upload.complete([part, part])).rejects.toThrow(
			r2Error("completeMultipartUpload", "We encountered an internal error. Please try again.", 10001),
		);
		await upload.abort();
	});

	it("refuses custom metadata over 8192 characters, counted as the binding counts them", async () => {
		const key = `${scope("errors-metadata")}m`;
		// The binding counts names and values in UTF-16 code units, twice that for a string holding
		// a character past U+00FF (Miniflare `Validator.metadataSize`): 1 + 8191 fits, 1 + 8192 does not.
		await store(bucket, key, "x", { customMetadata: { a: "x".repeat(8191) } });
		await expect(bucket.put(key, "x", { customMetadata: { a: "x".repeat(8192) } })).rejects.toThrow(
			r2Error("put", METADATA_TOO_LARGE, 10012),
		);
		await expect(bucket.put(key, "x", { customMetadata: { a: "☃".repeat(4096) } })).rejects.toThrow(
			r2Error("put", METADATA_TOO_LARGE, 10012),
		);
		// Names differing only in case are two entries for the binding, one header over HTTP: they
		// count twice all the same.
		const twice = { Big: "x".repeat(5000), big: "y".repeat(5000) };
		await expect(bucket.put(key, "x", { customMetadata: twice })).rejects.toThrow(
			r2Error("put", METADATA_TOO_LARGE, 10012),
		);
		await expect(bucket.createMultipartUpload(key, { customMetadata: twice })).rejects.toThrow(
			r2Error("createMultipartUpload", METADATA_TOO_LARGE, 10012),
		);
		expect((await bucket.head(key))?.customMetadata).toEqual({ a: "x".repeat(8191) });
	});
});
