/**
 * The certificate authorities Cloudflare issues edge certificates from, as data: API value, CAA
 * identifier, validity periods, DCV token lifetime, where each CA may be used, and the renewal
 * windows that follow from a validity period.
 *
 * Follows https://developers.cloudflare.com/ssl/reference/certificate-authorities/ ("CA docs"),
 * https://developers.cloudflare.com/ssl/reference/certificate-validity-periods/ ("validity docs"),
 * https://developers.cloudflare.com/ssl/troubleshooting/ca-faq/ and the API's
 * `certificate_authority` enum (cloudflare/api-schemas `openapi.json`; cloudflare-typescript
 * `Shared.CertificateCA`).
 * Gaps: Sectigo (backup certificates only, CAA `sectigo.com`, 90 days) is not an API value of
 * `certificate_authority` and is left out; DigiCert is kept for legacy packs only (the
 * API enum has it, new certificates do not use it). Pure: no I/O, no Workers APIs.
 */

/** Every value of `certificate_authority` the API has known (cloudflare-typescript `Shared.CertificateCA`). */
const CERTIFICATE_AUTHORITIES = ["lets_encrypt", "google", "ssl_com", "digicert"] as const;
export type CertificateAuthority = (typeof CERTIFICATE_AUTHORITIES)[number];

/** The CAs a new certificate may name (SDK v7 list filter and cert packs; DigiCert is "deprecating soon", CA docs). */
export const ORDERABLE_AUTHORITIES = ["google", "lets_encrypt", "ssl_com"] as const;
export type OrderableAuthority = (typeof ORDERABLE_AUTHORITIES)[number];

/** The certificate types the Let's Encrypt chain update names (universal, advanced, total TLS, custom, custom hostname). */
export type CertificateType = "universal" | "advanced" | "total_tls" | "custom" | "custom_hostname";

/** A certificate's key: Cloudflare serves RSA and ECDSA (ca-faq). */
export type KeyType = "rsa" | "ecdsa";

/** `validity_days` values of the API (certificate pack order; cloudflare-typescript `CertificatePackCreateParams`). */
type ValidityDays = 14 | 30 | 90 | 365;

/** One CA as Cloudflare documents it. */
export interface Authority {
	id: CertificateAuthority;
	name: string;
	/** The issuer domain a CAA `issue`/`issuewild` record must name (RFC 8659 §4.2). */
	caa_identifier: string;
	/** The CAA record content Cloudflare's docs give for this CA (CA docs). */
	caa_record: string;
	/** Validity periods in days for every certificate of this CA. */
	validity_days: readonly ValidityDays[];
	/** Extra periods only Enterprise advanced certificates may order (SSL.com: 1 year). */
	enterprise_advanced_validity_days: readonly ValidityDays[];
	/** How long a DCV token stays valid, in days (CA docs). */
	dcv_token_days: number;
	/** The certificate types Cloudflare may issue from this CA (CA docs, "Availability"). */
	issues: readonly CertificateType[];
	/** Hostnames this CA refuses: at most this many subdomain levels (LE: 10). */
	max_subdomain_levels?: number;
	/** False when the CA does not issue for Punycode (`xn--`) names (GTS). */
	punycode: boolean;
	/** True when Cloudflare no longer issues new certificates from it. */
	deprecated: boolean;
}

const MANAGED: readonly CertificateType[] = ["advanced", "total_tls", "custom_hostname"];

/** The CAs, keyed by API value (CA docs: validity, CAA and availability tables). */
export const AUTHORITIES: Readonly<Record<CertificateAuthority, Authority>> = {
	lets_encrypt: {
		id: "lets_encrypt",
		name: "Let's Encrypt",
		caa_identifier: "letsencrypt.org",
		caa_record: "letsencrypt.org",
		validity_days: [90],
		enterprise_advanced_validity_days: [],
		dcv_token_days: 7,
		issues: ["universal", ...MANAGED],
		max_subdomain_levels: 10,
		punycode: true,
		deprecated: false,
	},
	google: {
		id: "google",
		name: "Google Trust Services",
		caa_identifier: "pki.goog",
		caa_record: "pki.goog; cansignhttpexchanges=yes",
		validity_days: [14, 30, 90],
		enterprise_advanced_validity_days: [],
		dcv_token_days: 14,
		issues: ["universal", ...MANAGED],
		punycode: false,
		deprecated: false,
	},
	ssl_com: {
		id: "ssl_com",
		name: "SSL.com",
		caa_identifier: "ssl.com",
		caa_record: "ssl.com",
		validity_days: [14, 30, 90],
		enterprise_advanced_validity_days: [365],
		dcv_token_days: 14,
		// CA docs: Universal certificates use LE or Google, never SSL.com.
		issues: MANAGED,
		punycode: true,
		deprecated: false,
	},
	digicert: {
		id: "digicert",
		name: "DigiCert",
		caa_identifier: "digicert.com",
		caa_record: "digicert.com; cansignhttpexchanges=yes",
		validity_days: [14, 30, 90],
		enterprise_advanced_validity_days: [],
		dcv_token_days: 30,
		// CA docs: "no longer used for new Universal certificates", "deprecating soon".
		issues: [],
		punycode: true,
		deprecated: true,
	},
};

/** True when `value` names a CA a new certificate may be ordered from (`google`, `lets_encrypt`, `ssl_com`). */
export function isOrderableAuthority(value: unknown): value is OrderableAuthority {
	return typeof value === "string" && (ORDERABLE_AUTHORITIES as readonly string[]).includes(value);
}

/** A yes, or a no with a reason a user can read. */
export type Check = { ok: true } | { ok: false; reason: string };

/**
 * May `type` be issued by `ca` with this validity? CA and validity docs: LE 90 days only; GTS and DigiCert
 * 14/30/90; SSL.com 14/30/90 and 365 for Enterprise advanced certificates; Universal and Total TLS
 * use 90 days; Universal never uses SSL.com.
 * @param days the requested `validity_days`.
 * @param enterprise whether the zone is on an Enterprise plan (only matters for SSL.com's 365 days).
 */
export function checkValidity(
	ca: CertificateAuthority,
	type: CertificateType,
	days: number,
	enterprise = false,
): Check {
	const authority = AUTHORITIES[ca];
	if (type !== "custom" && !authority.issues.includes(type)) {
		return { ok: false, reason: `${authority.name} does not issue ${type} certificates.` };
	}
	const fixed = type === "universal" || type === "total_tls";
	const allowed: readonly number[] = fixed
		? [90]
		: [
				...authority.validity_days,
				...(enterprise && type === "advanced" ? authority.enterprise_advanced_validity_days : []),
			];
	if (allowed.includes(days)) return { ok: true };
	return {
		ok: false,
		reason: `validity_days ${days} is not available for ${type} certificates from ${authority.name}; allowed: ${allowed.join(", ")}.`,
	};
}

/**
 * The validity a certificate gets when none is asked for: 90 days. The validity docs give 90 as
 * the default of Universal and Total TLS and as LE's only period; for other types, edgezone's choice.
 */
export const DEFAULT_VALIDITY_DAYS = 90;

/**
 * The auto-renewal window in days for a validity period (validity docs): 30 days for 1-year and
 * 3-month certificates, 7 days for 1-month, 3 days for 2-week ones.
 */
export function renewalWindowDays(validityDays: number): number {
	if (validityDays >= 90) return 30;
	if (validityDays >= 30) return 7;
	return 3;
}

const DAY_MS = 86_400_000;

/** When a certificate issued at `issuedOn` for `validityDays` expires. */
export function expiresOn(issuedOn: Date, validityDays: number): Date {
	return new Date(issuedOn.getTime() + validityDays * DAY_MS);
}

/** When Cloudflare starts renewing a certificate: `expires_on` minus the renewal window of its validity. */
export function renewsOn(issuedOn: Date, expires: Date): Date {
	const validityDays = Math.round((expires.getTime() - issuedOn.getTime()) / DAY_MS);
	return new Date(expires.getTime() - renewalWindowDays(validityDays) * DAY_MS);
}

/**
 * Does `ca` issue for this hostname? CA docs: LE "up to 10 subdomain levels"; GTS "no Punycode".
 * @param hostname a DNS name, possibly `*.`-prefixed.
 */
export function checkHostname(ca: CertificateAuthority, hostname: string): Check {
	const authority = AUTHORITIES[ca];
	const labels = hostname.replace(/^\*\./, "").toLowerCase().split(".");
	if (!authority.punycode && labels.some((label) => label.startsWith("xn--"))) {
		return { ok: false, reason: `${authority.name} does not issue certificates for Punycode names (${hostname}).` };
	}
	// Levels below the registered domain; the emulator has no public suffix list, so it counts
	// labels beyond the last two (a zone apex like example.com has none).
	const levels = Math.max(0, labels.length - 2);
	if (authority.max_subdomain_levels !== undefined && levels > authority.max_subdomain_levels) {
		return {
			ok: false,
			reason: `${authority.name} issues for at most ${authority.max_subdomain_levels} subdomain levels; ${hostname} has ${levels}.`,
		};
	}
	return { ok: true };
}
