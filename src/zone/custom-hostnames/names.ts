/**
 * Host names as custom hostnames and the simulated DNS accept them.
 *
 * A custom hostname is an RFC 1035 §2.3.1 host name: labels of letters, digits and inner
 * hyphens, 1-63 characters each, 253 in all, at least two labels, the last not all digits (so
 * no IPv4 address passes; an IPv6 address has colons and fails anyway). Case does not matter
 * (RFC 4343): names are kept lower-cased, without a trailing dot. `*` may stand alone as the
 * leftmost label: a wildcard custom hostname (docs cloudflare-for-saas/.../wildcard-custom-
 * hostnames). DNS names also take underscores (`_acme-challenge`, `_cf-custom-hostname`,
 * RFC 8552), and no wildcard.
 */

const HOST_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** One label of a DNS name: letters, digits, underscores (RFC 8552) and inner hyphens, 1 to 63. */
export const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** A name lower-cased, without one trailing dot. */
function normalized(name: string): string {
	return name.toLowerCase().replace(/\.$/, "");
}

/** Why `name` is not a custom hostname, or undefined when it is. */
export function hostnameProblem(raw: string): string | undefined {
	const name = normalized(raw);
	if (name.length === 0 || name.length > 253) return "must be 1 to 253 characters";
	const labels = name.split(".");
	if (labels.length < 2) return "must be a fully qualified domain name such as app.example.com";
	const [first, ...rest] = labels;
	if (first === "*" && rest.length < 2) return "a wildcard must cover a domain such as *.example.com";
	for (const [i, label] of labels.entries()) {
		if (label === "*" && i === 0) continue;
		if (label.includes("*")) return "* may only be the whole leftmost label (*.example.com)";
		if (!HOST_LABEL.test(label)) return `label "${label}" must be 1 to 63 letters, digits or inner hyphens (RFC 1035)`;
	}
	if (/^[0-9]+$/.test(labels.at(-1) ?? "")) return "must be a domain name, not an IP address";
	return undefined;
}

/** `raw` as stored: lower case, no trailing dot (call after `hostnameProblem` found nothing). */
export function normalizeHostname(raw: string): string {
	return normalized(raw);
}

/** Why `name` is not a name of the simulated DNS, or undefined when it is. */
export function dnsNameProblem(raw: string): string | undefined {
	const name = normalized(raw);
	if (name.length === 0 || name.length > 253) return "must be 1 to 253 characters";
	for (const label of name.split(".")) {
		if (!DNS_LABEL.test(label)) return `label "${label}" must be 1 to 63 letters, digits, underscores or inner hyphens`;
	}
	return undefined;
}

/** The name a `*.` hostname covers (`*.example.com` -> `example.com`); others unchanged. */
export function baseName(hostname: string): string {
	return hostname.startsWith("*.") ? hostname.slice(2) : hostname;
}

/** `name` and each parent domain, nearest first (`a.b.c` -> `a.b.c`, `b.c`, `c`). */
export function selfAndParents(name: string): string[] {
	const labels = name.split(".");
	return labels.map((_, i) => labels.slice(i).join("."));
}
