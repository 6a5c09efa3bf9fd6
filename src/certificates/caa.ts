/**
 * CAA and the choice of CA: which CAs a hostname's CAA records permit, Cloudflare's default CA
 * (`certificate_authority: ""`), and the refusal of an explicitly chosen CA that CAA forbids.
 *
 * Follows https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/
 * (the default CA "will only fall back to using Let's Encrypt if there is a CAA record in place that
 * blocks Google"), https://developers.cloudflare.com/ssl/reference/certificate-authorities/ (CAA
 * identifiers: `letsencrypt.org`, `pki.goog`, `ssl.com`, `digicert.com`), and RFC 8659 §4 for
 * reading `issue`/`issuewild` records.
 * Gaps: Cloudflare's CAA failure text is not public, so {@link caaRefusal}'s wording is edgezone's;
 * no source says the default CA falls back further to SSL.com when CAA blocks Google and Let's
 * Encrypt, so it does not (edgezone's choice). Finding the relevant RRset (climbing to the parent
 * domain, RFC 8659 §3) is the caller's: pass the records that apply to the hostname.
 */
import { AUTHORITIES, type CertificateAuthority, type OrderableAuthority } from "./authorities.ts";

/** A CAA record: a bare string is the value of an `issue` record; otherwise its tag and value. */
export type CaaRecord = string | { tag: string; value: string };

/**
 * The CAA records Cloudflare adds on a Cloudflare DNS zone as soon as the user adds any CAA record
 * and the zone has Universal SSL or advanced certificates: `issue` and `issuewild` for each of
 * these values (https://developers.cloudflare.com/ssl/edge-certificates/caa-records/).
 */
export const CLOUDFLARE_ADDED_CAA: readonly string[] = [
	"pki.goog; cansignhttpexchanges=yes",
	"letsencrypt.org",
	"ssl.com",
	"sectigo.com",
];

/** The issuer domain of a CAA `issue`/`issuewild` value (RFC 8659 §4.2): before `;`, lower-cased; `""` forbids all. */
export function caaIssuer(value: string): string {
	return (value.split(";")[0] ?? "").trim().toLowerCase();
}

/** The issuer-restricting records that apply: `issuewild` ones for a wildcard when any exist, else `issue` ones. */
function applicable(records: readonly CaaRecord[], wildcard: boolean): { tag: string; value: string }[] {
	const all = records.map((record) =>
		typeof record === "string"
			? { tag: "issue", value: record }
			: { tag: record.tag.toLowerCase(), value: record.value },
	);
	const wild = all.filter((record) => record.tag === "issuewild");
	// RFC 8659 §4.3: issuewild records, when present, take precedence for wildcard names.
	if (wildcard && wild.length > 0) return wild;
	return all.filter((record) => record.tag === "issue");
}

/**
 * Do these CAA records permit `ca` to issue? No records, or none restricting issuance, permit every
 * CA (RFC 8659 §4.2); otherwise one `issue` (or, for a wildcard, `issuewild`) value must name the
 * CA's identifier (Cloudflare's CA docs: `letsencrypt.org`, `pki.goog`, `ssl.com`, `digicert.com`).
 * @param records the CAA RRset that applies to the hostname; `undefined` or `[]` for none.
 * @param wildcard whether the certificate is for `*.name`.
 */
export function caaPermits(
	records: readonly CaaRecord[] | undefined,
	ca: CertificateAuthority,
	wildcard = false,
): boolean {
	const restricting = applicable(records ?? [], wildcard);
	if (restricting.length === 0) return true;
	return restricting.some((record) => caaIssuer(record.value) === AUTHORITIES[ca].caa_identifier);
}

/**
 * The default CA (`certificate_authority: ""`): Google Trust Services, "a more compatible CA",
 * unless CAA blocks Google, then Let's Encrypt (the Let's Encrypt chain update page). When CAA
 * blocks both, the answer is still Let's Encrypt and {@link chooseAuthority} reports the refusal.
 */
export function defaultAuthority(
	records: readonly CaaRecord[] | undefined,
	wildcard = false,
): "google" | "lets_encrypt" {
	return caaPermits(records, "google", wildcard) ? "google" : "lets_encrypt";
}

/** The CA a certificate is issued from, or the CAA refusal that stops issuance. */
export type AuthorityChoice =
	| { ok: true; certificate_authority: OrderableAuthority; defaulted: boolean }
	| { ok: false; certificate_authority: OrderableAuthority; defaulted: boolean; reason: string };

/**
 * Resolve a requested `certificate_authority` against the hostname's CAA records.
 * `""` gives {@link defaultAuthority}; a named CA is used as asked, and when CAA forbids it the
 * answer is a refusal whose reason names CAA (Cloudflare "checks the CAA records before requesting the
 * certificates", Cloudflare for SaaS "Issue certificates" docs; the error's form is edgezone's).
 * @param requested `""` or a CA from {@link ORDERABLE_AUTHORITIES}; other values are the API's 400.
 */
export function chooseAuthority(
	requested: "" | OrderableAuthority,
	records: readonly CaaRecord[] | undefined,
	hostname: string,
	wildcard = false,
): AuthorityChoice {
	const defaulted = requested === "";
	const ca = requested === "" ? defaultAuthority(records, wildcard) : requested;
	if (caaPermits(records, ca, wildcard)) return { ok: true, certificate_authority: ca, defaulted };
	return { ok: false, certificate_authority: ca, defaulted, reason: caaRefusal(hostname, ca, records ?? [], wildcard) };
}

/** The validation error of a CA that CAA forbids (our wording: Cloudflare's text is not recorded). */
function caaRefusal(
	hostname: string,
	ca: CertificateAuthority,
	records: readonly CaaRecord[],
	wildcard = false,
): string {
	const found = applicable(records, wildcard).map((record) => `${record.tag} "${record.value}"`);
	const authority = AUTHORITIES[ca];
	return `CAA records for ${hostname} do not allow ${authority.name} (${authority.caa_identifier}) to issue: found ${found.join(", ")}.`;
}
