/**
 * A stored custom hostname as the API answers it at one moment: the SDK's `CustomHostname` with the
 * fields of the SDK's `CustomHostnameCreateResponse`, states derived on the zone's clock
 * (`lifecycle.ts`).
 *
 * Shown as the real API shows them (SDK types; examples of the API reference):
 * `ownership_verification` (TXT) always and `ownership_verification_http` for non-wildcard
 * hostnames; `verification_errors` while the hostname is pending, with the observed text;
 * `ssl.validation_records` while a DCV token is awaited (initializing, pending validation, timed
 * out, or expiring without renewal); `issuer`, `serial_number`, `signature`, `uploaded_on`,
 * `expires_on` once a certificate is issued. `ssl.certificate_authority` is the CA chosen, also
 * when the client asked for the default CA with "". Gaps: `issuer` strings and `signature` are not
 * documented: edgezone's spellings; `dcv_delegation_records` are not emulated.
 */
import type { CustomHostname } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type { DnsView } from "../dns";
import { ISSUERS } from "./authorities";
import {
	acmeTxtName,
	dcvHttpPath,
	type HostnameRecord,
	hostnameStatus,
	ownershipHttpPath,
	ownershipTxtName,
	type SslRecord,
	type SslState,
	sslState,
} from "./lifecycle";
import { baseName } from "./names";

/** The observed text of a hostname whose ownership is not verified (cloudflare-docs#11874). */
const OWNERSHIP_PENDING =
	"None of the A or AAAA records are owned by this account and the pre-generated ownership verification token was not found.";

const AWAITING_TOKEN: ReadonlySet<SslState["status"]> = new Set([
	"initializing",
	"pending_validation",
	"validation_timed_out",
	"pending_expiration",
]);

const iso = (ms: number) => new Date(ms).toISOString();

/** The custom hostname `record` at zone time `now` (ms), with the DNS as `dns` says. */
export function customHostnameOf(record: HostnameRecord, dns: DnsView, now: number): CustomHostname {
	const status = hostnameStatus(record, dns, now);
	const wildcardName = record.hostname.startsWith("*.");
	return {
		id: record.id,
		hostname: record.hostname,
		...(record.ssl === undefined ? {} : { ssl: sslOf(record.hostname, record.ssl, dns, now) }),
		status,
		...(status === "pending" ? { verification_errors: [OWNERSHIP_PENDING] } : {}),
		ownership_verification: { type: "txt", name: ownershipTxtName(record.hostname), value: record.ownership_value },
		...(wildcardName
			? {}
			: {
					ownership_verification_http: {
						http_url: `http://${record.hostname}${ownershipHttpPath(record)}`,
						http_body: record.ownership_value,
					},
				}),
		...(record.custom_metadata === undefined ? {} : { custom_metadata: record.custom_metadata }),
		...(record.custom_origin_server === undefined ? {} : { custom_origin_server: record.custom_origin_server }),
		...(record.custom_origin_sni === undefined ? {} : { custom_origin_sni: record.custom_origin_sni }),
		created_at: iso(record.created_at),
	} satisfies CustomHostname;
}

/** The `ssl` object of a certificate at `now`. */
function sslOf(hostname: string, ssl: SslRecord, dns: DnsView, now: number): NonNullable<CustomHostname["ssl"]> {
	const state = sslState(hostname, ssl, dns, now);
	const cert = state.certificate;
	const hosts = ssl.wildcard && !hostname.startsWith("*.") ? [hostname, `*.${hostname}`] : [hostname];
	return {
		id: ssl.id,
		type: ssl.type,
		method: ssl.method,
		status: state.status,
		bundle_method: ssl.bundle_method,
		certificate_authority: ssl.certificate_authority,
		wildcard: ssl.wildcard,
		settings: ssl.settings,
		hosts,
		...(AWAITING_TOKEN.has(state.status) ? { validation_records: validationRecords(hostname, ssl) } : {}),
		...(state.validationErrors.length > 0
			? { validation_errors: state.validationErrors.map((message) => ({ message })) }
			: {}),
		...(cert === undefined
			? {}
			: {
					issuer: ISSUERS[ssl.certificate_authority],
					serial_number: cert.serial,
					signature: "SHA256WithRSA",
					uploaded_on: iso(cert.issuedAt),
					expires_on: iso(cert.expiresAt),
				}),
	};
}

/** What the DNS (or the hostname's web server) must hold for DCV, by method. */
function validationRecords(
	hostname: string,
	ssl: SslRecord,
): NonNullable<NonNullable<CustomHostname["ssl"]>["validation_records"]> {
	switch (ssl.method) {
		case "txt":
			return ssl.txt_values.map((value) => ({ txt_name: acmeTxtName(hostname), txt_value: value, status: "pending" }));
		case "http":
			return [{ http_url: `http://${hostname}${dcvHttpPath(ssl)}`, http_body: ssl.http_body, status: "pending" }];
		case "email": {
			const base = baseName(hostname);
			const emails = ["administrator", "admin", "hostmaster", "postmaster", "webmaster"].map((box) => `${box}@${base}`);
			return [{ emails, status: "pending" }];
		}
	}
}
