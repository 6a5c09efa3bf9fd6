/**
 * RemoteBucket: the `R2Bucket` interface over edgezone's bucket gateway, from Node 22 or a Worker.
 *
 * Emulates: every method and option of the binding, spelled as docs/gateway.md says, with the
 * binding's results (`null` for a missing key, a body-less R2Object for a failed condition, `null`
 * for a failed conditional put) and its errors (`"<op>: <message> (<code>)"`).
 *
 * Differences HTTP imposes, each documented where it arises:
 * - custom metadata names arrive lower case (header names are case-insensitive);
 * - dates travel in whole seconds: `cacheExpiry`, and conditions within the upload's second
 *   (options.ts `writeConditionals`);
 * - a ReadableStream of unknown length is accepted (the gateway streams it into a multipart
 *   upload past 8 MiB) where the binding throws; a conditional put of one is refused with 10033.
 *   The `body` of an object read through a RemoteBucket is not one: it goes with its length;
 * - SSE-C (`ssecKey`) is not supported: the native dialect has no spelling for it (the gateway's
 *   S3 dialect takes it).
 */
import { askForChecksums } from "../wire/checksums.ts";
import { R2_ERRORS } from "../wire/error-codes.ts";
import { isIncludeValue, isPartNumber, MAX_PART_NUMBER, MIN_PART_NUMBER } from "../wire/limits.ts";
import type { R2ObjectJson, R2ObjectsJson } from "../wire/object-json.ts";
import { parseContentRange } from "../wire/ranges.ts";
import { fieldsFromHeaders, fieldsFromJson, knownBodyLength, RemoteObject, RemoteObjectBody } from "./objects.ts";
import {
	type BodyValue,
	headersRange,
	isHeaders,
	listLimit,
	rangeHeader,
	requestBody,
	unsupportedSsec,
	writeChecksum,
	writeConditionals,
	writeMetadata,
} from "./options.ts";
import { type Action, errorBody, errorOf, type RemoteBucketOptions, Transport } from "./transport.ts";

/** Headers that ask a read for the stored checksums, which the gateway sends only when asked (as S3 does). */
function askingForChecksums(): Headers {
	const headers = new Headers();
	askForChecksums(headers);
	return headers;
}

/**
 * The request body for `value`. The `body` of an object this client read goes with its length,
 * so it is stored as the binding stores its own `body`: in one put, with its MD5 etag and
 * checksum, and taken as a part, rather than sent as a stream of unknown length (chunked, which
 * the gateway stores as a multipart upload past 8 MiB and refuses as a part). Node's fetch sends
 * the Content-Length header given; workerd sends a stream's own length, and a FixedLengthStream
 * gives it one (developers.cloudflare.com/workers/runtime-apis/streams/transformstream/).
 */
function sizedBody(value: BodyValue, headers: Headers): BodyInit | null {
	if (!(value instanceof ReadableStream)) return requestBody(value);
	const length = knownBodyLength(value);
	if (length === undefined) return value;
	headers.set("content-length", String(length));
	return typeof FixedLengthStream === "function" ? value.pipeThrough(new FixedLengthStream(length)) : value;
}

/** Reads a JSON answer, or throws the error a non-2xx answer stands for. */
async function jsonOf<T>(action: Action, response: Response): Promise<T> {
	if (!response.ok) throw errorOf(action, response, await errorBody(response));
	return response.json<T>();
}

/** Reads a body-less answer, or throws the error a non-2xx answer stands for. */
async function emptyOf(action: Action, response: Response): Promise<void> {
	if (!response.ok) throw errorOf(action, response, await errorBody(response));
	await response.body?.cancel();
}

/** An R2 bucket served by an edgezone gateway; see the file header for what HTTP changes. */
export class RemoteBucket implements R2Bucket {
	readonly #transport: Transport;

	/**
	 * @param options `url` of the gateway, bearer `token`, and the `fetch` to use
	 * (`globalThis.fetch` by default; a Worker test passes `exports.default.fetch`).
	 */
	constructor(options: RemoteBucketOptions) {
		this.#transport = new Transport(options);
	}

	/** `HEAD /{key}`: the object's metadata, or null when the key does not exist. */
	async head(key: string): Promise<R2Object | null> {
		const response = await this.#transport.send({ method: "HEAD", key, headers: askingForChecksums() });
		if (response.status === R2_ERRORS.NoSuchKey.status) return null;
		if (!response.ok) throw errorOf("head", response, await errorBody(response));
		const size = Number(response.headers.get("content-length") ?? 0);
		return new RemoteObject(fieldsFromHeaders(key, response.headers, size, { offset: 0, length: size }));
	}

	/**
	 * `GET /{key}` with `Range` and conditional headers: the object with its body; null when the key
	 * does not exist; an R2Object without `body` when `onlyIf` failed (304 or 412).
	 * @throws RemoteBucketError `get: The requested range is not satisfiable (10039)` for an
	 * R2Range past the end, as the binding.
	 */
	get(
		key: string,
		options: R2GetOptions & { onlyIf: R2Conditional | Headers },
	): Promise<R2ObjectBody | R2Object | null>;
	get(key: string, options?: R2GetOptions): Promise<R2ObjectBody | null>;
	async get(key: string, options: R2GetOptions = {}): Promise<R2ObjectBody | R2Object | null> {
		if (options.ssecKey !== undefined) throw unsupportedSsec();
		const headers = askingForChecksums();
		if (options.onlyIf !== undefined) writeConditionals(options.onlyIf, headers);
		const range =
			options.range === undefined
				? null
				: isHeaders(options.range)
					? headersRange(options.range)
					: rangeHeader(options.range);
		if (range !== null) headers.set("range", range);
		let response = await this.#transport.send({ method: "GET", key, headers });
		if (response.status === R2_ERRORS.InvalidRange.status && isHeaders(options.range)) {
			// A Range header R2 cannot satisfy gets the whole object from the binding, not an error.
			await response.body?.cancel();
			headers.delete("range");
			response = await this.#transport.send({ method: "GET", key, headers });
		}
		switch (response.status) {
			case 200: {
				const size = Number(response.headers.get("content-length") ?? 0);
				const range = { offset: 0, length: size };
				return new RemoteObjectBody(fieldsFromHeaders(key, response.headers, size, range), response, size);
			}
			case 206: {
				const served = parseContentRange(response.headers.get("content-range"));
				if (served === undefined) throw errorOf("get", response, { error: { message: "206 without a Content-Range" } });
				const range = { offset: served.offset, length: served.length };
				return new RemoteObjectBody(
					fieldsFromHeaders(key, response.headers, served.size, range),
					response,
					served.length,
				);
			}
			case 304: {
				// The gateway sends a 304 the Content-Length a 200 would have had: the object's size.
				const size = Number(response.headers.get("content-length") ?? 0);
				return new RemoteObject(fieldsFromHeaders(key, response.headers, size, { offset: 0, length: size }));
			}
			case R2_ERRORS.NoSuchKey.status:
				await response.body?.cancel();
				return null;
			case R2_ERRORS.PreconditionFailed.status: {
				// A read's 412 carries the object as JSON: its headers' Content-Type is the error body's.
				const body = await errorBody(response);
				const json = body.object as R2ObjectJson | undefined;
				if (json === undefined) throw errorOf("get", response, body);
				const fields = fieldsFromJson(json);
				return new RemoteObject({ ...fields, range: { offset: 0, length: fields.size } });
			}
			default:
				throw errorOf("get", response, await errorBody(response));
		}
	}

	/**
	 * `PUT /{key}`: stores `value` with its metadata, checksum, storage class and condition.
	 * @returns the stored object, or null when `onlyIf` failed (412; nothing stored).
	 * @throws TypeError for several checksums or one of the wrong length, as the binding;
	 * RemoteBucketError for what the gateway refuses (10037 checksum mismatch, 10020 key too long, …).
	 */
	put(
		key: string,
		value: BodyValue,
		options?: R2PutOptions & { onlyIf: R2Conditional | Headers },
	): Promise<R2Object | null>;
	put(key: string, value: BodyValue, options?: R2PutOptions): Promise<R2Object>;
	async put(key: string, value: BodyValue, options: R2PutOptions = {}): Promise<R2Object | null> {
		const headers = new Headers();
		writeMetadata("put", options, headers);
		writeChecksum(options, headers);
		if (options.onlyIf !== undefined) writeConditionals(options.onlyIf, headers);
		const body = sizedBody(value, headers);
		const response = await this.#transport.send({ method: "PUT", key, headers, body });
		if (response.status === R2_ERRORS.PreconditionFailed.status) {
			await response.body?.cancel();
			return null;
		}
		return new RemoteObject(fieldsFromJson(await jsonOf<R2ObjectJson>("put", response)));
	}

	/** `POST /{key}?uploads`: starts a multipart upload with the object's metadata. */
	async createMultipartUpload(key: string, options: R2MultipartOptions = {}): Promise<R2MultipartUpload> {
		const headers = new Headers();
		writeMetadata("createMultipartUpload", options, headers);
		const response = await this.#transport.send({ method: "POST", key, query: { uploads: "" }, headers });
		const created = await jsonOf<{ key: string; uploadId: string }>("createMultipartUpload", response);
		return new RemoteMultipartUpload(this.#transport, created.key, created.uploadId);
	}

	/** A handle on an existing upload; like the binding, it checks nothing and sends nothing. */
	resumeMultipartUpload(key: string, uploadId: string): R2MultipartUpload {
		return new RemoteMultipartUpload(this.#transport, key, uploadId);
	}

	/**
	 * `DELETE /{key}` for one key, `POST /?delete` for a list (1 to 1000 keys, all validated before
	 * any is deleted). Missing keys are not an error; an empty list sends nothing.
	 */
	async delete(keys: string | string[]): Promise<void> {
		if (typeof keys === "string") {
			return emptyOf("delete", await this.#transport.send({ method: "DELETE", key: keys }));
		}
		if (keys.length === 0) return;
		const response = await this.#transport.send({
			method: "POST",
			query: { delete: "" },
			headers: new Headers({ "content-type": "application/json" }),
			body: JSON.stringify({ keys }),
		});
		return emptyOf("delete", response);
	}

	/**
	 * `GET /?list`: one page. Follow `truncated` and `cursor`: a page may hold fewer than `limit`
	 * objects. Without `include`, entries carry the metadata the binding behind the gateway gives:
	 * `{}` from Miniflare's, none (undefined) from R2's.
	 * @throws RangeError for an `include` value the binding does not know, TypeError for a `limit`
	 * outside 32 bits, as workerd; RemoteBucketError 10022 for a `limit` R2 refuses.
	 */
	async list(options: R2ListOptions = {}): Promise<R2Objects> {
		const query: Record<string, string> = { list: "" };
		for (const name of ["prefix", "delimiter", "cursor", "startAfter"] as const) {
			const value = options[name];
			if (value !== undefined) query[name] = value;
		}
		const limit = options.limit === undefined ? undefined : listLimit(options.limit);
		if (limit !== undefined) query.limit = String(limit);
		if (options.include !== undefined && options.include.length > 0) {
			for (const name of options.include) {
				if (!isIncludeValue(name)) throw new RangeError(`Unsupported include value ${String(name)}`);
			}
			query.include = options.include.join(",");
		}
		const page = await jsonOf<R2ObjectsJson>("list", await this.#transport.send({ method: "GET", query }));
		const objects = page.objects.map((json) => new RemoteObject(fieldsFromJson(json)));
		const { delimitedPrefixes } = page;
		return page.truncated && page.cursor !== undefined
			? { objects, delimitedPrefixes, truncated: true, cursor: page.cursor }
			: { objects, delimitedPrefixes, truncated: false };
	}
}

/** An upload in progress, named by key and uploadId; every call is one request. */
class RemoteMultipartUpload implements R2MultipartUpload {
	readonly #transport: Transport;
	readonly key: string;
	readonly uploadId: string;

	// Fields assigned in the body, not as parameter properties: Node's type stripping erases only
	// syntax that has no runtime meaning (docs/gateway.md, "RemoteBucket from Node").
	constructor(transport: Transport, key: string, uploadId: string) {
		this.#transport = transport;
		this.key = key;
		this.uploadId = uploadId;
	}

	/**
	 * `PUT /{key}?uploadId=&partNumber=`: uploads one part. Its body needs a known length: a
	 * stream of unknown length is refused with 411 (10033), as the binding refuses it; the `body`
	 * of an object read through a RemoteBucket has one, as the binding's has.
	 * @throws TypeError for a part number outside 1 to 10000, as workerd.
	 */
	async uploadPart(
		partNumber: number,
		value: ReadableStream | ArrayBuffer | ArrayBufferView | string | Blob,
		options: R2UploadPartOptions = {},
	): Promise<R2UploadedPart> {
		if (options.ssecKey !== undefined) throw unsupportedSsec();
		if (!isPartNumber(partNumber)) {
			throw new TypeError(
				`Part number must be between ${MIN_PART_NUMBER} and ${MAX_PART_NUMBER} (inclusive). Actual value was: ${partNumber}`,
			);
		}
		const headers = new Headers();
		const body = sizedBody(value, headers);
		const response = await this.#transport.send({
			method: "PUT",
			key: this.key,
			query: { uploadId: this.uploadId, partNumber: String(partNumber) },
			headers,
			body,
		});
		const part = await jsonOf<R2UploadedPart>("uploadPart", response);
		return { partNumber: part.partNumber, etag: part.etag };
	}

	/** `DELETE /{key}?uploadId=`: aborts the upload. */
	async abort(): Promise<void> {
		const response = await this.#transport.send({
			method: "DELETE",
			key: this.key,
			query: { uploadId: this.uploadId },
		});
		return emptyOf("abortMultipartUpload", response);
	}

	/** `POST /{key}?uploadId=` with the parts: completes the upload; the object as stored. */
	async complete(uploadedParts: R2UploadedPart[]): Promise<R2Object> {
		const parts = uploadedParts.map(({ partNumber, etag }) => ({ partNumber, etag }));
		const response = await this.#transport.send({
			method: "POST",
			key: this.key,
			query: { uploadId: this.uploadId },
			headers: new Headers({ "content-type": "application/json" }),
			body: JSON.stringify({ parts }),
		});
		return new RemoteObject(fieldsFromJson(await jsonOf<R2ObjectJson>("completeMultipartUpload", response)));
	}
}
