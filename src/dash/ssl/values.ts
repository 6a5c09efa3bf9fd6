/**
 * What the SSL/TLS page says about certificate values, as pure functions: the CA selector's
 * choices (`certificate_authority` "" is the default CA, Google unless a CAA record blocks it,
 * then Let's Encrypt: https://developers.cloudflare.com/cloudflare-for-platforms/cloudflare-for-saas/security/certificate-management/issue-and-validate/issue-certificates/), readable names of CAs, statuses and bundle methods,
 * and the chosen date of the chain view as the instant the emulator's chains route takes.
 */

/** The CA selector of a custom hostname: API value and label; "" first, as Cloudflare defaults to it. */
export const HOSTNAME_CA_OPTIONS: [value: string, label: string][] = [
	["", "Default CA (Google Trust Services, or Let's Encrypt when CAA blocks Google)"],
	["google", "Google Trust Services"],
	["lets_encrypt", "Let's Encrypt"],
	["ssl_com", "SSL.com"],
];

/** Why "" exists, shown under every CA selector (docs/custom-hostnames.md, src/certificates/caa.ts). */
export const DEFAULT_CA_EXPLAINED =
	"The default CA is Google Trust Services, unless a CAA record on the hostname or a parent domain does not allow pki.goog; then Let's Encrypt issues. Choosing a CA that CAA forbids leaves the certificate waiting with a caa_error. Changing the CA re-issues the certificate.";

const CA_NAMES: Record<string, string> = {
	google: "Google Trust Services",
	lets_encrypt: "Let's Encrypt",
	ssl_com: "SSL.com",
	digicert: "DigiCert",
	sectigo: "Sectigo",
};

/** A CA's readable name; an unknown value as it is, and none as "not chosen". */
export function caName(value: string | undefined | null): string {
	if (value === undefined || value === null || value === "") return "not chosen";
	return CA_NAMES[value] ?? value;
}

/** Bundle methods as Cloudflare's dashboard names them (reference 2.3), with the API's value. */
export const BUNDLE_METHODS: [value: string, label: string][] = [
	["ubiquitous", "Compatible (ubiquitous)"],
	["optimal", "Modern (optimal)"],
	["force", "User-defined (force)"],
];

/** Domain control validation methods (API `txt`, `http`, `email`; e-mail never completes in edgezone). */
export const VALIDATION_METHODS: [value: string, label: string][] = [
	["txt", "TXT record (DNS)"],
	["http", "HTTP token"],
	["email", "E-mail"],
];

/** A status such as `pending_validation` as words: "pending validation". */
export const statusWords = (status: string | undefined | null): string =>
	status === undefined || status === null || status === "" ? "unknown" : status.replaceAll("_", " ");

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The instant of the chain view's chosen date: its start in UTC (`2024-09-09` ->
 * `2024-09-09T00:00:00Z`), as the 2024 schedule's changes fall at midnight UTC. Anything that is not
 * `YYYY-MM-DD` is passed on unchanged, so the API's own message says what is wrong with it.
 */
export function instantOfDate(date: string): string {
	return DATE.test(date) ? `${date}T00:00:00Z` : date;
}

/** The `YYYY-MM-DD` (UTC) of an RFC 3339 instant, for a date input's value; "" when it is not one. */
export function dateOf(instant: string | undefined | null): string {
	if (instant === undefined || instant === null) return "";
	const ms = Date.parse(instant);
	return Number.isNaN(ms) ? "" : new Date(ms).toISOString().slice(0, 10);
}

/** The `YYYY-MM-DDTHH:MM` (UTC) of an instant, for a datetime-local input's value; "" when it is not one. */
export function minuteOf(instant: string | undefined | null): string {
	if (instant === undefined || instant === null) return "";
	const ms = Date.parse(instant);
	return Number.isNaN(ms) ? "" : new Date(ms).toISOString().slice(0, 16);
}

/** An instant as people read it: `2024-10-30 00:00 UTC`; absent as "—". */
export function shownInstant(instant: string | undefined | null): string {
	if (instant === undefined || instant === null || instant === "") return "—";
	const ms = Date.parse(instant);
	return Number.isNaN(ms) ? instant : `${new Date(ms).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/** A client's verdict on a served chain: validates (true), fails (false), or not known (null). */
export const verdictWords = (validates: boolean | null): string =>
	validates === null ? "Unknown" : validates ? "Validates" : "Fails";
