/**
 * The zone's certificates as the 2024 schedule (`src/certificates/`) sees them: each managed
 * pack's first certificate, per key type, as a `ScheduledCertificate`, whose state at any instant
 * (renewals, the move to Google) `certificateAt` derives; each uploaded certificate likewise.
 *
 * Decisions where the facts leave room:
 * - The CA Cloudflare chose for a universal certificate before June 2024 is not documented;
 *   edgezone issues it from Let's Encrypt, so a replay of 2024 shows the move.
 *   From 2024-06-01 (`MILESTONES.switchStarts`) Cloudflare's choice is the default CA (Google
 *   unless CAA blocks it; `caa.ts`).
 * - Managed packs hold an ECDSA certificate (primary) and an RSA one, as paid zones get
 *   (developers.cloudflare.com/ssl/troubleshooting/ca-faq/).
 * - The `issuer` strings of managed certificates are not documented (only "LetsEncrypt" is seen,
 *   in third-party fakes): edgezone's choice, the CA's name without spaces or punctuation.
 * Pure.
 */
import {
	AUTHORITIES,
	type CaaRecord,
	type CertificateAuthority,
	type ChainCertificate,
	certificateAt,
	defaultAuthority,
	type KeyType,
	MILESTONES,
	type OrderableAuthority,
	renewalWindowDays,
	type ScheduledCertificate,
} from "../../certificates";
import type { ParsedCertificate } from "./x509";

export { ORDERABLE_AUTHORITIES as AUTHORITIES } from "../../certificates";
export type Authority = OrderableAuthority;

/** The key types of a managed pack's certificates, primary first. */
export const KEY_TYPES: readonly KeyType[] = ["ecdsa", "rsa"];

/** The `issuer` string of a managed certificate from `ca`: `LetsEncrypt`, `GoogleTrustServices`, `SSLcom`. */
export function issuerName(ca: CertificateAuthority): string {
	return AUTHORITIES[ca].name.replace(/[^A-Za-z0-9]/g, "");
}

/**
 * The CA Cloudflare picks where the owner did not, for a universal certificate issued at `at`:
 * from June 2024 the default CA, Google unless the CAA records of the zone's apex block it for
 * the wildcard name too (`caa.ts`), then Let's Encrypt.
 */
export function chosenAuthority(at: number, caa: readonly CaaRecord[] = []): Authority {
	return at < MILESTONES.switchStarts.getTime() ? "lets_encrypt" : defaultAuthority(caa, true);
}

/** What the schedule needs of a managed pack. */
export interface ManagedPack {
	id: string;
	type: "universal" | "advanced";
	/** `""` when Cloudflare chooses the CA. */
	requested: "" | Authority;
	validity_days: number;
	/** When its first certificate was issued (ms). */
	first_issued: number;
	/** The CAA records that apply to its first host (the zone apex for universal), as they stand. */
	caa: readonly CaaRecord[];
}

const DAY = 86_400_000;

/** The pack's first certificate of `key` as the schedule takes it. */
export function firstCertificate(pack: ManagedPack, key: KeyType): ScheduledCertificate {
	return {
		// Stable per pack and key: picks R10 or R11 (E5 or E6) the same way on every read.
		id: `${pack.id}:${key}`,
		type: pack.type,
		certificate_authority: pack.requested || chosenAuthority(pack.first_issued, pack.caa),
		requested_authority: pack.requested,
		key_type: key,
		issued_on: new Date(pack.first_issued),
		expires_on: new Date(pack.first_issued + pack.validity_days * DAY),
	};
}

/**
 * The pack's certificate of `key` in force at `now` (ms), after renewals and moves. Once the
 * schedule's move is behind it (a renewal period after 2024-06-01 or after its first issue), a
 * managed certificate only renews with the same CA and validity, so whole renewal periods are
 * skipped: a clock set centuries ahead costs what one in 2024 does.
 */
export function certificateNow(pack: ManagedPack, key: KeyType, now: number): ScheduledCertificate {
	const first = firstCertificate(pack, key);
	const period = (pack.validity_days - renewalWindowDays(pack.validity_days)) * DAY;
	const settled = Math.max(first.issued_on.getTime(), MILESTONES.switchStarts.getTime()) + period + DAY;
	// Universal packs hold the zone's wildcard: CAA must let Google issue for it (`issuewild`).
	const context = { caa: pack.caa, wildcard: pack.type === "universal" };
	if (now <= settled + 2 * period) return certificateAt(first, new Date(now), context);
	const state = certificateAt(first, new Date(settled), context);
	const skip = (Math.floor((now - state.issued_on.getTime()) / period) - 1) * period;
	const jumped = {
		...state,
		issued_on: new Date(state.issued_on.getTime() + skip),
		expires_on: new Date(state.expires_on.getTime() + skip),
	};
	return certificateAt(jumped, new Date(now), context);
}

/** The CA of an uploaded leaf, from its issuer's organisation; null for a CA the schedule does not know. */
function uploadedAuthority(leaf: ParsedCertificate): CertificateAuthority | null {
	const org = (leaf.issuer_org ?? "").toLowerCase();
	if (org === "let's encrypt") return "lets_encrypt";
	if (org === "google trust services" || org === "google trust services llc") return "google";
	if (org === "ssl corporation" || org === "cloudflare, inc.") return "ssl_com";
	if (org.startsWith("digicert")) return "digicert";
	return null;
}

/** An uploaded certificate of the chain as the schedule names it (common names, dates). */
function chainEntry(certificate: ParsedCertificate): ChainCertificate {
	return {
		subject: certificate.subject_cn ?? certificate.subject,
		issuer: certificate.issuer_cn ?? certificate.issuer,
		key_type: certificate.key_type,
		not_before: certificate.not_before,
		not_after: certificate.not_after,
	};
}

/** An uploaded certificate as the schedule takes it; null when its CA is one the schedule does not know. */
export function uploadedCertificate(
	id: string,
	leaf: ParsedCertificate,
	chain: ParsedCertificate[],
	bundleMethod: "ubiquitous" | "optimal" | "force",
	uploadedOn: number,
): ScheduledCertificate | null {
	const ca = uploadedAuthority(leaf);
	if (ca === null) return null;
	return {
		id,
		type: "custom",
		certificate_authority: ca,
		bundle_method: bundleMethod,
		key_type: leaf.key_type,
		issued_on: new Date(leaf.not_before),
		expires_on: new Date(leaf.not_after),
		uploaded_on: new Date(uploadedOn),
		...(leaf.issuer_cn === null ? {} : { issuer: leaf.issuer_cn }),
		uploaded_chain: chain.map(chainEntry),
	};
}
