/**
 * Which client platforms validate a served chain on a date: beyond the real API, so a SaaS
 * provider sees who breaks before switching.
 *
 * Follows Let's Encrypt's compatibility list (who trusts ISRG Root X1/X2:
 * https://letsencrypt.org/docs/certificate-compatibility/), who breaks (Android before 7.1.1, and
 * OpenSSL 1.0.x shown the long chain: https://letsencrypt.org/docs/dst-root-ca-x3-expiration-september-2021/),
 * and edgezone's model of path validation (RFC 5280 §6, simplified): build a path from the leaf
 * through the served certificates to an anchor the client trusts; every non-anchor certificate must
 * be valid; the anchor's expiry counts only for clients that enforce it (Android does not); a client
 * without path building (OpenSSL 1.0.x) uses the served chain to its end and fails if any served
 * certificate has expired.
 * Gaps: the public lists cover only ISRG Root X1/X2 and DST Root CA X3. That Android 7.1.1+ and
 * modern stores trust GlobalSign Root CA is edgezone's reading of Cloudflare's CA docs
 * (https://developers.cloudflare.com/ssl/reference/certificate-authorities/: GTS is cross-signed by
 * a GlobalSign root "installed in client devices for more than 20 years"); GTS Root R1/R4, the
 * SSL.com roots and AAA Certificate Services appear in no store list, so a chain that needs them is
 * answered `validates: null` with the reason.
 */
import { CA_CERTIFICATES, type ChainCertificate, findCaCertificate, validAt } from "./ca-certificates.ts";
import type { ServedChain } from "./schedule.ts";

/** A client platform: the anchors it is known to trust or not, and how it checks chains. */
export interface ClientPlatform {
	id: string;
	name: string;
	/** Anchor subjects the sources say it trusts. */
	trusts: readonly string[];
	/** Anchor subjects the sources say it lacks; anything in neither list is unknown. */
	lacks: readonly string[];
	/** False for Android: "does not enforce the expiration dates of certificates used as trust anchors". */
	enforces_anchor_expiry: boolean;
	/** False for OpenSSL 1.0.x, which follows the served chain to its end. */
	builds_paths: boolean;
	source: string;
}

/** The platforms of Let's Encrypt's compatibility pages, with GlobalSign per Cloudflare's CA docs. */
export const CLIENT_PLATFORMS: readonly ClientPlatform[] = [
	{
		id: "android_before_7_1_1",
		name: "Android before 7.1.1 (7.0 and earlier)",
		trusts: ["DST Root CA X3", "GlobalSign Root CA"],
		lacks: ["ISRG Root X1", "ISRG Root X2"],
		enforces_anchor_expiry: false,
		builds_paths: true,
		source:
			"https://letsencrypt.org/docs/certificate-compatibility/; https://letsencrypt.org/2020/12/21/extending-android-compatibility/",
	},
	{
		id: "android_7_1_1_to_13",
		name: "Android 7.1.1 to 13",
		trusts: ["ISRG Root X1", "GlobalSign Root CA"],
		lacks: ["ISRG Root X2"],
		enforces_anchor_expiry: false,
		builds_paths: true,
		source: "https://letsencrypt.org/docs/certificate-compatibility/ (X1 from 7.1.1, X2 from 14); GlobalSign: CA docs",
	},
	{
		id: "android_14_and_later",
		name: "Android 14 and later",
		trusts: ["ISRG Root X1", "ISRG Root X2", "GlobalSign Root CA"],
		lacks: [],
		enforces_anchor_expiry: false,
		builds_paths: true,
		source: "https://letsencrypt.org/docs/certificate-compatibility/; GlobalSign: CA docs",
	},
	{
		id: "modern_trust_stores",
		name: "Modern trust stores (Windows XP SP3+, macOS 10.12.1+, iOS 10+, Firefox 50+, Chrome 105+, Java 8u141+, NSS 3.26+, Debian 8+, Ubuntu 12.04+)",
		trusts: ["ISRG Root X1", "GlobalSign Root CA"],
		lacks: [],
		enforces_anchor_expiry: true,
		builds_paths: true,
		source: "https://letsencrypt.org/docs/certificate-compatibility/ (ISRG Root X1 list); GlobalSign: CA docs",
	},
	{
		id: "openssl_1_0_x",
		name: "OpenSSL 1.0.x (trusting ISRG Root X1)",
		trusts: ["ISRG Root X1"],
		lacks: [],
		enforces_anchor_expiry: true,
		builds_paths: false,
		source: "https://letsencrypt.org/docs/dst-root-ca-x3-expiration-september-2021/",
	},
];

/** One platform's answer: validates (true), fails (false), or not known from the facts (null), with the reason. */
export interface ClientVerdict {
	client: string;
	name: string;
	validates: boolean | null;
	reason: string;
}

type PathOutcome = { validates: boolean | null; reason: string };

const iso = (at: Date) => at.toISOString();

/** Checks one path ending at anchor `anchorName` for this client. */
function checkPath(
	client: ClientPlatform,
	path: readonly ChainCertificate[],
	anchorName: string,
	at: Date,
): PathOutcome {
	const names = [...path.map((c) => c.subject), anchorName].join(" > ");
	const expired = path.find((c) => validAt(c, at) === false);
	if (expired) {
		return {
			validates: false,
			reason: `${names}: ${expired.subject} (by ${expired.issuer}) is not valid at ${iso(at)}`,
		};
	}
	const anchor = findCaCertificate(anchorName, anchorName);
	if (client.enforces_anchor_expiry && anchor && validAt(anchor, at) === false) {
		return { validates: false, reason: `${names}: the anchor ${anchorName} expired on ${anchor.not_after}` };
	}
	if (client.lacks.includes(anchorName)) {
		return { validates: false, reason: `${names}: ${anchorName} is not in its trust store` };
	}
	if (!client.trusts.includes(anchorName)) {
		return { validates: null, reason: `${names}: whether it trusts ${anchorName} is not recorded` };
	}
	const ignored = !client.enforces_anchor_expiry && anchor && validAt(anchor, at) === false;
	return {
		validates: true,
		reason: `${names}: trusted anchor ${anchorName}${ignored ? " (expired, but Android ignores anchor expiry)" : ""}`,
	};
}

/** True when the data knows `name` only as an intermediate (never self-signed): it cannot be an anchor. */
function onlyIntermediate(name: string): boolean {
	return findCaCertificate(name, name) === undefined && Object.values(CA_CERTIFICATES).some((c) => c.subject === name);
}

/**
 * Every path a path-building client may take: from the leaf's issuer through served certificates,
 * ending at each name that could be an anchor (a root, or a name the data does not know).
 */
function candidatePaths(
	served: readonly ChainCertificate[],
	leafIssuer: string,
): { path: ChainCertificate[]; anchor: string }[] {
	const out: { path: ChainCertificate[]; anchor: string }[] = [];
	const walk = (issuer: string, path: ChainCertificate[]) => {
		if (!onlyIntermediate(issuer)) out.push({ path, anchor: issuer });
		for (const next of served) {
			if (next.subject === issuer && !path.includes(next) && next.subject !== next.issuer) {
				walk(next.issuer, [...path, next]);
			}
		}
	};
	walk(leafIssuer, []);
	return out;
}

/** The outcome for one client: the first valid path, else unknown, else the failure of the longest path. */
function verdict(client: ClientPlatform, chain: ServedChain, at: Date): PathOutcome {
	if (!client.builds_paths) {
		const last = chain.intermediates.at(-1);
		return checkPath(client, chain.intermediates, last ? last.issuer : chain.leaf.issuer, at);
	}
	const outcomes = candidatePaths(chain.intermediates, chain.leaf.issuer).map((p) =>
		checkPath(client, p.path, p.anchor, at),
	);
	return (
		outcomes.find((o) => o.validates === true) ??
		outcomes.find((o) => o.validates === null) ??
		outcomes.at(-1) ?? { validates: false, reason: "no path" }
	);
}

/**
 * For each platform of {@link CLIENT_PLATFORMS}: does it validate this served chain at `at`?
 * A leaf outside its validity fails everywhere; a chain the facts do not hold (`source: "unknown"`)
 * is unknown everywhere. Reasons name the path tried, e.g. `R3 > ISRG Root X1 > DST Root CA X3: ...`.
 */
export function validatingClients(chain: ServedChain, at: Date): ClientVerdict[] {
	const t = at.getTime();
	return CLIENT_PLATFORMS.map((client) => {
		const base = { client: client.id, name: client.name };
		if (t < chain.leaf.not_before.getTime() || t > chain.leaf.not_after.getTime()) {
			return {
				...base,
				validates: false,
				reason: `the certificate is valid from ${iso(chain.leaf.not_before)} to ${iso(chain.leaf.not_after)}, not at ${iso(at)}`,
			};
		}
		if (chain.source === "unknown") {
			return { ...base, validates: null, reason: "the chain served for this certificate is not recorded" };
		}
		return { ...base, ...verdict(client, chain, at) };
	});
}
