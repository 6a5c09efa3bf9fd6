/**
 * The XML document a request carries (DeleteObjects, CompleteMultipartUpload,
 * PutBucketLifecycleConfiguration, PutBucketCors), read under the limits of what S3 takes in it,
 * so that no body can cost more than the largest legitimate one:
 * - bytes: a Content-Length past the document's limit is refused before any byte is read, and a
 *   body of unknown length is read only up to it (`payload.ts`, `checkedBytes`);
 * - elements: before the parser runs, the body's `<` are counted (every tag, comment or
 *   declaration opens with one, and text cannot hold one unescaped), and a body with more than
 *   its limit's tags is refused. The count stops at the first `<` past the limit, so a refusal
 *   costs the bytes scanned up to there. fast-xml-parser is linear, but some 5 µs per element:
 *   a 4 MiB body of empty elements took 5.5 s; the largest legitimate document now bounds it.
 * A document type declaration (`<!DOCTYPE`, which may declare entities) is refused: S3's
 * documents carry none.
 *
 * S3 answers a document past its schema's limits (more than 1000 keys in a DeleteObjects) with
 * 400 MalformedXML, "The XML you provided was not well-formed or did not validate against our
 * published schema" (as clients report it: github.com/aws/aws-sdk/issues/602,
 * github.com/aws/aws-sdk-java/issues/1293), and so is a document too large or with too many
 * elements here.
 */
import { S3Error } from "../errors";
import { checkedBytes } from "./payload";

/** The largest document an operation takes: its bytes, and its elements (each at most two tags). */
export interface DocumentLimits {
	bytes: number;
	elements: number;
}

/** `<` markup that is neither an element nor an element's end: the XML declaration and a few comments. */
const OTHER_MARKUP = 16;

const LESS_THAN = 0x3c;

/** Whether `bytes` open more than `maxTags` tags (counting stops past it). */
function tooManyTags(bytes: Uint8Array, maxTags: number): boolean {
	let count = 0;
	for (let at = bytes.indexOf(LESS_THAN); at !== -1; at = bytes.indexOf(LESS_THAN, at + 1)) {
		count += 1;
		if (count > maxTags) return true;
	}
	return false;
}

/** `<!DOCTYPE` in ASCII. */
const DOCTYPE = new TextEncoder().encode("<!DOCTYPE");

/** Whether `bytes` hold a document type declaration. */
function hasDoctype(bytes: Uint8Array): boolean {
	for (let at = bytes.indexOf(LESS_THAN); at !== -1; at = bytes.indexOf(LESS_THAN, at + 1)) {
		if (DOCTYPE.every((byte, i) => bytes[at + i] === byte)) return true;
	}
	return false;
}

const tooLarge = (what: string) =>
	new S3Error("MalformedXML", `The request's document has more ${what} than any valid one of this operation.`);

/**
 * The text of the request's XML document, read within `limits` and checked against its signed
 * hash and digests (`checkedBytes`; `objectChecksums` as there).
 * @throws S3Error 400 MalformedXML for a Content-Length, a body or a count of tags past `limits`
 * (before the body, or before its parsing), or a document type declaration; those of `checkedBytes`.
 */
export async function xmlDocumentOf(
	request: Request,
	payloadHash: string,
	limits: DocumentLimits,
	objectChecksums = false,
): Promise<string> {
	const declared = Number(request.headers.get("content-length") ?? Number.NaN);
	if (declared > limits.bytes) throw tooLarge("bytes");
	const bytes = await checkedBytes(request, payloadHash, limits.bytes, objectChecksums);
	if (tooManyTags(bytes, 2 * limits.elements + OTHER_MARKUP)) throw tooLarge("elements");
	if (hasDoctype(bytes)) throw new S3Error("MalformedXML", "A document type declaration is not taken.");
	return new TextDecoder().decode(bytes);
}
