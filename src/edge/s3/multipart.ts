/**
 * S3's multipart uploads on the binding's `createMultipartUpload` and `resumeMultipartUpload`
 * (`uploadPart`, `complete`, `abort`): CreateMultipartUpload, UploadPart, CompleteMultipartUpload,
 * AbortMultipartUpload (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateMultipartUpload.html
 * and its siblings), and ListParts and ListMultipartUploads from the bucket's ledger
 * (`src/bucket/bucket-ledger.ts`), which both dialects write.
 *
 * R2's rules on parts are the binding's, checked by `complete` (every part but the last at least
 * 5 MiB, all but the last the same size, the last no larger;
 * https://developers.cloudflare.com/r2/objects/multipart-objects/), answered with the codes R2's
 * S3 API gives: EntityTooSmall, and InvalidPart "All non-trailing parts must have the same length."
 * for unequal parts (R2's answer as clients report it: github.com/apache/opendal/issues/2904).
 * The parts list must ascend (InvalidPartOrder, as S3); a number named twice is InvalidPart, as R2.
 *
 * NoSuchUpload for an upload id that is unknown, finished, or of another key: the binding says so
 * for a part (10024) and for completing a finished upload, but fails completing or aborting an
 * unknown one with an internal error (10001; Miniflare `bucket.worker.ts` finds no upload row),
 * which is answered NoSuchUpload here; aborting a finished upload succeeds on the binding, and the
 * ledger's record of it is what answers NoSuchUpload.
 *
 * A second CompleteMultipartUpload of a completed upload is NoSuchUpload, as R2 answers it: R2's
 * binding refuses completing a finished upload with 10024, which R2's S3 API answers NoSuchUpload
 * 404 (https://developers.cloudflare.com/r2/api/error-codes/; workers-sdk, Miniflare's R2
 * simulator, `completeMultipartUpload`: an upload past IN_PROGRESS throws NoSuchUpload). S3
 * instead answers a retried completion 200 with the object it made (as github.com/minio/minio/issues/13318
 * reports); edgezone follows R2, and the object stays as the first completion made it.
 */
import { XMLParser } from "fast-xml-parser";
import { ledgerOf, type ObjectChecksum, openUpload } from "../../bucket/bucket-ledger";
import { isPartNumber, MAX_PART_NUMBER } from "../../wire/limits";
import { storageClassToHeader } from "../../wire/storage-class";
import { hasConditionals, parseConditionals } from "../gateway/conditionals";
import { writeMetadataFromHeaders } from "../gateway/headers";
import { authorizeKey } from "./auth/permissions";
import { requestBody } from "./body/body";
import { type DocumentLimits, xmlDocumentOf } from "./body/xml-body";
import { checksumElement, checksumOfHeader, FLEXIBLE_CHECKSUMS, type FlexibleChecksum } from "./checksums/checksums";
import { uploadCompleted } from "./checksums/ledger-checksums";
import {
	checkCompletedChecksum,
	completedChecksum,
	type NamedPart,
	type UploadChecksum,
	uploadChecksumOf,
} from "./checksums/multipart-checksums";
import type { S3Context } from "./context";
import { notImplemented, S3Error, s3ErrorOf } from "./errors";
import { withExpiration } from "./lifecycle/cached-rules";
import { keyEncoding } from "./list";
import { checkPart, customerKeyOf, withCustomerKeyHeaders } from "./ssec/customer-key";
import { ssecRecorded } from "./ssec/recorded";
import { S3_NAMESPACE, type XmlContent, xmlAnswer } from "./xml";

/** S3's name of a binding storage class. */
const s3StorageClass = (storageClass: string) => storageClassToHeader(storageClass) ?? "STANDARD";

/** The upload id of the query. @throws S3Error 404 NoSuchUpload when it is empty. */
export function uploadIdOf(url: URL): string {
	const uploadId = url.searchParams.get("uploadId");
	if (!uploadId) throw new S3Error("NoSuchUpload");
	return uploadId;
}

/**
 * The part number of the query, as R2 takes it (an integer from 1 to 10000; `01` is 1).
 * @throws S3Error 400 InvalidArgument otherwise.
 */
export function partNumberOf(url: URL): number {
	const text = url.searchParams.get("partNumber") ?? "";
	const partNumber = Number(text);
	if (!/^\s*\d+$/.test(text) || !isPartNumber(partNumber)) {
		throw new S3Error("InvalidArgument", "Part number must be an integer between 1 and 10000, inclusive", {
			ArgumentName: "partNumber",
			ArgumentValue: text,
		});
	}
	return partNumber;
}

/**
 * The S3 error of a failed `uploadPart`, `complete` or `abort`: the binding's internal error
 * there means the upload is unknown (see the module comment); its BadUpload is R2's InvalidPart.
 */
export function uploadError(error: unknown): unknown {
	const known = s3ErrorOf(error);
	if (known?.code === "InternalError") return new S3Error("NoSuchUpload");
	if (known?.code === "BadUpload")
		return new S3Error("InvalidPart", "All non-trailing parts must have the same length.");
	return known ?? error;
}

/** The headers S3 names an upload's checksum with, on CreateMultipartUpload's answer. */
function uploadChecksumHeaders(checksum: UploadChecksum | undefined): Headers {
	const headers = new Headers();
	if (checksum !== undefined) {
		headers.set("x-amz-checksum-algorithm", checksum.algorithm.name);
		headers.set("x-amz-checksum-type", checksum.type);
	}
	return headers;
}

/** ListParts' and ListMultipartUploads' elements naming an upload's checksum. */
const uploadChecksumElements = (checksum: UploadChecksum | undefined): XmlContent =>
	checksum === undefined ? {} : { ChecksumAlgorithm: checksum.algorithm.name, ChecksumType: checksum.type };

/**
 * `POST /<bucket>/<key>?uploads`: the metadata headers, `x-amz-meta-*` and `x-amz-storage-class`
 * as PutObject takes them, and the upload's flexible checksum (`x-amz-checksum-algorithm` and
 * `-type`, `multipart-checksums.ts`), which the ledger keeps: each part's is then verified or
 * computed, and the completed object has the checksum made of theirs.
 * @throws S3Error 400 InvalidRequest for a checksum R2 does not take, before anything is created.
 */
export async function createMultipartUpload(c: S3Context): Promise<Response> {
	const checksum = uploadChecksumOf(c.request.headers);
	const options: R2MultipartOptions = writeMetadataFromHeaders(c.request.headers);
	const sent = await customerKeyOf(c.request.headers);
	if (sent !== undefined) options.ssecKey = sent.key;
	const upload = await c.bucket.bucket.createMultipartUpload(c.key, options);
	await ledgerOf(c).created(c.bucket.binding, {
		uploadId: upload.uploadId,
		key: upload.key,
		initiated: Date.now(),
		storageClass: options.storageClass ?? "Standard",
		...(checksum === undefined ? {} : { checksum }),
		...(sent === undefined ? {} : { ssecKeyMd5: sent.keyMd5 }),
	});
	if (sent !== undefined) ssecRecorded(c, upload.key);
	return xmlAnswer(
		"InitiateMultipartUploadResult",
		{ "@_xmlns": S3_NAMESPACE, Bucket: c.bucket.name, Key: upload.key, UploadId: upload.uploadId },
		{ headers: withCustomerKeyHeaders(uploadChecksumHeaders(checksum), sent?.keyMd5) },
	);
}

/**
 * `PUT /<bucket>/<key>?partNumber=N&uploadId=…`: streams the part into `uploadPart`, its body
 * decoded and verified as PutObject's is (`body.ts`: aws-chunked framing and chunk signatures,
 * the signed hash, a flexible checksum) and checked against its Content-MD5; for an upload with a
 * checksum, the part's checksum of it is verified when sent, computed when not, and recorded.
 * Answers its ETag and its checksum.
 * @throws S3Error 411 MissingContentLength; those of `requestBody` (InvalidRequest for a checksum
 * of another algorithm than the upload's), and the stream's own refusal (BadDigest,
 * SignatureDoesNotMatch, IncompleteBody, XAmzContentSHA256Mismatch, …) with no part stored; 404
 * NoSuchUpload.
 */
export async function uploadPart(c: S3Context): Promise<Response> {
	const partNumber = partNumberOf(c.url);
	const uploadId = uploadIdOf(c.url);
	const sent = await customerKeyOf(c.request.headers);
	const upload = await openUpload(ledgerOf(c), c.key, uploadId);
	const wanted = upload?.checksum;
	if (upload !== undefined) checkPart(upload.ssecKeyMd5, sent);
	const body = requestBody(c, { contentMd5: true, lengthRequired: true, checksum: wanted?.algorithm });
	let part: R2UploadedPart;
	try {
		part = await c.bucket.bucket
			.resumeMultipartUpload(c.key, uploadId)
			.uploadPart(partNumber, body.stream ?? "", sent === undefined ? undefined : { ssecKey: sent.key });
	} catch (error) {
		throw body.failure() ?? uploadError(error);
	}
	const value = body.checksumValue();
	await ledgerOf(c).partUploaded(uploadId, c.key, {
		partNumber,
		etag: part.etag,
		size: body.length ?? 0,
		uploaded: Date.now(),
		...(wanted !== undefined && value !== undefined ? { checksum: value } : {}),
	});
	const headers = withCustomerKeyHeaders(new Headers({ etag: `"${part.etag}"` }), sent?.keyMd5);
	if (body.checksum !== undefined && value !== undefined) headers.set(body.checksum.header, value);
	return new Response(null, { status: 200, headers });
}

/**
 * The largest `<CompleteMultipartUpload>` taken (`xml-body.ts`): 10000 parts (MAX_PART_NUMBER),
 * each `<Part>` with its `<PartNumber>`, `<ETag>` and the one checksum element of its upload's
 * algorithm (S3 takes one algorithm per upload; the AWS SDKs name only it). Bytes per part: the
 * markup, 90 (`<ChecksumCRC64NVME>` the longest name), the text, at most 189 (a 5-digit number,
 * 128 for a quoted ETag with its quotes as `&quot;`, 56 for a base64 SHA-256), and 128 of
 * indentation: 407, taken as 512; then 1 KiB for the root and the declaration: 5,121,024 bytes.
 * Elements: 4 a part and the root, 40,001, which fast-xml-parser reads in some 0.3 s, the cost
 * of completing a 10000-part upload.
 */
const COMPLETE_LIMITS: DocumentLimits = { bytes: MAX_PART_NUMBER * 512 + 1024, elements: 4 * MAX_PART_NUMBER + 1 };

const parser = new XMLParser({
	parseTagValue: false,
	isArray: (name, path) => path === "CompleteMultipartUpload.Part" && name === "Part",
});

interface CompleteDocument {
	CompleteMultipartUpload?: { Part?: Record<string, unknown>[] } | string;
}

/** The `Checksum<ALGORITHM>` elements a part of the document names, by algorithm. */
function namedChecksums(part: Record<string, unknown>): Map<FlexibleChecksum["name"], string> {
	const named = new Map<FlexibleChecksum["name"], string>();
	for (const { name } of FLEXIBLE_CHECKSUMS) {
		const value = part[`Checksum${name}`];
		if (typeof value === "string" && value.trim() !== "") named.set(name, value.trim());
	}
	return named;
}

/**
 * The parts of a `<CompleteMultipartUpload>` document, as R2 reads it (ETag quotes stripped),
 * with the checksums each names.
 * @throws S3Error 400 MalformedXML for a document that does not parse, names no part, or a part
 * without an integer PartNumber or an ETag; InvalidPart for a number outside 1 to 10000 or named
 * twice (R2's answers); InvalidPartOrder for numbers that do not ascend (S3's).
 */
function parseComplete(text: string): NamedPart[] {
	let document: CompleteDocument;
	try {
		document = parser.parse(text, true) as CompleteDocument;
	} catch {
		throw new S3Error("MalformedXML");
	}
	const root = document.CompleteMultipartUpload;
	const raw = typeof root === "object" ? (root.Part ?? []) : [];
	if (raw.length === 0 || raw.length > MAX_PART_NUMBER) {
		throw new S3Error("MalformedXML", `Send 1 to ${MAX_PART_NUMBER} <Part> in <CompleteMultipartUpload>.`);
	}
	const parts = raw.map((part) => {
		const { PartNumber, ETag } = part;
		if (typeof PartNumber !== "string" || !/^\s*\d+\s*$/.test(PartNumber) || typeof ETag !== "string") {
			throw new S3Error("MalformedXML", "Each <Part> needs an integer <PartNumber> and an <ETag>.");
		}
		const partNumber = Number(PartNumber);
		if (!isPartNumber(partNumber))
			throw new S3Error("InvalidPart", `Part number ${partNumber} is not from 1 to 10000.`);
		return { partNumber, etag: ETag.trim().replace(/^"(.*)"$/, "$1"), checksums: namedChecksums(part) };
	});
	for (let i = 1; i < parts.length; i++) {
		const [previous, part] = [parts[i - 1], parts[i]];
		if (previous === undefined || part === undefined) continue;
		if (part.partNumber === previous.partNumber) {
			throw new S3Error("InvalidPart", "There was a problem with the multipart upload.");
		}
		if (part.partNumber < previous.partNumber) {
			throw new S3Error(
				"InvalidPartOrder",
				"The list of parts was not in ascending order. The parts list must be specified in order by part number.",
			);
		}
	}
	return parts;
}

/**
 * The checksum an upload with one gives the object its named parts make
 * (`multipart-checksums.ts`), checked against what the request says of it; undefined for an
 * upload with none, or when a part's checksum was not recorded (one uploaded on the binding
 * outside the edge). The document's part checksums are not looked at for an upload without one,
 * as the AWS SDKs name them whenever a part answered one.
 * @throws S3Error those of `completedChecksum` and `checkCompletedChecksum`.
 */
async function objectChecksumOf(
	c: S3Context,
	uploadId: string,
	parts: readonly NamedPart[],
): Promise<ObjectChecksum | undefined> {
	const upload = (await openUpload(ledgerOf(c), c.key, uploadId))?.checksum;
	if (upload === undefined) return undefined;
	const { parts: all } = await ledgerOf(c).parts(uploadId, 0, MAX_PART_NUMBER);
	const recorded = new Map(all.map((part) => [part.partNumber, part]));
	const value = await completedChecksum(upload, parts, recorded);
	checkCompletedChecksum(upload, value, c.request.headers);
	return value === undefined ? undefined : { header: upload.algorithm.header, value, type: upload.type };
}

/**
 * `POST /<bucket>/<key>?uploadId=…` with `<CompleteMultipartUpload>`: the document checked
 * against its signed hash and Content-MD5 before anything is done, and, for an upload with a
 * checksum, its parts' checksums against the ones recorded; then `complete(parts)`. Answers
 * CompleteMultipartUploadResult with the object's ETag as R2 gives it (the MD5 of the parts'
 * MD5s, a hyphen, the number of parts) and the object's checksum, which the ledger keeps for
 * reads, with `x-amz-expiration` when a lifecycle rule expires the object. Conditional headers are refused with 501: the binding's `complete` takes no condition,
 * and checking one first could not be atomic.
 */
export async function completeMultipartUpload(c: S3Context): Promise<Response> {
	const uploadId = uploadIdOf(c.url);
	if (hasConditionals(parseConditionals(c.request.headers, true))) {
		throw notImplemented("CompleteMultipartUpload with a conditional header");
	}
	// S3 reads an SSE-C key here only to check it (the upload was created with its own).
	await customerKeyOf(c.request.headers);
	const parts = parseComplete(await xmlDocumentOf(c.request, c.caller.payloadHash, COMPLETE_LIMITS, true));
	const checksum = await objectChecksumOf(c, uploadId, parts);
	let object: R2Object;
	try {
		object = await c.bucket.bucket
			.resumeMultipartUpload(c.key, uploadId)
			.complete(parts.map(({ partNumber, etag }) => ({ partNumber, etag })));
	} catch (error) {
		throw uploadError(error);
	}
	const keyMd5 = await uploadCompleted(c, uploadId, c.key, {
		etag: object.etag,
		version: object.version,
		partNumbers: parts.map((part) => part.partNumber),
		...(checksum === undefined ? {} : { checksum }),
	});
	const location = `${c.url.origin}/${encodeURIComponent(c.bucket.name)}/${c.key.split("/").map(encodeURIComponent).join("/")}`;
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Location: location,
		Bucket: c.bucket.name,
		Key: object.key,
		ETag: object.httpEtag,
	};
	if (checksum !== undefined) {
		const algorithm = checksumOfHeader(checksum.header);
		if (algorithm !== undefined) Object.assign(content, checksumElement(algorithm, checksum.value));
		content.ChecksumType = checksum.type;
	}
	if (keyMd5 !== undefined) ssecRecorded(c, object.key);
	const headers = withCustomerKeyHeaders(new Headers(), keyMd5);
	await withExpiration(c, headers, object.key, object.uploaded.getTime());
	return xmlAnswer("CompleteMultipartUploadResult", content, { headers });
}

/** `DELETE /<bucket>/<key>?uploadId=…`: 204; NoSuchUpload for an unknown or finished upload. */
export async function abortMultipartUpload(c: S3Context): Promise<Response> {
	const uploadId = uploadIdOf(c.url);
	const ledger = ledgerOf(c);
	const record = await ledger.upload(uploadId);
	if (record !== null && (record.state !== "open" || record.key !== c.key)) throw new S3Error("NoSuchUpload");
	try {
		await c.bucket.bucket.resumeMultipartUpload(c.key, uploadId).abort();
	} catch (error) {
		throw uploadError(error);
	}
	await ledger.finished(uploadId, c.key, "aborted", Date.now());
	return new Response(null, { status: 204 });
}

/**
 * A count parameter (`max-parts`, `max-uploads`): 1000 when absent, at most 1000.
 * @throws S3Error 400 InvalidArgument for anything but a non-negative integer.
 */
function maxCount(url: URL, name: string): number {
	const text = url.searchParams.get(name);
	if (text === null) return 1000;
	if (!/^\d+$/.test(text)) {
		throw new S3Error("InvalidArgument", `Provided ${name} not an integer or within integer range`, {
			ArgumentName: name,
			ArgumentValue: text,
		});
	}
	return Math.min(Number(text), 1000);
}

/**
 * `GET /<bucket>/<key>?uploadId=…`: one page of the upload's parts from the ledger
 * (`max-parts`, `part-number-marker`). An upload the edge has no record of, a finished one or one
 * of another key is NoSuchUpload.
 */
export async function listParts(c: S3Context): Promise<Response> {
	const uploadId = uploadIdOf(c.url);
	const max = maxCount(c.url, "max-parts");
	const markerText = c.url.searchParams.get("part-number-marker") ?? "0";
	const marker = Number(markerText);
	if (!/^\d+$/.test(markerText)) {
		throw new S3Error("InvalidArgument", "Provided part-number-marker not an integer", {
			ArgumentName: "part-number-marker",
			ArgumentValue: markerText,
		});
	}
	const ledger = ledgerOf(c);
	const record = await ledger.upload(uploadId);
	if (record === null || record.state !== "open" || record.key !== c.key) throw new S3Error("NoSuchUpload");
	const page = max === 0 ? { parts: [], truncated: false } : await ledger.parts(uploadId, marker, max);
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Bucket: c.bucket.name,
		Key: c.key,
		UploadId: uploadId,
		PartNumberMarker: marker,
	};
	const last = page.parts.at(-1);
	if (last !== undefined) content.NextPartNumberMarker = last.partNumber;
	content.MaxParts = max;
	content.IsTruncated = page.truncated;
	content.StorageClass = s3StorageClass(record.storageClass);
	Object.assign(content, uploadChecksumElements(record.checksum));
	const algorithm = record.checksum?.algorithm;
	content.Part = page.parts.map((part) => ({
		PartNumber: part.partNumber,
		LastModified: new Date(part.uploaded).toISOString(),
		ETag: `"${part.etag}"`,
		Size: part.size,
		...(algorithm !== undefined && part.checksum !== undefined ? checksumElement(algorithm, part.checksum) : {}),
	}));
	return xmlAnswer("ListPartsResult", content);
}

/**
 * `GET /<bucket>?uploads`: one page of the bucket's open uploads from the ledger (`prefix`,
 * `delimiter`, `key-marker`, `upload-id-marker`, `max-uploads`, `encoding-type=url`), in key
 * order, then upload id.
 */
export async function listMultipartUploads(c: S3Context): Promise<Response> {
	const query = c.url.searchParams;
	const { encodingType, encode } = keyEncoding(query);
	const max = maxCount(c.url, "max-uploads");
	const prefix = query.get("prefix") ?? "";
	authorizeKey(c.scope, prefix, true);
	const delimiter = query.get("delimiter") || undefined;
	const keyMarker = query.get("key-marker") ?? "";
	const uploadIdMarker = query.get("upload-id-marker") ?? "";
	const page =
		max === 0
			? { uploads: [], prefixes: [], truncated: false, nextKeyMarker: undefined, nextUploadIdMarker: undefined }
			: await ledgerOf(c).uploads({ prefix, delimiter, keyMarker, uploadIdMarker, maxUploads: max });
	const content: XmlContent = {
		"@_xmlns": S3_NAMESPACE,
		Bucket: c.bucket.name,
		KeyMarker: encode(keyMarker),
		UploadIdMarker: uploadIdMarker,
	};
	if (page.truncated) {
		content.NextKeyMarker = encode(page.nextKeyMarker ?? "");
		content.NextUploadIdMarker = page.nextUploadIdMarker ?? "";
	}
	content.Prefix = encode(prefix);
	if (delimiter !== undefined) content.Delimiter = encode(delimiter);
	content.MaxUploads = max;
	content.IsTruncated = page.truncated;
	if (encodingType !== null) content.EncodingType = encodingType;
	content.Upload = page.uploads.map((upload) => ({
		Key: encode(upload.key),
		UploadId: upload.uploadId,
		StorageClass: s3StorageClass(upload.storageClass),
		Initiated: new Date(upload.initiated).toISOString(),
		...uploadChecksumElements(upload.checksum),
	}));
	content.CommonPrefixes = page.prefixes.map((name) => ({ Prefix: encode(name) }));
	return xmlAnswer("ListMultipartUploadsResult", content);
}
