/**
 * The certificate authorities of custom hostnames, from `src/certificates/` (the CA data and CAA
 * rules of developers.cloudflare.com/ssl/reference/certificate-authorities/): which CAs a custom
 * hostname may ask for, the CAA check and the default CA, and the figures the lifecycle needs.
 *
 * Finding the relevant CAA record set (climbing from the hostname to its parents, RFC 8659 §3) is
 * the simulated DNS's (`zone/dns.ts`); `caaPermits` and `defaultAuthority` read that set.
 */
import {
	AUTHORITIES,
	caaPermits,
	DEFAULT_VALIDITY_DAYS,
	defaultAuthority,
	type OrderableAuthority,
	renewalWindowDays,
} from "../../certificates";

export { caaPermits, defaultAuthority };

/** A CA a custom hostname certificate can come from (SaaS: LE, GTS, SSL.com; Cloudflare's CA docs). */
export type Authority = OrderableAuthority;

/** The value of `ssl.certificate_authority` a client may send: a CA, or "" for the default CA. */
export type RequestedAuthority = Authority | "";

/** One CAA property as the simulated DNS stores it: `issue`, `issuewild` or another tag, and its value. */
export interface CaaRecord {
	tag: string;
	value: string;
}

/** What each CA's CAA records name (`pki.goog`, `letsencrypt.org`, `ssl.com`). */
export const caaDomain = (authority: Authority): string => AUTHORITIES[authority].caa_identifier;

/** How long a DCV token of `authority` stays valid, in days (LE 7, Google and SSL.com 14; CA docs). */
export const tokenValidityDays = (authority: Authority): number => AUTHORITIES[authority].dcv_token_days;

/**
 * Days a custom hostname certificate is valid: 90, every CA's default (Cloudflare's validity docs; custom
 * hostnames order no other period through this API).
 */
export const VALIDITY_DAYS = DEFAULT_VALIDITY_DAYS;

/** Days before `expires_on` renewal starts: 30 for a 90-day certificate (validity docs). */
export const RENEWAL_WINDOW_DAYS = renewalWindowDays(VALIDITY_DAYS);

/** `ssl.issuer` of an issued certificate: not documented, edgezone's spelling. */
export const ISSUERS: Record<Authority, string> = {
	google: "GoogleTrustServices",
	lets_encrypt: "LetsEncrypt",
	ssl_com: "SSLcom",
};
