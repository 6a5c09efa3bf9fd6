/**
 * ListObjectsV2 and ListObjects (V1) on the binding's `list()`
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjects.html; R2's rules,
 * https://developers.cloudflare.com/r2/api/s3/api/): `prefix`, `delimiter`, `max-keys` and
 * `encoding-type=url`; V2's `start-after` and `continuation-token` (the binding's cursor, opaque
 * to the client), and `fetch-owner`, which has nothing to add (R2 lists no owner); V1's `marker`.
 *
 * V1 pages by key: `marker` is the binding's `startAfter`, and `NextMarker` the page's last key or
 * common prefix. A marker that is a common prefix (it ends with the delimiter) skips every key
 * under it, as S3 does: the binding starts after the prefix followed by U+10FFFF, the greatest
 * UTF-8 sequence, so every key under the prefix sorts before it (edgezone's way of saying "after
 * this prefix" to a binding that compares keys by their bytes).
 *
 * `max-keys` as R2 takes it: fractions are floored, 0 lists nothing (IsTruncated says whether
 * anything matches), values over 1000 list 1000 and are echoed as sent; anything else is R2's
 * 400 InvalidMaxKeys. An `encoding-type` other than `url` is R2's 501 NotImplemented (both as
 * Miniflare's S3 endpoint records R2's answers: workers-sdk,
 * packages/miniflare/src/workers/r2/s3/operations.worker.ts). A page may hold fewer keys than
 * asked with more to come (R2 pages as the binding does), so clients follow IsTruncated, as S3's
 * documentation tells them to.
 */
import { MAX_KEYS } from "../../wire/limits";
import { isTransportParameter } from "./auth/detect";
import { authorizeKey } from "./auth/permissions";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { S3_NAMESPACE, type XmlContent, xmlAnswer } from "./xml";

/** The query parameters each version takes, besides those of the transport (`isTransportParameter`). */
const TAKEN = {
	1: new Set(["prefix", "delimiter", "marker", "max-keys", "encoding-type"]),
	2: new Set([
		"list-type",
		"prefix",
		"delimiter",
		"start-after",
		"continuation-token",
		"max-keys",
		"encoding-type",
		"fetch-owner",
	]),
};

/**
 * `max-keys` as requested (echoed) and as handed to the binding (at most 1000).
 * @throws S3Error 400 InvalidMaxKeys for a value that is not a number from 0.
 */
export function maxKeys(text: string | null): { requested: number; limit: number } {
	if (text === null) return { requested: MAX_KEYS, limit: MAX_KEYS };
	const value = Number(text);
	if (text.trim() === "" || !Number.isFinite(value) || value < 0) throw new S3Error("InvalidMaxKeys");
	const requested = Math.floor(value);
	return { requested, limit: Math.min(requested, MAX_KEYS) };
}

/**
 * A list's `encoding-type` (only `url`, which percent-encodes the keys and prefixes it answers,
 * so that a key with characters XML 1.0 cannot carry survives), and how it encodes a key.
 * @throws S3Error 501 NotImplemented for any other value.
 */
export function keyEncoding(query: URLSearchParams): { encodingType: string | null; encode: (text: string) => string } {
	const encodingType = query.get("encoding-type");
	if (encodingType !== null && encodingType !== "url") {
		throw new S3Error("NotImplemented", `Unrecognized encoding-type "${encodingType}" not implemented`);
	}
	return { encodingType, encode: (text) => (encodingType === "url" ? encodeURIComponent(text) : text) };
}

/** One page of ListBucketResult, V1 or V2. */
async function listPage(c: S3Context, version: 1 | 2): Promise<Response> {
	const query = c.url.searchParams;
	const operation = version === 2 ? "ListObjectsV2" : "ListObjects";
	for (const name of query.keys()) {
		if (!TAKEN[version].has(name) && !isTransportParameter(name)) throw notImplemented(`${operation} with ${name}`);
	}
	const { encodingType, encode } = keyEncoding(query);
	const { requested, limit } = maxKeys(query.get("max-keys"));
	const prefix = query.get("prefix") ?? "";
	authorizeKey(c.scope, prefix, true);
	const delimiter = query.get("delimiter") ?? undefined;
	const startAfter = (version === 2 ? query.get("start-after") : query.get("marker")) ?? undefined;
	const token = version === 2 ? (query.get("continuation-token") ?? undefined) : undefined;
	const afterPrefix = delimiter !== undefined && delimiter !== "" && startAfter?.endsWith(delimiter);
	// max-keys=0 still asks whether anything matches, for IsTruncated.
	const page = await c.bucket.bucket.list({
		prefix: prefix === "" ? undefined : prefix,
		delimiter,
		startAfter: afterPrefix ? `${startAfter}\u{10FFFF}` : startAfter,
		cursor: token,
		limit: Math.max(limit, 1),
	});
	const objects = limit === 0 ? [] : page.objects;
	const prefixes = limit === 0 ? [] : page.delimitedPrefixes;
	const truncated = limit === 0 ? page.objects.length + page.delimitedPrefixes.length > 0 : page.truncated;
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Name: c.bucket.name,
		Prefix: encode(prefix),
	};
	if (version === 1) content.Marker = encode(startAfter ?? "");
	if (delimiter !== undefined) content.Delimiter = encode(delimiter);
	if (version === 2 && startAfter !== undefined) content.StartAfter = encode(startAfter);
	if (token !== undefined) content.ContinuationToken = token;
	content.MaxKeys = requested;
	if (version === 2) content.KeyCount = objects.length + prefixes.length;
	content.IsTruncated = truncated;
	if (page.truncated && limit > 0) {
		if (version === 2) content.NextContinuationToken = page.cursor;
		else {
			// The page's last entry, key or common prefix, whichever sorts last.
			const last = [objects.at(-1)?.key ?? "", prefixes.at(-1) ?? ""].sort().at(-1) ?? "";
			content.NextMarker = encode(last);
		}
	}
	if (encodingType !== null) content.EncodingType = encodingType;
	content.Contents = objects.map((object) => ({
		Key: encode(object.key),
		LastModified: object.uploaded.toISOString(),
		ETag: object.httpEtag,
		Size: object.size,
		StorageClass: object.storageClass === "InfrequentAccess" ? "STANDARD_IA" : "STANDARD",
	}));
	content.CommonPrefixes = prefixes.map((name) => ({ Prefix: encode(name) }));
	return xmlAnswer("ListBucketResult", content);
}

/** `GET /<bucket>?list-type=2&…`: one page of ListObjectsV2. */
export const listObjectsV2 = (c: S3Context): Promise<Response> => listPage(c, 2);

/** `GET /<bucket>?…` without `list-type`: one page of ListObjects (V1). */
export const listObjectsV1 = (c: S3Context): Promise<Response> => listPage(c, 1);
