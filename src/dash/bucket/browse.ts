/**
 * Pure helpers of the Bucket page: the addresses of its views (a folder, an object, the proxy),
 * the folders of a prefix, sizes for people, and which preview an object gets.
 * The page's state lives in the URL: `bucket` (empty: the gateway's own), `prefix` (the folder,
 * ending in `/` or empty), `cursor` (the list's, for the next page) and `limit`.
 */
import { BUCKET_PARAM } from "./gateway-call";

/** Where a listing stands: bucket, folder, page. */
export interface Place {
	bucket: string;
	prefix: string;
	cursor?: string;
	limit?: string;
}

/** The page's own URL, under `/zones/{zone_id}/bucket`, with the query of `params` (empty values left out). */
export function pageUrl(zoneId: string, path: string, params: Record<string, string | undefined>): string {
	const query = new URLSearchParams();
	for (const [name, value] of Object.entries(params)) if (value !== undefined && value !== "") query.set(name, value);
	const search = query.toString();
	return `/zones/${zoneId}/bucket${path}${search === "" ? "" : `?${search}`}`;
}

/** The listing of `place`. */
export const listingUrl = (zoneId: string, place: Place) =>
	pageUrl(zoneId, "", { bucket: place.bucket, prefix: place.prefix, cursor: place.cursor, limit: place.limit });

/** The details page of `key`. */
export const objectPageUrl = (zoneId: string, bucket: string, key: string) =>
	pageUrl(zoneId, "/object", { bucket, key });

/**
 * The proxy URL of `key`'s bytes (GET with Range, HEAD, PUT, multipart). The key travels as
 * `?key=` on `/` (docs/gateway.md, "Keys"), which holds every key, `.` and `..` included, with no
 * path encoding to get wrong.
 */
export function proxyObjectUrl(zoneId: string, bucket: string, key: string): string {
	const query = new URLSearchParams({ key });
	if (bucket !== "") query.set(BUCKET_PARAM, bucket);
	return `/zones/${zoneId}/bucket/o/?${query}`;
}

/** The folders from the bucket's root down to `prefix`, each with the prefix that opens it. */
export function crumbs(prefix: string): { name: string; prefix: string }[] {
	const parts = prefix.split("/").slice(0, -1);
	return parts.map((name, i) => ({ name, prefix: `${parts.slice(0, i + 1).join("/")}/` }));
}

/** The last part of a key or folder prefix under `prefix`, as a listing shows it. */
export function nameUnder(prefix: string, key: string): string {
	return key.startsWith(prefix) ? key.slice(prefix.length) : key;
}

const UNITS = ["KiB", "MiB", "GiB", "TiB"];

/** A size for people: bytes under 1 KiB, otherwise binary units with one decimal ("20.0 MiB"). */
export function formatBytes(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	let value = bytes / 1024;
	let unit = 0;
	while (value >= 1024 && unit < UNITS.length - 1) {
		value /= 1024;
		unit++;
	}
	return `${value.toFixed(1)} ${UNITS[unit]}`;
}

/** The kinds of preview the details page offers. */
export type PreviewKind = "text" | "image" | "audio" | "video" | "none";

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|x-ndjson|yaml|toml|x-sh)\b|[^;]*\+(json|xml)\b)/i;
const EXTENSIONS: Record<string, PreviewKind> = {
	txt: "text",
	md: "text",
	csv: "text",
	json: "text",
	ndjson: "text",
	log: "text",
	html: "text",
	css: "text",
	js: "text",
	ts: "text",
	xml: "text",
	yaml: "text",
	yml: "text",
	png: "image",
	jpg: "image",
	jpeg: "image",
	gif: "image",
	webp: "image",
	avif: "image",
	svg: "image",
	mp3: "audio",
	ogg: "audio",
	oga: "audio",
	wav: "audio",
	flac: "audio",
	m4a: "audio",
	mp4: "video",
	webm: "video",
	ogv: "video",
	mov: "video",
};

/**
 * The preview of an object: by its stored Content-Type when it has one, else by the key's
 * extension. An object stored with a Content-Encoding gets none (its bytes are compressed).
 */
export function previewKind(key: string, contentType: string | undefined, contentEncoding?: string): PreviewKind {
	if (contentEncoding !== undefined && contentEncoding !== "" && contentEncoding !== "identity") return "none";
	if (contentType !== undefined && contentType !== "" && contentType !== "application/octet-stream") {
		if (TEXT_TYPES.test(contentType)) return "text";
		const top = contentType.split("/")[0]?.toLowerCase();
		return top === "image" || top === "audio" || top === "video" ? top : "none";
	}
	const extension = /\.([A-Za-z0-9]+)$/.exec(key)?.[1]?.toLowerCase();
	return extension === undefined ? "none" : (EXTENSIONS[extension] ?? "none");
}
