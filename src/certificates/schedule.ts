/**
 * The 2024 CA chain schedule as data, and the chain Cloudflare serves for a certificate on a date.
 *
 * Emulates: which intermediates and root sit behind an edge certificate at an instant, per
 * certificate type and bundle method, following the spec's Versioning items 4-5 first, then
 * reference §2.2, §2.4, §2.6 and §2.7 (`shared/reference/rules-language-and-ca.md`).
 * Decisions where the facts leave room (each also named in a `notes` line of the answer):
 * - "June 2024" has no day; the emulator starts the switch on 2024-06-01 00:00 UTC. 2024-06-06
 *   and 2024-09-09 have no time of day; they start at 00:00 UTC.
 * - Before 2024-09-09 Cloudflare bundles the DST cross-sign above any RSA Let's Encrypt
 *   intermediate (R3, and R10/R11 for certificates issued after 2024-06-06). Reference §2.6 says
 *   "only if the intermediate is R3" and §2.7 marks R10/R11 plus cross-sign UNVERIFIED, but the
 *   spec says custom uploads before September 9 "keep the cross-signed chain until they expire",
 *   which no R3 leaf could do: LE stopped issuing from R3 on 2024-06-06 and its leaves live 90 days.
 * - ECDSA Let's Encrypt leaves after 2024-06-06 get E5/E6 signed by ISRG Root X1, without the
 *   cross-sign: the spec ties the cross-signed chain to RSA certificates.
 * - Let's Encrypt's 2025 rotation to R12/R13 and E7/E8 is placed at 2025-08-20, the date by which
 *   the reference records it done; Generation Y is not modelled.
 * - Which SSL.com chain Cloudflare serves is UNVERIFIED (§2.4): Cloudflare TLS Issuing CA 1 and
 *   the Transit CA R2 signed by the SSL.com 2022 root. DigiCert's chain is NOT FOUND: answered
 *   with `source: "unknown"`.
 * Pure: no I/O, no Workers APIs.
 */
import type { CertificateAuthority, CertificateType, KeyType } from "./authorities.ts";
import {
	type CaCertificate,
	type ChainCertificate,
	caCertificate,
	findCaCertificate,
	notAfter,
	validAt,
} from "./ca-certificates.ts";

/** The instants the schedule turns on. */
export const MILESTONES = {
	/** Spec Versioning 4, "June 2024": the switch of managed certificates starts (day: ours). */
	switchStarts: new Date("2024-06-01T00:00:00Z"),
	/** Reference §2.1: LE issues from R10/R11 and E5/E6 and drops the DST cross-sign from its API. */
	leNewIntermediates: new Date("2024-06-06T00:00:00Z"),
	/** Spec Versioning 4: the cross-signed chain is no longer used for issuance or bundling. */
	crossSignDropped: new Date("2024-09-09T00:00:00Z"),
	/** Spec Versioning 4 and reference §2.1: ISRG Root X1 cross-signed by DST Root CA X3 expires (its notAfter). */
	crossSignExpires: new Date("2024-09-30T18:14:03Z"),
	/** Reference §2.1: LE's active intermediates are R12/R13 and E7/E8 "by 2025-08-20". */
	leRotation2025: new Date("2025-08-20T00:00:00Z"),
	/** Reference §2.1: the GlobalSign cross-signs of GTS Root R1 and R4 expire. */
	gtsCrossSignsExpire: new Date("2028-01-28T00:00:42Z"),
} as const;

/** The schedule as the spec and reference state it, one row an event, oldest first. */
export const SCHEDULE: readonly { at: Date; event: string; source: string }[] = [
	{
		at: new Date("2024-02-08T00:00:00Z"),
		event: "Let's Encrypt stops giving the cross-signed chain by default (still an alternate chain).",
		source: "reference §2.1",
	},
	{
		at: MILESTONES.switchStarts,
		event: "The service starts switching the CA of managed certificates where the older CA was not explicitly chosen.",
		source: "spec Versioning 4 (June 2024)",
	},
	{
		at: MILESTONES.leNewIntermediates,
		event: "Let's Encrypt issues from R10/R11 and E5/E6 and removes the DST cross-sign from its API.",
		source: "reference §2.1",
	},
	{
		at: MILESTONES.crossSignDropped,
		event:
			"Cross-signed chain no longer used for issuance or bundling; uploaded certificates of the older CA with bundle method compatible or modern are bundled with the self-signed root chain.",
		source: "spec Versioning 4 (September 9, 2024)",
	},
	{
		at: MILESTONES.crossSignExpires,
		event: "Cross-signed chain expires; the self-signed root chain is the only chain for RSA certificates of that CA.",
		source: "spec Versioning 4 (September 30, 2024), reference §2.1 (18:14:03 UTC)",
	},
	{ at: MILESTONES.leRotation2025, event: "Let's Encrypt issues from R12/R13 and E7/E8.", source: "reference §2.1" },
	{
		at: MILESTONES.gtsCrossSignsExpire,
		event: "The GlobalSign cross-signs of GTS Root R1 and GTS Root R4 expire.",
		source: "reference §2.1",
	},
];

/** Bundle methods: compatible = `ubiquitous`, modern = `optimal`, user-defined = `force` (reference §2.3). */
export type BundleMethod = "ubiquitous" | "optimal" | "force";

/** A certificate as the schedule needs it; field names are the API's where it has them. */
export interface ScheduledCertificate {
	/** The certificate's id; picks R10 or R11 (E5 or E6), which LE picks at random, so answers repeat. */
	id?: string;
	type: CertificateType;
	certificate_authority: CertificateAuthority;
	/**
	 * The CA the owner asked for: `""` when Cloudflare chose (universal without a CA setting, a custom
	 * hostname with `""`), the CA when the owner chose it. Default: `""` for universal, the CA otherwise.
	 */
	requested_authority?: "" | CertificateAuthority;
	/** Default `ubiquitous` (api §6.2). Managed certificates other than custom hostnames have none. */
	bundle_method?: BundleMethod;
	/** Default `rsa`. */
	key_type?: KeyType;
	issued_on: Date;
	expires_on: Date;
	/** Custom certificates: when uploaded (decides the 2024-09-09 rule). Default `issued_on`. */
	uploaded_on?: Date;
	/** The leaf's issuer common name when known (an uploaded PEM): `R3`, `R10`, `E5`, `WR1`... */
	issuer?: string;
	/** `force`: the certificates uploaded after the leaf, in order. */
	uploaded_chain?: readonly ChainCertificate[];
}

/** The chain served after the leaf on a date, and why. */
export interface ServedChain {
	certificate_authority: CertificateAuthority;
	/** `bundled` by Cloudflare, `as_uploaded` (force), or `unknown` when the facts hold no chain. */
	source: "bundled" | "as_uploaded" | "unknown";
	/** The certificates sent after the leaf, in order. */
	intermediates: readonly ChainCertificate[];
	/** The trust anchor the served chain ends at (not sent), when the data knows it. */
	root: ChainCertificate | null;
	/** True when the chain runs through ISRG Root X1 cross-signed by DST Root CA X3. */
	cross_signed: boolean;
	/** The leaf as far as chains need it. */
	leaf: { issuer: string; not_before: Date; not_after: Date };
	/** The spec or reference line that decided this chain. */
	rule: string;
	/** Open facts and warnings: an expired certificate still served, an UNVERIFIED choice. */
	notes: readonly string[];
}

const CROSS_SIGN = caCertificate("isrg_root_x1_by_dst");

function isCrossSign(certificate: ChainCertificate): boolean {
	return certificate.subject === CROSS_SIGN.subject && certificate.issuer === CROSS_SIGN.issuer;
}

/** Of two intermediates, the one this certificate's id picks (stable; LE picks at random). */
function pick(id: string | undefined, first: string, second: string): string {
	let sum = 0;
	for (const char of id ?? "") sum += char.charCodeAt(0);
	return sum % 2 === 0 ? first : second;
}

/** Let's Encrypt's intermediate for a leaf: by its issuer name when known, else by issue date (reference §2.4). */
function letsEncryptIntermediate(certificate: ScheduledCertificate): CaCertificate | undefined {
	const keyType = certificate.key_type ?? "rsa";
	if (certificate.issuer !== undefined) {
		// E5-E9 exist signed by X2 and by X1; LE's default chain since 2024-06-06 uses the X1 one.
		return (
			findCaCertificate(certificate.issuer, "ISRG Root X1") ?? findCaCertificate(certificate.issuer, "ISRG Root X2")
		);
	}
	const issued = certificate.issued_on.getTime();
	// Reference §2.4: ECDSA leaves before June 2024 were signed by R3 (E1 allow-listing NOT FOUND).
	if (issued < MILESTONES.leNewIntermediates.getTime()) return caCertificate("r3");
	const late = issued >= MILESTONES.leRotation2025.getTime();
	if (keyType === "rsa") return caCertificate(pick(certificate.id, late ? "r12" : "r10", late ? "r13" : "r11"));
	return caCertificate(pick(certificate.id, late ? "e7_by_x1" : "e5_by_x1", late ? "e8_by_x1" : "e6_by_x1"));
}

/**
 * The chain Cloudflare serves for `certificate` at `at`.
 *
 * - `force` (user-defined): the uploaded chain, always (spec Versioning 5).
 * - Let's Encrypt, RSA intermediate: the cross-sign `ISRG Root X1 ← DST Root CA X3` is appended
 *   (a) for custom certificates with `ubiquitous`/`optimal` uploaded before 2024-09-09, until they
 *   expire, even once the cross-sign itself has expired (spec Versioning 5, reference §2.2), and
 *   (b) for every other certificate while `at` is before 2024-09-09 (spec Versioning 4: "no longer
 *   used for issuance or bundling" from that day). Otherwise the chain ends at ISRG Root X1.
 * - Google: `WR1|WE1 ← GTS Root R1|R4 (by GlobalSign Root CA)` while that cross-sign is valid, except
 *   with `optimal`, which serves `WR1|WE1` to the self-signed GTS root (reference §2.6 rule 3).
 * - SSL.com: `Cloudflare TLS Issuing RSA|ECC CA 1 ← SSL.com TLS Transit … CA R2` (UNVERIFIED, §2.4).
 * - DigiCert: chain NOT FOUND (§2.4): `source: "unknown"`.
 */
export function servedChain(certificate: ScheduledCertificate, at: Date): ServedChain {
	const bundle = certificate.bundle_method ?? "ubiquitous";
	const keyType = certificate.key_type ?? "rsa";
	const ca = certificate.certificate_authority;
	const notes: string[] = [];
	const base = {
		certificate_authority: ca,
		leaf: {
			issuer: certificate.issuer ?? "",
			not_before: certificate.issued_on,
			not_after: certificate.expires_on,
		},
	};
	const answer = (
		intermediates: readonly ChainCertificate[],
		rule: string,
		source: ServedChain["source"] = "bundled",
	): ServedChain => {
		const last = intermediates.at(-1);
		const root = last ? (findCaCertificate(last.issuer, last.issuer) ?? null) : null;
		for (const served of intermediates) {
			if (validAt(served, at) === false) {
				notes.push(`${served.subject} (issued by ${served.issuer}) is served but not valid at ${at.toISOString()}.`);
			}
		}
		const leafIssuer = base.leaf.issuer || (intermediates[0]?.subject ?? "");
		return {
			...base,
			leaf: { ...base.leaf, issuer: leafIssuer },
			source,
			intermediates,
			root,
			cross_signed: intermediates.some(isCrossSign),
			rule,
			notes,
		};
	};

	if (bundle === "force") {
		const uploaded = certificate.uploaded_chain ?? [];
		if (uploaded.some(isCrossSign) && at.getTime() > MILESTONES.crossSignExpires.getTime()) {
			notes.push(
				"Spec Versioning 5: certificates uploaded after September 30, 2024 should not use the cross-signed chain.",
			);
		}
		return answer(
			uploaded,
			"spec Versioning 5: with the user-defined bundle method the uploaded chain is always served",
			"as_uploaded",
		);
	}

	if (ca === "lets_encrypt") {
		const intermediate = letsEncryptIntermediate(certificate);
		if (!intermediate) {
			notes.push(`Reference §2.4 records no Let's Encrypt intermediate named ${certificate.issuer}.`);
			return answer([], "reference §2.4: no recorded chain", "unknown");
		}
		const chain: ChainCertificate[] = [intermediate];
		if (intermediate.issuer === "ISRG Root X2") {
			// E1 (or E5-E9 named by an upload as X2-signed): compatible bundles up to ISRG Root X1.
			if (bundle === "ubiquitous") chain.push(caCertificate("isrg_root_x2_by_x1"));
			return answer(chain, "reference §2.4: ECDSA chain to ISRG Root X2 (cross-signed by X1 for compatible)");
		}
		const rsaUnderX1 = intermediate.key_type === "rsa" && intermediate.issuer === "ISRG Root X1";
		const dropped = MILESTONES.crossSignDropped.getTime();
		if (certificate.type === "custom") {
			const uploaded = (certificate.uploaded_on ?? certificate.issued_on).getTime();
			if (rsaUnderX1 && uploaded < dropped) {
				chain.push(CROSS_SIGN);
				return answer(
					chain,
					"spec Versioning 5: custom certificates uploaded before September 9 with bundle method compatible or modern keep the cross-signed chain until they expire",
				);
			}
			return answer(
				chain,
				uploaded >= dropped
					? "spec Versioning 4: from September 9, 2024 uploaded certificates with bundle method compatible or modern are bundled with the self-signed root chain"
					: "reference §2.4: ECDSA Let's Encrypt chain ends at the self-signed ISRG Root X1",
			);
		}
		if (rsaUnderX1 && at.getTime() < dropped) {
			chain.push(CROSS_SIGN);
			if (intermediate.subject !== "R3") {
				notes.push(
					"Reference §2.7: whether R10/R11 certificates were served with the cross-sign before September 9 is UNVERIFIED.",
				);
			}
			return answer(
				chain,
				"spec Versioning 4: the cross-signed chain is used for issuance and bundling until September 9, 2024",
			);
		}
		return answer(
			chain,
			rsaUnderX1
				? "spec Versioning 4: from September 9, 2024 the cross-signed chain is no longer used for issuance or bundling"
				: "reference §2.4: ECDSA Let's Encrypt chain ends at the self-signed ISRG Root X1",
		);
	}

	if (ca === "google") {
		const rsa = keyType === "rsa";
		const intermediate = caCertificate(rsa ? "wr1" : "we1");
		const cross = caCertificate(rsa ? "gts_root_r1_by_globalsign" : "gts_root_r4_by_globalsign");
		const crossValid = at.getTime() <= (notAfter(cross)?.getTime() ?? 0);
		if (bundle !== "optimal" && crossValid) {
			if (certificate.type !== "custom") {
				notes.push(
					"Reference §2.6: which GTS chain Cloudflare serves for managed certificates is UNVERIFIED; the long one is assumed.",
				);
			}
			return answer(
				[intermediate, cross],
				"reference §2.6 rule 3: compatible or managed, GTS root cross-signed by GlobalSign Root CA",
			);
		}
		return answer(
			[intermediate],
			"reference §2.6 rule 3: modern (or after the GlobalSign cross-sign expired), the self-signed GTS root",
		);
	}

	if (ca === "ssl_com") {
		const rsa = keyType === "rsa";
		const transit = caCertificate(rsa ? "ssl_com_tls_transit_rsa_ca_r2" : "ssl_com_tls_transit_ecc_ca_r2");
		const named = certificate.issuer === undefined ? undefined : findCaCertificate(certificate.issuer, transit.subject);
		const intermediate =
			named ?? caCertificate(rsa ? "cloudflare_tls_issuing_rsa_ca_1" : "cloudflare_tls_issuing_ecc_ca_1");
		notes.push("Reference §2.4: which SSL.com chain Cloudflare serves is UNVERIFIED.");
		return answer([intermediate, transit], "reference §2.4: SSL.com as used by Cloudflare");
	}

	notes.push("Reference §2.4: DigiCert chains are NOT FOUND.");
	return answer([], "reference §2.4: no recorded chain", "unknown");
}

/** One line naming a chain, e.g. `R3 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 (expired) > anchor DST Root CA X3`; `(expired)` marks a certificate not valid at `at`. */
export function describeChain(chain: ServedChain, at: Date): string {
	const parts = chain.intermediates.map(
		(c) => `${c.subject} by ${c.issuer}${validAt(c, at) === false ? " (expired)" : ""}`,
	);
	return [...parts, `anchor ${chain.root?.subject ?? "unknown"}`].join(" > ");
}
