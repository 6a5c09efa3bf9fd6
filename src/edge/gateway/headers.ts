/**
 * The gateway's side of the metadata headers (docs/gateway.md, "Object headers" and "Writing"):
 * a write's headers become binding options, an object becomes its answer's headers.
 *
 * The mapping itself lives in src/wire (http-metadata, custom-metadata, checksums,
 * storage-class), which RemoteBucket uses backwards; this file adds what only a server does:
 * refusing what does not parse with the gateway's errors, and the answer's defaults.
 */
import { checksumsFromRequest, checksumsToHeaders, type RequestedChecksum, wantsChecksums } from "../../wire/checksums";
import { answerCustomMetadata, customMetadataFromHeaders } from "../../wire/custom-metadata";
import {
	DEFAULT_CONTENT_TYPE,
	httpMetadataFromHeaders,
	httpMetadataToHeaders,
	STORED_ENCODING_HEADER,
	wantsRawBody,
} from "../../wire/http-metadata";
import { STORAGE_CLASS_HEADER, storageClassFromRequest, storageClassToHeader } from "../../wire/storage-class";
import { badRequest, invalidDigest, invalidStorageClass } from "./errors";

/**
 * The checksums a write asks R2 to verify, from `Content-MD5` and `x-amz-checksum-*` (base64).
 * @throws GatewayError 400 (10014) for a value that is not base64 of the digest's length.
 */
export function requestedChecksums(headers: Headers): RequestedChecksum[] {
	const parsed = checksumsFromRequest(headers);
	if (parsed.kind === "invalid") {
		const { header, value, label, bytes } = parsed;
		throw invalidDigest(`${header} must be the base64 of a ${bytes}-byte ${label} digest; got ${value}.`);
	}
	return parsed.checksums;
}

/** Sets the requested digests on put options, as `put()` takes them. */
export function withChecksums(options: R2PutOptions, checksums: RequestedChecksum[]): R2PutOptions {
	for (const { name, digest } of checksums) options[name] = digest;
	return options;
}

/** What a read asked of its answer's headers: the stored checksums, and bodies as stored. */
export interface AnswerOptions {
	/** Send the stored checksums (`x-amz-checksum-mode: ENABLED`, as S3). */
	checksums: boolean;
	/** Carry the stored Content-Encoding in `x-r2-content-encoding` instead (docs/gateway.md, "Raw bodies"). */
	raw: boolean;
}

/** The AnswerOptions of a read's request headers. */
export function answerOptions(headers: Headers): AnswerOptions {
	return { checksums: wantsChecksums(headers), raw: wantsRawBody(headers) };
}

/**
 * The headers of an object's representation (docs/gateway.md, "Object headers"): validators,
 * identity, httpMetadata, custom metadata, storage class, and what `options` asks for. Content-Length
 * and Content-Range depend on the answer and are set by the caller.
 *
 * An object stored without a Content-Type is sent as `application/octet-stream`, as R2's public
 * buckets do: Cloudflare's front line (and wrangler dev, which emulates it) compresses answers
 * that have no Content-Type, which would turn every such object into a chunked gzip stream.
 * `x-r2-content-type-default` says the type is the gateway's, not the object's.
 *
 * For a raw read the stored Content-Encoding moves to `x-r2-content-encoding`: an answer with
 * `Content-Encoding: gzip` is decoded by the front line for a client that does not accept gzip,
 * and fails mid-body when the bytes are not gzip (BENCHMARKS.md, "Stored Content-Encoding").
 */
export function objectHeaders(object: R2Object, options: AnswerOptions): Headers {
	const headers = new Headers({
		etag: object.httpEtag,
		"last-modified": object.uploaded.toUTCString(),
		"x-r2-uploaded": object.uploaded.toISOString(),
		"x-r2-version": object.version,
		"accept-ranges": "bytes",
	});
	const { contentEncoding, ...httpMetadata } = object.httpMetadata ?? {};
	httpMetadataToHeaders(httpMetadata, headers);
	if (contentEncoding !== undefined) {
		headers.set(options.raw ? STORED_ENCODING_HEADER : "content-encoding", contentEncoding);
	}
	if (!headers.has("content-type")) {
		headers.set("content-type", "application/octet-stream");
		headers.set(DEFAULT_CONTENT_TYPE, "true");
	}
	answerCustomMetadata(object.customMetadata ?? {}, headers);
	if (options.checksums) checksumsToHeaders(object.checksums, headers);
	const storageClass = storageClassToHeader(object.storageClass);
	if (storageClass !== undefined) headers.set(STORAGE_CLASS_HEADER, storageClass);
	return headers;
}

/** The metadata a write takes from its headers: only the fields they name. */
export interface WrittenMetadata {
	httpMetadata: R2HTTPMetadata;
	customMetadata: Record<string, string>;
	storageClass?: string;
}

/**
 * The metadata a write (PUT, or creating a multipart upload) takes from its headers.
 * @throws GatewayError 400 InvalidRequest for an `Expires` that is not a date, InvalidStorageClass
 * for a storage class R2 does not have.
 */
export function writeMetadataFromHeaders(headers: Headers): WrittenMetadata {
	const http = httpMetadataFromHeaders(headers);
	if (http.kind === "invalid") throw badRequest(`Expires must be an HTTP date; got ${http.expires}.`);
	const options: WrittenMetadata = {
		httpMetadata: http.metadata,
		customMetadata: customMetadataFromHeaders(headers),
	};
	const value = headers.get(STORAGE_CLASS_HEADER);
	const storageClass = storageClassFromRequest(value);
	if (storageClass.kind === "invalid") {
		throw invalidStorageClass(
			`x-amz-storage-class must be STANDARD, STANDARD_IA, Standard or InfrequentAccess; got ${value}.`,
		);
	}
	if (storageClass.kind === "class") options.storageClass = storageClass.storageClass;
	return options;
}
