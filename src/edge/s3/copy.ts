/**
 * CopyObject and UploadPartCopy (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CopyObject.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_UploadPartCopy.html): the source named by
 * `x-amz-copy-source` (`/bucket/key` or `bucket/key`, percent-encoded, in any served bucket the
 * caller reaches) is read with one `get` under the four `x-amz-copy-source-if-*` conditions, and
 * its body streams into `put` or `uploadPart` of the destination: never held whole, so a copy of
 * any size takes one chunk of memory.
 *
 * CopyObject's `x-amz-metadata-directive` is COPY (the source's httpMetadata and customMetadata,
 * the default) or REPLACE (the request's headers, as PutObject reads them). The storage class is
 * the request's `x-amz-storage-class`, or the bucket's default, as S3 sets it. A copy onto itself
 * that changes nothing is refused, as S3 refuses it.
 *
 * Checksums: "if the source object has a checksum, that checksum value will be copied to the new
 * object by default" (API_CopyObject, `x-amz-checksum-algorithm`). The copy is put with the
 * source's SHA the binding kept, else its MD5, so R2 verifies the bytes it stored and keeps the
 * SHA; a checksum the source's bucket ledger holds (a CRC, `ledger-checksums.ts`) is recorded for
 * the copy when it describes the object read; CopyObjectResult names it (`ChecksumCRC32`, ...).
 * `x-amz-checksum-algorithm` asks for a checksum of that algorithm instead, computed as the bytes
 * stream (`body-pump.ts`). A part copied into an upload with a checksum gets its checksum the same
 * way, recorded for CompleteMultipartUpload (`multipart-checksums.ts`) and named in CopyPartResult.
 *
 * R2's extensions (https://developers.cloudflare.com/r2/api/s3/extensions/, "CopyObject"): the
 * `MERGE` directive, the source's metadata with the fields and keys the request names replaced
 * (nothing removed), and the destination's conditions in `cf-copy-destination-if-*`, which take
 * the place of S3's own `If-*` headers of the same name.
 *
 * Refused with 501, rather than answered wrongly: a `versionId` in the copy source (R2 keeps no
 * versions).
 */

import { ledgerOf, openUpload } from "../../bucket/bucket-ledger";
import { checksumsToHeaders } from "../../wire/checksums";
import { parseConditionals, toOnlyIf } from "../gateway/conditionals";
import { writeMetadataFromHeaders } from "../gateway/headers";
import { assertKey } from "../gateway/keys";
import { authorizeKey, keyScope } from "./auth/permissions";
import type { NamedBucket } from "./buckets";
import {
	type ChecksumCheck,
	checksumElement,
	checksumElements,
	checksummedStream,
	type FlexibleChecksum,
} from "./checksums/checksums";
import { recordChecksum, recordedChecksum } from "./checksums/ledger-checksums";
import { requestedAlgorithm } from "./checksums/multipart-checksums";
import type { S3Context } from "./context";
import { notImplemented, S3Error } from "./errors";
import { withExpiration } from "./lifecycle/cached-rules";
import { partNumberOf, uploadError, uploadIdOf } from "./multipart";
import { findBucket } from "./served-bucket";
import { checkPart, customerKeyOf, withCustomerKeyHeaders } from "./ssec/customer-key";
import { checkVersion, recordSsec, ssecRead } from "./ssec/recorded";
import { withRecordedClasses } from "./storage-class/recorded";
import { S3_NAMESPACE, xmlAnswer } from "./xml";

/** The digests R2 verifies a put against, the one it keeps beside the MD5 first; it takes one a put. */
const DIGESTS = ["sha512", "sha384", "sha256", "sha1", "md5"] as const;

/** The source of a copy: its bucket and key. */
interface CopySource {
	bucket: NamedBucket;
	key: string;
}

/**
 * The bucket and key `x-amz-copy-source` names, checked against what the caller reaches.
 * @throws S3Error 400 InvalidArgument for a value that names no bucket and key or does not decode;
 * 404 NoSuchBucket; 403 AccessDenied; 501 for a versionId.
 */
async function copySource(c: S3Context): Promise<CopySource> {
	const value = c.request.headers.get("x-amz-copy-source") ?? "";
	const [path = "", query] = value.split("?", 2);
	if (query !== undefined && new URLSearchParams(query).has("versionId")) {
		throw notImplemented("x-amz-copy-source with a versionId");
	}
	const invalid = () =>
		new S3Error("InvalidArgument", "Copy Source must mention the source bucket and key: sourcebucket/sourcekey", {
			ArgumentName: "x-amz-copy-source",
			ArgumentValue: value,
		});
	let decoded: string;
	try {
		decoded = decodeURIComponent(path.startsWith("/") ? path.slice(1) : path);
	} catch {
		throw invalid();
	}
	const slash = decoded.indexOf("/");
	if (slash <= 0 || slash === decoded.length - 1) throw invalid();
	const bucket = withRecordedClasses(await findBucket(c.env, decoded.slice(0, slash)), c.env);
	const key = decoded.slice(slash + 1);
	assertKey(key);
	authorizeKey(keyScope(c.caller.key, bucket.name, c.env), key);
	return { bucket, key };
}

const CONDITIONS = ["if-match", "if-none-match", "if-modified-since", "if-unmodified-since"];

/**
 * The `onlyIf` of the four conditions read under `prefix` (or, with `fallback`, without it), as
 * their plain counterparts; an unquoted ETag reads as quoted, as S3 compares it.
 */
function conditionsUnder(headers: Headers, prefix: string, fallback = false): Headers | undefined {
	const plain = new Headers();
	for (const name of CONDITIONS) {
		const value = headers.get(`${prefix}${name}`) ?? (fallback ? headers.get(name) : null);
		if (value !== null) plain.set(name, value);
	}
	return toOnlyIf(parseConditionals(plain, true));
}

/** The source's conditions: the four `x-amz-copy-source-if-*`. */
const sourceConditions = (headers: Headers) => conditionsUnder(headers, "x-amz-copy-source-");

/** The destination's conditions: R2's `cf-copy-destination-if-*`, else S3's own `If-*`. */
const destinationConditions = (headers: Headers) => conditionsUnder(headers, "cf-copy-destination-", true);

/**
 * Reads the source under its conditions (and a range, for a part), with the SSE-C key of the
 * `x-amz-copy-source-server-side-encryption-customer-*` headers checked as a read's (`ssec/`).
 * @throws S3Error 404 NoSuchKey; 412 PreconditionFailed when a condition does not hold (S3
 * answers 412 for each of the four, If-None-Match and If-Modified-Since included); those of
 * `ssecRead` and `checkVersion`.
 */
async function readSource(c: S3Context, source: CopySource, range?: Headers): Promise<R2ObjectBody> {
	const ssec = await ssecRead(
		{ env: c.env, bucket: source.bucket },
		source.key,
		c.request.headers,
		"x-amz-copy-source-",
	);
	const object = await source.bucket.bucket.get(source.key, {
		onlyIf: sourceConditions(c.request.headers),
		range,
		ssecKey: ssec.ssecKey,
	});
	if (object === null) throw new S3Error("NoSuchKey", undefined, { Key: source.key });
	if (!("body" in object)) throw new S3Error("PreconditionFailed");
	try {
		checkVersion(ssec.stored, object.version, ssec.sent);
	} catch (error) {
		await object.body.cancel();
		throw error;
	}
	return object;
}

/**
 * `PUT /<bucket>/<key>` with `x-amz-copy-source`: the source's body streams into `put`, with the
 * metadata the directive says and the destination's own conditionals; answers CopyObjectResult
 * with the copy's checksum (the source's, or one of `x-amz-checksum-algorithm`), and
 * `x-amz-expiration` when a lifecycle rule expires the copy.
 * @throws S3Error 400 InvalidArgument for another directive, InvalidRequest for a copy onto
 * itself changing nothing or an algorithm S3 does not name; the source's 404 and 412; the
 * destination's 412.
 */
export async function copyObject(c: S3Context): Promise<Response> {
	const { headers } = c.request;
	const directive = (headers.get("x-amz-metadata-directive") ?? "COPY").toUpperCase();
	if (directive !== "COPY" && directive !== "REPLACE" && directive !== "MERGE") {
		throw new S3Error("InvalidArgument", "Unknown metadata directive.", {
			ArgumentName: "x-amz-metadata-directive",
			ArgumentValue: directive,
		});
	}
	const source = await copySource(c);
	const sent = await customerKeyOf(headers);
	if (
		source.bucket.binding === c.bucket.binding &&
		source.key === c.key &&
		directive === "COPY" &&
		!headers.has("x-amz-storage-class") &&
		!headers.has("x-amz-checksum-algorithm") &&
		sent === undefined
	) {
		throw new S3Error(
			"InvalidRequest",
			"This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
		);
	}
	const requested = headers.get("x-amz-checksum-algorithm");
	const algorithm = requested === null ? undefined : requestedAlgorithm(requested);
	const written = writeMetadataFromHeaders(headers);
	const onlyIf = destinationConditions(headers);
	const object = await readSource(c, source);
	// COPY keeps the source's metadata, REPLACE takes the request's, MERGE the request's over the source's.
	const none: Pick<R2Object, "httpMetadata" | "customMetadata"> = {};
	const fromSource = directive === "REPLACE" ? none : object;
	const fromRequest = directive === "COPY" ? none : written;
	const options: R2PutOptions = {
		httpMetadata: { ...fromSource.httpMetadata, ...fromRequest.httpMetadata },
		customMetadata: { ...fromSource.customMetadata, ...fromRequest.customMetadata },
		storageClass: written.storageClass,
		onlyIf,
	};
	if (options.storageClass === undefined) delete options.storageClass;
	if (sent !== undefined) options.ssecKey = sent.key;
	const digest = DIGESTS.find((name) => object.checksums[name] !== undefined);
	if (digest !== undefined) options[digest] = object.checksums[digest];
	const body = copiedBody(object, object.size, algorithm);
	const [copied, recorded] = await Promise.all([
		c.bucket.bucket.put(c.key, body.stream, options),
		algorithm === undefined ? recordedChecksum({ env: c.env, bucket: source.bucket }, source.key, Date.now()) : null,
	]);
	if (copied === null) throw new S3Error("PreconditionFailed");
	if (sent !== undefined) await recordSsec(c, c.key, copied.version, sent.keyMd5);
	const checksums = new Headers();
	checksumsToHeaders(copied.checksums, checksums);
	const computed = body.checksum?.digest();
	// A COMPOSITE checksum describes the source's parts; the copy is one part, so it keeps none.
	const kept =
		algorithm !== undefined && computed !== undefined
			? { header: algorithm.header, value: computed }
			: recorded !== null && recorded.etag === object.etag && recorded.type === "FULL_OBJECT"
				? recorded
				: undefined;
	if (kept !== undefined && checksums.get(kept.header) !== kept.value) {
		await recordChecksum(c, c.key, copied.etag, { header: kept.header, value: kept.value, type: "FULL_OBJECT" });
		checksums.set(kept.header, kept.value);
	}
	const answered = withCustomerKeyHeaders(new Headers(), sent?.keyMd5);
	await withExpiration(c, answered, c.key, copied.uploaded.getTime());
	return xmlAnswer(
		"CopyObjectResult",
		{
			"@_xmlns": S3_NAMESPACE,
			LastModified: copied.uploaded.toISOString(),
			ETag: copied.httpEtag,
			...checksumElements(checksums),
		},
		{ headers: answered },
	);
}

/**
 * The bytes of a copy on their way to the binding, of `length` bytes: the source's body, and with
 * `algorithm` its checksum of that algorithm computed as they pass (in the pump's loop).
 */
function copiedBody(
	object: R2ObjectBody,
	length: number,
	algorithm: FlexibleChecksum | undefined,
): { stream: ReadableStream<Uint8Array>; checksum?: ChecksumCheck } {
	if (algorithm === undefined) return { stream: object.body.pipeThrough(new FixedLengthStream(length)) };
	return checksummedStream(object.body, length, algorithm);
}

const COPY_RANGE = /^bytes=(\d+)-(\d+)$/;

/**
 * `PUT /<bucket>/<key>?partNumber=N&uploadId=…` with `x-amz-copy-source`: the source, or the
 * bytes `x-amz-copy-source-range: bytes=first-last` names (both inclusive, within the object),
 * streams into `uploadPart`; answers CopyPartResult with the part's ETag, and its checksum in an
 * upload with one.
 * @throws S3Error 400 InvalidArgument for a malformed range or one past the object's end; the
 * source's 404 and 412; 404 NoSuchUpload.
 */
export async function uploadPartCopy(c: S3Context): Promise<Response> {
	const partNumber = partNumberOf(c.url);
	const uploadId = uploadIdOf(c.url);
	const rangeText = c.request.headers.get("x-amz-copy-source-range");
	const match = rangeText === null ? null : COPY_RANGE.exec(rangeText.trim());
	const invalidRange = (detail: string) =>
		new S3Error("InvalidArgument", detail, { ArgumentName: "x-amz-copy-source-range", ArgumentValue: rangeText ?? "" });
	if (rangeText !== null && (match === null || Number(match[1]) > Number(match[2]))) {
		throw invalidRange(
			"The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy",
		);
	}
	const source = await copySource(c);
	const sent = await customerKeyOf(c.request.headers);
	const upload = await openUpload(ledgerOf(c), c.key, uploadId);
	if (upload !== undefined) checkPart(upload.ssecKeyMd5, sent);
	const wanted = upload?.checksum;
	// A Range header rather than an R2Range: R2 then serves the whole object for a range past its
	// end instead of failing, so the refusal below can name the object's size.
	const object = await readSource(c, source, rangeText === null ? undefined : new Headers({ range: rangeText.trim() }));
	let length = object.size;
	if (match !== null) {
		const [first, last] = [Number(match[1]), Number(match[2])];
		if (last >= object.size) {
			await object.body.cancel();
			throw invalidRange(`Range specified is not valid for source object of size: ${object.size}`);
		}
		length = last - first + 1;
	}
	const body = copiedBody(object, length, wanted?.algorithm);
	let part: R2UploadedPart;
	try {
		part = await c.bucket.bucket
			.resumeMultipartUpload(c.key, uploadId)
			.uploadPart(partNumber, body.stream, sent === undefined ? undefined : { ssecKey: sent.key });
	} catch (error) {
		throw uploadError(error);
	}
	const uploaded = Date.now();
	const checksum = body.checksum?.digest();
	await ledgerOf(c).partUploaded(uploadId, c.key, {
		partNumber,
		etag: part.etag,
		size: length,
		uploaded,
		...(checksum === undefined ? {} : { checksum }),
	});
	return xmlAnswer(
		"CopyPartResult",
		{
			"@_xmlns": S3_NAMESPACE,
			LastModified: new Date(uploaded).toISOString(),
			ETag: `"${part.etag}"`,
			...(checksum === undefined || wanted === undefined ? {} : checksumElement(wanted.algorithm, checksum)),
		},
		{ headers: withCustomerKeyHeaders(new Headers(), sent?.keyMd5) },
	);
}
