/**
 * The HTTP spelling of R2 object metadata, in both directions (docs/gateway.md).
 *
 * httpMetadata travels as the six standard headers workerd's `HttpMetadata::fromRequestHeaders`
 * reads; custom metadata as `x-amz-meta-*`, checksums as `Content-MD5` and `x-amz-checksum-*`
 * (base64) and the storage class as `x-amz-storage-class`, the names of R2's S3 API
 * (developers.cloudflare.com/r2/api/s3/extensions/). These functions use only web-standard APIs,
 * so RemoteBucket (src/client) applies the same mapping backwards, in a Worker or in Node.
 */
import { fromBase64, toBase64 } from "../../common/encoding";
import { badRequest, invalidDigest } from "./errors";

/** Checksum algorithms of R2, their `R2Checksums` names, and digest lengths in bytes. */
export const CHECKSUMS = [
	{ name: "md5", algorithm: "MD5", label: "MD5", bytes: 16 },
	{ name: "sha1", algorithm: "SHA-1", label: "SHA-1", bytes: 20 },
	{ name: "sha256", algorithm: "SHA-256", label: "SHA-256", bytes: 32 },
	{ name: "sha384", algorithm: "SHA-384", label: "SHA-384", bytes: 48 },
	{ name: "sha512", algorithm: "SHA-512", label: "SHA-512", bytes: 64 },
] as const;

export type ChecksumName = (typeof CHECKSUMS)[number]["name"];

/** One checksum a request asked R2 to verify. */
export interface RequestedChecksum {
	name: ChecksumName;
	algorithm: (typeof CHECKSUMS)[number]["algorithm"];
	label: string;
	digest: Uint8Array<ArrayBuffer>;
}

const META_PREFIX = "x-amz-meta-";

/** Header of each checksum: `Content-MD5` is HTTP's own; the others are S3's. */
export function checksumHeader(name: ChecksumName): string {
	return name === "md5" ? "content-md5" : `x-amz-checksum-${name}`;
}

/** The response header that carries a stored checksum (S3 has no response header for MD5 but this one). */
export function storedChecksumHeader(name: ChecksumName): string {
	return `x-amz-checksum-${name}`;
}

/** The six headers of R2HTTPMetadata (workerd `HttpMetadata::fromRequestHeaders`). */
export const HTTP_METADATA_HEADERS = [
	"content-type",
	"content-language",
	"content-disposition",
	"content-encoding",
	"cache-control",
	"expires",
] as const;

/** Marks a Content-Type the gateway sent because the object has none (see `objectHeaders`). */
const DEFAULT_CONTENT_TYPE = "x-r2-content-type-default";

/**
 * httpMetadata from headers: the six that `R2HTTPMetadata` holds. On an answer of the gateway, a
 * Content-Type marked as its default is not the object's.
 * @throws GatewayError 400 when `Expires` is not a date.
 */
export function httpMetadataFromHeaders(headers: Headers): R2HTTPMetadata {
	const metadata: R2HTTPMetadata = {};
	const contentType = headers.has(DEFAULT_CONTENT_TYPE) ? null : headers.get("content-type");
	const contentLanguage = headers.get("content-language");
	const contentDisposition = headers.get("content-disposition");
	const contentEncoding = headers.get("content-encoding");
	const cacheControl = headers.get("cache-control");
	const expires = headers.get("expires");
	if (contentType !== null) metadata.contentType = contentType;
	if (contentLanguage !== null) metadata.contentLanguage = contentLanguage;
	if (contentDisposition !== null) metadata.contentDisposition = contentDisposition;
	if (contentEncoding !== null) metadata.contentEncoding = contentEncoding;
	if (cacheControl !== null) metadata.cacheControl = cacheControl;
	if (expires !== null) {
		const ms = Date.parse(expires);
		if (Number.isNaN(ms)) throw badRequest(`Expires must be an HTTP date; got ${expires}.`);
		metadata.cacheExpiry = new Date(ms);
	}
	return metadata;
}

/** Writes httpMetadata as the six headers, the inverse of `httpMetadataFromHeaders`. */
export function httpMetadataToHeaders(metadata: R2HTTPMetadata, headers: Headers): void {
	if (metadata.contentType !== undefined) headers.set("content-type", metadata.contentType);
	if (metadata.contentLanguage !== undefined) headers.set("content-language", metadata.contentLanguage);
	if (metadata.contentDisposition !== undefined) {
		headers.set("content-disposition", metadata.contentDisposition);
	}
	if (metadata.contentEncoding !== undefined) headers.set("content-encoding", metadata.contentEncoding);
	if (metadata.cacheControl !== undefined) headers.set("cache-control", metadata.cacheControl);
	if (metadata.cacheExpiry !== undefined) headers.set("expires", metadata.cacheExpiry.toUTCString());
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const ENCODED_WORD = /^=\?utf-8\?([bq])\?([^?]*)\?=$/i;
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/**
 * A custom metadata value as a header value: printable ASCII as is, anything else as an
 * RFC 2047 encoded word (`=?UTF-8?B?…?=`), as R2 answers (r2/api/s3/extensions). Values with
 * leading or trailing spaces are encoded too, since HTTP trims header values.
 */
export function encodeMetadataValue(value: string): string {
	if (PRINTABLE_ASCII.test(value) && !value.startsWith("=?") && value === value.trim()) return value;
	return `=?UTF-8?B?${toBase64(new TextEncoder().encode(value))}?=`;
}

/**
 * A header value back to a custom metadata value: RFC 2047 encoded words (B or Q, UTF-8) are
 * decoded, and so are raw UTF-8 bytes, which headers deliver as one character per byte.
 */
export function decodeMetadataValue(value: string): string {
	const word = ENCODED_WORD.exec(value);
	if (word) {
		const [, encoding, text = ""] = word;
		const bytes =
			encoding?.toLowerCase() === "b"
				? fromBase64(text)
				: Uint8Array.from(
						text
							.replace(/_/g, " ")
							.replace(/=([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
						(c) => c.charCodeAt(0),
					);
		if (bytes) {
			try {
				return strictUtf8.decode(bytes);
			} catch {
				return value;
			}
		}
		return value;
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: the range is every Latin-1 code unit, one per byte.
	if (/^[\x00-\xff]*$/.test(value) && /[\x80-\xff]/.test(value)) {
		try {
			return strictUtf8.decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
		} catch {
			return value;
		}
	}
	return value;
}

/** customMetadata from `x-amz-meta-{name}` headers; names come lower case, as HTTP delivers them. */
export function customMetadataFromHeaders(headers: Headers): Record<string, string> {
	const metadata: Record<string, string> = {};
	for (const [name, value] of headers) {
		if (name.startsWith(META_PREFIX)) metadata[name.slice(META_PREFIX.length)] = decodeMetadataValue(value);
	}
	return metadata;
}

/** Writes customMetadata as `x-amz-meta-{name}` headers. */
export function customMetadataToHeaders(metadata: Record<string, string>, headers: Headers): void {
	for (const [name, value] of Object.entries(metadata)) {
		headers.set(`${META_PREFIX}${name}`, encodeMetadataValue(value));
	}
}

/**
 * The checksums a write asks R2 to verify, from `Content-MD5` and `x-amz-checksum-*` (base64).
 * @throws GatewayError 400 (10014) for a value that is not base64 of the digest's length.
 */
export function requestedChecksums(headers: Headers): RequestedChecksum[] {
	const requested: RequestedChecksum[] = [];
	for (const { name, algorithm, label, bytes } of CHECKSUMS) {
		const header = checksumHeader(name);
		const value = headers.get(header);
		if (value === null) continue;
		const digest = fromBase64(value.trim());
		if (digest?.byteLength !== bytes) {
			throw invalidDigest(`${header} must be the base64 of a ${bytes}-byte ${label} digest; got ${value}.`);
		}
		requested.push({ name, algorithm, label, digest });
	}
	return requested;
}

/**
 * Whether a read asks for the stored checksums: S3's GetObject and HeadObject send them only for
 * `x-amz-checksum-mode: ENABLED`, which also keeps every other answer a few headers lighter.
 */
export function wantsChecksums(headers: Headers): boolean {
	return headers.get("x-amz-checksum-mode")?.toUpperCase() === "ENABLED";
}

/** Writes stored checksums as `x-amz-checksum-{name}` headers, base64. */
export function checksumsToHeaders(checksums: R2Checksums, headers: Headers): void {
	for (const { name } of CHECKSUMS) {
		const digest = checksums[name];
		if (digest) headers.set(storedChecksumHeader(name), toBase64(new Uint8Array(digest)));
	}
}

/** S3's storage class names and the binding's. */
const STORAGE_CLASSES: Record<string, string> = {
	STANDARD: "Standard",
	Standard: "Standard",
	STANDARD_IA: "InfrequentAccess",
	InfrequentAccess: "InfrequentAccess",
};

/**
 * The binding's storage class for an `x-amz-storage-class` value, or undefined when absent.
 * @throws GatewayError 400 for a class R2 does not have.
 */
export function storageClassFromHeaders(headers: Headers): string | undefined {
	const value = headers.get("x-amz-storage-class");
	if (value === null) return undefined;
	const storageClass = STORAGE_CLASSES[value.trim()];
	if (storageClass === undefined) {
		throw badRequest(`x-amz-storage-class must be STANDARD, STANDARD_IA, Standard or InfrequentAccess; got ${value}.`);
	}
	return storageClass;
}

/** The binding's storage class for an answer's `x-amz-storage-class`; `""` when absent, as Miniflare reports none. */
export function storageClassFromAnswer(value: string | null): string {
	return value === null ? "" : (STORAGE_CLASSES[value] ?? value);
}

/** The `x-amz-storage-class` value for the binding's storage class, or undefined for none. */
export function storageClassToHeader(storageClass: string): string | undefined {
	if (storageClass === "Standard") return "STANDARD";
	if (storageClass === "InfrequentAccess") return "STANDARD_IA";
	return storageClass === "" ? undefined : storageClass;
}

/**
 * The headers of an object's representation (docs/gateway.md, "Object headers"): validators,
 * identity, httpMetadata, custom metadata, storage class, and the checksums when `checksums` is
 * set (see `wantsChecksums`). Content-Length and Content-Range depend on the answer and are set
 * by the caller.
 *
 * An object stored without a Content-Type is sent as `application/octet-stream`, as R2's public
 * buckets do: Cloudflare's front line (and wrangler dev, which emulates it) compresses answers
 * that have no Content-Type, which would turn every such object into a chunked gzip stream.
 * `x-r2-content-type-default` says the type is the gateway's, not the object's.
 */
export function objectHeaders(object: R2Object, checksums: boolean): Headers {
	const headers = new Headers({
		etag: object.httpEtag,
		"last-modified": object.uploaded.toUTCString(),
		"x-r2-uploaded": object.uploaded.toISOString(),
		"x-r2-version": object.version,
		"accept-ranges": "bytes",
	});
	httpMetadataToHeaders(object.httpMetadata ?? {}, headers);
	if (!headers.has("content-type")) {
		headers.set("content-type", "application/octet-stream");
		headers.set(DEFAULT_CONTENT_TYPE, "true");
	}
	customMetadataToHeaders(object.customMetadata ?? {}, headers);
	if (checksums) checksumsToHeaders(object.checksums, headers);
	const storageClass = storageClassToHeader(object.storageClass);
	if (storageClass !== undefined) headers.set("x-amz-storage-class", storageClass);
	return headers;
}

/** The metadata a write (PUT, or creating a multipart upload) takes from its headers. */
export function writeMetadataFromHeaders(headers: Headers): R2MultipartOptions {
	const options: R2MultipartOptions = {
		httpMetadata: httpMetadataFromHeaders(headers),
		customMetadata: customMetadataFromHeaders(headers),
	};
	const storageClass = storageClassFromHeaders(headers);
	if (storageClass !== undefined) options.storageClass = storageClass;
	return options;
}
