/**
 * Every certificate of one zone in one place: packs and SSL settings (`packs.ts`), custom
 * certificates (`custom.ts`) and the outbox of notices (`../outbox.ts`), and the moves the
 * zone's clock brings them.
 *
 * The clock's moves are applied lazily: every certificate read or write of the Zone first calls
 * `catchUp(zone, now)` in the same transaction, which makes the universal pack and sends the
 * notices due by `now`. Everything else that changes with time is derived at read time, so
 * nothing runs in the background and a clock set back or forward answers consistently. Notices
 * once sent stay in the outbox (it lists those dated by the clock's now).
 * Custom certificates also appear in the certificate packs list, as packs of their type
 * (`sni_custom`, `legacy_custom`) with the certificate's id, as Cloudflare lists them.
 */
import type { CustomCertificate } from "cloudflare/resources/custom-certificates/custom-certificates";
import type { Status } from "cloudflare/resources/ssl/certificate-packs/certificate-packs";
import { CODES, invalid } from "../failure";
import { Outbox } from "../outbox";
import { CustomCertificateStore, type CustomRow } from "./custom";
import { type CertificatePack, CertificatePackStore, type ZoneRef } from "./packs";

export type { CustomCertificateInput } from "./custom";
export type { CertificatePack, PackOrder, TotalTlsSettings, UniversalSettings, ZoneRef } from "./packs";

/** The certificate stores of one zone; each method runs inside the caller's transaction. */
export class CertificateStore {
	readonly packsStore: CertificatePackStore;
	readonly custom: CustomCertificateStore;
	readonly outbox: Outbox;

	constructor(sql: SqlStorage) {
		this.packsStore = new CertificatePackStore(sql);
		this.custom = new CustomCertificateStore(sql);
		this.outbox = new Outbox(sql);
	}

	/** Applies what the clock brought by `now`: the universal pack exists; notices due are sent. */
	catchUp(_zone: ZoneRef, now: number): void {
		this.packsStore.ensureUniversal(now);
	}

	/** Every pack at `now`: universal, advanced, then custom certificates. */
	packs(zone: ZoneRef, now: number): CertificatePack[] {
		return [
			...this.packsStore.rows().map((row) => this.packsStore.view(zone, row, now)),
			...this.custom.rows().map((row) => this.#customPack(zone, row, now)),
		];
	}

	/** One pack (a custom certificate's too, by its id). */
	pack(zone: ZoneRef, id: string, now: number): CertificatePack {
		const custom = this.custom.rows().find((row) => row.id === id);
		return custom === undefined ? this.packsStore.get(zone, id, now) : this.#customPack(zone, custom, now);
	}

	/** Orders an advanced pack. */
	order(zone: ZoneRef, order: Parameters<CertificatePackStore["order"]>[1], now: number): CertificatePack {
		return this.packsStore.order(zone, order, now);
	}

	/** PATCH of a pack; custom certificates are changed through their own API. */
	restart(zone: ZoneRef, id: string, branding: boolean | undefined, now: number): CertificatePack {
		this.#refuseCustom(id, "PATCH");
		return this.packsStore.restart(zone, id, branding, now);
	}

	/** DELETE of a pack; custom certificates are deleted through their own API. */
	deletePack(id: string): { id: string } {
		this.#refuseCustom(id, "DELETE");
		return this.packsStore.delete(id);
	}

	quota() {
		return this.packsStore.quota();
	}

	universalSettings(zone: ZoneRef, now: number) {
		return this.packsStore.universalSettings(zone, now);
	}

	editUniversal(zone: ZoneRef, edit: Parameters<CertificatePackStore["editUniversal"]>[1], now: number) {
		return this.packsStore.editUniversal(zone, edit, now);
	}

	totalTls() {
		return this.packsStore.totalTls();
	}

	setTotalTls(enabled: boolean, authority: Parameters<CertificatePackStore["setTotalTls"]>[1], now: number) {
		return this.packsStore.setTotalTls(enabled, authority, now);
	}

	/** Every custom certificate at `now`, oldest first. */
	customCertificates(zone: ZoneRef, now: number): CustomCertificate[] {
		return this.custom.rows().map((row) => this.custom.view(zone, row, now));
	}

	/** One custom certificate at `now`. */
	customCertificate(zone: ZoneRef, id: string, now: number): CustomCertificate {
		return this.custom.view(zone, this.custom.row(id), now);
	}

	#refuseCustom(id: string, method: string): void {
		if (this.custom.rows().some((row) => row.id === id))
			invalid(
				CODES.certificatePackInvalid,
				`Certificate pack ${id} is a custom certificate: ${method} it through /zones/{zone_id}/custom_certificates/${id}.`,
			);
	}

	/** A custom certificate as a pack of the packs list. */
	#customPack(zone: ZoneRef, row: CustomRow, now: number): CertificatePack {
		const certificate = this.custom.view(zone, row, now);
		const status: Status =
			certificate.status === "expired" ? "expired" : certificate.status === "pending" ? "initializing" : "active";
		return {
			id: row.id,
			type: row.type,
			hosts: certificate.hosts ?? [],
			status,
			certificates: [
				{
					id: certificate.id,
					hosts: certificate.hosts ?? [],
					status: certificate.status ?? "active",
					...(certificate.bundle_method === undefined ? {} : { bundle_method: certificate.bundle_method }),
					...(certificate.issuer === undefined ? {} : { issuer: certificate.issuer }),
					...(certificate.signature === undefined ? {} : { signature: certificate.signature }),
					...(certificate.uploaded_on === undefined ? {} : { uploaded_on: certificate.uploaded_on }),
					...(certificate.modified_on === undefined ? {} : { modified_on: certificate.modified_on }),
					...(certificate.expires_on === undefined ? {} : { expires_on: certificate.expires_on }),
					...(certificate.geo_restrictions === undefined ? {} : { geo_restrictions: certificate.geo_restrictions }),
					priority: row.priority,
					zone_id: zone.id,
				},
			],
			primary_certificate: certificate.id,
		};
	}
}
