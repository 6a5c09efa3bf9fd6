/**
 * The key records: DS (RFC 4034 §5: `key_tag algorithm digest_type digest`, the digest in hex),
 * DNSKEY (RFC 4034 §2: `flags protocol algorithm public_key`, the key in Base64) and CERT (RFC
 * 4398 §2: `type key_tag algorithm certificate`, the certificate in Base64); each `data` as the TS
 * SDK's `DSRecord.Data`, `DNSKEYRecord.Data`, `CERTRecord.Data` name it, the content its
 * presentation form (the order octodns-cloudflare reads a DS record's content in), hexadecimal in
 * upper case (`components.ts`). Pure.
 */
import {
	base64Of,
	type DataProblem,
	type DataType,
	dataProblem,
	hexOf,
	integerOf,
	integersProblem,
	type RecordData,
	recordOf,
} from "./components";

/** A DS record's checked components. */
export interface DsData {
	key_tag: number;
	algorithm: number;
	digest_type: number;
	digest: string;
}

/** A DNSKEY record's checked components. */
export interface DnskeyData {
	flags: number;
	protocol: number;
	algorithm: number;
	public_key: string;
}

/** A CERT record's checked components. */
export interface CertData {
	type: number;
	key_tag: number;
	algorithm: number;
	certificate: string;
}

/** The blank-separated words of `content`, the last holding the rest (a key or digest split over blanks, as zone files write them). */
function fourWords(content: string): [string, string, string, string] | undefined {
	const match = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+([\s\S]+?)\s*$/.exec(content);
	return match === null ? undefined : [match[1] ?? "", match[2] ?? "", match[3] ?? "", match[4] ?? ""];
}

/** DS: the digest of a child zone's key, as the parent publishes it. */
export const DS: DataType<DsData> = {
	fields: ["key_tag", "algorithm", "digest_type", "digest"],
	example: "2371 13 2 1F987CC6583E92DF0890718C42...",
	problem(data: RecordData): DataProblem | undefined {
		return (
			integersProblem("DS", data, [
				["key_tag", 65535],
				["algorithm", 255],
				["digest_type", 255],
			]) ??
			(hexOf(data.digest) === undefined
				? dataProblem("digest", "A DS record's digest is hexadecimal octets")
				: undefined)
		);
	},
	content: (data) => `${data.key_tag} ${data.algorithm} ${data.digest_type} ${hexOf(data.digest)}`,
	parse(content) {
		const words = fourWords(content);
		if (words === undefined) return undefined;
		const [keyTag, algorithm, digestType, digest] = words;
		return {
			key_tag: integerOf(keyTag),
			algorithm: integerOf(algorithm),
			digest_type: integerOf(digestType),
			digest: digest.replace(/\s+/g, ""),
		};
	},
};

/** A record whose last component is Base64 text. */
function base64Problem(type: string, field: "public_key" | "certificate", value: unknown): DataProblem | undefined {
	return base64Of(value) === undefined ? dataProblem(field, `${recordOf(type)}'s ${field} is Base64 text`) : undefined;
}

/** DNSKEY: a zone's public key. */
export const DNSKEY: DataType<DnskeyData> = {
	fields: ["flags", "protocol", "algorithm", "public_key"],
	example: "257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0d...",
	problem(data: RecordData): DataProblem | undefined {
		return (
			integersProblem("DNSKEY", data, [
				["flags", 65535],
				["protocol", 255],
				["algorithm", 255],
			]) ?? base64Problem("DNSKEY", "public_key", data.public_key)
		);
	},
	content: (data) => `${data.flags} ${data.protocol} ${data.algorithm} ${base64Of(data.public_key)}`,
	parse(content) {
		const words = fourWords(content);
		if (words === undefined) return undefined;
		const [flags, protocol, algorithm, key] = words;
		return {
			flags: integerOf(flags),
			protocol: integerOf(protocol),
			algorithm: integerOf(algorithm),
			public_key: key.replace(/\s+/g, ""),
		};
	},
};

/** CERT: a certificate or a certificate revocation list, its type given as a number. */
export const CERT: DataType<CertData> = {
	fields: ["type", "key_tag", "algorithm", "certificate"],
	example: "1 0 0 MIIBxTCCAW+gAwIBAgIU...",
	problem(data: RecordData): DataProblem | undefined {
		return (
			integersProblem("CERT", data, [
				["type", 65535],
				["key_tag", 65535],
				["algorithm", 255],
			]) ?? base64Problem("CERT", "certificate", data.certificate)
		);
	},
	content: (data) => `${data.type} ${data.key_tag} ${data.algorithm} ${base64Of(data.certificate)}`,
	parse(content) {
		const words = fourWords(content);
		if (words === undefined) return undefined;
		const [type, keyTag, algorithm, certificate] = words;
		return {
			type: integerOf(type),
			key_tag: integerOf(keyTag),
			algorithm: integerOf(algorithm),
			certificate: certificate.replace(/\s+/g, ""),
		};
	},
};
