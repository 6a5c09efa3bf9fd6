/**
 * Certificate packs (`/zones/{zone_id}/ssl/certificate_packs`), the Universal SSL settings
 * (`/ssl/universal/settings`) and Total TLS (`/acm/total_tls`) of one zone, over SQLite
 * (developers.cloudflare.com/api/resources/ssl/; SDK `client.ssl.*`, `client.acm.totalTLS`).
 *
 * A pack row holds its order (hosts, CA asked for, validity, when ordered on the zone's clock);
 * everything that changes with time (status, the certificate issued now, its renewals and CA) is
 * derived at read time from that row and the clock (`lifecycle.ts`, `issuance.ts`), so a clock
 * set forward or back reads consistently.
 * - The universal pack: a zone starts with one (hosts: the zone and `*.zone`), created at the
 *   first read of anything certificate-related and active at once, as a zone's certificate is
 *   there when the zone is. Read at a clock before its creation, it is moved back to that
 *   moment, so a replay may start at any date. Disabling Universal SSL removes it; enabling it
 *   again orders a new one through the lifecycle. Its CA follows the settings: the
 *   `certificate_authority` set there, or Cloudflare's choice when none is (which CAA records of
 *   the zone's apex in the simulated DNS may limit; they are read as they stand at each read).
 * - Advanced packs: ordered, then `initializing` ... `active` on the clock; renewed
 *   automatically; PATCH restarts validation (and sets `cloudflare_branding`). Gap: CAA records
 *   do not stop their validation yet.
 * Each method runs inside the caller's transaction.
 */

import type {
	CertificatePackCreateResponse,
	CertificatePackListResponse,
	Status,
} from "cloudflare/resources/ssl/certificate-packs/certificate-packs";
import type { CaaRecord } from "../../certificates";
import { CODES, invalid, notFound } from "../failure";
import { type Authority, certificateNow, chosenAuthority, issuerName, KEY_TYPES, type ManagedPack } from "./issuance";
import { dcvToken, ISSUANCE_MS, packStatus, stableId, validating } from "./lifecycle";

/** The zone a certificate call is about: ids and names live in the registry, not in the Zone. */
export interface ZoneRef {
	id: string;
	name: string;
}

/** A pack as the API answers it (the SDK's type). */
export type CertificatePack = CertificatePackListResponse;

/** An order of an advanced pack, validated by the API layer. */
export interface PackOrder {
	hosts: string[];
	certificate_authority: Authority;
	validation_method: "txt" | "http" | "email";
	validity_days: 14 | 30 | 90 | 365;
	cloudflare_branding: boolean;
}

/**
 * Universal SSL settings: `enabled`, and the CA (undocumented but observed: GitHub gist
 * kLiHz/08f28f2c803bf9d556abafef8449a8a1).
 */
export interface UniversalSettings {
	enabled: boolean;
	certificate_authority: Authority;
}

/** Total TLS settings (SDK `TotalTLSGetResponse`). */
export interface TotalTlsSettings {
	enabled: boolean;
	certificate_authority?: Authority;
	validity_period: 90;
}

/** One row of `certificate_packs`. */
export interface PackRow extends Record<string, SqlStorageValue> {
	seq: number;
	id: string;
	type: "universal" | "advanced";
	hosts: string;
	requested_authority: "" | Authority;
	validation_method: "txt" | "http" | "email";
	validity_days: number;
	cloudflare_branding: number;
	ordered_at: number;
	with_zone: number;
}

interface SettingsRow extends Record<string, SqlStorageValue> {
	universal_enabled: number;
	universal_authority: "" | Authority;
	total_tls_enabled: number;
	total_tls_authority: "" | Authority;
	total_tls_at: number | null;
}

/** Advanced packs a zone may hold: not public, edgezone's choice. */
const ADVANCED_QUOTA = 100;

/** The packs and SSL settings of one zone. */
export class CertificatePackStore {
	readonly #sql: SqlStorage;
	readonly #caa: (name: string) => readonly CaaRecord[];

	/** `caa` answers the CAA records that apply to a name in the simulated DNS (`../dns.ts`). */
	constructor(sql: SqlStorage, caa: (name: string) => readonly CaaRecord[]) {
		this.#sql = sql;
		this.#caa = caa;
	}

	/**
	 * Makes sure the zone has its universal pack while Universal SSL is enabled, created now and
	 * active at once; one created later than `now` (the clock was set back) moves back to `now`.
	 */
	ensureUniversal(now: number): void {
		if (!this.#settings().universal_enabled) return;
		const row = this.#universal();
		if (row === null) {
			this.#insert("universal", [], "", "txt", 90, false, now, true);
		} else if (row.with_zone === 1 && row.ordered_at > now) {
			this.#sql.exec("UPDATE certificate_packs SET ordered_at = ? WHERE id = ?", now, row.id);
		}
	}

	/** Every pack row, universal first, then in order of creation. */
	rows(): PackRow[] {
		return this.#sql.exec<PackRow>("SELECT * FROM certificate_packs ORDER BY type = 'universal' DESC, seq").toArray();
	}

	/** The pack with `id` as the API shows it at `now`; 404 when unknown. */
	get(zone: ZoneRef, id: string, now: number): CertificatePack {
		return this.view(zone, this.#row(id), now);
	}

	/** Orders an advanced pack at `now` (quota: ADVANCED_QUOTA). */
	order(zone: ZoneRef, order: PackOrder, now: number): CertificatePack {
		const used = this.#sql
			.exec<{ n: number }>("SELECT count(*) AS n FROM certificate_packs WHERE type = 'advanced'")
			.one().n;
		if (used >= ADVANCED_QUOTA)
			invalid(CODES.certificatePackQuota, `The zone holds its quota of ${ADVANCED_QUOTA} advanced certificate packs.`);
		const id = this.#insert(
			"advanced",
			order.hosts,
			order.certificate_authority,
			order.validation_method,
			order.validity_days,
			order.cloudflare_branding,
			now,
			false,
		);
		return this.get(zone, id, now);
	}

	/**
	 * PATCH of a pack: restarts validation of an advanced pack (SDK `certificatePacks.edit`), with
	 * `cloudflare_branding` when given. The universal pack is refused.
	 */
	restart(zone: ZoneRef, id: string, branding: boolean | undefined, now: number): CertificatePack {
		const row = this.#row(id);
		if (row.type !== "advanced") refuseUniversal("changed", "PATCH /zones/{zone_id}/ssl/universal/settings");
		this.#sql.exec(
			"UPDATE certificate_packs SET ordered_at = ?, cloudflare_branding = ? WHERE id = ?",
			now,
			branding === undefined ? row.cloudflare_branding : Number(branding),
			id,
		);
		return this.get(zone, id, now);
	}

	/** Deletes an advanced pack; the universal pack is refused. */
	delete(id: string): { id: string } {
		const row = this.#row(id);
		if (row.type !== "advanced")
			refuseUniversal("deleted", 'PATCH /zones/{zone_id}/ssl/universal/settings with {"enabled": false}');
		this.#sql.exec("DELETE FROM certificate_packs WHERE id = ?", id);
		return { id };
	}

	/** Advanced packs allocated and used (SDK `QuotaGetResponse`). */
	quota(): { advanced: { allocated: number; used: number } } {
		const used = this.#sql
			.exec<{ n: number }>("SELECT count(*) AS n FROM certificate_packs WHERE type = 'advanced'")
			.one().n;
		return { advanced: { allocated: ADVANCED_QUOTA, used } };
	}

	/** The Universal SSL settings at `now`: the CA is the one of the certificate issued now. */
	universalSettings(zone: ZoneRef, now: number): UniversalSettings {
		const settings = this.#settings();
		const row = this.#universal();
		const current = row === null ? null : this.view(zone, row, now).certificate_authority;
		return {
			enabled: settings.universal_enabled === 1,
			certificate_authority: current ?? (settings.universal_authority || chosenAuthority(now, this.#caa(zone.name))),
		};
	}

	/**
	 * Changes the Universal SSL settings at `now`. Disabling removes the universal pack; enabling
	 * orders a new one; a new `certificate_authority` re-issues the universal certificate from it.
	 */
	editUniversal(zone: ZoneRef, edit: Partial<UniversalSettings>, now: number): UniversalSettings {
		const settings = this.#settings();
		if (edit.certificate_authority !== undefined && edit.certificate_authority !== settings.universal_authority) {
			this.#sql.exec("UPDATE ssl_settings SET universal_authority = ?", edit.certificate_authority);
			const row = this.#universal();
			// A CA change re-issues: a new first certificate from now, the pack staying active.
			if (row !== null)
				this.#sql.exec("UPDATE certificate_packs SET ordered_at = ?, with_zone = 1 WHERE id = ?", now, row.id);
		}
		if (edit.enabled === false && settings.universal_enabled === 1) {
			this.#sql.exec("UPDATE ssl_settings SET universal_enabled = 0");
			this.#sql.exec("DELETE FROM certificate_packs WHERE type = 'universal'");
		} else if (edit.enabled === true && settings.universal_enabled === 0) {
			this.#sql.exec("UPDATE ssl_settings SET universal_enabled = 1");
			this.#insert("universal", [], "", "txt", 90, false, now, false);
		}
		return this.universalSettings(zone, now);
	}

	/** The Total TLS settings. */
	totalTls(): TotalTlsSettings {
		const row = this.#settings();
		return {
			enabled: row.total_tls_enabled === 1,
			...(row.total_tls_authority === "" ? {} : { certificate_authority: row.total_tls_authority }),
			validity_period: 90,
		};
	}

	/** When Total TLS was last enabled or given its CA, on the clock; null while off. */
	totalTlsSince(): number | null {
		const row = this.#settings();
		return row.total_tls_enabled === 1 ? row.total_tls_at : null;
	}

	/** Sets Total TLS (SDK `acm.totalTLS.update`): `enabled`, and the CA (absent: Cloudflare's choice). */
	setTotalTls(enabled: boolean, authority: Authority | undefined, now: number): TotalTlsSettings {
		const row = this.#settings();
		const changed = enabled !== (row.total_tls_enabled === 1) || (authority ?? "") !== row.total_tls_authority;
		this.#sql.exec(
			"UPDATE ssl_settings SET total_tls_enabled = ?, total_tls_authority = ?, total_tls_at = ?",
			Number(enabled),
			authority ?? "",
			enabled ? (changed ? now : row.total_tls_at) : null,
		);
		return this.totalTls();
	}

	/** The requested CA of the universal pack: the settings' choice, or `""` (Cloudflare's). */
	universalAuthority(): "" | Authority {
		return this.#settings().universal_authority;
	}

	/** What the schedule needs of a pack row: its CA request and when its first certificate was issued. */
	managed(zone: ZoneRef, row: PackRow): ManagedPack {
		const hosts = JSON.parse(row.hosts) as string[];
		return {
			caa: this.#caa(row.type === "universal" ? zone.name : (hosts[0] ?? zone.name).replace(/^\*\./, "")),
			id: row.id,
			type: row.type,
			requested: row.type === "universal" ? this.universalAuthority() : row.requested_authority,
			validity_days: row.validity_days,
			first_issued: row.ordered_at + (row.with_zone === 1 ? 0 : ISSUANCE_MS),
		};
	}

	/** A pack row as the API shows it at `now`. */
	view(zone: ZoneRef, row: PackRow, now: number): CertificatePack {
		const hosts = row.type === "universal" ? [zone.name, `*.${zone.name}`] : (JSON.parse(row.hosts) as string[]);
		const status: Status = row.with_zone === 1 ? "active" : packStatus(row.ordered_at, now);
		const managed = this.managed(zone, row);
		const current =
			status === "active" ? KEY_TYPES.map((key) => [key, certificateNow(managed, key, now)] as const) : [];
		const certificates = current.map(
			([key, certificate]) =>
				({
					id: stableId(row.id, key, certificate.issued_on.getTime()),
					hosts,
					status: "active",
					bundle_method: "ubiquitous",
					issuer: issuerName(certificate.certificate_authority),
					signature: key === "rsa" ? "SHA256WithRSA" : "ECDSAWithSHA256",
					uploaded_on: certificate.issued_on.toISOString(),
					modified_on: certificate.issued_on.toISOString(),
					expires_on: certificate.expires_on.toISOString(),
					priority: 0,
					zone_id: zone.id,
				}) satisfies CertificatePackCreateResponse.Certificate,
		);
		// Orderable CAs only: DigiCert is in the schedule's data for legacy certificates, never issued here.
		const authority = (current[0]?.[1].certificate_authority ??
			(managed.requested || chosenAuthority(now, managed.caa))) as Authority;
		const validationRecords = validating(status) ? hosts.map((host) => validationRecord(row, host, zone.name)) : [];
		return {
			id: row.id,
			type: row.type,
			hosts,
			status,
			certificate_authority: authority,
			validation_method: row.validation_method,
			validity_days: row.validity_days as 14 | 30 | 90 | 365,
			cloudflare_branding: row.cloudflare_branding === 1,
			certificates,
			...(certificates[0] === undefined ? {} : { primary_certificate: certificates[0].id }),
			validation_records: validationRecords,
			validation_errors: [],
		};
	}

	#insert(
		type: PackRow["type"],
		hosts: string[],
		requested: "" | Authority,
		method: PackRow["validation_method"],
		validityDays: number,
		branding: boolean,
		now: number,
		withZone: boolean,
	): string {
		const id = crypto.randomUUID();
		this.#sql.exec(
			`INSERT INTO certificate_packs (id, type, hosts, requested_authority, validation_method, validity_days,
				cloudflare_branding, ordered_at, with_zone) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			id,
			type,
			JSON.stringify(hosts),
			requested,
			method,
			validityDays,
			Number(branding),
			now,
			Number(withZone),
		);
		return id;
	}

	#row(id: string): PackRow {
		const row = this.#sql.exec<PackRow>("SELECT * FROM certificate_packs WHERE id = ?", id).toArray()[0];
		if (row === undefined) notFound(CODES.certificatePackNotFound, `Certificate pack ${id} not found.`);
		return row;
	}

	#universal(): PackRow | null {
		return this.#sql.exec<PackRow>("SELECT * FROM certificate_packs WHERE type = 'universal'").toArray()[0] ?? null;
	}

	#settings(): SettingsRow {
		return this.#sql.exec<SettingsRow>("SELECT * FROM ssl_settings WHERE id = 1").one();
	}
}

function refuseUniversal(what: string, instead: string): never {
	invalid(
		CODES.certificatePackUniversal,
		`The Universal SSL certificate pack cannot be ${what} through the certificate packs API; use ${instead}.`,
	);
}

/** The DCV record Cloudflare asks for while a host of a pack validates (SDK `validation_records`). */
function validationRecord(
	row: PackRow,
	host: string,
	zoneName: string,
): CertificatePackCreateResponse.ValidationRecord {
	const name = host.replace(/^\*\./, "");
	if (row.validation_method === "http")
		return {
			http_url: `http://${name}/.well-known/pki-validation/${dcvToken(row.id, host, "url")}.txt`,
			http_body: dcvToken(row.id, host, "body"),
			status: "pending",
		};
	if (row.validation_method === "email")
		return {
			emails: ["administrator", "admin", "hostmaster", "postmaster", "webmaster"].map((box) => `${box}@${zoneName}`),
			status: "pending",
		};
	return { txt_name: `_acme-challenge.${name}`, txt_value: dcvToken(row.id, host, "txt"), status: "pending" };
}
