/**
 * The real intermediates and roots of the 2024 chains, as data: subject, issuer, key, validity.
 *
 * Every fact is read from Let's Encrypt's certificate texts (https://letsencrypt.org/certificates/,
 * files under https://letsencrypt.org/certs/) or an `openssl` dump of cloudflare/cfssl_trust
 * `int-bundle.crt`. Dates are ISO strings exactly as precise as those: a full UTC time where one is
 * recorded ("2024-09-30T18:14:03Z"), a day where only the day is ("2035-06-04"), and `null`
 * where nothing is. {@link notAfter}/{@link notBefore} read a day as the whole day.
 * Gaps (not public, or not recorded here):
 * - notBefore of DST Root CA X3, WR1, WE1, the GTS roots and cross-signs, GlobalSign Root CA and
 *   every SSL.com certificate; notAfter of GlobalSign Root CA.
 * - Key sizes beyond ISRG Root X1 (RSA 4096) and X2 (ECDSA P-384); the key types of DST Root CA
 *   X3 and GlobalSign Root CA.
 * - SSL.com's ECC certificates: edgezone takes the RSA entries with "ECC" in their names, so
 *   their names and dates are that substitution, and the ECC EV root's name is not given at all.
 * - Sectigo and DigiCert chains (not found); the older GTS intermediates 1P5/1D4/2P2 are in
 *   cfssl_trust but no served chain uses them, so they are left out.
 * - Let's Encrypt's Generation Y (YR1-3, YE1-3, Root YR/YE, 2025-2026) is not modelled.
 */
import type { KeyType } from "./authorities.ts";

/** One certificate of a chain, identified by subject and issuer common names. */
export interface ChainCertificate {
	/** Subject common name, e.g. `R3`, `ISRG Root X1`. */
	subject: string;
	/** Issuer common name; equal to `subject` for a self-signed root. */
	issuer: string;
	key_type: KeyType | null;
	/** ISO 8601 UTC: a full time, or a day (`YYYY-MM-DD`); null when not known. */
	not_before: string | null;
	not_after: string | null;
}

/** A CA certificate of a public source, with that source. */
export interface CaCertificate extends ChainCertificate {
	/** Our stable key, e.g. `isrg_root_x1_by_dst`. */
	key: string;
	/** Subject organisation where the source gives it. */
	organization?: string;
	/** Key detail where the source gives it (`RSA 4096`). */
	key_detail?: string;
	/** The public source of this entry. */
	source: string;
	/** What the source leaves open about this certificate. */
	note?: string;
}

/** Let's Encrypt's website (github.com/letsencrypt/website), and Cloudflare's trust bundle. */
const LEW = "https://letsencrypt.org/certificates/";
const CFT = "cloudflare/cfssl_trust int-bundle.crt";

const fixed = [
	// Let's Encrypt roots
	{
		key: "isrg_root_x1",
		subject: "ISRG Root X1",
		issuer: "ISRG Root X1",
		key_type: "rsa",
		key_detail: "RSA 4096",
		not_before: "2015-06-04",
		not_after: "2035-06-04",
		source: LEW,
		note: 'Let\'s Encrypt says "trusted until 2030-06-04".',
	},
	{
		key: "isrg_root_x1_by_dst",
		subject: "ISRG Root X1",
		issuer: "DST Root CA X3",
		key_type: "rsa",
		not_before: "2021-01-20T19:14:03Z",
		not_after: "2024-09-30T18:14:03Z",
		source: "https://letsencrypt.org/certs/isrg-root-x1-cross-signed.txt",
	},
	{
		key: "dst_root_ca_x3",
		subject: "DST Root CA X3",
		issuer: "DST Root CA X3",
		organization: "Digital Signature Trust Co.",
		key_type: null,
		not_before: null,
		not_after: "2021-09-30",
		source: "https://letsencrypt.org/docs/dst-root-ca-x3-expiration-september-2021/",
		note: "notBefore and key type not recorded.",
	},
	{
		key: "isrg_root_x2",
		subject: "ISRG Root X2",
		issuer: "ISRG Root X2",
		key_type: "ecdsa",
		key_detail: "ECDSA P-384",
		not_before: "2020-09-04",
		not_after: "2040-09-17",
		source: LEW,
	},
	{
		key: "isrg_root_x2_by_x1",
		subject: "ISRG Root X2",
		issuer: "ISRG Root X1",
		key_type: "ecdsa",
		not_before: "2020-09-04",
		not_after: "2025-09-15",
		source: LEW,
	},
	// Let's Encrypt intermediates of 2020
	{
		key: "r3",
		subject: "R3",
		issuer: "ISRG Root X1",
		key_type: "rsa",
		not_before: "2020-09-04",
		not_after: "2025-09-15",
		source: "https://letsencrypt.org/certs/lets-encrypt-r3.txt",
	},
	{
		key: "r3_by_dst",
		subject: "R3",
		issuer: "DST Root CA X3",
		key_type: "rsa",
		not_before: null,
		not_after: "2021-09-29T19:21:40Z",
		source: "https://letsencrypt.org/certs/lets-encrypt-r3-cross-signed.txt",
		note: "notBefore not recorded.",
	},
	{
		key: "e1",
		subject: "E1",
		issuer: "ISRG Root X2",
		key_type: "ecdsa",
		not_before: "2020-09-04",
		not_after: "2025-09-15",
		source: LEW,
	},
	// Google Trust Services
	{
		key: "wr1",
		subject: "WR1",
		issuer: "GTS Root R1",
		key_type: "rsa",
		not_before: null,
		not_after: "2029-02-20T14:00:00Z",
		source: CFT,
		note: "notBefore not recorded; first in cfssl_trust release 2024.5.3 (2024-05-20).",
	},
	{
		key: "we1",
		subject: "WE1",
		issuer: "GTS Root R4",
		key_type: "ecdsa",
		not_before: null,
		not_after: "2029-02-20",
		source: CFT,
		note: "notBefore and the time of day of notAfter not recorded.",
	},
	{
		key: "gts_root_r1_by_globalsign",
		subject: "GTS Root R1",
		issuer: "GlobalSign Root CA",
		key_type: "rsa",
		not_before: null,
		not_after: "2028-01-28T00:00:42Z",
		source: CFT,
		note: "notBefore not recorded.",
	},
	{
		key: "gts_root_r4_by_globalsign",
		subject: "GTS Root R4",
		issuer: "GlobalSign Root CA",
		key_type: "ecdsa",
		not_before: null,
		not_after: "2028-01-28T00:00:42Z",
		source: CFT,
		note: "notBefore not recorded.",
	},
	{
		key: "gts_root_r1",
		subject: "GTS Root R1",
		issuer: "GTS Root R1",
		key_type: "rsa",
		not_before: null,
		not_after: "2036-06-22",
		source: CFT,
		note: "notBefore not recorded.",
	},
	{
		key: "gts_root_r4",
		subject: "GTS Root R4",
		issuer: "GTS Root R4",
		key_type: "ecdsa",
		not_before: null,
		not_after: "2036-06-22",
		source: CFT,
		note: "notBefore not recorded.",
	},
	{
		key: "globalsign_root_ca",
		subject: "GlobalSign Root CA",
		issuer: "GlobalSign Root CA",
		key_type: null,
		not_before: null,
		not_after: null,
		source: "cloudflare/cfssl_trust int-bundle.crt (issuer of the GTS cross-signs)",
		note: "Validity and key type not recorded.",
	},
	// SSL.com, as used by Cloudflare (RSA side; ECC below)
	{
		key: "ssl_com_tls_transit_rsa_ca_r2",
		subject: "SSL.com TLS Transit RSA CA R2",
		issuer: "SSL.com TLS RSA Root CA 2022",
		key_type: "rsa",
		not_before: null,
		not_after: "2037-10-17",
		source: CFT,
	},
	{
		key: "ssl_com_tls_transit_rsa_ca_r2_by_aaa",
		subject: "SSL.com TLS Transit RSA CA R2",
		issuer: "AAA Certificate Services",
		key_type: "rsa",
		not_before: null,
		not_after: "2028-12-31",
		source: CFT,
		note: "Which SSL.com cross-sign Cloudflare serves is not public (its docs name Certum, cfssl_trust AAA).",
	},
	{
		key: "ssl_com_tls_rsa_root_ca_2022",
		subject: "SSL.com TLS RSA Root CA 2022",
		issuer: "SSL.com TLS RSA Root CA 2022",
		key_type: "rsa",
		not_before: null,
		not_after: "2046-08-19",
		source: CFT,
	},
	{
		key: "ssl_com_tls_rsa_root_ca_2022_by_ev",
		subject: "SSL.com TLS RSA Root CA 2022",
		issuer: "SSL.com EV Root Certification Authority RSA R2",
		key_type: "rsa",
		not_before: null,
		not_after: "2038-11-03",
		source: CFT,
	},
	{
		key: "cloudflare_tls_issuing_rsa_ca_1",
		subject: "Cloudflare TLS Issuing RSA CA 1",
		issuer: "SSL.com TLS Transit RSA CA R2",
		organization: "CLOUDFLARE, INC.",
		key_type: "rsa",
		not_before: null,
		not_after: "2033-10-28",
		source: CFT,
	},
	...[2, 3, 4].map((n) => ({
		key: `cloudflare_tls_issuing_rsa_ca_${n}`,
		subject: `Cloudflare TLS Issuing RSA CA ${n}`,
		issuer: "SSL.com TLS Transit RSA CA R2",
		organization: "SSL Corporation",
		key_type: "rsa" as const,
		not_before: null,
		not_after: "2035-05-27",
		source: CFT,
	})),
	// SSL.com ECC: edgezone's substitution of "ECC" into the RSA entries' names (see the header).
	...(
		[
			[
				"cloudflare_tls_issuing_ecc_ca_1",
				"Cloudflare TLS Issuing ECC CA 1",
				"SSL.com TLS Transit ECC CA R2",
				"2033-10-28",
			],
			["ssl_com_tls_transit_ecc_ca_r2", "SSL.com TLS Transit ECC CA R2", "SSL.com TLS ECC Root CA 2022", "2037-10-17"],
			["ssl_com_tls_ecc_root_ca_2022", "SSL.com TLS ECC Root CA 2022", "SSL.com TLS ECC Root CA 2022", "2046-08-19"],
		] as const
	).map(([key, subject, issuer, notAfter]) => ({
		key,
		subject,
		issuer,
		key_type: "ecdsa" as const,
		not_before: null,
		not_after: notAfter,
		source: "edgezone's derivation from the RSA entries of cloudflare/cfssl_trust int-bundle.crt",
		note: "Name and date derived from the RSA entry; not read from the certificate.",
	})),
] satisfies CaCertificate[];

/**
 * Let's Encrypt's 2024 intermediates: R10-R14 are RSA, signed by ISRG Root X1; E5-E9 are ECDSA,
 * signed by ISRG Root X2 and also cross-signed by ISRG Root X1; all valid 2024-03-13 to 2027-03-12
 * 23:59:59 (https://letsencrypt.org/2024/03/19/new-intermediate-certificates/).
 */
const LE_2024: CaCertificate[] = [
	...[10, 11, 12, 13, 14].map((n) => ({
		key: `r${n}`,
		subject: `R${n}`,
		issuer: "ISRG Root X1",
		key_type: "rsa" as const,
		not_before: "2024-03-13",
		not_after: "2027-03-12T23:59:59Z",
		source: "https://letsencrypt.org/certs/2024/",
	})),
	...[5, 6, 7, 8, 9].flatMap((n) =>
		(["ISRG Root X2", "ISRG Root X1"] as const).map((issuer) => ({
			key: issuer === "ISRG Root X1" ? `e${n}_by_x1` : `e${n}`,
			subject: `E${n}`,
			issuer,
			key_type: "ecdsa" as const,
			not_before: "2024-03-13",
			not_after: "2027-03-12T23:59:59Z",
			source: "https://letsencrypt.org/certs/2024/",
		})),
	),
];

/** Every CA certificate above, keyed by {@link CaCertificate.key}. */
export const CA_CERTIFICATES: Readonly<Record<string, CaCertificate>> = Object.fromEntries(
	[...fixed, ...LE_2024].map((certificate) => [certificate.key, certificate]),
);

/** The CA certificate with this key; throws for a key the data does not hold (a programming error). */
export function caCertificate(key: string): CaCertificate {
	const certificate = CA_CERTIFICATES[key];
	if (!certificate) throw new Error(`unknown CA certificate ${key}`);
	return certificate;
}

/** The recorded CA certificate with this subject and issuer, if any (matches uploaded chains to the data). */
export function findCaCertificate(subject: string, issuer: string): CaCertificate | undefined {
	return Object.values(CA_CERTIFICATES).find((c) => c.subject === subject && c.issuer === issuer);
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** First instant of validity; a day-precise date counts from 00:00:00 UTC. Null when unknown. */
export function notBefore(certificate: ChainCertificate): Date | null {
	if (certificate.not_before === null) return null;
	return new Date(DAY.test(certificate.not_before) ? `${certificate.not_before}T00:00:00Z` : certificate.not_before);
}

/** Last instant of validity; a day-precise date counts to 23:59:59 UTC of that day. Null when unknown. */
export function notAfter(certificate: ChainCertificate): Date | null {
	if (certificate.not_after === null) return null;
	return new Date(DAY.test(certificate.not_after) ? `${certificate.not_after}T23:59:59Z` : certificate.not_after);
}

/**
 * Is the certificate valid at `at`? `false` outside a recorded bound; `null` when notAfter is not
 * recorded; an unrecorded notBefore counts as passed (every such certificate was in cfssl_trust's bundle by
 * mid-2024, cfssl_trust's history, and the emulator replays 2024 onward).
 */
export function validAt(certificate: ChainCertificate, at: Date): boolean | null {
	const after = notAfter(certificate);
	const before = notBefore(certificate);
	if (after !== null && at.getTime() > after.getTime()) return false;
	if (before !== null && at.getTime() < before.getTime()) return false;
	return after === null ? null : true;
}
