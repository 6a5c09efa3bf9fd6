/**
 * Checksums of R2 objects on the wire: `Content-MD5` and `x-amz-checksum-*` headers (base64), the
 * names of R2's S3 API (developers.cloudflare.com/r2/api/s3/extensions/), and hex in JSON (what
 * `R2Checksums.toJSON()` gives). Used by the gateway to read and write them and by RemoteBucket
 * to do the same backwards.
 */
import { fromBase64, fromHex, toBase64, toHex } from "../common/encoding.ts";

/** Checksum algorithms of R2, their `R2Checksums` names, and digest lengths in bytes. */
export const CHECKSUMS = [
	{ name: "md5", algorithm: "MD5", label: "MD5", bytes: 16 },
	{ name: "sha1", algorithm: "SHA-1", label: "SHA-1", bytes: 20 },
	{ name: "sha256", algorithm: "SHA-256", label: "SHA-256", bytes: 32 },
	{ name: "sha384", algorithm: "SHA-384", label: "SHA-384", bytes: 48 },
	{ name: "sha512", algorithm: "SHA-512", label: "SHA-512", bytes: 64 },
] as const;

/** One checksum name of `R2Checksums`: md5, sha1, sha256, sha384, sha512. */
export type ChecksumName = (typeof CHECKSUMS)[number]["name"];

/** Stored digests as ArrayBuffers, by name; absent algorithms are absent. */
export type Digests = Partial<Record<ChecksumName, ArrayBuffer>>;

/** Stored digests as lower-case hex, by name: the JSON form. */
export type HexChecksums = Partial<Record<ChecksumName, string>>;

/** One checksum a write asks R2 to verify. */
export interface RequestedChecksum {
	name: ChecksumName;
	algorithm: (typeof CHECKSUMS)[number]["algorithm"];
	label: string;
	digest: Uint8Array<ArrayBuffer>;
}

/** The outcome of reading a write's checksum headers: the checksums, or the first header that is not one. */
export type ParsedChecksums =
	| { kind: "checksums"; checksums: RequestedChecksum[] }
	| { kind: "invalid"; header: string; value: string; label: string; bytes: number };

/** Header of each checksum on a write: `Content-MD5` is HTTP's own; the others are S3's. */
export function checksumHeader(name: ChecksumName): string {
	return name === "md5" ? "content-md5" : `x-amz-checksum-${name}`;
}

/** The response header that carries a stored checksum (S3 has no response header for MD5 but this one). */
export function storedChecksumHeader(name: ChecksumName): string {
	return `x-amz-checksum-${name}`;
}

/**
 * The checksums a write asks R2 to verify, from `Content-MD5` and `x-amz-checksum-*` (base64).
 * @returns `invalid` for the first value that is not base64 of its digest's length.
 */
export function checksumsFromRequest(headers: Headers): ParsedChecksums {
	const checksums: RequestedChecksum[] = [];
	for (const { name, algorithm, label, bytes } of CHECKSUMS) {
		const header = checksumHeader(name);
		const value = headers.get(header);
		if (value === null) continue;
		const digest = fromBase64(value.trim());
		if (digest?.byteLength !== bytes) return { kind: "invalid", header, value, label, bytes };
		checksums.push({ name, algorithm, label, digest });
	}
	return { kind: "checksums", checksums };
}

/** Writes a write's checksum as its header, base64: the inverse of `checksumsFromRequest` for one. */
export function checksumToRequest(name: ChecksumName, digest: Uint8Array, headers: Headers): void {
	headers.set(checksumHeader(name), toBase64(digest));
}

const CHECKSUM_MODE = "x-amz-checksum-mode";

/** Asks a read for the stored checksums, which S3's GetObject and HeadObject send only when asked. */
export function askForChecksums(headers: Headers): void {
	headers.set(CHECKSUM_MODE, "ENABLED");
}

/** Whether a read asks for the stored checksums (`x-amz-checksum-mode: ENABLED`, as S3). */
export function wantsChecksums(headers: Headers): boolean {
	return headers.get(CHECKSUM_MODE)?.toUpperCase() === "ENABLED";
}

/** Writes stored checksums as `x-amz-checksum-{name}` headers, base64. */
export function checksumsToHeaders(checksums: R2Checksums, headers: Headers): void {
	for (const { name } of CHECKSUMS) {
		const digest = checksums[name];
		if (digest) headers.set(storedChecksumHeader(name), toBase64(new Uint8Array(digest)));
	}
}

/** Stored checksums from an answer's `x-amz-checksum-{name}` headers; empty or non-base64 values are left out. */
export function checksumsFromHeaders(headers: Headers): Digests {
	const digests: Digests = {};
	for (const { name } of CHECKSUMS) {
		const digest = fromBase64(headers.get(storedChecksumHeader(name)) ?? "");
		if (digest !== undefined && digest.byteLength > 0) digests[name] = digest.buffer;
	}
	return digests;
}

/** Stored checksums as hex, what the binding's `R2Checksums.toJSON()` gives. */
export function checksumsToJson(checksums: R2Checksums): HexChecksums {
	const json: HexChecksums = {};
	for (const { name } of CHECKSUMS) {
		const digest = checksums[name];
		if (digest) json[name] = toHex(new Uint8Array(digest));
	}
	return json;
}

/** Hex checksums back to digests; a value that is not hex is left out. */
export function checksumsFromJson(json: HexChecksums): Digests {
	const digests: Digests = {};
	for (const { name } of CHECKSUMS) {
		const hex = json[name];
		const bytes = hex === undefined ? undefined : fromHex(hex);
		if (bytes !== undefined) digests[name] = bytes.buffer;
	}
	return digests;
}
