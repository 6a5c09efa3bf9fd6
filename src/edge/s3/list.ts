/**
 * ListObjectsV2 on the binding's `list()`
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html; R2's rules,
 * https://developers.cloudflare.com/r2/api/s3/api/): `prefix`, `delimiter`, `start-after`,
 * `continuation-token` (the binding's cursor, opaque to the client), `max-keys` and
 * `encoding-type=url`; `fetch-owner` is taken and has nothing to add (R2 lists no owner).
 *
 * `max-keys` as R2 takes it: fractions are floored, 0 lists nothing (IsTruncated says whether
 * anything matches), values over 1000 list 1000 and are echoed as sent; anything else is
 * InvalidArgument. A page may hold fewer keys than asked with more to come (R2 pages as the
 * binding does), so clients follow IsTruncated, as S3's documentation tells them to.
 */
import { MAX_KEYS } from "../../wire/limits";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { S3_NAMESPACE, type XmlContent, xmlAnswer } from "./xml";

/** The query parameters ListObjectsV2 takes, and those of any signed request (presigned URLs, the SDK's `x-id`). */
const TAKEN = new Set([
	"list-type",
	"prefix",
	"delimiter",
	"start-after",
	"continuation-token",
	"max-keys",
	"encoding-type",
	"fetch-owner",
	"x-id",
]);

/** `max-keys` as requested (echoed) and as handed to the binding. */
function maxKeys(text: string | null): { requested: number; limit: number } {
	if (text === null) return { requested: MAX_KEYS, limit: MAX_KEYS };
	const value = Number(text);
	if (text.trim() === "" || !Number.isFinite(value) || value < 0) {
		throw new S3Error("InvalidArgument", "Provided max-keys not an integer or within integer range", {
			ArgumentName: "max-keys",
			ArgumentValue: text,
		});
	}
	const requested = Math.floor(value);
	return { requested, limit: Math.min(requested, MAX_KEYS) };
}

/** `GET /<bucket>?list-type=2&…`: one page of ListBucketResult. */
export async function listObjectsV2(c: S3Context): Promise<Response> {
	const query = c.url.searchParams;
	for (const name of query.keys()) {
		if (!TAKEN.has(name) && !name.startsWith("X-Amz-")) throw notImplemented(`ListObjectsV2 with ${name}`);
	}
	const encodingType = query.get("encoding-type");
	if (encodingType !== null && encodingType !== "url") {
		throw new S3Error("InvalidArgument", `Invalid Encoding Method specified in Request: ${encodingType}`, {
			ArgumentName: "encoding-type",
			ArgumentValue: encodingType,
		});
	}
	const encode = (text: string) => (encodingType === "url" ? encodeURIComponent(text) : text);
	const { requested, limit } = maxKeys(query.get("max-keys"));
	const prefix = query.get("prefix") ?? "";
	const delimiter = query.get("delimiter") ?? undefined;
	const startAfter = query.get("start-after") ?? undefined;
	const token = query.get("continuation-token") ?? undefined;
	// max-keys=0 still asks whether anything matches, for IsTruncated.
	const page = await c.bucket.bucket.list({
		prefix: prefix === "" ? undefined : prefix,
		delimiter,
		startAfter,
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
	if (delimiter !== undefined) content.Delimiter = encode(delimiter);
	if (startAfter !== undefined) content.StartAfter = encode(startAfter);
	if (token !== undefined) content.ContinuationToken = token;
	content.MaxKeys = requested;
	content.KeyCount = objects.length + prefixes.length;
	content.IsTruncated = truncated;
	if (page.truncated && limit > 0) content.NextContinuationToken = page.cursor;
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
