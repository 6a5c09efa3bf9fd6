/**
 * The 2024 CA chain schedule as data, and the chain Cloudflare serves for a certificate on a date.
 *
 * Emulates: which intermediates and root sit behind an edge certificate at an instant, per
 * certificate type and bundle method, following Cloudflare's account of the change first
 * (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/), then
 * Let's Encrypt's certificates and chains (https://letsencrypt.org/certificates/,
 * https://letsencrypt.org/2024/04/12/changes-to-issuance-chains/) and the intermediates Cloudflare
 * bundles from (https://github.com/cloudflare/cfssl_trust, int-bundle.crt).
 * The `rule`, `notes` and `source` strings of the answers cite the same public pages, so a user
 * reading an answer can open its source; "edgezone's model" marks a rule derived from them.
 * Decisions where the facts leave room (each also named in a `notes` line of the answer):
 * - "June 2024" has no day; the emulator starts the switch on 2024-06-01 00:00 UTC. 2024-06-06
 *   and 2024-09-09 have no time of day; they start at 00:00 UTC.
 * - Before 2024-09-09 Cloudflare bundles the DST cross-sign above any RSA Let's Encrypt
 *   intermediate (R3, and R10/R11 for certificates issued after 2024-06-06): edgezone's choice.
 *   Whether R10/R11 came with the cross-sign is not documented, but Cloudflare says custom uploads
 *   before September 9 keep "the cross-signed chain until their expiry", which no R3 leaf could
 *   do: LE stopped issuing from R3 on 2024-06-06 and its leaves live 90 days.
 * - ECDSA Let's Encrypt leaves after 2024-06-06 get E5/E6 signed by ISRG Root X1, without the
 *   cross-sign: Cloudflare's page ties the cross-signed chain to RSA certificates.
 * - Let's Encrypt's 2025 rotation to R12/R13 and E7/E8 is placed at 2025-08-20, the date by which
 *   https://letsencrypt.org/certificates/ lists them active; Generation Y is not modelled.
 * - Which SSL.com chain Cloudflare serves is not documented: edgezone serves Cloudflare TLS
 *   Issuing CA 1 and the Transit CA R2 signed by the SSL.com 2022 root (both in cfssl_trust's
 *   int-bundle.crt). DigiCert's chain has no public record: answered with `source: "unknown"`.
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
	/** "June 2024": the switch of managed certificates starts (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/; the day is edgezone's). */
	switchStarts: new Date("2024-06-01T00:00:00Z"),
	/** LE issues from R10/R11 and E5/E6 and drops the DST cross-sign (https://letsencrypt.org/2024/04/12/changes-to-issuance-chains/). */
	leNewIntermediates: new Date("2024-06-06T00:00:00Z"),
	/** The cross-signed chain is no longer used for issuance or bundling (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/). */
	crossSignDropped: new Date("2024-09-09T00:00:00Z"),
	/** ISRG Root X1 cross-signed by DST Root CA X3 expires: its notAfter (https://letsencrypt.org/certificates/). */
	crossSignExpires: new Date("2024-09-30T18:14:03Z"),
	/** LE's active intermediates are R12/R13 and E7/E8 (https://letsencrypt.org/certificates/; the date is edgezone's). */
	leRotation2025: new Date("2025-08-20T00:00:00Z"),
	/** The GlobalSign cross-signs of GTS Root R1 and R4 expire (their notAfter in cfssl_trust's int-bundle.crt). */
	gtsCrossSignsExpire: new Date("2028-01-28T00:00:42Z"),
} as const;

/** The schedule as the sources above state it, one row an event, oldest first (`source`: see the header). */
export const SCHEDULE: readonly { at: Date; event: string; source: string }[] = [
	{
		at: new Date("2024-02-08T00:00:00Z"),
		event: "Let's Encrypt stops giving the cross-signed chain by default (still an alternate chain).",
		source: "letsencrypt.org/2023/07/10/cross-sign-expiration/",
	},
	{
		at: MILESTONES.switchStarts,
		event: "The service starts switching the CA of managed certificates where the older CA was not explicitly chosen.",
		source: "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/ (June 2024)",
	},
	{
		at: MILESTONES.leNewIntermediates,
		event: "Let's Encrypt issues from R10/R11 and E5/E6 and removes the DST cross-sign from its API.",
		source: "letsencrypt.org/certificates/",
	},
	{
		at: MILESTONES.crossSignDropped,
		event:
			"Cross-signed chain no longer used for issuance or bundling; uploaded certificates of the older CA with bundle method compatible or modern are bundled with the self-signed root chain.",
		source: "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/ (September 9, 2024)",
	},
	{
		at: MILESTONES.crossSignExpires,
		event: "Cross-signed chain expires; the self-signed root chain is the only chain for RSA certificates of that CA.",
		source:
			"developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/ (September 30, 2024); letsencrypt.org/certificates/ (18:14:03 UTC)",
	},
	{
		at: MILESTONES.leRotation2025,
		event: "Let's Encrypt issues from R12/R13 and E7/E8.",
		source: "letsencrypt.org/certificates/",
	},
	{
		at: MILESTONES.gtsCrossSignsExpire,
		event: "The GlobalSign cross-signs of GTS Root R1 and GTS Root R4 expire.",
		source: "cloudflare/cfssl_trust int-bundle.crt",
	},
];

/**
 * Bundle methods: compatible = `ubiquitous`, modern = `optimal`, user-defined = `force`
 * (https://developers.cloudflare.com/ssl/edge-certificates/custom-certificates/bundling-methodologies/).
 */
type BundleMethod = "ubiquitous" | "optimal" | "force";

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
	/** Default `ubiquitous` (the API's default for custom certificates). Managed certificates other than custom hostnames have none. */
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
	/** The source line that decided this chain (short names: see the module's header). */
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

/** Let's Encrypt's intermediate for a leaf: by its issuer name when known, else by issue date (https://letsencrypt.org/certificates/). */
function letsEncryptIntermediate(certificate: ScheduledCertificate): CaCertificate | undefined {
	const keyType = certificate.key_type ?? "rsa";
	if (certificate.issuer !== undefined) {
		// E5-E9 exist signed by X2 and by X1; LE's default chain since 2024-06-06 uses the X1 one.
		return (
			findCaCertificate(certificate.issuer, "ISRG Root X1") ?? findCaCertificate(certificate.issuer, "ISRG Root X2")
		);
	}
	const issued = certificate.issued_on.getTime();
	// ECDSA leaves before June 2024 were signed by R3 unless the account was allow-listed for E1,
	// which nothing public records (https://letsencrypt.org/2024/04/12/changes-to-issuance-chains/).
	if (issued < MILESTONES.leNewIntermediates.getTime()) return caCertificate("r3");
	const late = issued >= MILESTONES.leRotation2025.getTime();
	if (keyType === "rsa") return caCertificate(pick(certificate.id, late ? "r12" : "r10", late ? "r13" : "r11"));
	return caCertificate(pick(certificate.id, late ? "e7_by_x1" : "e5_by_x1", late ? "e8_by_x1" : "e6_by_x1"));
}

/** What a chain function gets: the certificate, the instant, and its defaults filled in. */
interface ChainRequest {
	certificate: ScheduledCertificate;
	at: Date;
	/** `ubiquitous` when the certificate has none. */
	bundle: BundleMethod;
	/** `rsa` when the certificate has none. */
	keyType: KeyType;
}

/** A chain as one authority decides it, before the parts every chain shares are added. */
interface ChosenChain {
	intermediates: readonly ChainCertificate[];
	rule: string;
	/** `bundled` unless said otherwise. */
	source?: ServedChain["source"];
	/** Notes of the authority's decision, shown before the validity notes every chain gets. */
	notes?: readonly string[];
}

/**
 * `force` (user-defined): the uploaded chain, always; Cloudflare advises against the cross-sign
 * once it expired (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/).
 */
function uploadedChain({ certificate, at }: ChainRequest): ChosenChain {
	const uploaded = certificate.uploaded_chain ?? [];
	const crossSignAfterExpiry = uploaded.some(isCrossSign) && at.getTime() > MILESTONES.crossSignExpires.getTime();
	return {
		intermediates: uploaded,
		rule: "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: with the user-defined bundle method the uploaded chain is always served",
		source: "as_uploaded",
		notes: crossSignAfterExpiry
			? [
					"developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: certificates uploaded after September 30, 2024 should not use the cross-signed chain.",
				]
			: [],
	};
}

/**
 * Let's Encrypt: the intermediate (`letsEncryptIntermediate`), then for an RSA intermediate under
 * ISRG Root X1 the cross-sign `ISRG Root X1 ← DST Root CA X3` (a) for custom certificates uploaded
 * before 2024-09-09, until they expire, even once the cross-sign itself has expired, and (b) for
 * every other certificate while `at` is before 2024-09-09 ("no longer used for issuance or
 * bundling" from that day; https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/).
 * Otherwise the chain ends at ISRG Root X1; an X2-signed ECDSA intermediate is bundled up to X1
 * with `ubiquitous` (https://letsencrypt.org/certificates/).
 */
function letsEncryptChain({ certificate, at, bundle }: ChainRequest): ChosenChain {
	const intermediate = letsEncryptIntermediate(certificate);
	if (!intermediate) {
		return {
			intermediates: [],
			rule: "no chain recorded in cloudflare/cfssl_trust or letsencrypt.org/certificates/",
			source: "unknown",
			notes: [`Reference §2.4 records no Let's Encrypt intermediate named ${certificate.issuer}.`],
		};
	}
	if (intermediate.issuer === "ISRG Root X2") {
		// E1 (or E5-E9 named by an upload as X2-signed): compatible bundles up to ISRG Root X1.
		return {
			intermediates: bundle === "ubiquitous" ? [intermediate, caCertificate("isrg_root_x2_by_x1")] : [intermediate],
			rule: "letsencrypt.org/certificates/: ECDSA chain to ISRG Root X2 (cross-signed by X1 for compatible)",
		};
	}
	const rsaUnderX1 = intermediate.key_type === "rsa" && intermediate.issuer === "ISRG Root X1";
	const dropped = MILESTONES.crossSignDropped.getTime();
	const ecdsaRule = "letsencrypt.org/certificates/: ECDSA Let's Encrypt chain ends at the self-signed ISRG Root X1";
	if (certificate.type === "custom") {
		const uploaded = (certificate.uploaded_on ?? certificate.issued_on).getTime();
		if (rsaUnderX1 && uploaded < dropped) {
			return {
				intermediates: [intermediate, CROSS_SIGN],
				rule: "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: custom certificates uploaded before September 9 with bundle method compatible or modern keep the cross-signed chain until they expire",
			};
		}
		return {
			intermediates: [intermediate],
			rule:
				uploaded >= dropped
					? "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: from September 9, 2024 uploaded certificates with bundle method compatible or modern are bundled with the self-signed root chain"
					: ecdsaRule,
		};
	}
	if (rsaUnderX1 && at.getTime() < dropped) {
		return {
			intermediates: [intermediate, CROSS_SIGN],
			rule: "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: the cross-signed chain is used for issuance and bundling until September 9, 2024",
			notes:
				intermediate.subject === "R3"
					? []
					: [
							"Reference §2.7: whether R10/R11 certificates were served with the cross-sign before September 9 is UNVERIFIED.",
						],
		};
	}
	return {
		intermediates: [intermediate],
		rule: rsaUnderX1
			? "developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/: from September 9, 2024 the cross-signed chain is no longer used for issuance or bundling"
			: ecdsaRule,
	};
}

/**
 * Google Trust Services: `WR1|WE1 ← GTS Root R1|R4 (by GlobalSign Root CA)` while that cross-sign
 * is valid, except with `optimal`, which serves `WR1|WE1` to the self-signed GTS root (the chains of
 * https://github.com/cloudflare/cfssl_trust's int-bundle.crt; which one Cloudflare serves for a
 * managed certificate is not documented: the long one is edgezone's choice).
 */
function googleChain({ certificate, at, bundle, keyType }: ChainRequest): ChosenChain {
	const rsa = keyType === "rsa";
	const intermediate = caCertificate(rsa ? "wr1" : "we1");
	const cross = caCertificate(rsa ? "gts_root_r1_by_globalsign" : "gts_root_r4_by_globalsign");
	const crossValid = at.getTime() <= (notAfter(cross)?.getTime() ?? 0);
	if (bundle !== "optimal" && crossValid) {
		return {
			intermediates: [intermediate, cross],
			rule: "edgezone's model over cloudflare/cfssl_trust int-bundle.crt: compatible or managed, GTS root cross-signed by GlobalSign Root CA",
			notes:
				certificate.type === "custom"
					? []
					: [
							"Reference §2.6: which GTS chain Cloudflare serves for managed certificates is UNVERIFIED; the long one is assumed.",
						],
		};
	}
	return {
		intermediates: [intermediate],
		rule: "edgezone's model over cloudflare/cfssl_trust int-bundle.crt: modern (or after the GlobalSign cross-sign expired), the self-signed GTS root",
	};
}

/**
 * SSL.com as Cloudflare uses it: `Cloudflare TLS Issuing RSA|ECC CA 1 ← SSL.com TLS Transit … CA R2`
 * (https://github.com/cloudflare/cfssl_trust's int-bundle.crt); which chain Cloudflare serves is
 * not documented, so this one is edgezone's choice.
 */
function sslComChain({ certificate, keyType }: ChainRequest): ChosenChain {
	const rsa = keyType === "rsa";
	const transit = caCertificate(rsa ? "ssl_com_tls_transit_rsa_ca_r2" : "ssl_com_tls_transit_ecc_ca_r2");
	const named = certificate.issuer === undefined ? undefined : findCaCertificate(certificate.issuer, transit.subject);
	const intermediate =
		named ?? caCertificate(rsa ? "cloudflare_tls_issuing_rsa_ca_1" : "cloudflare_tls_issuing_ecc_ca_1");
	return {
		intermediates: [intermediate, transit],
		rule: "cloudflare/cfssl_trust int-bundle.crt: SSL.com as used by Cloudflare",
		notes: ["Reference §2.4: which SSL.com chain Cloudflare serves is UNVERIFIED."],
	};
}

/** DigiCert: no public record of the chain Cloudflare served, so `source: "unknown"`. */
function digicertChain(): ChosenChain {
	return {
		intermediates: [],
		rule: "no chain recorded in cloudflare/cfssl_trust or letsencrypt.org/certificates/",
		source: "unknown",
		notes: ["Reference §2.4: DigiCert chains are NOT FOUND."],
	};
}

/** The chain of each certificate authority for the bundle methods Cloudflare builds (all but `force`). */
const CHAINS: Record<CertificateAuthority, (request: ChainRequest) => ChosenChain> = {
	lets_encrypt: letsEncryptChain,
	google: googleChain,
	ssl_com: sslComChain,
	digicert: digicertChain,
};

/**
 * The chain Cloudflare serves for `certificate` at `at`: the uploaded one with `force`, else its
 * certificate authority's (`CHAINS`); every certificate served but not valid at `at` gets a note.
 */
export function servedChain(certificate: ScheduledCertificate, at: Date): ServedChain {
	const request: ChainRequest = {
		certificate,
		at,
		bundle: certificate.bundle_method ?? "ubiquitous",
		keyType: certificate.key_type ?? "rsa",
	};
	const chosen =
		request.bundle === "force" ? uploadedChain(request) : CHAINS[certificate.certificate_authority](request);
	const { intermediates } = chosen;
	const last = intermediates.at(-1);
	const expired = intermediates
		.filter((served) => validAt(served, at) === false)
		.map((served) => `${served.subject} (issued by ${served.issuer}) is served but not valid at ${at.toISOString()}.`);
	return {
		certificate_authority: certificate.certificate_authority,
		leaf: {
			issuer: certificate.issuer || (intermediates[0]?.subject ?? ""),
			not_before: certificate.issued_on,
			not_after: certificate.expires_on,
		},
		source: chosen.source ?? "bundled",
		intermediates,
		root: last ? (findCaCertificate(last.issuer, last.issuer) ?? null) : null,
		cross_signed: intermediates.some(isCrossSign),
		rule: chosen.rule,
		notes: [...(chosen.notes ?? []), ...expired],
	};
}

/** One line naming a chain, e.g. `R3 by ISRG Root X1 > ISRG Root X1 by DST Root CA X3 (expired) > anchor DST Root CA X3`; `(expired)` marks a certificate not valid at `at`. */
export function describeChain(chain: ServedChain, at: Date): string {
	const parts = chain.intermediates.map(
		(c) => `${c.subject} by ${c.issuer}${validAt(c, at) === false ? " (expired)" : ""}`,
	);
	return [...parts, `anchor ${chain.root?.subject ?? "unknown"}`].join(" > ");
}
