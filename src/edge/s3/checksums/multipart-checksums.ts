/**
 * The flexible checksum of a multipart upload, as R2 gives it: chosen at CreateMultipartUpload
 * (`x-amz-checksum-algorithm`, `x-amz-checksum-type`), computed for each part, and made at
 * CompleteMultipartUpload into the object's checksum, of one of two types
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html):
 * - COMPOSITE: the algorithm's digest of the parts' digests joined, then `-` and the number of
 *   parts (`…=-3`); R2 makes it for CRC32, CRC32C, SHA1 and SHA256;
 * - FULL_OBJECT: the checksum of the whole object, which a CRC gives from its parts' CRCs
 *   (`crc-combine.ts`); R2 makes it for CRC64NVME.
 * R2 takes no other pair (https://developers.cloudflare.com/r2/api/s3/api/, "Checksum types"), so
 * each algorithm has one type here, the one S3 also takes when none is named. The messages are
 * S3's, as S3-compatible servers tested against it quote them (versity/versitygw).
 */
import { fromBase64, toBase64 } from "../../../common/encoding";
import { S3Error } from "../errors";
import { checksumMismatch, checksumNamed, FLEXIBLE_CHECKSUMS, type FlexibleChecksum, hasherOf } from "./checksums";
import { CRC64NVME, combineCrc, crcFromBytes, crcToBytes } from "./crc-combine";

/** How a multipart object's checksum is made from its parts'. */
export type ChecksumType = "COMPOSITE" | "FULL_OBJECT";

/** The checksum an upload was created with. */
export interface UploadChecksum {
	algorithm: FlexibleChecksum;
	type: ChecksumType;
}

/** The one type R2 gives each algorithm. */
const TYPE_OF: Record<FlexibleChecksum["name"], ChecksumType> = {
	CRC32: "COMPOSITE",
	CRC32C: "COMPOSITE",
	CRC64NVME: "FULL_OBJECT",
	SHA1: "COMPOSITE",
	SHA256: "COMPOSITE",
};

const lower = (checksum: FlexibleChecksum) => checksum.name.toLowerCase();

/**
 * The algorithm an `x-amz-checksum-algorithm` header names (CreateMultipartUpload's, CopyObject's).
 * @throws S3Error 400 InvalidRequest for one S3 does not name.
 */
export function requestedAlgorithm(value: string): FlexibleChecksum {
	const algorithm = checksumNamed(value);
	if (algorithm === undefined) {
		throw new S3Error(
			"InvalidRequest",
			`Checksum algorithm provided is unsupported. Please try again with any of the valid types: [${FLEXIBLE_CHECKSUMS.map((checksum) => checksum.name).join(", ")}]`,
		);
	}
	return algorithm;
}

/**
 * The checksum a CreateMultipartUpload asks for; undefined when it names none.
 * @throws S3Error 400 InvalidRequest for an algorithm S3 does not name, a type without an
 * algorithm, a type that is not COMPOSITE or FULL_OBJECT, or a pair R2 does not take.
 */
export function uploadChecksumOf(headers: Headers): UploadChecksum | undefined {
	const name = headers.get("x-amz-checksum-algorithm");
	const type = headers.get("x-amz-checksum-type");
	if (name === null) {
		if (type === null) return undefined;
		throw new S3Error(
			"InvalidRequest",
			"The x-amz-checksum-type header can only be used with the x-amz-checksum-algorithm header.",
		);
	}
	const algorithm = requestedAlgorithm(name);
	const wanted = type?.trim().toUpperCase();
	if (wanted !== undefined && wanted !== "COMPOSITE" && wanted !== "FULL_OBJECT") {
		throw new S3Error("InvalidRequest", "Value for x-amz-checksum-type header is invalid.");
	}
	if (wanted !== undefined && wanted !== TYPE_OF[algorithm.name]) {
		throw new S3Error(
			"InvalidRequest",
			`The ${wanted} checksum type cannot be used with the ${lower(algorithm)} checksum algorithm.`,
		);
	}
	return { algorithm, type: TYPE_OF[algorithm.name] };
}

/** The recorded form of an upload's checksum back as one; undefined for none or a form not known. */
export function uploadChecksumFrom(name: string | null, type: string | null): UploadChecksum | undefined {
	const algorithm = name === null ? undefined : checksumNamed(name);
	return algorithm === undefined || type !== TYPE_OF[algorithm.name] ? undefined : { algorithm, type };
}

/** S3's refusal of a checksum of `actual`'s algorithm where the upload's is `expected`. */
export function checksumTypeMismatch(expected: FlexibleChecksum, actual: FlexibleChecksum): S3Error {
	return new S3Error(
		"InvalidRequest",
		`Checksum Type mismatch occurred, expected checksum Type: ${lower(expected)}, actual checksum Type: ${lower(actual)}`,
	);
}

/** A part as CompleteMultipartUpload names it: its number, ETag, and the checksums it names (S3's element name to value). */
export interface NamedPart {
	partNumber: number;
	etag: string;
	checksums: ReadonlyMap<FlexibleChecksum["name"], string>;
}

/** A part as the ledger recorded it: its size in bytes and, when computed, its checksum (base64). */
export interface RecordedPart {
	size: number;
	checksum?: string;
}

/**
 * Checks the parts a CompleteMultipartUpload names against the upload's checksum and the parts'
 * recorded checksums, and makes the object's checksum.
 * @param recorded the ledger's record of each named part, by number.
 * @returns the object's checksum (base64, with `-N` for COMPOSITE); undefined when a named part
 * has no recorded checksum (one uploaded on the binding outside the edge), so none can be made.
 * @throws S3Error 400 InvalidRequest for a part naming no checksum; InvalidPart for one whose
 * checksum is not the one recorded, or of another algorithm; InvalidPartOrder for part numbers
 * that do not run 1, 2, 3… (S3 asks that of an upload with a checksum: API_CompletedPart).
 */
export async function completedChecksum(
	upload: UploadChecksum,
	parts: readonly NamedPart[],
	recorded: ReadonlyMap<number, RecordedPart>,
): Promise<string | undefined> {
	const { algorithm } = upload;
	for (const part of parts) {
		if (part.checksums.size === 0) {
			throw new S3Error(
				"InvalidRequest",
				`The upload was created using a ${lower(algorithm)} checksum. The complete request must include the checksum for each part. It was missing for part ${part.partNumber} in the request.`,
			);
		}
		const named = part.checksums.get(algorithm.name);
		const stored = recorded.get(part.partNumber)?.checksum;
		if (named === undefined || part.checksums.size > 1 || (stored !== undefined && !sameDigest(named, stored))) {
			throw new S3Error(
				"InvalidPart",
				"One or more of the specified parts could not be found.  The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
				{ PartNumber: String(part.partNumber), ETag: part.etag },
			);
		}
	}
	if (parts.some((part, index) => part.partNumber !== index + 1)) {
		throw new S3Error(
			"InvalidPartOrder",
			"The list of parts was not in ascending order. The parts list must be specified in order by part number.",
		);
	}
	const digests: { bytes: Uint8Array; size: number }[] = [];
	for (const part of parts) {
		const record = recorded.get(part.partNumber);
		const bytes = record?.checksum === undefined ? undefined : fromBase64(record.checksum);
		if (record === undefined || bytes === undefined) return undefined;
		digests.push({ bytes, size: record.size });
	}
	if (upload.type === "FULL_OBJECT") {
		// The first part's CRC, then each next part's combined into it.
		const crc = digests.reduce(
			(whole, next, index) =>
				index === 0 ? crcFromBytes(next.bytes) : combineCrc(CRC64NVME, whole, crcFromBytes(next.bytes), next.size),
			0n,
		);
		return toBase64(crcToBytes(CRC64NVME, crc));
	}
	const hasher = hasherOf(algorithm);
	for (const digest of digests) hasher.update(digest.bytes);
	return `${toBase64(await hasher.digest())}-${digests.length}`;
}

/** Whether two base64 values are the same digest (a client may pad or space it differently). */
function sameDigest(a: string, b: string): boolean {
	const [x, y] = [fromBase64(a.trim()), fromBase64(b.trim())];
	return x !== undefined && y !== undefined && toBase64(x) === toBase64(y);
}

/**
 * Checks what a CompleteMultipartUpload says of the whole object against the checksum made:
 * `x-amz-checksum-type` must be the upload's, and an `x-amz-checksum-<alg>` header the value made.
 * @throws S3Error 400 BadDigest for another type, or another value; InvalidRequest for a
 * checksum header of another algorithm.
 */
export function checkCompletedChecksum(upload: UploadChecksum, value: string | undefined, headers: Headers): void {
	const type = headers.get("x-amz-checksum-type");
	if (type !== null && type.trim().toUpperCase() !== upload.type) {
		throw new S3Error(
			"BadDigest",
			`The upload was created using the ${upload.type} checksum mode. The complete request must use the same checksum mode.`,
		);
	}
	for (const checksum of FLEXIBLE_CHECKSUMS) {
		const sent = headers.get(checksum.header);
		if (sent === null) continue;
		if (checksum.name !== upload.algorithm.name) throw checksumTypeMismatch(upload.algorithm, checksum);
		if (value !== undefined && sent.trim() !== value) throw checksumMismatch(checksum);
	}
}
