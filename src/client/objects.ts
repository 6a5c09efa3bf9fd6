/**
 * R2Object and R2ObjectBody rebuilt from the gateway's answers, shaped as the binding's: the same
 * fields as own properties (so `JSON.stringify` and `toEqual` see what they see on the binding's
 * objects), `Date`s for `uploaded` and `cacheExpiry`, `ArrayBuffer` checksums with a hex `toJSON`,
 * and body methods on the prototype.
 *
 * Sources: the object headers and JSON shapes of docs/gateway.md, read with the wire mapping the
 * gateway writes them with (src/wire), so both directions stay one mapping.
 */
import { checksumsFromHeaders, checksumsFromJson, checksumsToJson, type Digests } from "../wire/checksums.ts";
import { customMetadataFromHeaders } from "../wire/custom-metadata.ts";
import {
	httpMetadataFromHeaders,
	httpMetadataFromJson,
	httpMetadataToHeaders,
	STORED_ENCODING_HEADER,
} from "../wire/http-metadata.ts";
import type { R2ObjectJson } from "../wire/object-json.ts";
import { storageClassFromAnswer } from "../wire/storage-class.ts";

/** The data fields of an R2Object. */
export type ObjectFields = Omit<R2Object, "writeHttpMetadata">;

/** `R2Checksums`: the digests as ArrayBuffers, `toJSON()` as lower-case hex. */
class RemoteChecksums implements R2Checksums {
	declare readonly md5?: ArrayBuffer;
	declare readonly sha1?: ArrayBuffer;
	declare readonly sha256?: ArrayBuffer;
	declare readonly sha384?: ArrayBuffer;
	declare readonly sha512?: ArrayBuffer;

	/** @param digests the stored digests; absent algorithms stay absent, as on the binding. */
	constructor(digests: Digests) {
		Object.assign(this, digests);
	}

	/** The digests as hex, what the binding's `checksums.toJSON()` gives and the gateway's JSON holds. */
	toJSON(): R2StringChecksums {
		return checksumsToJson(this);
	}
}

/** An `R2Object` as a RemoteBucket returns it: metadata only. Its fields are those of ObjectFields. */
export interface RemoteObject extends ObjectFields {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: the interface declares the fields the constructor sets with Object.assign.
export class RemoteObject implements R2Object {
	/** @param fields every field, set as own properties in the binding's order. */
	constructor(fields: ObjectFields) {
		Object.assign(this, fields);
	}

	/**
	 * Writes the six httpMetadata headers into `headers`, as the binding does.
	 * @throws TypeError when the metadata was not fetched (a list without `include`), as workerd does.
	 */
	writeHttpMetadata(headers: Headers): void {
		if (this.httpMetadata === undefined) {
			throw new TypeError(
				`HTTP metadata unknown for key \`${this.key}\`. Did you forget to add 'httpMetadata' to \`include\` when listing?`,
			);
		}
		httpMetadataToHeaders(this.httpMetadata, headers);
	}
}

/** An empty body, for answers whose `body` is null (some fetches give null for 0 bytes). */
const emptyBody = () => new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });

/**
 * The byte length of every `body` a RemoteObjectBody handed out. The binding's `body` is a stream
 * of known length, which its own `put` and `uploadPart` take whole (workerd requires a known
 * length of a ReadableStream value); a fetch answer's stream carries no length in Node, nor after
 * any wrapper re-streams it, so RemoteBucket remembers it here and sends it as Content-Length.
 */
const BODY_LENGTHS = new WeakMap<ReadableStream, number>();

/** The byte length of `stream` when it is the `body` of an object this client read, else undefined. */
export function knownBodyLength(stream: ReadableStream): number | undefined {
	return BODY_LENGTHS.get(stream);
}

/** An `R2ObjectBody`: an R2Object whose body is the gateway's answer, streamed as it arrives. */
export class RemoteObjectBody extends RemoteObject implements R2ObjectBody {
	readonly #response: Response;
	readonly #length: number;
	#body: ReadableStream | undefined;

	/**
	 * @param response the 200 or 206 answer whose body is the object's (or the range's) bytes.
	 * @param length the byte length of that body: the object's size, or the range served.
	 */
	constructor(fields: ObjectFields, response: Response, length: number) {
		super(fields);
		this.#response = response;
		this.#length = length;
	}

	/** The bytes as a stream of known length, as the binding's; the same stream on every access. */
	get body(): ReadableStream {
		if (this.#body === undefined) {
			this.#body = this.#response.body ?? emptyBody();
			BODY_LENGTHS.set(this.#body, this.#length);
		}
		return this.#body;
	}

	/** Whether the body has been read, through `body` or one of the methods. */
	get bodyUsed(): boolean {
		return this.#response.bodyUsed;
	}

	arrayBuffer(): Promise<ArrayBuffer> {
		return this.#response.arrayBuffer();
	}

	async bytes(): Promise<Uint8Array> {
		return new Uint8Array(await this.#response.arrayBuffer());
	}

	/**
	 * The body as UTF-8 text, as the binding's. Decoded here rather than by `Response.text()`,
	 * which warns for every object typed `application/octet-stream` (any object stored without a type).
	 */
	async text(): Promise<string> {
		return new TextDecoder().decode(await this.#response.arrayBuffer());
	}

	json<T>(): Promise<T> {
		return this.#response.json<T>();
	}

	/** A Blob typed with the object's Content-Type (none when it has none), as the binding's. */
	async blob(): Promise<Blob> {
		return new Blob([await this.#response.arrayBuffer()], { type: this.httpMetadata?.contentType ?? "" });
	}
}

/**
 * An object's fields from the object headers of a HEAD or GET answer (docs/gateway.md, "Object
 * headers"). Size and range depend on the answer (200, 206, 304), so the caller gives them.
 */
export function fieldsFromHeaders(
	key: string,
	headers: Headers,
	size: number,
	range: R2Range | undefined,
): ObjectFields {
	const httpEtag = headers.get("etag") ?? "";
	const httpMetadata = httpMetadataFromHeaders(headers);
	if (httpMetadata.kind === "invalid")
		throw new TypeError(`The gateway answered an Expires that is not a date: ${httpMetadata.expires}`);
	// RemoteBucket asks for raw bodies: the stored Content-Encoding comes in a header of its own.
	const storedEncoding = headers.get(STORED_ENCODING_HEADER);
	if (storedEncoding !== null) httpMetadata.metadata.contentEncoding = storedEncoding;
	// x-r2-uploaded keeps milliseconds; Last-Modified is the fallback for other servers.
	const uploaded = headers.get("x-r2-uploaded") ?? headers.get("last-modified") ?? "";
	return {
		key,
		version: headers.get("x-r2-version") ?? "",
		size,
		etag: httpEtag.replace(/^(W\/)?"|"$/g, ""),
		httpEtag,
		checksums: new RemoteChecksums(checksumsFromHeaders(headers)),
		uploaded: new Date(uploaded),
		httpMetadata: httpMetadata.metadata,
		customMetadata: customMetadataFromHeaders(headers),
		range,
		storageClass: storageClassFromAnswer(headers.get("x-amz-storage-class")),
	};
}

/**
 * An object's fields from the gateway's JSON (PUT, complete, list entries, and the `object` of a
 * read's 412). Such objects carry no range (`range` is undefined on the binding's too), and
 * metadata the gateway's binding left out (R2's list without `include`) stays undefined.
 */
export function fieldsFromJson(json: R2ObjectJson): ObjectFields {
	return {
		key: json.key,
		version: json.version,
		size: json.size,
		etag: json.etag,
		httpEtag: json.httpEtag,
		checksums: new RemoteChecksums(checksumsFromJson(json.checksums)),
		uploaded: new Date(json.uploaded),
		httpMetadata: json.httpMetadata === undefined ? undefined : httpMetadataFromJson(json.httpMetadata),
		customMetadata: json.customMetadata,
		range: undefined,
		storageClass: json.storageClass,
	};
}
