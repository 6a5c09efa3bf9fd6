/**
 * Uploaded certificates and private keys, parsed for real: PEM blocks, X.509 (RFC 5280) with
 * `@peculiar/asn1-x509`, private keys in PKCS#8, PKCS#1 and SEC1 forms, and a proof that the key
 * belongs to the certificate (a WebCrypto signature the certificate's public key verifies).
 *
 * Emulates the checks of `POST/PATCH /zones/{zone_id}/custom_certificates` with the error codes
 * Cloudflare documents (docs ssl/edge-certificates/custom-certificates/troubleshooting): 1002
 * invalid certificate, 2100 a root in the bundle, 2101 no leaf, 2106 invalid private key, 2200
 * key and certificate not a pair. Pure: no storage, no clock.
 * A certificate is invalid (1002) unless its validity times are RFC 5280 §4.1.2.5 times of the
 * calendar and WebCrypto takes its public key (an EC point on its curve, an RSA modulus and
 * exponent BoringSSL accepts); an RSA key under 2048 bits is an invalid private key (2106), as
 * Cloudflare's certificate requirements set "2048 bit for RSA and 225 bit for ECDSA"
 * (https://developers.cloudflare.com/ssl/edge-certificates/custom-certificates/uploading/#certificate-requirements;
 * the troubleshooting page sends a 2106 to those requirements). Every curve taken is over 225 bits.
 * Gaps: only RSA (PKCS#1 v1.5 keys) and ECDSA P-256/P-384/P-521 keys, the ones Cloudflare's edge
 * serves; encrypted keys are refused (Cloudflare asks for keys without a passphrase).
 */
import { ECPrivateKey, id_ecPublicKey, id_secp256r1, id_secp384r1, id_secp521r1 } from "@peculiar/asn1-ecc";
import { PrivateKey, PrivateKeyInfo } from "@peculiar/asn1-pkcs8";
import { id_rsaEncryption, RSAPrivateKey, RSAPublicKey } from "@peculiar/asn1-rsa";
import { AsnConvert } from "@peculiar/asn1-schema";
import {
	AlgorithmIdentifier,
	BasicConstraints,
	Certificate,
	id_ce_basicConstraints,
	id_ce_subjectAltName,
	type Name,
	SubjectAlternativeName,
} from "@peculiar/asn1-x509";
import { fromBER, GeneralizedTime, Sequence, UTCTime } from "asn1js";
import { fromBase64, fromHex, toBase64, toHex } from "../../common/encoding";

/** What edgezone knows of one X.509 certificate; plain data, so it crosses RPC. */
export interface ParsedCertificate {
	/** The certificate as one PEM block. */
	pem: string;
	/** `CN=R3, O=Let's Encrypt, C=US` (RFC 4514 order: most specific first). */
	subject: string;
	issuer: string;
	subject_cn: string | null;
	issuer_cn: string | null;
	issuer_org: string | null;
	/** DNS names of the subjectAltName extension, lower case; the CN when there is none. */
	hosts: string[];
	/** Serial number, lower-case hex. */
	serial_number: string;
	/** Validity, RFC 3339. */
	not_before: string;
	not_after: string;
	/** Cloudflare's spelling of the signature algorithm, e.g. `SHA256WithRSA`, `ECDSAWithSHA256`. */
	signature: string;
	/** `rsa` or `ecdsa`, and the size or curve: `rsa 2048`, `ecdsa P-256`. */
	key_type: "rsa" | "ecdsa";
	key_size: string;
	/** Whether basicConstraints says CA. */
	is_ca: boolean;
	/** Whether issuer and subject are the same name (a root). */
	self_signed: boolean;
	/** SHA-256 of the DER, lower-case hex: the same upload twice is the same certificate. */
	sha256: string;
}

/** An uploaded bundle: the leaf and the certificates after it, as uploaded. */
export interface ParsedBundle {
	leaf: ParsedCertificate;
	chain: ParsedCertificate[];
}

/** A refusal with Cloudflare's code and a message saying what is wrong. */
export interface PemRefusal {
	code: number;
	message: string;
}

/** Cloudflare's documented codes of custom certificate uploads (troubleshooting page). */
const UPLOAD_CODES = {
	invalidCertificate: 1002,
	rootInBundle: 2100,
	noLeaf: 2101,
	noZoneHostname: 2103,
	invalidKey: 2106,
	keyMismatch: 2200,
} as const;

/** Cloudflare's smallest RSA key (certificate requirements, uploading page). */
const MIN_RSA_BITS = 2048;

/** Largest bundle parsed: a leaf and a few intermediates are a few KB; 64 KB is far above. */
const MAX_PEM = 65_536;
const MAX_BLOCKS = 10;

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----([\s\S]*?)-----END \1-----/g;

/** The PEM blocks of `text`: label and DER bytes; null when a block's base64 is broken. */
function pemBlocks(text: string): { label: string; der: Uint8Array }[] | null {
	const blocks: { label: string; der: Uint8Array }[] = [];
	for (const match of text.matchAll(PEM_BLOCK)) {
		const der = fromBase64((match[2] ?? "").replace(/\s+/g, ""));
		if (der === undefined || der.length === 0) return null;
		blocks.push({ label: match[1] ?? "", der });
	}
	return blocks;
}

const refuse = (code: number, message: string): { ok: false; refusal: PemRefusal } => ({
	ok: false,
	refusal: { code, message },
});

/**
 * Parses a certificate bundle as Cloudflare takes it: PEM, leaf first or anywhere, then its
 * intermediates. Refusals: 1002 for anything that is not PEM X.509 (named: which block, why);
 * 2101 when every certificate is a CA; 2100 when the bundle holds a self-signed root.
 */
export async function parseBundle(
	text: string,
): Promise<{ ok: true; bundle: ParsedBundle } | { ok: false; refusal: PemRefusal }> {
	const invalid = (why: string) => refuse(UPLOAD_CODES.invalidCertificate, `Invalid certificate: ${why}.`);
	if (text.length > MAX_PEM) return invalid(`longer than ${MAX_PEM} characters`);
	const blocks = pemBlocks(text);
	if (blocks === null) return invalid("a PEM block's base64 is malformed");
	if (blocks.length === 0) return invalid("no PEM block (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)");
	if (blocks.length > MAX_BLOCKS) return invalid(`more than ${MAX_BLOCKS} certificates`);
	const parsed: ParsedCertificate[] = [];
	for (const [i, block] of blocks.entries()) {
		if (block.label !== "CERTIFICATE") return invalid(`PEM block ${i + 1} is "${block.label}", not "CERTIFICATE"`);
		const certificate = await parseCertificate(block.der);
		if (typeof certificate === "string") return invalid(`PEM block ${i + 1}: ${certificate}`);
		parsed.push(certificate);
	}
	const leafIndex = parsed.findIndex((c) => !c.is_ca);
	const leaf = parsed[leafIndex];
	if (leaf === undefined)
		return refuse(
			UPLOAD_CODES.noLeaf,
			"The certificate chain you uploaded has no leaf certificates. Please check your input and try again.",
		);
	const chain = parsed.filter((_, i) => i !== leafIndex);
	if (chain.some((c) => c.self_signed))
		return refuse(
			UPLOAD_CODES.rootInBundle,
			"The certificate chain you uploaded cannot be bundled using Cloudflare's trust store (it holds a self-signed root; upload the leaf and its intermediates only). Please check your input and try again.",
		);
	return { ok: true, bundle: { leaf, chain } };
}

/** One DER certificate, or the reason it is not one. */
async function parseCertificate(der: Uint8Array): Promise<ParsedCertificate | string> {
	let cert: Certificate;
	try {
		cert = AsnConvert.parse(der, Certificate);
	} catch {
		return "not a DER X.509 certificate";
	}
	const tbs = cert.tbsCertificate;
	const validity = cert.tbsCertificateRaw === undefined ? undefined : validityOf(cert.tbsCertificateRaw);
	if (validity === undefined) return "its validity is not two RFC 5280 times (YYMMDDHHMMSSZ or YYYYMMDDHHMMSSZ)";
	if (typeof validity === "string") return validity;
	const key = publicKeyOf(tbs.subjectPublicKeyInfo.algorithm, tbs.subjectPublicKeyInfo.subjectPublicKey);
	if (typeof key === "string") return key;
	// The key is imported now, so a point off its curve or an RSA modulus of 1 is an invalid
	// certificate here rather than a WebCrypto exception when the private key is checked.
	try {
		await crypto.subtle.importKey("spki", spkiDer(cert), verifyAlgorithm(key), false, ["verify"]);
	} catch {
		return `its ${key.type === "rsa" ? "RSA" : "ECDSA"} public key is not a valid key (WebCrypto refuses it)`;
	}
	let sans: string[] = [];
	let isCa = false;
	try {
		for (const ext of tbs.extensions ?? []) {
			if (ext.extnID === id_ce_subjectAltName) {
				sans = AsnConvert.parse(ext.extnValue, SubjectAlternativeName).flatMap((n) =>
					n.dNSName === undefined ? [] : [n.dNSName.toLowerCase()],
				);
			} else if (ext.extnID === id_ce_basicConstraints) {
				isCa = AsnConvert.parse(ext.extnValue, BasicConstraints).cA;
			}
		}
	} catch {
		return "an extension is malformed";
	}
	const subjectCn = attribute(tbs.subject, OID.cn);
	const subject = nameText(tbs.subject);
	const issuer = nameText(tbs.issuer);
	const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", der));
	return {
		pem: toPem("CERTIFICATE", der),
		subject,
		issuer,
		subject_cn: subjectCn,
		issuer_cn: attribute(tbs.issuer, OID.cn),
		issuer_org: attribute(tbs.issuer, OID.o),
		hosts: sans.length > 0 ? sans : subjectCn === null ? [] : [subjectCn.toLowerCase()],
		serial_number: toHex(new Uint8Array(tbs.serialNumber)).replace(/^(00)+(?=.)/, ""),
		not_before: validity.notBefore.toISOString(),
		not_after: validity.notAfter.toISOString(),
		signature: SIGNATURES[cert.signatureAlgorithm.algorithm] ?? cert.signatureAlgorithm.algorithm,
		key_type: key.type,
		key_size: key.size,
		is_ca: isCa,
		self_signed: subject === issuer,
		sha256: toHex(digest),
	};
}

const OID = { cn: "2.5.4.3", o: "2.5.4.10", ou: "2.5.4.11", c: "2.5.4.6", l: "2.5.4.7", st: "2.5.4.8" } as const;
const SHORT: Record<string, string> = {
	[OID.cn]: "CN",
	[OID.o]: "O",
	[OID.ou]: "OU",
	[OID.c]: "C",
	[OID.l]: "L",
	[OID.st]: "ST",
};

/** Cloudflare's names of signature algorithms (Go crypto/x509 names without the dash, as the API spells them). */
const SIGNATURES: Record<string, string> = {
	"1.2.840.113549.1.1.5": "SHA1WithRSA",
	"1.2.840.113549.1.1.11": "SHA256WithRSA",
	"1.2.840.113549.1.1.12": "SHA384WithRSA",
	"1.2.840.113549.1.1.13": "SHA512WithRSA",
	"1.2.840.113549.1.1.10": "SHA256WithRSAPSS",
	"1.2.840.10045.4.1": "ECDSAWithSHA1",
	"1.2.840.10045.4.3.2": "ECDSAWithSHA256",
	"1.2.840.10045.4.3.3": "ECDSAWithSHA384",
	"1.2.840.10045.4.3.4": "ECDSAWithSHA512",
};

const CURVES: Record<string, "P-256" | "P-384" | "P-521"> = {
	[id_secp256r1]: "P-256",
	[id_secp384r1]: "P-384",
	[id_secp521r1]: "P-521",
};

/** The first value of attribute `oid` in a name. */
function attribute(name: Name, oid: string): string | null {
	for (const rdn of name) for (const atv of rdn) if (atv.type === oid) return atv.value.toString();
	return null;
}

/** A name as RFC 4514 text, most specific attribute first. */
function nameText(name: Name): string {
	return [...name]
		.reverse()
		.map((rdn) => [...rdn].map((atv) => `${SHORT[atv.type] ?? atv.type}=${atv.value.toString()}`).join("+"))
		.join(", ");
}

/** A certificate's public key: its type and size (`rsa 2048`: the modulus's bit length; `ecdsa P-256`). */
interface PublicKey {
	type: "rsa" | "ecdsa";
	size: string;
}

/** The WebCrypto algorithm that verifies with a key of this type and size (SHA-256 for RSA). */
function verifyAlgorithm(key: PublicKey): SubtleCryptoImportKeyAlgorithm {
	return key.type === "rsa"
		? { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" }
		: { name: "ECDSA", namedCurve: key.size.replace("ecdsa ", "") };
}

/**
 * The validity of a certificate, read from its raw TBSCertificate DER as RFC 5280 §4.1.2.5
 * writes it: UTCTime `YYMMDDHHMMSSZ` (§4.1.2.5.1; YY of 50 and above is 19YY, below 20YY) or
 * GeneralizedTime `YYYYMMDDHHMMSSZ` (§4.1.2.5.2): seconds present, `Z`, no fraction, a day of
 * the calendar. The text is read, not the Date asn1js makes of it: asn1js rolls month 13 over
 * into January of the next year and reads an unreadable time as year 0. A reason when invalid;
 * undefined when the DER holds no validity where RFC 5280 §4.1 puts it.
 */
function validityOf(tbsRaw: ArrayBuffer): { notBefore: Date; notAfter: Date } | string | undefined {
	const tbs = fromBER(tbsRaw).result;
	if (!(tbs instanceof Sequence)) return undefined;
	const fields = tbs.valueBlock.value;
	// version [0] EXPLICIT is optional; then serialNumber, signature, issuer, validity.
	const versioned = fields[0]?.idBlock.tagClass === 3 && fields[0].idBlock.tagNumber === 0;
	const validity = fields[versioned ? 4 : 3];
	if (!(validity instanceof Sequence)) return undefined;
	const [notBefore, notAfter] = validity.valueBlock.value.map(rfc5280Time);
	if (validity.valueBlock.value.length !== 2 || notBefore === undefined || notAfter === undefined) return undefined;
	if (typeof notBefore === "string") return `its notBefore ${notBefore}`;
	if (typeof notAfter === "string") return `its notAfter ${notAfter}`;
	return { notBefore, notAfter };
}

const UTC_TIME = /^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;
const GENERALIZED_TIME = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/;

/** One Time of a validity as a Date, or a reason naming the text; undefined when it is not a Time. */
function rfc5280Time(node: unknown): Date | string | undefined {
	// GeneralizedTime extends UTCTime in asn1js: test it first.
	const generalized = node instanceof GeneralizedTime;
	if (!generalized && !(node instanceof UTCTime)) return undefined;
	// A Time is 13 or 15 characters: 32 are enough to show and to refuse a longer one.
	const text = String.fromCharCode(...node.valueBlock.valueHexView.subarray(0, 32));
	const match = (generalized ? GENERALIZED_TIME : UTC_TIME).exec(text);
	const shown = JSON.stringify(text);
	if (match === null) return `${shown} is not ${generalized ? "YYYYMMDDHHMMSSZ" : "YYMMDDHHMMSSZ"} (RFC 5280 §4.1.2.5)`;
	const [yearText, month, day, hour, minute, second] = match.slice(1).map(Number) as [
		number,
		number,
		number,
		number,
		number,
		number,
	];
	const year = generalized ? yearText : yearText >= 50 ? 1900 + yearText : 2000 + yearText;
	// Day 0 of the next month is the last day of this one.
	const lastDay = new Date(0);
	lastDay.setUTCFullYear(year, month, 0);
	if (month < 1 || month > 12 || day < 1 || day > lastDay.getUTCDate() || hour > 23 || minute > 59 || second > 59)
		return `${shown} is not a date and time of the calendar`;
	const date = new Date(0);
	date.setUTCFullYear(year, month - 1, day);
	date.setUTCHours(hour, minute, second, 0);
	return date;
}

/** The DER SubjectPublicKeyInfo of a parsed certificate. */
function spkiDer(cert: Certificate): Uint8Array {
	return new Uint8Array(AsnConvert.serialize(cert.tbsCertificate.subjectPublicKeyInfo));
}

/** The key type of a SubjectPublicKeyInfo, or why edgezone does not take it. */
function publicKeyOf(algorithm: AlgorithmIdentifier, bits: ArrayBuffer): PublicKey | string {
	if (algorithm.algorithm === id_rsaEncryption) {
		let modulus: Uint8Array;
		try {
			modulus = new Uint8Array(AsnConvert.parse(bits, RSAPublicKey).modulus);
		} catch {
			return "its RSA public key is malformed";
		}
		const first = modulus.findIndex((byte) => byte !== 0);
		if (first < 0) return "its RSA modulus is zero";
		// Bit length: the significant bytes, less the leading zero bits of the first one.
		const size = (modulus.length - first) * 8 - (Math.clz32(modulus[first] ?? 0) - 24);
		return { type: "rsa", size: `rsa ${size}` };
	}
	if (algorithm.algorithm === id_ecPublicKey) {
		const curve =
			algorithm.parameters === null || algorithm.parameters === undefined ? undefined : curveOf(algorithm.parameters);
		if (curve === undefined) return "its elliptic curve is not P-256, P-384 or P-521";
		return { type: "ecdsa", size: `ecdsa ${curve}` };
	}
	return `its public key algorithm ${algorithm.algorithm} is neither RSA nor ECDSA`;
}

/** DER of the curves' OBJECT IDENTIFIERs (RFC 5480 §2.1.1.1), as id-ecPublicKey parameters carry them. */
const CURVE_DER: Record<"P-256" | "P-384" | "P-521", string> = {
	"P-256": "06082a8648ce3d030107",
	"P-384": "06052b81040022",
	"P-521": "06052b81040023",
};

/** The named curve in DER parameters (an OBJECT IDENTIFIER). */
function curveOf(parameters: ArrayBuffer): "P-256" | "P-384" | "P-521" | undefined {
	const der = toHex(new Uint8Array(parameters));
	return (Object.keys(CURVE_DER) as (keyof typeof CURVE_DER)[]).find((curve) => CURVE_DER[curve] === der);
}

/**
 * Checks that `keyPem` is an unencrypted RSA or ECDSA private key matching `leaf`'s public key:
 * it signs a message and the certificate's key verifies it. Refusals: 2106 for a key that is
 * not one (named: why), 2200 for a key of another certificate.
 */
export async function checkKeyPair(leaf: ParsedCertificate, keyPem: string): Promise<PemRefusal | null> {
	const invalid = (why: string): PemRefusal => ({
		code: UPLOAD_CODES.invalidKey,
		message: `The private key you uploaded is invalid: ${why}. Please check your input and try again.`,
	});
	if (keyPem.length > MAX_PEM) return invalid(`longer than ${MAX_PEM} characters`);
	const blocks = pemBlocks(keyPem);
	if (blocks === null) return invalid("its PEM base64 is malformed");
	const [block, ...rest] = blocks;
	if (block === undefined) return invalid("no PEM block (-----BEGIN PRIVATE KEY----- ... -----END PRIVATE KEY-----)");
	if (rest.length > 0) return invalid("more than one PEM block");
	if (block.label === "ENCRYPTED PRIVATE KEY" || /Proc-Type:\s*4,ENCRYPTED/.test(keyPem))
		return invalid("it is encrypted; remove its passphrase first");
	const pkcs8 = toPkcs8(block.label, block.der);
	if (typeof pkcs8 === "string") return invalid(pkcs8);
	if (pkcs8.type !== leaf.key_type)
		return mismatch(`the key is ${pkcs8.type.toUpperCase()}, the certificate's ${leaf.key_type.toUpperCase()}`);
	const algorithm = verifyAlgorithm({ type: leaf.key_type, size: leaf.key_size });
	let privateKey: CryptoKey;
	try {
		privateKey = await crypto.subtle.importKey("pkcs8", pkcs8.der, algorithm, false, ["sign"]);
	} catch {
		return pkcs8.type === "ecdsa"
			? mismatch("the key is on another curve than the certificate's, or malformed")
			: invalid("WebCrypto cannot read it");
	}
	const spki = spkiOf(leaf.pem);
	const publicKey = await crypto.subtle.importKey("spki", spki, algorithm, false, ["verify"]);
	const message = new TextEncoder().encode("edgezone: does this key belong to the certificate?");
	const sign = pkcs8.type === "rsa" ? algorithm : { name: "ECDSA", hash: "SHA-256" };
	const signature = await crypto.subtle.sign(sign, privateKey, message);
	if (!(await crypto.subtle.verify(sign, publicKey, signature, message)))
		return mismatch("the private key does not belong to the certificate's public key");
	const bits = Number(leaf.key_size.replace("rsa ", ""));
	if (leaf.key_type === "rsa" && bits < MIN_RSA_BITS)
		return invalid(`an RSA key of ${bits} bits is under Cloudflare's minimum of ${MIN_RSA_BITS} bits`);
	return null;
}

function mismatch(why: string): PemRefusal {
	return {
		code: UPLOAD_CODES.keyMismatch,
		message: `The certificate and private key pair you uploaded is invalid: ${why}.`,
	};
}

/** A private key block as PKCS#8 DER and its type, or why it is not one edgezone reads. */
function toPkcs8(label: string, der: Uint8Array): { type: "rsa" | "ecdsa"; der: Uint8Array } | string {
	try {
		if (label === "PRIVATE KEY") {
			const info = AsnConvert.parse(der, PrivateKeyInfo);
			const oid = info.privateKeyAlgorithm.algorithm;
			if (oid === id_rsaEncryption) return { type: "rsa", der };
			if (oid === id_ecPublicKey) return { type: "ecdsa", der };
			return `its algorithm ${oid} is neither RSA nor ECDSA`;
		}
		if (label === "RSA PRIVATE KEY") {
			AsnConvert.parse(der, RSAPrivateKey);
			const info = new PrivateKeyInfo({
				privateKeyAlgorithm: new AlgorithmIdentifier({ algorithm: id_rsaEncryption, parameters: null }),
				privateKey: new PrivateKey(der),
			});
			return { type: "rsa", der: new Uint8Array(AsnConvert.serialize(info)) };
		}
		if (label === "EC PRIVATE KEY") {
			const key = AsnConvert.parse(der, ECPrivateKey);
			const oid = key.parameters?.namedCurve;
			const curve = oid === undefined ? undefined : CURVES[oid];
			if (curve === undefined) return "its curve is not P-256, P-384 or P-521";
			const info = new PrivateKeyInfo({
				privateKeyAlgorithm: new AlgorithmIdentifier({
					algorithm: id_ecPublicKey,
					parameters: (fromHex(CURVE_DER[curve]) ?? new Uint8Array()).buffer,
				}),
				privateKey: new PrivateKey(der),
			});
			return { type: "ecdsa", der: new Uint8Array(AsnConvert.serialize(info)) };
		}
	} catch {
		return "its DER is malformed";
	}
	return `a "${label}" block is not a private key (expected PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)`;
}

/** The DER SubjectPublicKeyInfo of a certificate PEM this module produced. */
function spkiOf(pem: string): Uint8Array {
	const [block] = pemBlocks(pem) ?? [];
	if (block === undefined) throw new Error("spkiOf: not a PEM certificate");
	return spkiDer(AsnConvert.parse(block.der, Certificate));
}

/** DER as one PEM block with 64-character lines. */
function toPem(label: string, der: Uint8Array): string {
	const base64 = toBase64(der);
	return `-----BEGIN ${label}-----\n${base64.replace(/.{64}/g, "$&\n").replace(/\n$/, "")}\n-----END ${label}-----\n`;
}
