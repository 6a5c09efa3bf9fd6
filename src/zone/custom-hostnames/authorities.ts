/**
 * The certificate authorities a custom hostname may use, and the CAA rules that decide whether
 * one may issue (rules-language-and-ca.md 2.3; cloudflare-api-v4.md §7).
 *
 * A minimal, internal copy for custom hostnames: `src/certificates/` (another change of issue 10)
 * holds the full CA data; once it is on main, `caaPermits`, `defaultAuthority` and the validity
 * figures here give way to it.
 *
 * CAA follows RFC 8659 in its simple form: the relevant record set is the one of the nearest
 * name, climbing from the hostname (a leading `*.` removed) to its parents, that has CAA
 * records; with none, any CA may issue. For a wildcard certificate, `issuewild` properties
 * decide when the set has any, else `issue` ones (§4.3). A CA may issue when a property's
 * value names its domain (the part before `;`); a set of only other tags (iodef) restricts
 * nothing.
 */

/** A CA a custom hostname certificate can come from (SaaS: LE, GTS, SSL.com; reference 2.3). */
export type Authority = "google" | "lets_encrypt" | "ssl_com";

/** The value of `ssl.certificate_authority` a client may send: a CA, or "" for the default CA. */
export type RequestedAuthority = Authority | "";

/** One CAA property: `issue`, `issuewild` or another tag (iodef...), and its value. */
export interface CaaRecord {
	tag: string;
	value: string;
}

/** What each CA is called in CAA records, and its figures (certificate-authorities.mdx via reference 2.3). */
export const AUTHORITIES: Record<
	Authority,
	{
		/** The issuer domain CAA records name. */
		caaDomain: string;
		/** How long a DCV token stays valid, in days (reference §7). */
		tokenValidityDays: number;
		/** Days a custom hostname certificate is valid: 90, the default of every CA (reference 2.3, 6.3). */
		validityDays: number;
		/** `ssl.issuer` of an issued certificate: not documented (reference 2.8), edgezone's spelling. */
		issuer: string;
	}
> = {
	google: { caaDomain: "pki.goog", tokenValidityDays: 14, validityDays: 90, issuer: "GoogleTrustServices" },
	lets_encrypt: { caaDomain: "letsencrypt.org", tokenValidityDays: 7, validityDays: 90, issuer: "LetsEncrypt" },
	ssl_com: { caaDomain: "ssl.com", tokenValidityDays: 14, validityDays: 90, issuer: "SSLcom" },
};

/** Whether a CAA record set (the relevant one, possibly empty) lets `authority` issue; `wildcard` for a `*.` name. */
export function caaPermits(records: readonly CaaRecord[], authority: Authority, wildcard: boolean): boolean {
	const issuing = (tag: string) => records.filter((record) => record.tag.toLowerCase() === tag);
	const wild = issuing("issuewild");
	const relevant = wildcard && wild.length > 0 ? wild : issuing("issue");
	if (relevant.length === 0) return true;
	const domain = AUTHORITIES[authority].caaDomain;
	return relevant.some((record) => (record.value.split(";")[0] ?? "").trim().toLowerCase() === domain);
}

/**
 * The CA of a request: the one named, or for "" the default CA: Google Trust Services unless
 * the CAA records block it, then Let's Encrypt (docs lets-encrypt-chain.mdx: "will only fall
 * back to using Let's Encrypt if there is a CAA record in place that blocks Google"). When both
 * are blocked, Let's Encrypt, whose validation then reports the CAA record.
 */
export function defaultAuthority(records: readonly CaaRecord[], wildcard: boolean): Authority {
	return caaPermits(records, "google", wildcard) ? "google" : "lets_encrypt";
}
