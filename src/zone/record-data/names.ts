/**
 * Names in DNS records: a record's own name, and the host names its content or components name
 * (a CNAME's target, an SRV record's). Pure.
 */
import { DNS_LABEL } from "../custom-hostnames/names";

/** Why `name` (a full name) is not a record name, or undefined: RFC 1035 labels, underscores, a leftmost `*`. */
export function nameProblem(name: string): string | undefined {
	// 253: the longest name RFC 1035 §3.1's 255 octets of wire format allow in text.
	if (name.length > 253) return "DNS record name must be at most 253 characters";
	for (const [i, label] of name.split(".").entries()) {
		if (label === "*" && i === 0) continue;
		if (!DNS_LABEL.test(label)) {
			return `DNS record name is invalid: label "${label}" must be 1 to 63 letters, digits, underscores or inner hyphens`;
		}
	}
	return undefined;
}

/** Whether `host` (lower case, no trailing dot) is a host name a record may point at: no wildcard. */
export function isHostName(host: string): boolean {
	return host.length > 0 && !host.includes("*") && nameProblem(host) === undefined;
}

/** A host name as stored: lower case, no trailing dot; the root `.` kept as it is. */
export function storedHost(host: string): string {
	const lower = host.toLowerCase();
	return lower === "." ? "." : lower.replace(/\.$/, "");
}

/** A stored host name as a zone file writes it, with its final dot; the root as `.`. */
export function absolute(host: string): string {
	return host === "." ? "." : `${host}.`;
}
