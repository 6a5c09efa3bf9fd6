/**
 * Which certificate a managed pack holds at an instant: its CA, issue and expiry dates, after
 * the automatic renewals due by then (reference rules-language-and-ca.md §2.3: renewal 30 days
 * before expiry for 3-month and 1-year certificates, 7 for 1-month, 3 for 2-week).
 *
 * The CA: the one asked for, or, where Cloudflare chooses (`""`), Let's Encrypt before June 2024
 * and Google Trust Services from then on, at the first renewal on or after 2024-06-01 (spec
 * Versioning 4, reference §2.7 "renewals move to GTS"). Which CA Cloudflare chose before June
 * 2024 is not documented (reference §2.8); Let's Encrypt is edgezone's choice, so a replay of
 * 2024 shows the move. Pure.
 */

/** The CAs a managed certificate is ordered from (SDK `certificate_authority` of packs and Total TLS). */
export const AUTHORITIES = ["google", "lets_encrypt", "ssl_com"] as const;
export type Authority = (typeof AUTHORITIES)[number];

/** The key types of a managed pack's certificates: ECDSA (primary) and RSA, as paid zones get (ca-faq). */
export const KEY_TYPES = ["ecdsa", "rsa"] as const;

/** The `issuer` strings of pack certificates. UNVERIFIED (reference §2.3: only "LetsEncrypt" seen, in fakes). */
export const ISSUER_NAMES: Record<Authority, string> = {
	lets_encrypt: "LetsEncrypt",
	google: "GoogleTrustServices",
	ssl_com: "SSLcom",
};

/** Spec Versioning 4, "June 2024" (day: edgezone's choice): Cloudflare's choice becomes Google. */
export const SWITCH_STARTS = Date.parse("2024-06-01T00:00:00Z");

const DAY = 86_400_000;

/** The CA Cloudflare picks where the owner did not, for a certificate issued at `at`. */
export function defaultAuthority(at: Date): Authority {
	return at.getTime() < SWITCH_STARTS ? "lets_encrypt" : "google";
}

/** Validity periods per CA (reference §2.3): LE 90; GTS 14/30/90; SSL.com 14/30/90 (365 for Enterprise only). */
export const VALIDITY_DAYS: Record<Authority, readonly number[]> = {
	lets_encrypt: [90],
	google: [14, 30, 90],
	ssl_com: [14, 30, 90],
};

/** Renewal window in days for a validity period (reference §2.3). */
function renewalWindow(days: number): number {
	if (days >= 90) return 30;
	if (days >= 30) return 7;
	return 3;
}

/** One certificate of a pack: CA and instants in ms. */
export interface IssuedCertificate {
	certificate_authority: Authority;
	issued_on: number;
	expires_on: number;
}

/**
 * The certificate in force at `now` of a pack whose first certificate was issued at `first`
 * (ms), renewed every `validityDays` minus the renewal window. `requested` `""` lets the CA
 * follow {@link defaultAuthority} at each issue.
 */
export function currentCertificate(
	requested: "" | Authority,
	validityDays: number,
	first: number,
	now: number,
): IssuedCertificate {
	const period = (validityDays - renewalWindow(validityDays)) * DAY;
	const renewals = Math.max(0, Math.floor((now - first) / period));
	const issued = first + renewals * period;
	return {
		certificate_authority: requested || defaultAuthority(new Date(issued)),
		issued_on: issued,
		expires_on: issued + validityDays * DAY,
	};
}
