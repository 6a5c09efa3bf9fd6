/**
 * The records that pin a key or a certificate by its hash: SSHFP (RFC 4255 §3: `algorithm type
 * fingerprint`), TLSA (RFC 6698 §2: `usage selector matching_type certificate`) and SMIMEA (RFC
 * 8162 §2, TLSA's form); each `data` as the TS SDK's `SSHFPRecord.Data`, `TLSARecord.Data`,
 * `SMIMEARecord.Data` name it, the content its presentation form, the hexadecimal in one word.
 * Pure.
 */
import {
	type DataProblem,
	type DataType,
	dataProblem,
	hexOf,
	integerOf,
	integersProblem,
	type RecordData,
	recordOf,
} from "./components";

/** An SSHFP record's checked components. */
export interface SshfpData {
	algorithm: number;
	type: number;
	fingerprint: string;
}

/** A TLSA or SMIMEA record's checked components. */
export interface TlsaData {
	usage: number;
	selector: number;
	matching_type: number;
	certificate: string;
}

/** The numbers of `content`'s first words and its rest, the hexadecimal that may be split over blanks. */
function numbersAndHex(content: string, count: number): { numbers: number[]; hex: string } | undefined {
	const words = content.trim().split(/\s+/);
	if (words.length <= count) return undefined;
	return { numbers: words.slice(0, count).map(integerOf), hex: words.slice(count).join("") };
}

function hexProblem(type: string, field: "fingerprint" | "certificate", value: unknown): DataProblem | undefined {
	return hexOf(value) === undefined
		? dataProblem(field, `${recordOf(type)}'s ${field} is hexadecimal octets`)
		: undefined;
}

/** SSHFP: a host key's fingerprint. */
export const SSHFP: DataType<SshfpData> = {
	fields: ["algorithm", "type", "fingerprint"],
	example: "4 2 123456789abcdef67890123456789abcdef67890123456789abcdef123456789",
	problem(data: RecordData): DataProblem | undefined {
		return (
			integersProblem("SSHFP", data, [
				["algorithm", 255],
				["type", 255],
			]) ?? hexProblem("SSHFP", "fingerprint", data.fingerprint)
		);
	},
	content: (data) => `${data.algorithm} ${data.type} ${hexOf(data.fingerprint)}`,
	parse(content) {
		const read = numbersAndHex(content, 2);
		if (read === undefined) return undefined;
		const [algorithm = Number.NaN, type = Number.NaN] = read.numbers;
		return { algorithm, type, fingerprint: read.hex };
	},
};

function tlsa(type: "TLSA" | "SMIMEA"): DataType<TlsaData> {
	return {
		fields: ["usage", "selector", "matching_type", "certificate"],
		example: "3 1 1 0c72ac70b745ac19998811b131d662c9ac69dbdbe7cb23e5b514b56664c5d3d6",
		problem(data: RecordData): DataProblem | undefined {
			return (
				integersProblem(type, data, [
					["usage", 255],
					["selector", 255],
					["matching_type", 255],
				]) ?? hexProblem(type, "certificate", data.certificate)
			);
		},
		content: (data) => `${data.usage} ${data.selector} ${data.matching_type} ${hexOf(data.certificate)}`,
		parse(content) {
			const read = numbersAndHex(content, 3);
			if (read === undefined) return undefined;
			const [usage = Number.NaN, selector = Number.NaN, matchingType = Number.NaN] = read.numbers;
			return { usage, selector, matching_type: matchingType, certificate: read.hex };
		},
	};
}

/** TLSA: a TLS server's certificate or key, for DANE (RFC 6698). */
export const TLSA = tlsa("TLSA");

/** SMIMEA: an S/MIME user's certificate (RFC 8162). */
export const SMIMEA = tlsa("SMIMEA");
