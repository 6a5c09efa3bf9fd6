/**
 * The lifecycle of a custom hostname and its certificate on the zone's clock, derived at read
 * time from stored moments, the simulated DNS (`zone/dns.ts`) and the clock, so setting the clock
 * forward or back shows the state of that moment without alarms (edgezone's design).
 *
 * Hostname: `pending` until ownership is verified, then `active`. Verified at the first moment
 * the DNS holds the ownership token (TXT `_cf-custom-hostname.<hostname>` = value, or the HTTP
 * token at `/.well-known/cf-custom-hostname-challenge/<id>`), not before the hostname was created.
 * Ownership never times out here (gap: Cloudflare's deadline is not documented in our sources).
 *
 * Certificate (ssl.status, SDK enum): `initializing` for INITIALIZING_MS, then
 * `pending_validation` until DCV succeeds: the DNS holds every `_acme-challenge` TXT value
 * (method txt) or the HTTP token (method http), and the CAA records let the CA issue; never for
 * method email, which edgezone cannot deliver. Validation is seen at once (Cloudflare polls;
 * edgezone has nothing to wait for). Without success within the CA's DCV token validity (LE 7
 * days, Google and SSL.com 14; Cloudflare's CA docs) it is `validation_timed_out` until a PATCH starts it
 * again. Then `pending_issuance` for ISSUANCE_MS, `pending_deployment` for DEPLOYMENT_MS, and
 * `active`. The step durations are edgezone's choice: short, so a replay needs only a small
 * clock advance, and not zero, so each state can be seen.
 * Renewal: RENEWAL_WINDOW_DAYS before `expires_on` (Cloudflare's validity docs: "30 days for 1-year and
 * 3-month certificates"; custom hostname certificates are 90-day ones), the certificate renews
 * when the DNS still holds its DCV token and CAA lets the CA issue: a new certificate (serial,
 * `uploaded_on`, `expires_on`) after ISSUANCE_MS + DEPLOYMENT_MS, the status staying `active`.
 * Edgezone keeps the DCV tokens across renewals (Cloudflare may issue new ones: a gap). Without
 * the token the certificate is `pending_expiration` in the window and `expired` after it.
 *
 * Moments derived from the DNS (verification, validation, the latest renewal) are stored when
 * the DNS changes (`Zone`'s DNS writes), so removing a TXT record after validation or renewal
 * does not undo it; later renewals read the DNS as it is.
 */
import type { DnsView } from "../dns";
import {
	type Authority,
	caaDomain,
	caaPermits,
	RENEWAL_WINDOW_DAYS,
	type RequestedAuthority,
	tokenValidityDays,
	VALIDITY_DAYS,
} from "./authorities";
import { baseName } from "./names";

const DAY_MS = 86_400_000;

/** How long a new or re-triggered certificate is `initializing`, in ms. */
const INITIALIZING_MS = 5_000;
/** How long a validated certificate is `pending_issuance`, in ms. */
const ISSUANCE_MS = 30_000;
/** How long an issued certificate is `pending_deployment`, in ms. */
export const DEPLOYMENT_MS = 30_000;

/** DCV methods (SDK `CustomHostnameCreateParams.SSL.method`). */
export type DcvMethod = "http" | "txt" | "email";
/** Bundle methods (SDK `CustomHostnameCreateParams.SSL.bundle_method`). */
export type BundleMethod = "ubiquitous" | "optimal" | "force";

/** TLS settings of a custom hostname (SDK `ssl.settings`). */
export interface SslSettings {
	min_tls_version?: "1.0" | "1.1" | "1.2" | "1.3";
	ciphers?: string[];
	http2?: "on" | "off";
	tls_1_3?: "on" | "off";
	early_hints?: "on" | "off";
}

/** What is stored of a custom hostname's certificate request; states are derived from it. */
export interface SslRecord {
	/** UUID; a new one for every re-issue (CA or wildcard change). */
	id: string;
	type: "dv";
	method: DcvMethod;
	bundle_method: BundleMethod;
	/** The CA as the client asked ("" = the default CA). */
	requested_authority: RequestedAuthority;
	/** The CA chosen when the certificate was requested. */
	certificate_authority: Authority;
	wildcard: boolean;
	settings: SslSettings;
	cloudflare_branding?: boolean;
	/** Zone clock ms when the certificate was requested, or validation re-triggered. */
	requested_at: number;
	/** Zone clock ms DCV succeeded, once stored (see header); null while derived or pending. */
	validated_at: number | null;
	/** `_acme-challenge` TXT values: one, two with `wildcard` (the name and `*.` the name). */
	txt_values: string[];
	/** The token file of HTTP DCV under `/.well-known/pki-validation/`. */
	http_file: string;
	http_body: string;
	/** The first certificate's serial number (hex); each renewal adds one. */
	serial: string;
	/** The latest renewed certificate known when the DNS last changed (see header); null before any. */
	renewed: { issued_at: number; generation: number } | null;
}

/** What is stored of a custom hostname. */
export interface HostnameRecord {
	id: string;
	hostname: string;
	/** Zone clock ms. */
	created_at: number;
	custom_metadata?: Record<string, string>;
	custom_origin_server?: string;
	custom_origin_sni?: string;
	/** The ownership token: TXT value and HTTP body. */
	ownership_value: string;
	/** The file name of the ownership HTTP token. */
	ownership_file: string;
	/** Zone clock ms ownership was verified, once stored; null while derived or pending. */
	verified_at: number | null;
	ssl?: SslRecord;
}

/** Certificate states edgezone's lifecycle reaches (a subset of the SDK's `ssl.status` enum). */
type SslStatus =
	| "initializing"
	| "pending_validation"
	| "validation_timed_out"
	| "pending_issuance"
	| "pending_deployment"
	| "active"
	| "pending_expiration"
	| "expired";

/** A certificate's state at one moment. */
export interface SslState {
	status: SslStatus;
	/** `ssl.validation_errors[].message`: why validation cannot succeed (CAA). */
	validationErrors: string[];
	/** The certificate served (or about to be), once issued. */
	certificate?: { issuedAt: number; expiresAt: number; serial: string; generation: number };
	/** When DCV succeeded, when it has by now. */
	validatedAt?: number;
}

/** The TXT name of a hostname's ownership token. */
export const ownershipTxtName = (hostname: string) => `_cf-custom-hostname.${baseName(hostname)}`;
/** The path of a hostname's ownership HTTP token. */
export const ownershipHttpPath = (record: HostnameRecord) =>
	`/.well-known/cf-custom-hostname-challenge/${record.ownership_file}`;
/** The TXT name of a certificate's DCV tokens. */
export const acmeTxtName = (hostname: string) => `_acme-challenge.${baseName(hostname)}`;
/** The path of a certificate's HTTP DCV token. */
export const dcvHttpPath = (ssl: SslRecord) => `/.well-known/pki-validation/${ssl.http_file}`;

/** When ownership was verified (stored, or the first moment the DNS holds a token), if it has been. */
export function ownershipMoment(record: HostnameRecord, dns: DnsView): number | undefined {
	if (record.verified_at !== null) return record.verified_at;
	const times = [dns.txtSetAt(ownershipTxtName(record.hostname), record.ownership_value)];
	if (!record.hostname.startsWith("*."))
		times.push(dns.httpSetAt(record.hostname, ownershipHttpPath(record), record.ownership_value));
	const seen = times.filter((t) => t !== undefined);
	return seen.length === 0 ? undefined : Math.max(record.created_at, Math.min(...seen));
}

/** The hostname's status at `now`: `active` once ownership is verified. */
export function hostnameStatus(record: HostnameRecord, dns: DnsView, now: number): "active" | "pending" {
	const verified = ownershipMoment(record, dns);
	return verified !== undefined && verified <= now ? "active" : "pending";
}

/** When the DNS came to hold every DCV token of the certificate, if it does. */
function dcvEvidence(hostname: string, ssl: SslRecord, dns: DnsView): number | undefined {
	switch (ssl.method) {
		case "txt": {
			const times = ssl.txt_values.map((value) => dns.txtSetAt(acmeTxtName(hostname), value));
			return times.some((t) => t === undefined) ? undefined : Math.max(...(times as number[]));
		}
		case "http":
			return dns.httpSetAt(hostname, dcvHttpPath(ssl), ssl.http_body);
		case "email":
			return undefined;
	}
}

/** Whether CAA lets the certificate's CA issue for every name it covers, and since when CAA is as it is. */
function caaState(hostname: string, ssl: SslRecord, dns: DnsView): { permits: boolean; owner: string; since: number } {
	const { records, owner, changedAt } = dns.caa(baseName(hostname));
	const ca = ssl.certificate_authority;
	const permits = hostname.startsWith("*.")
		? caaPermits(records, ca, true)
		: caaPermits(records, ca, false) && (!ssl.wildcard || caaPermits(records, ca, true));
	return { permits, owner, since: changedAt };
}

/**
 * The validation error naming CAA (in the style of the API's `validation_errors[].message`; the
 * real text is not public, so this one is edgezone's): `owner` is the name whose CAA records apply.
 */
function caaError(hostname: string, owner: string, authority: Authority): string {
	return `caa_error: the CAA records of ${owner} do not allow ${caaDomain(authority)} (${authority}) to issue a certificate for ${hostname}`;
}

/** The moment the token validity of a request runs out. */
function validationDeadline(ssl: SslRecord): number {
	return ssl.requested_at + tokenValidityDays(ssl.certificate_authority) * DAY_MS;
}

/** When DCV succeeded (stored, or derived from the DNS), if it has and within the token validity. */
export function validationMoment(hostname: string, ssl: SslRecord, dns: DnsView): number | undefined {
	if (ssl.validated_at !== null) return ssl.validated_at;
	const evidence = dcvEvidence(hostname, ssl, dns);
	if (evidence === undefined) return undefined;
	const caa = caaState(hostname, ssl, dns);
	if (!caa.permits) return undefined;
	const moment = Math.max(ssl.requested_at + INITIALIZING_MS, evidence, caa.since);
	return moment < validationDeadline(ssl) ? moment : undefined;
}

/** The certificate's state at `now` (ms on the zone's clock); the steps are in the file header. */
export function sslState(hostname: string, ssl: SslRecord, dns: DnsView, now: number): SslState {
	if (now < ssl.requested_at + INITIALIZING_MS) return { status: "initializing", validationErrors: [] };
	const caa = caaState(hostname, ssl, dns);
	const validatedAt = validationMoment(hostname, ssl, dns);
	if (validatedAt === undefined || now < validatedAt) {
		return {
			status: now >= validationDeadline(ssl) ? "validation_timed_out" : "pending_validation",
			validationErrors: caa.permits ? [] : [caaError(hostname, caa.owner, ssl.certificate_authority)],
		};
	}
	const issuedAt = validatedAt + ISSUANCE_MS;
	if (now < issuedAt) return { status: "pending_issuance", validationErrors: [], validatedAt };
	const validity = VALIDITY_DAYS * DAY_MS;
	const certificate = (issued: number, generation: number) => ({
		issuedAt: issued,
		expiresAt: issued + validity,
		serial: (BigInt(`0x${ssl.serial}`) + BigInt(generation)).toString(16),
		generation,
	});
	const first = certificate(issuedAt, 0);
	if (now < issuedAt + DEPLOYMENT_MS)
		return { status: "pending_deployment", validationErrors: [], validatedAt, certificate: first };
	const active = (cert: SslState["certificate"]): SslState => ({
		status: "active",
		validationErrors: [],
		validatedAt,
		certificate: cert,
	});
	const window = RENEWAL_WINDOW_DAYS * DAY_MS;
	const base = ssl.renewed;
	const current =
		base !== null && now >= base.issued_at + DEPLOYMENT_MS ? certificate(base.issued_at, base.generation) : first;
	const firstWindow = current.expiresAt - window;
	if (now < firstWindow) return active(current);
	// The first renewal waits for the token and CAA; every later one starts with its window.
	const evidence = dcvEvidence(hostname, ssl, dns);
	const renewAt =
		evidence !== undefined && caa.permits ? Math.max(firstWindow, evidence, caa.since) : Number.POSITIVE_INFINITY;
	if (renewAt >= current.expiresAt || now < renewAt) {
		const status = now < current.expiresAt ? "pending_expiration" : "expired";
		return { status, validationErrors: [], validatedAt, certificate: current };
	}
	const renewed = renewAt + ISSUANCE_MS;
	if (now < renewed + DEPLOYMENT_MS) return active(current);
	const period = validity - window + ISSUANCE_MS;
	const later = Math.floor((now - renewed - DEPLOYMENT_MS) / period);
	return active(certificate(renewed + later * period, current.generation + 1 + later));
}
