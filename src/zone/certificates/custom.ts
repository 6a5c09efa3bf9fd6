/**
 * Custom (uploaded) certificates of one zone (`/zones/{zone_id}/custom_certificates`; SDK
 * `client.customCertificates.*`, object `CustomCertificate`), over SQLite.
 *
 * The API layer parses and checks the PEM and the key (`x509.ts`) and hands the parsed facts
 * here; the private key is checked there and never stored (edgezone terminates no TLS).
 * Emulates: `hosts` (SANs), `issuer` (the issuer's organisation without spaces or punctuation,
 * as `LetsEncrypt`, `DigiCertInc` in Cloudflare's examples), `signature`, `expires_on`,
 * `uploaded_on`, `modified_on`, `status` on the zone's clock (`expired` after the leaf's
 * notAfter), `bundle_method` (default `ubiquitous`), `geo_restrictions`, `policy` answered as
 * `policy_restrictions`, `priority`. A PATCH with a certificate is a new upload (its
 * `uploaded_on` decides the 2024-09-09 bundling rule); for `sni_custom` it answers a new id and
 * the old one is gone, as the SDK documents.
 * Errors (codes documented by Cloudflare's custom certificates troubleshooting page): 2103 no
 * hostname of the zone, 1220 the same certificate twice, 1212 over the quota, 1002 unknown id.
 * Each method runs inside the caller's transaction.
 */
import type { CustomCertificate } from "cloudflare/resources/custom-certificates/custom-certificates";
import { CODES, invalid, notFound } from "../failure";
import type { ZoneRef } from "./packs";
import type { ParsedBundle, ParsedCertificate } from "./x509";

/** What an upload or PATCH sets, validated by the API layer. */
export interface CustomCertificateInput {
	bundle?: ParsedBundle;
	bundle_method?: "ubiquitous" | "optimal" | "force";
	type?: "legacy_custom" | "sni_custom";
	geo_restrictions?: { label: "us" | "eu" | "highest_security" } | null;
	policy?: string | null;
}

/** One row of `custom_certificates`. */
export interface CustomRow extends Record<string, SqlStorageValue> {
	seq: number;
	id: string;
	type: "legacy_custom" | "sni_custom";
	bundle_method: "ubiquitous" | "optimal" | "force";
	leaf: string;
	chain: string;
	sha256: string;
	uploaded_on: number;
	modified_on: number;
	geo_label: string | null;
	policy: string | null;
	priority: number;
}

/** Custom certificates a zone may hold: not public (it depends on the plan), edgezone's choice. */
const CUSTOM_QUOTA = 20;

/** The custom certificates of one zone. */
export class CustomCertificateStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Every row, oldest first. */
	rows(): CustomRow[] {
		return this.#sql.exec<CustomRow>("SELECT * FROM custom_certificates ORDER BY seq").toArray();
	}

	/** One row; 404 1002 when unknown. */
	row(id: string): CustomRow {
		const row = this.#sql.exec<CustomRow>("SELECT * FROM custom_certificates WHERE id = ?", id).toArray()[0];
		if (row === undefined)
			notFound(CODES.customCertificateNotFound, `Invalid certificate: no custom certificate ${id}.`);
		return row;
	}

	/** Uploads a certificate at `now`. */
	create(zone: ZoneRef, input: CustomCertificateInput & { bundle: ParsedBundle }, now: number): CustomCertificate {
		const used = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM custom_certificates").one().n;
		if (used >= CUSTOM_QUOTA)
			invalid(CODES.customCertificateQuota, "You have reached the maximum number of custom certificates.");
		checkZoneHosts(zone, input.bundle.leaf);
		this.#refuseDuplicate(input.bundle.leaf.sha256, null);
		const id = crypto.randomUUID();
		this.#sql.exec(
			`INSERT INTO custom_certificates (id, type, bundle_method, leaf, chain, sha256, uploaded_on, modified_on,
				geo_label, policy, priority) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)`,
			id,
			input.type ?? "sni_custom",
			input.bundle_method ?? "ubiquitous",
			JSON.stringify(input.bundle.leaf),
			JSON.stringify(input.bundle.chain),
			input.bundle.leaf.sha256,
			now,
			now,
			input.geo_restrictions?.label ?? null,
			input.policy ?? null,
		);
		return this.view(zone, this.row(id), now);
	}

	/** Changes a certificate at `now`; a new certificate of an `sni_custom` one gets a new id. */
	edit(zone: ZoneRef, id: string, input: CustomCertificateInput, now: number): CustomCertificate {
		const row = this.row(id);
		let newId = id;
		if (input.bundle !== undefined) {
			checkZoneHosts(zone, input.bundle.leaf);
			this.#refuseDuplicate(input.bundle.leaf.sha256, id);
			if (row.type === "sni_custom") newId = crypto.randomUUID();
			this.#sql.exec(
				"UPDATE custom_certificates SET id = ?, leaf = ?, chain = ?, sha256 = ?, uploaded_on = ? WHERE id = ?",
				newId,
				JSON.stringify(input.bundle.leaf),
				JSON.stringify(input.bundle.chain),
				input.bundle.leaf.sha256,
				now,
				id,
			);
		}
		if (input.bundle_method !== undefined)
			this.#sql.exec("UPDATE custom_certificates SET bundle_method = ? WHERE id = ?", input.bundle_method, newId);
		if (input.geo_restrictions !== undefined)
			this.#sql.exec(
				"UPDATE custom_certificates SET geo_label = ? WHERE id = ?",
				input.geo_restrictions?.label ?? null,
				newId,
			);
		if (input.policy !== undefined)
			this.#sql.exec("UPDATE custom_certificates SET policy = ? WHERE id = ?", input.policy, newId);
		this.#sql.exec("UPDATE custom_certificates SET modified_on = ? WHERE id = ?", now, newId);
		return this.view(zone, this.row(newId), now);
	}

	/** Deletes a certificate: `{id}` (SDK `CustomCertificateDeleteResponse`). */
	delete(id: string): { id: string } {
		this.row(id);
		this.#sql.exec("DELETE FROM custom_certificates WHERE id = ?", id);
		return { id };
	}

	/** A row as the API answers it at `now`. */
	view(zone: ZoneRef, row: CustomRow, now: number): CustomCertificate {
		const leaf = JSON.parse(row.leaf) as ParsedCertificate;
		return {
			id: row.id,
			zone_id: zone.id,
			hosts: leaf.hosts,
			issuer: uploadedIssuerName(leaf),
			signature: leaf.signature,
			status: customStatus(row, leaf, now),
			bundle_method: row.bundle_method,
			...(row.geo_label === null
				? {}
				: { geo_restrictions: { label: row.geo_label as "us" | "eu" | "highest_security" } }),
			...(row.policy === null ? {} : { policy_restrictions: row.policy }),
			priority: row.priority,
			uploaded_on: new Date(row.uploaded_on).toISOString(),
			modified_on: new Date(row.modified_on).toISOString(),
			expires_on: leaf.not_after,
		};
	}

	#refuseDuplicate(sha256: string, except: string | null): void {
		const same = this.#sql
			.exec<{ id: string }>("SELECT id FROM custom_certificates WHERE sha256 = ? AND id IS NOT ?", sha256, except)
			.toArray()[0];
		if (same !== undefined) invalid(CODES.customCertificateDuplicate, "This certificate has already been submitted.");
	}
}

/** `pending` before its upload (the clock was set back), `expired` after the leaf's notAfter, else `active`. */
function customStatus(row: CustomRow, leaf: ParsedCertificate, now: number): "active" | "expired" | "pending" {
	if (now < row.uploaded_on) return "pending";
	return now > Date.parse(leaf.not_after) ? "expired" : "active";
}

/** The `issuer` string: the issuer's organisation (else CN) without spaces and punctuation (`Let's Encrypt` -> `LetsEncrypt`). */
function uploadedIssuerName(leaf: ParsedCertificate): string {
	return (leaf.issuer_org ?? leaf.issuer_cn ?? "").replace(/[^A-Za-z0-9]/g, "");
}

/**
 * 2103 unless some SAN names a host of the zone: the zone itself, a name under it, or a wildcard
 * that covers the zone's apex (`*.example` for the zone `a.example`).
 */
function checkZoneHosts(zone: ZoneRef, leaf: ParsedCertificate): void {
	const apex = zone.name.toLowerCase();
	const inZone = (host: string) => {
		if (host === apex || host.endsWith(`.${apex}`)) return true;
		return host.startsWith("*.") && apex.slice(apex.indexOf(".") + 1) === host.slice(2);
	};
	if (!leaf.hosts.some(inZone))
		invalid(
			CODES.customCertificateNoZoneHost,
			`The certificate chain you uploaded does not include any hostnames from your zone (${apex}; the certificate names ${leaf.hosts.join(", ") || "none"}). Please check your input and try again.`,
		);
}
