/**
 * The records that pin a key or a certificate by its hash: SSHFP (RFC 4255 §3: `algorithm type
 * fingerprint`), TLSA (RFC 6698 §2: `usage selector matching_type certificate`) and SMIMEA (RFC
 * 8162 §2, TLSA's form); each `data` as the TS SDK's `SSHFPRecord.Data`, `TLSARecord.Data`,
 * `SMIMEARecord.Data` name it, the content its presentation form, the hexadecimal in upper case
 * (`components.ts`). Pure.
 */
import { octetsRecord } from "./octets";

/** An SSHFP record's checked components. */
interface SshfpData {
	algorithm: number;
	type: number;
	fingerprint: string;
}

/** A TLSA or SMIMEA record's checked components. */
interface TlsaData {
	usage: number;
	selector: number;
	matching_type: number;
	certificate: string;
}

/** SSHFP: a host key's fingerprint. */
export const SSHFP = octetsRecord<SshfpData>(
	"SSHFP",
	[
		["algorithm", 255],
		["type", 255],
	],
	"fingerprint",
	"hexadecimal octets",
	"4 2 9F86D081884C7D659A2FEAA0C55AD015A3BF4F1B2B0B822CD15D6C15B0F00A08",
);

const TLSA_NUMBERS = [
	["usage", 255],
	["selector", 255],
	["matching_type", 255],
] as const;
const TLSA_EXAMPLE = "3 1 1 0C72AC70B745AC19998811B131D662C9AC69DBDBE7CB23E5B514B56664C5D3D6";

/** TLSA: a TLS server's certificate or key, for DANE (RFC 6698). */
export const TLSA = octetsRecord<TlsaData>("TLSA", TLSA_NUMBERS, "certificate", "hexadecimal octets", TLSA_EXAMPLE);

/** SMIMEA: an S/MIME user's certificate (RFC 8162). */
export const SMIMEA = octetsRecord<TlsaData>("SMIMEA", TLSA_NUMBERS, "certificate", "hexadecimal octets", TLSA_EXAMPLE);
