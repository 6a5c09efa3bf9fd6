/**
 * ListObjectsV2 through the S3 dialect: prefix, delimiter, max-keys, continuation tokens,
 * start-after and encoding-type=url, over objects put with `env.BUCKET`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { BUCKET, bucket, expectS3Error, s3, xmlOf } from "./helpers";

interface ListBucketResult {
	ListBucketResult: {
		Name: string;
		Marker?: string;
		NextMarker?: string;
		Prefix: string;
		Delimiter?: string;
		StartAfter?: string;
		MaxKeys: string;
		KeyCount: string;
		IsTruncated: string;
		ContinuationToken?: string;
		NextContinuationToken?: string;
		EncodingType?: string;
		Contents?: { Key: string; Size: string; ETag: string; LastModified: string; StorageClass: string }[];
		CommonPrefixes?: { Prefix: string }[];
	};
}

const root = `s3-list-${crypto.randomUUID()}/`;
const keys = ["a.txt", "b.txt", "dir/one", "dir/two", "space key", "z.txt"].map((name) => root + name);

async function list(query: string): Promise<ListBucketResult["ListBucketResult"]> {
	const response = await s3(`/${BUCKET}?list-type=2&${query}`);
	expect(response.status).toBe(200);
	return (await xmlOf<ListBucketResult>(response)).ListBucketResult;
}

const keysOf = (result: ListBucketResult["ListBucketResult"]) => (result.Contents ?? []).map((entry) => entry.Key);

beforeAll(async () => {
	for (const k of keys) await bucket().put(k, k);
});

describe("ListObjectsV2", () => {
	it("lists the keys under a prefix with their size, ETag and storage class", async () => {
		const result = await list(`prefix=${encodeURIComponent(root)}`);
		expect(result.Name).toBe(BUCKET);
		expect(keysOf(result)).toEqual(keys);
		expect(result.KeyCount).toBe(String(keys.length));
		expect(result.IsTruncated).toBe("false");
		const first = result.Contents?.[0];
		const stored = await bucket().head(keys[0] ?? "");
		expect(first).toMatchObject({ Size: String(keys[0]?.length), ETag: stored?.httpEtag, StorageClass: "STANDARD" });
	});

	it("groups keys under the delimiter into CommonPrefixes", async () => {
		const result = await list(`prefix=${encodeURIComponent(root)}&delimiter=/`);
		expect(keysOf(result)).toEqual(keys.filter((k) => !k.includes("/dir/")));
		expect(result.CommonPrefixes).toEqual([{ Prefix: `${root}dir/` }]);
		expect(result.Delimiter).toBe("/");
	});

	it("pages by max-keys, following NextContinuationToken to the end", async () => {
		const seen: string[] = [];
		let token: string | undefined;
		do {
			const query = `prefix=${encodeURIComponent(root)}&max-keys=2${token ? `&continuation-token=${encodeURIComponent(token)}` : ""}`;
			const result = await list(query);
			expect(result.MaxKeys).toBe("2");
			if (token !== undefined) expect(result.ContinuationToken).toBe(token);
			seen.push(...keysOf(result));
			token = result.IsTruncated === "true" ? result.NextContinuationToken : undefined;
		} while (token !== undefined);
		expect(seen).toEqual(keys);
	});

	it("starts after start-after", async () => {
		const result = await list(`prefix=${encodeURIComponent(root)}&start-after=${encodeURIComponent(`${root}dir/two`)}`);
		expect(keysOf(result)).toEqual(keys.slice(4));
		expect(result.StartAfter).toBe(`${root}dir/two`);
	});

	it("answers max-keys=0 with no keys and whether any match", async () => {
		const result = await list(`prefix=${encodeURIComponent(root)}&max-keys=0`);
		expect(result.Contents).toBeUndefined();
		expect(result.KeyCount).toBe("0");
		expect(result.IsTruncated).toBe("true");
	});

	it("URL-encodes keys and prefixes under encoding-type=url", async () => {
		const result = await list(`prefix=${encodeURIComponent(`${root}space`)}&encoding-type=url`);
		expect(keysOf(result)).toEqual([encodeURIComponent(`${root}space key`)]);
		expect(result.EncodingType).toBe("url");
	});

	it("refuses a negative or empty max-keys with R2's InvalidMaxKeys", async () => {
		for (const value of ["-1", "", "ten"]) {
			const error = await expectS3Error(await s3(`/${BUCKET}?list-type=2&max-keys=${value}`), 400, "InvalidMaxKeys");
			expect(error?.Message).toBe("MaxKeys params must be positive integer <= 1000.");
		}
	});

	it("refuses an encoding-type other than url with R2's NotImplemented", async () => {
		const error = await expectS3Error(await s3(`/${BUCKET}?list-type=2&encoding-type=base64`), 501, "NotImplemented");
		expect(error?.Message).toBe('Unrecognized encoding-type "base64" not implemented');
	});
});

describe("ListObjects (V1)", () => {
	async function listV1(query: string): Promise<ListBucketResult["ListBucketResult"]> {
		const response = await s3(`/${BUCKET}?${query}`);
		expect(response.status).toBe(200);
		return (await xmlOf<ListBucketResult>(response)).ListBucketResult;
	}

	it("pages by marker through keys and common prefixes, each entry once", async () => {
		const seen: string[] = [];
		let marker = "";
		// Bounded: a marker that did not move past its common prefix would list it forever.
		for (let pages = 0; pages < 2 * keys.length; pages++) {
			const result = await listV1(
				`prefix=${encodeURIComponent(root)}&delimiter=/&max-keys=1&marker=${encodeURIComponent(marker)}`,
			);
			expect(result.Marker).toBe(marker);
			seen.push(...keysOf(result), ...(result.CommonPrefixes ?? []).map((p) => p.Prefix));
			if (result.IsTruncated !== "true") break;
			marker = result.NextMarker ?? "";
		}
		expect(seen.sort()).toEqual([`${root}dir/`, ...keys.filter((k) => !k.includes("/dir/"))].sort());
	});

	it("starts after a marker, without KeyCount or continuation tokens", async () => {
		const result = await listV1(`prefix=${encodeURIComponent(root)}&marker=${encodeURIComponent(`${root}dir/one`)}`);
		expect(keysOf(result)).toEqual(keys.slice(3));
		expect(result.KeyCount).toBeUndefined();
		expect(result.NextContinuationToken).toBeUndefined();
	});
});
