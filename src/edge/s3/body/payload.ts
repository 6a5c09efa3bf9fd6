/**
 * The checks of a request body against the digests its headers carry: the SHA-256 its signature
 * covers (`x-amz-content-sha256`), Content-MD5 and `x-amz-checksum-*`. One `digestCheck` serves a
 * body streamed to the binding (one of the pump's checks, `body-pump.ts`, hashed as it passes by
 * `checksums.ts`'s `digestHasher`) and a small document read whole. A body that is not the one
 * signed is S3's `XAmzContentSHA256Mismatch`, one that does not match a digest `BadDigest`
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html); a streamed one never
 * reaches the binding whole, so nothing is stored.
 */
import { boundedBody } from "../../../common/bounded-body";
import { toHex } from "../../../common/encoding";
import { requestedChecksums } from "../../gateway/headers";
import { digestHasher } from "../checksums/checksums";
import { S3Error } from "../errors";
import type { BodyCheck } from "./body-pump";

/**
 * The check of a body whose digest under WebCrypto's `algorithm` (`SHA-256`, `MD5`…) must be
 * `expectedHex` (lower-case hex); `refusal(actualHex)` is the S3Error when it is not, given the
 * digest received (the native dialect's BadDigest names it). Fed as the body streams (one of the
 * pump's checks), or once with a whole document.
 */
export function digestCheck(
	algorithm: string,
	expectedHex: string,
	refusal: (actualHex: string) => S3Error,
): BodyCheck {
	const hasher = digestHasher(algorithm);
	return {
		update: (bytes) => hasher.update(bytes),
		async verdict() {
			const actual = toHex(await hasher.digest());
			return actual === expectedHex ? undefined : refusal(actual);
		},
	};
}

/** S3's answer to a body that is not the one its signature covers. */
export const payloadMismatch = () => new S3Error("XAmzContentSHA256Mismatch");

/** S3's BadDigest for a body that does not match the digest named by `label` ("Content-MD5", "SHA-256"…). */
export function badDigest(label: string): S3Error {
	return new S3Error("BadDigest", `The ${label} you specified did not match what we received.`);
}

/**
 * A small body read whole (an XML document of a request), checked against the signed payload
 * hash when there is one, and against its Content-MD5 and `x-amz-checksum-*` headers.
 * @param limit the most bytes taken; a longer body is refused before it is all read.
 * @param objectChecksums the request's `x-amz-checksum-*` headers describe an object, not the
 * document (CompleteMultipartUpload's), so only Content-MD5 is checked here.
 * @throws S3Error 400 XAmzContentSHA256Mismatch; 400 BadDigest; 400 InvalidDigest for a digest
 * header that is not one; 400 MalformedXML past `limit`.
 */
export async function checkedBytes(
	request: Request,
	payloadHash: string,
	limit: number,
	objectChecksums = false,
): Promise<Uint8Array> {
	const digests = objectChecksums
		? new Headers([...request.headers].filter(([name]) => name === "content-md5"))
		: request.headers;
	const checksums = requestedChecksums(digests);
	const bytes = await boundedBody(request, limit);
	if (bytes === undefined) throw new S3Error("MalformedXML", `The request's document is over ${limit} bytes.`);
	const checks = checksums.map(({ name, algorithm, label, digest }) =>
		digestCheck(algorithm, toHex(digest), () => badDigest(name === "md5" ? "Content-MD5" : label)),
	);
	if (/^[0-9a-f]{64}$/.test(payloadHash)) checks.unshift(digestCheck("SHA-256", payloadHash, payloadMismatch));
	for (const check of checks) {
		check.update(bytes);
		const refused = await check.verdict();
		if (refused !== undefined) throw refused;
	}
	return bytes;
}
