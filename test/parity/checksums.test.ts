import { describe, expect, it } from "vitest";
import { BUCKETS, expectR2Error, hexDigest, scope, store } from "./buckets";

const BODY = "the quick brown fox";

/** Each algorithm the binding verifies, its WebCrypto name, and its digest length in bytes. */
const ALGORITHMS = [
	{ name: "md5", algorithm: "MD5", bytes: 16 },
	{ name: "sha1", algorithm: "SHA-1", bytes: 20 },
	{ name: "sha256", algorithm: "SHA-256", bytes: 32 },
	{ name: "sha384", algorithm: "SHA-384", bytes: 48 },
	{ name: "sha512", algorithm: "SHA-512", bytes: 64 },
] as const;

const hexToBytes = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (byte) => parseInt(byte, 16));

describe.each(BUCKETS)("checksums on $name", ({ bucket }) => {
	const prefix = scope("checksums");

	it.each(ALGORITHMS)("$name as hex is verified, stored and echoed", async ({ name, algorithm }) => {
		const key = `${prefix}hex-${name}`;
		const hex = await hexDigest(algorithm, BODY);
		const md5 = await hexDigest("MD5", BODY);
		const put = await store(bucket, key, BODY, { [name]: hex });
		expect(put.checksums.toJSON()).toEqual({ md5, [name]: hex });
		const head = await bucket.head(key);
		expect(head?.checksums.toJSON()).toEqual({ md5, [name]: hex });
		expect(new Uint8Array(head?.checksums[name] ?? new ArrayBuffer(0))).toEqual(hexToBytes(hex));
		const get = await bucket.get(key);
		expect(get?.checksums.toJSON()).toEqual({ md5, [name]: hex });
		expect(await get?.text()).toBe(BODY);
	});

	it.each(ALGORITHMS)("$name as an ArrayBuffer or a view is verified", async ({ name, algorithm }) => {
		const hex = await hexDigest(algorithm, BODY);
		const buffer = await store(bucket, `${prefix}buffer-${name}`, BODY, { [name]: hexToBytes(hex).buffer });
		expect(buffer.checksums.toJSON()[name]).toBe(hex);
		const view = await store(bucket, `${prefix}view-${name}`, BODY, { [name]: hexToBytes(hex) });
		expect(view.checksums.toJSON()[name]).toBe(hex);
	});

	it.each(ALGORITHMS)("a wrong $name throws 10037 and stores nothing", async ({ name, bytes }) => {
		const key = `${prefix}mismatch-${name}`;
		await expectR2Error(bucket.put(key, BODY, { [name]: "ab".repeat(bytes) }), "put", 10037);
		expect(await bucket.head(key)).toBeNull();
	});

	it("a mismatch leaves the object already stored under the key untouched", async () => {
		const key = `${prefix}mismatch-existing`;
		const first = await store(bucket, key, "original");
		await expectR2Error(bucket.put(key, BODY, { sha256: "00".repeat(32) }), "put", 10037);
		expect((await bucket.head(key))?.version).toBe(first.version);
	});

	it("refuses a digest of the wrong length, and two algorithms at once, before any request", async () => {
		const key = `${prefix}invalid`;
		await expect(bucket.put(key, BODY, { md5: "abcd" })).rejects.toThrow(TypeError);
		await expect(bucket.put(key, BODY, { sha1: new ArrayBuffer(3) })).rejects.toThrow(TypeError);
		const md5 = await hexDigest("MD5", BODY);
		const sha1 = await hexDigest("SHA-1", BODY);
		await expect(bucket.put(key, BODY, { md5, sha1 })).rejects.toThrow(TypeError);
		expect(await bucket.head(key)).toBeNull();
	});

	it("stores an md5 checksum for every single-part object, equal to its etag", async () => {
		const put = await store(bucket, `${prefix}plain`, BODY);
		expect(put.checksums.toJSON()).toEqual({ md5: put.etag });
		expect(new Uint8Array(put.checksums.md5 ?? new ArrayBuffer(0))).toEqual(hexToBytes(put.etag));
		expect(put.checksums.sha256).toBeUndefined();
	});
});
