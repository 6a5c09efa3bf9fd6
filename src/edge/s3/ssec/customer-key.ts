/**
 * SSE-C, server-side encryption with customer-provided keys, as S3 spells it on a request and
 * an answer (https://docs.aws.amazon.com/AmazonS3/latest/userguide/specifying-s3-c-encryption.html)
 * and as R2 takes it (https://developers.cloudflare.com/r2/examples/ssec/): the three headers
 * `x-amz-server-side-encryption-customer-algorithm` (AES256), `-key` (the 256-bit key, base64)
 * and `-key-MD5` (the key's MD5, base64), under `x-amz-copy-source-` for a copy's source. No
 * Workers API but WebCrypto's MD5.
 *
 * Which key an object or an upload was stored with is known by the MD5 of the key alone, which is
 * what S3 answers and what the bucket's ledger keeps (`src/bucket/bucket-ledger.ts`); the key itself is
 * handed to the binding (`ssecKey`) and kept nowhere.
 */
import { fromBase64, toBase64 } from "../../../common/encoding";
import { S3Error } from "../errors";

/** A key a request sent: its 32 bytes for the binding, and its MD5 (base64) as S3 names it. */
export interface CustomerKey {
	key: ArrayBuffer;
	keyMd5: string;
}

/** The two SSE-C headers S3 answers. */
const ALGORITHM_HEADER = "x-amz-server-side-encryption-customer-algorithm";
const KEY_MD5_HEADER = "x-amz-server-side-encryption-customer-key-MD5";

const MUST = "Requests specifying Server Side Encryption with Customer provided keys must provide";

/**
 * The customer key the SSE-C headers under `prefix` (`x-amz-`, or `x-amz-copy-source-`) carry;
 * undefined when none of the three is sent.
 * @throws S3Error 400 InvalidArgument when one of the three is missing, the key is not 256 bits
 * of base64, or the MD5 sent is not the key's; 400 InvalidEncryptionAlgorithmError for an
 * algorithm other than AES256 (S3's answers; the order Miniflare's S3 endpoint records for R2,
 * workers-sdk packages/miniflare/src/workers/r2/s3/, `screenSSECHeaders`).
 */
export async function customerKeyOf(headers: Headers, prefix = "x-amz-"): Promise<CustomerKey | undefined> {
	const algorithm = headers.get(`${prefix}server-side-encryption-customer-algorithm`);
	const key = headers.get(`${prefix}server-side-encryption-customer-key`);
	const keyMd5 = headers.get(`${prefix}server-side-encryption-customer-key-MD5`);
	if (algorithm === null && key === null && keyMd5 === null) return undefined;
	if (key === null) throw new S3Error("InvalidArgument", `${MUST} an appropriate secret key.`);
	if (keyMd5 === null) throw new S3Error("InvalidArgument", `${MUST} the client calculated MD5 of the secret key.`);
	if (algorithm === null) throw new S3Error("InvalidArgument", `${MUST} a valid encryption algorithm.`);
	if (algorithm !== "AES256") throw new S3Error("InvalidEncryptionAlgorithmError");
	const bytes = fromBase64(key.trim());
	if (bytes === undefined || bytes.length !== 32) {
		throw new S3Error("InvalidArgument", "The secret key was invalid for the specified algorithm.");
	}
	const computed = toBase64(new Uint8Array(await crypto.subtle.digest("MD5", bytes)));
	if (computed !== keyMd5.trim()) {
		throw new S3Error(
			"InvalidArgument",
			"The calculated MD5 hash of the key did not match the hash that was provided.",
		);
	}
	return { key: bytes.buffer, keyMd5: computed };
}

/** Sets the SSE-C headers S3 answers for an object or upload stored with the key of `keyMd5`. */
export function withCustomerKeyHeaders(headers: Headers, keyMd5: string | undefined): Headers {
	if (keyMd5 !== undefined) {
		headers.set(ALGORITHM_HEADER, "AES256");
		headers.set(KEY_MD5_HEADER, keyMd5);
	}
	return headers;
}

/** What a key sent is refused with, beside the key recorded: one sent where none was, none where one was, another. */
interface Refusals {
	unexpected: () => S3Error;
	missing: () => S3Error;
	other: () => S3Error;
}

/** `sent` against `recorded` (a key's MD5, or undefined for none): the MD5 when they agree. */
function compareKeys(
	recorded: string | undefined,
	sent: CustomerKey | undefined,
	refusals: Refusals,
): string | undefined {
	if (recorded === undefined) {
		if (sent === undefined) return undefined;
		throw refusals.unexpected();
	}
	if (sent === undefined) throw refusals.missing();
	if (sent.keyMd5 !== recorded) throw refusals.other();
	return recorded;
}

const READ_REFUSALS: Refusals = {
	unexpected: () => new S3Error("InvalidRequest", "The encryption parameters are not applicable to this object."),
	missing: () =>
		new S3Error(
			"InvalidRequest",
			"The object was stored using a form of Server Side Encryption. The correct parameters must be provided to retrieve the object.",
		),
	other: () => new S3Error("AccessDenied", "The SSE-C key sent is not the key the object was stored with."),
};

const PART_REFUSALS: Refusals = {
	unexpected: () =>
		new S3Error(
			"InvalidRequest",
			"The multipart upload initiate did not request encryption: its parts cannot carry encryption parameters.",
		),
	missing: () =>
		new S3Error(
			"InvalidRequest",
			"The multipart upload initiate requested encryption. Subsequent part requests must include the appropriate encryption parameters.",
		),
	other: () =>
		new S3Error("InvalidRequest", "The provided encryption parameters did not match the ones used originally."),
};

/**
 * Checks a read of an object against the key it was stored with (`storedMd5`, undefined for an
 * object stored without one), S3's way
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerSideEncryptionCustomerKeys.html).
 * @returns the MD5 to answer, when the object was stored with a key.
 * @throws S3Error 400 InvalidRequest for an object stored with a key read without one, or a key
 * sent for an object stored without; 403 AccessDenied for another key than the object's.
 */
export const checkRead = (storedMd5: string | undefined, sent: CustomerKey | undefined): string | undefined =>
	compareKeys(storedMd5, sent, READ_REFUSALS);

/**
 * Checks a part (UploadPart, UploadPartCopy) against the key its upload was created with
 * (`uploadMd5`, undefined for none): S3 takes a part only with the upload's own key.
 * @throws S3Error 400 InvalidRequest for a part without the upload's key, with another, or with a
 * key for an upload created without one.
 */
export function checkPart(uploadMd5: string | undefined, sent: CustomerKey | undefined): void {
	compareKeys(uploadMd5, sent, PART_REFUSALS);
}
