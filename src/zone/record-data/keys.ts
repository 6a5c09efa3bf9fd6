/**
 * The key records: DS (RFC 4034 §5: `key_tag algorithm digest_type digest`, the digest in
 * hexadecimal, upper case), DNSKEY (RFC 4034 §2: `flags protocol algorithm public_key`, the key in
 * Base64) and CERT (RFC 4398 §2: `type key_tag algorithm certificate`, the certificate in Base64,
 * its type a number); each `data` as the TS SDK's `DSRecord.Data`, `DNSKEYRecord.Data`,
 * `CERTRecord.Data` name it, the content its presentation form (the order octodns-cloudflare
 * reads a DS record's content in). Pure.
 */
import { octetsRecord } from "./octets";

/** A DS record's checked components. */
interface DsData {
	key_tag: number;
	algorithm: number;
	digest_type: number;
	digest: string;
}

/** A DNSKEY record's checked components. */
interface DnskeyData {
	flags: number;
	protocol: number;
	algorithm: number;
	public_key: string;
}

/** A CERT record's checked components. */
interface CertData {
	type: number;
	key_tag: number;
	algorithm: number;
	certificate: string;
}

/** DS: the digest of a child zone's key, as the parent publishes it. */
export const DS = octetsRecord<DsData>(
	"DS",
	[
		["key_tag", 65535],
		["algorithm", 255],
		["digest_type", 255],
	],
	"digest",
	"hexadecimal octets",
	"2371 13 2 1F987CC6583E92DF0890718C42...",
);

/** DNSKEY: a zone's public key. */
export const DNSKEY = octetsRecord<DnskeyData>(
	"DNSKEY",
	[
		["flags", 65535],
		["protocol", 255],
		["algorithm", 255],
	],
	"public_key",
	"Base64 text",
	"257 3 13 mdsswUyr3DPW132mOi8V9xESWE8jTo0d...",
);

/** CERT: a certificate or a certificate revocation list. */
export const CERT = octetsRecord<CertData>(
	"CERT",
	[
		["type", 65535],
		["key_tag", 65535],
		["algorithm", 255],
	],
	"certificate",
	"Base64 text",
	"1 0 0 MIIBxTCCAW+gAwIBAgIU...",
);
