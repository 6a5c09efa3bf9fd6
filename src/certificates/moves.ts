/**
 * The automatic moves of the 2024 schedule between two instants of the emulator's clock: CA
 * switches, chain changes, and the e-mails Cloudflare sends, as events a Zone can apply and put in
 * its outbox.
 *
 * Follows Cloudflare's "Let's Encrypt chain update"
 * (https://developers.cloudflare.com/ssl/reference/migration-guides/lets-encrypt-chain/, "the
 * migration guide") and its validity docs
 * (https://developers.cloudflare.com/ssl/reference/certificate-validity-periods/):
 * - Universal certificates, and custom hostnames with the default CA (`""`), on Let's Encrypt where
 *   the owner did not choose it move to Google Trust Services "from June 2024" unless CAA blocks
 *   Google. The guide does not say when; edgezone moves a certificate at its renewal (its expiry
 *   minus the renewal window), and at the earliest on 2024-06-01.
 * - Advanced certificates, Total TLS certificates and custom hostnames set to Let's Encrypt are not
 *   changed; their owner gets an e-mail (the guide: advanced certificates' owners are e-mailed, SaaS
 *   providers are e-mailed and advised to switch before September 9, 2024; for Total TLS, edgezone's
 *   choice to e-mail too). So is a universal certificate kept on Let's Encrypt by an explicit choice
 *   or by CAA. Custom (uploaded) certificates get none: nothing is done to them.
 * - Managed certificates renew at their expiry minus the renewal window with the same CA and validity
 *   (validity docs), so a Let's Encrypt renewal after 2024-06-06 gets R10/R11
 *   (https://letsencrypt.org/2024/04/12/changes-to-issuance-chains/); custom certificates are not
 *   renewed (the guide: "Cloudflare does not renew custom certificates").
 * - Chains change on the schedule's instants (2024-09-09; the second after 2024-09-30 18:14:03 and
 *   after 2028-01-28 00:00:42, when the cross-signs have expired).
 * Gaps: the e-mails' date and text are not public; the emulator sends them on 2024-06-01 (or when
 * the certificate is created, until 2024-09-09) in its own words, stating the guide's facts.
 */
import { type CertificateAuthority, type CertificateType, expiresOn, renewsOn } from "./authorities.ts";
import { type CaaRecord, caaPermits } from "./caa.ts";
import { describeChain, MILESTONES, SCHEDULE, type ScheduledCertificate, servedChain } from "./schedule.ts";

/** What the moves need besides the certificate. */
export interface MoveContext {
	/** The CAA records that apply to the certificate's hostname: they decide whether Google may issue. */
	caa?: readonly CaaRecord[];
	wildcard?: boolean;
	/** The hostname, for the e-mail. */
	hostname?: string;
	/** When the certificate (pack, custom hostname) was created: one e-mail per certificate. Default `issued_on`. */
	created_on?: Date;
}

/** An e-mail Cloudflare sends about a certificate. */
interface Notification {
	at: Date;
	subject: string;
	body: string;
	certificate_type: CertificateType;
	certificate_id?: string;
	/** Where the words come from: the emulator's, as Cloudflare's text is not recorded. */
	source: string;
}

/** Something the clock does to a certificate: re-issue by another CA, renewal, a new chain, an e-mail. */
export type ScheduledEvent =
	| {
			kind: "ca_switched";
			at: Date;
			from: CertificateAuthority;
			to: CertificateAuthority;
			/** The re-issued certificate's dates and the chain it is served with. */
			issued_on: Date;
			expires_on: Date;
			chain: string;
			rule: string;
	  }
	| {
			kind: "renewed";
			at: Date;
			certificate_authority: CertificateAuthority;
			issued_on: Date;
			expires_on: Date;
			chain: string;
			rule: string;
	  }
	| { kind: "chain_changed"; at: Date; before: string; after: string; rule: string }
	| { kind: "notification"; at: Date; email: Notification; rule: string };

const LABELS: Record<CertificateType, string> = {
	universal: "Universal SSL",
	advanced: "advanced",
	total_tls: "Total TLS",
	custom: "custom",
	custom_hostname: "custom hostname",
};

/** The CA the owner asked for; universal certificates without a setting leave the choice to Cloudflare. */
function requested(certificate: ScheduledCertificate): "" | CertificateAuthority {
	return certificate.requested_authority ?? (certificate.type === "universal" ? "" : certificate.certificate_authority);
}

/** Would this certificate move to Google at a renewal from June 2024 on (the migration guide)? */
function switches(certificate: ScheduledCertificate, context: MoveContext): boolean {
	if (certificate.certificate_authority !== "lets_encrypt") return false;
	// The migration guide: Total TLS is not changed automatically; custom certificates are the uploader's.
	if (certificate.type === "custom" || certificate.type === "total_tls") return false;
	return requested(certificate) === "" && caaPermits(context.caa, "google", context.wildcard);
}

/** One state of a certificate over time: from `at`, these are its CA and dates. */
interface Step {
	at: Date;
	certificate: ScheduledCertificate;
	kind: "issued" | "renewed" | "ca_switched";
}

/**
 * The certificate's states up to `until`: managed certificates renew at their expiry minus the
 * renewal window (validity docs) with the same validity; a renewal on or after 2024-06-01 of a
 * certificate that {@link switches} is issued by Google. Custom certificates are never renewed
 * ("Cloudflare does not renew custom certificates", the migration guide).
 */
function timeline(certificate: ScheduledCertificate, until: Date, context: MoveContext): Step[] {
	const steps: Step[] = [{ at: certificate.issued_on, certificate, kind: "issued" }];
	if (certificate.type === "custom") return steps;
	const move = switches(certificate, context);
	const days = Math.round((certificate.expires_on.getTime() - certificate.issued_on.getTime()) / 86_400_000);
	let current = certificate;
	for (;;) {
		const at = renewsOn(current.issued_on, current.expires_on);
		if (at.getTime() > until.getTime() || days <= 0) return steps;
		const switching =
			move && current.certificate_authority === "lets_encrypt" && at.getTime() >= MILESTONES.switchStarts.getTime();
		// The leaf's issuer name belonged to the old certificate; the new one gets its CA's intermediate.
		const { issuer: _, ...rest } = current;
		current = {
			...rest,
			certificate_authority: switching ? "google" : current.certificate_authority,
			issued_on: at,
			expires_on: expiresOn(at, days),
		};
		steps.push({ at, certificate: current, kind: switching ? "ca_switched" : "renewed" });
	}
}

/** The e-mail about a managed certificate that stays on Let's Encrypt. */
function notification(certificate: ScheduledCertificate, context: MoveContext, at: Date): Notification {
	const type = certificate.type;
	const what = `${LABELS[type]} certificate${context.hostname ? ` for ${context.hostname}` : ""}`;
	const caaBlocks = requested(certificate) === "" && !caaPermits(context.caa, "google", context.wildcard);
	const why = caaBlocks
		? "A CAA record blocks Google Trust Services (pki.goog), so it stays on Let's Encrypt. Add pki.goog to the CAA records to let Cloudflare use a more compatible CA."
		: {
				universal:
					"Let's Encrypt was chosen explicitly in the Universal SSL settings, so it is not switched automatically.",
				advanced:
					"It was explicitly set to Let's Encrypt, so Cloudflare does not change it. Order a certificate pack from another CA (google or ssl_com) to keep legacy clients working.",
				total_tls:
					"Total TLS certificates are not changed automatically. Select another CA in the Total TLS settings under SSL/TLS > Edge Certificates.",
				custom_hostname:
					'It is set to Let\'s Encrypt and is not changed automatically. We advise switching its CA before September 9, 2024: PATCH the custom hostname with {"ssl":{"method":"txt","type":"dv","certificate_authority":""}} for the default CA, or "google".',
				custom: "",
			}[type];
	return {
		at,
		subject: `Let's Encrypt chain change: your ${what} uses Let's Encrypt`,
		body: [
			`Your ${what} is issued by Let's Encrypt.`,
			"From September 9, 2024 Cloudflare no longer uses the cross-signed chain (ISRG Root X1 cross-signed by DST Root CA X3) for issuance or bundling, and that chain expires on September 30, 2024. After that the certificate is served with the self-signed ISRG Root X1 chain, which legacy clients such as Android 7.0 and earlier do not trust.",
			why,
		].join("\n\n"),
		certificate_type: type,
		...(certificate.id === undefined ? {} : { certificate_id: certificate.id }),
		source: "edgezone's wording of the Let's Encrypt chain update page; Cloudflare's e-mail text is not public",
	};
}

/**
 * The instants a served chain can change by the clock alone, each with the instant to compare with
 * and its schedule row. An expiry shows one second after the notAfter: X.509 validity is inclusive
 * and counted in seconds.
 */
const CHAIN_INSTANTS = [MILESTONES.crossSignDropped, MILESTONES.crossSignExpires, MILESTONES.gtsCrossSignsExpire].map(
	(milestone) => {
		const row = SCHEDULE.find((entry) => entry.at.getTime() === milestone.getTime());
		const dropped = milestone === MILESTONES.crossSignDropped;
		return {
			before: new Date(milestone.getTime() - (dropped ? 1 : 0)),
			at: new Date(milestone.getTime() + (dropped ? 0 : 1000)),
			rule: `${row?.source}: ${row?.event}`,
		};
	},
);

/**
 * The events the clock brings to `certificate` in the window (`from`, `to`], oldest first, and the
 * certificate as it stands at `to` (renewed, or moved to Google, by every step due by then, also
 * those before `from`). Call it with consecutive windows as the clock advances and each event comes
 * exactly once; pass the certificate as first issued (or as it stood at `from`).
 */
export function scheduledMoves(
	certificate: ScheduledCertificate,
	from: Date,
	to: Date,
	context: MoveContext = {},
): { certificate: ScheduledCertificate; events: ScheduledEvent[] } {
	const events: ScheduledEvent[] = [];
	const inWindow = (at: Date) => at.getTime() > from.getTime() && at.getTime() <= to.getTime();
	const steps = timeline(certificate, to, context);
	const stateAt = (at: Date) => steps.findLast((step) => step.at.getTime() <= at.getTime())?.certificate ?? certificate;
	for (const step of steps) {
		if (step.kind === "issued" || !inWindow(step.at)) continue;
		const renewed = step.certificate;
		const base = {
			at: step.at,
			issued_on: renewed.issued_on,
			expires_on: renewed.expires_on,
			chain: describeChain(servedChain(renewed, step.at), step.at),
		};
		if (step.kind === "ca_switched") {
			events.push({
				kind: "ca_switched",
				from: "lets_encrypt",
				to: "google",
				...base,
				rule: "Let's Encrypt chain update: from June 2024 managed certificates where Let's Encrypt was not explicitly chosen are switched automatically (at renewal: edgezone's choice)",
			});
		} else {
			events.push({
				kind: "renewed",
				certificate_authority: renewed.certificate_authority,
				...base,
				rule: "certificate validity periods: auto-renewal window (30 days for 3-month and 1-year, 7 for 1-month, 3 for 2-week certificates)",
			});
		}
	}
	if (certificate.type !== "custom" && !switches(certificate, context)) {
		const created = context.created_on ?? certificate.issued_on;
		const at = new Date(Math.max(MILESTONES.switchStarts.getTime(), created.getTime()));
		const state = stateAt(at);
		const alive = at.getTime() <= state.expires_on.getTime();
		if (
			state.certificate_authority === "lets_encrypt" &&
			alive &&
			at.getTime() < MILESTONES.crossSignDropped.getTime() &&
			inWindow(at)
		) {
			events.push({
				kind: "notification",
				at,
				email: notification(state, context, at),
				rule: "Let's Encrypt chain update: certificates set to Let's Encrypt are not changed automatically; the owner is notified by e-mail",
			});
		}
	}
	for (const { before: just, at: instant, rule } of CHAIN_INSTANTS) {
		const state = stateAt(instant);
		const alive = instant.getTime() > state.issued_on.getTime() && instant.getTime() <= state.expires_on.getTime();
		if (!inWindow(instant) || !alive) continue;
		const before = describeChain(servedChain(state, just), just);
		const after = describeChain(servedChain(state, instant), instant);
		if (before !== after) events.push({ kind: "chain_changed", at: instant, before, after, rule });
	}
	events.sort((a, b) => a.at.getTime() - b.at.getTime());
	return { certificate: stateAt(to), events };
}

/** The certificate as it stands at `at`, after the renewals and moves due by then (see {@link scheduledMoves}). */
export function certificateAt(
	certificate: ScheduledCertificate,
	at: Date,
	context: MoveContext = {},
): ScheduledCertificate {
	return scheduledMoves(certificate, at, at, context).certificate;
}
