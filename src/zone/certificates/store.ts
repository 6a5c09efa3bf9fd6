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
import type { CustomHostname } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type { Status } from "cloudflare/resources/ssl/certificate-packs/certificate-packs";
import {
	type CaaRecord,
	type CertificateAuthority,
	type ChainCertificate,
	type ClientVerdict,
	caaPermits,
	describeChain,
	MILESTONES,
	type MoveContext,
	type ScheduledCertificate,
	type ScheduledEvent,
	scheduledMoves,
	servedChain,
	validatingClients,
} from "../../certificates";
import { CODES, invalid, notFound } from "../failure";
import { Outbox, OWNER } from "../outbox";
import { CustomCertificateStore, type CustomRow } from "./custom";
import { certificateNow, firstCertificate, KEY_TYPES, uploadedCertificate } from "./issuance";
import { type CertificatePack, CertificatePackStore, type PackRow, type ZoneRef } from "./packs";
import type { ParsedCertificate } from "./x509";

export type { CustomCertificateInput } from "./custom";

/**
 * The zone's custom hostnames as the certificates need them (`custom-hostnames/`, owned there):
 * every one at an instant, and the CAA records that apply to a name in the simulated DNS.
 */
export interface HostnameSource {
	all(now: number): CustomHostname[];
	caa(name: string): readonly CaaRecord[];
}

/** The emulator's chains answer (`/zones/{zone_id}/emulator/chains/{id}`). */
export interface ChainAnswer {
	certificate_id: string;
	kind: "certificate_pack" | "custom_certificate" | "custom_hostname";
	type: string;
	at: string;
	certificates: CertificateChain[];
	note?: string;
}

/** One certificate's CA, served chain and validating clients at an instant. */
export interface CertificateChain {
	key_type: string;
	certificate_authority: string;
	bundle_method: string;
	issued_on: string;
	expires_on: string;
	leaf_issuer: string;
	chain: {
		source: string;
		description: string;
		intermediates: readonly ChainCertificate[];
		root: ChainCertificate | null;
		cross_signed: boolean;
		rule: string;
		notes: readonly string[];
	};
	clients: ClientVerdict[];
	events: Record<string, unknown>[];
}

/** The end of the events the chains route lists: a day after the schedule's last instant (2028-01-28). */
const LAST_EVENTS = new Date(MILESTONES.gtsCrossSignsExpire.getTime() + 86_400_000);

/** What the schedule says of one certificate at `at`. */
function answerFor(certificate: ScheduledCertificate, at: Date): Omit<CertificateChain, "events"> {
	const chain = servedChain(certificate, at);
	return {
		key_type: certificate.key_type ?? "rsa",
		certificate_authority: certificate.certificate_authority,
		bundle_method: certificate.bundle_method ?? "ubiquitous",
		issued_on: certificate.issued_on.toISOString(),
		expires_on: certificate.expires_on.toISOString(),
		leaf_issuer: chain.leaf.issuer,
		chain: {
			source: chain.source,
			description: describeChain(chain, at),
			intermediates: chain.intermediates,
			root: chain.root,
			cross_signed: chain.cross_signed,
			rule: chain.rule,
			notes: chain.notes,
		},
		clients: validatingClients(chain, at),
	};
}

/** A schedule event as JSON-ready data (instants as RFC 3339). */
function eventOut(event: ScheduledEvent): Record<string, unknown> {
	const { at, ...rest } = event;
	const out: Record<string, unknown> = { at: at.toISOString() };
	for (const [name, value] of Object.entries(rest)) out[name] = value instanceof Date ? value.toISOString() : value;
	if (event.kind === "notification") out.email = { subject: event.email.subject };
	return out;
}

export type { CertificatePack, PackOrder, TotalTlsSettings, UniversalSettings, ZoneRef } from "./packs";

/** The certificate stores of one zone; each method runs inside the caller's transaction. */
export class CertificateStore {
	readonly packsStore: CertificatePackStore;
	readonly custom: CustomCertificateStore;
	readonly outbox: Outbox;

	/** `caa` answers the CAA records that apply to a name in the simulated DNS (`../dns.ts`). */
	constructor(sql: SqlStorage, caa: (name: string) => readonly CaaRecord[]) {
		this.packsStore = new CertificatePackStore(sql, caa);
		this.custom = new CustomCertificateStore(sql);
		this.outbox = new Outbox(sql);
	}

	/**
	 * Applies what the clock brought by `now`: the universal pack exists, and the e-mails the
	 * schedule sends about the zone's managed certificates and Total TLS by `now` are in the outbox
	 * (`scheduledMoves` over each certificate's whole life so far; the outbox keeps one per key).
	 */
	catchUp(zone: ZoneRef, now: number, hostnames: HostnameSource): void {
		this.packsStore.ensureUniversal(now);
		this.mailCustomHostnames(hostnames, now);
		for (const row of this.packsStore.rows()) {
			const managed = this.packsStore.managed(zone, row);
			if (managed.first_issued > now) continue;
			// One e-mail per pack: the RSA certificate's timeline stands for the pack.
			const first = firstCertificate(managed, "rsa");
			this.#mail(first, now, this.#context(zone, row), row.id);
		}
		const since = this.packsStore.totalTlsSince();
		const totalTls = this.packsStore.totalTls();
		if (since !== null && since <= now && totalTls.certificate_authority === "lets_encrypt") {
			const first: ScheduledCertificate = {
				id: `total_tls:${since}`,
				type: "total_tls",
				certificate_authority: "lets_encrypt",
				requested_authority: "lets_encrypt",
				issued_on: new Date(since),
				expires_on: new Date(since + totalTls.validity_period * 86_400_000),
			};
			this.#mail(first, now, { hostname: `*.${zone.name}`, created_on: new Date(since) }, null);
		}
	}

	/**
	 * Sends the e-mails due by `now` about custom hostnames on Let's Encrypt (Cloudflare's Let's
	 * Encrypt chain update: the SaaS provider is e-mailed). Their state is read as it stands at `now`, so the
	 * Zone calls this before a custom hostname is changed or deleted too.
	 */
	mailCustomHostnames(hostnames: HostnameSource, now: number): void {
		if (now <= MILESTONES.switchStarts.getTime()) return;
		for (const hostname of hostnames.all(now)) {
			const scheduled = hostnameCertificate(hostname, hostnames);
			if (scheduled === null || scheduled.certificate_authority !== "lets_encrypt") continue;
			const created = Date.parse(hostname.created_at ?? "") || scheduled.issued_on.getTime();
			const context = {
				hostname: hostname.hostname,
				created_on: new Date(created),
				caa: hostnames.caa(hostname.hostname),
			};
			// One e-mail per custom hostname, whatever certificate it holds then.
			this.#mail({ ...scheduled, id: `custom_hostname:${hostname.id}` }, now, context, hostname.id);
		}
	}

	/** Sends the e-mails of `first`'s timeline up to `now`. */
	#mail(first: ScheduledCertificate, now: number, context: MoveContext, certificateId: string | null): void {
		const from = new Date(first.issued_on.getTime() - 1);
		// The schedule mails only before 2024-09-09 (`moves.ts`): looking further costs renewals, finds nothing.
		const until = new Date(Math.min(now, MILESTONES.crossSignDropped.getTime()));
		if (until.getTime() <= from.getTime()) return;
		for (const event of scheduledMoves(first, from, until, context).events) {
			if (event.kind !== "notification") continue;
			this.outbox.send({
				key: `${first.id}@${event.at.toISOString()}`,
				at: event.at.getTime(),
				recipient: OWNER,
				subject: event.email.subject,
				text: event.email.body,
				certificate_type: event.email.certificate_type,
				certificate_id: certificateId,
			});
		}
	}

	/** The hostname and creation of a pack, for its e-mails. */
	#context(zone: ZoneRef, row: PackRow): MoveContext {
		const hosts = JSON.parse(row.hosts) as string[];
		return {
			hostname: row.type === "universal" ? zone.name : (hosts[0] ?? zone.name),
			created_on: new Date(row.ordered_at),
			caa: this.packsStore.managed(zone, row).caa,
			wildcard: row.type === "universal",
		};
	}

	/**
	 * For a certificate pack or custom certificate and an instant: each certificate's CA, the chain
	 * served and the client platforms that validate it (`src/certificates/`), and, for managed
	 * packs, the schedule's events from its first issue up to `at` (at most to 2028-01-29, the
	 * schedule's last instant: later a certificate only renews). 404 9404 for an unknown id.
	 */
	chains(zone: ZoneRef, id: string, at: number, hostnames: HostnameSource): ChainAnswer {
		const instant = new Date(at);
		const hostname = hostnames.all(at).find((h) => h.id === id);
		if (hostname !== undefined) return hostnameChains(hostname, instant, hostnames);
		const row = this.packsStore.rows().find((pack) => pack.id === id);
		if (row !== undefined) {
			const managed = this.packsStore.managed(zone, row);
			const base = { certificate_id: id, kind: "certificate_pack" as const, type: row.type, at: instant.toISOString() };
			if (managed.first_issued > at)
				return { ...base, certificates: [], note: `no certificate is issued yet at ${instant.toISOString()}` };
			return {
				...base,
				certificates: KEY_TYPES.map((key) => {
					const first = firstCertificate(managed, key);
					const current = certificateNow(managed, key, at);
					// Events up to the schedule's last instant: after it a certificate only renews.
					const until = new Date(Math.min(at, LAST_EVENTS.getTime()));
					const { events } =
						until.getTime() < first.issued_on.getTime()
							? { events: [] }
							: scheduledMoves(first, new Date(first.issued_on.getTime() - 1), until, this.#context(zone, row));
					return { ...answerFor(current, instant), events: events.map(eventOut) };
				}),
			};
		}
		const custom = this.custom.rows().find((c) => c.id === id);
		if (custom === undefined)
			notFound(CODES.emulatorNotFound, `No certificate pack or custom certificate ${id} in this zone.`);
		const leaf = JSON.parse(custom.leaf) as ParsedCertificate;
		const chain = JSON.parse(custom.chain) as ParsedCertificate[];
		const scheduled = uploadedCertificate(custom.id, leaf, chain, custom.bundle_method, custom.uploaded_on);
		const base = {
			certificate_id: id,
			kind: "custom_certificate" as const,
			type: custom.type,
			at: instant.toISOString(),
		};
		if (scheduled === null)
			return {
				...base,
				certificates: [],
				note: `the issuer ${leaf.issuer} is none of the CAs the 2024 schedule knows (Let's Encrypt, Google Trust Services, SSL.com, DigiCert)`,
			};
		return { ...base, certificates: [{ ...answerFor(scheduled, instant), events: [] }] };
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

/**
 * A custom hostname's certificate as the schedule takes it, from its API object; null while none
 * is issued. The CA asked for is not in the object: a Let's Encrypt certificate whose hostname's
 * CAA blocks Google counts as the default CA's fallback (`""`), any other as chosen.
 */
function hostnameCertificate(hostname: CustomHostname, hostnames: HostnameSource): ScheduledCertificate | null {
	const ssl = hostname.ssl;
	if (ssl?.uploaded_on === undefined || ssl.expires_on === undefined || ssl.certificate_authority === undefined)
		return null;
	const ca = ssl.certificate_authority as CertificateAuthority;
	const wildcard = hostname.hostname.startsWith("*.") || ssl.wildcard === true;
	const blocked = !caaPermits(hostnames.caa(hostname.hostname), "google", wildcard);
	return {
		id: ssl.id ?? hostname.id,
		type: "custom_hostname",
		certificate_authority: ca,
		requested_authority: ca === "lets_encrypt" && blocked ? "" : ca,
		bundle_method: ssl.bundle_method ?? "ubiquitous",
		key_type: "rsa",
		issued_on: new Date(ssl.uploaded_on),
		expires_on: new Date(ssl.expires_on),
	};
}

/** The chains answer of a custom hostname at `at` (its state then, from its own lifecycle). */
function hostnameChains(hostname: CustomHostname, at: Date, hostnames: HostnameSource): ChainAnswer {
	const base = {
		certificate_id: hostname.id,
		kind: "custom_hostname" as const,
		type: "custom_hostname",
		at: at.toISOString(),
	};
	const scheduled = hostnameCertificate(hostname, hostnames);
	if (scheduled === null)
		return {
			...base,
			certificates: [],
			note: `no certificate is issued yet at ${at.toISOString()} (ssl.status ${hostname.ssl?.status ?? "none"})`,
		};
	const until = new Date(Math.min(at.getTime(), LAST_EVENTS.getTime()));
	const context = { hostname: hostname.hostname, caa: hostnames.caa(hostname.hostname) };
	const { events } =
		until.getTime() < scheduled.issued_on.getTime()
			? { events: [] }
			: scheduledMoves(scheduled, new Date(scheduled.issued_on.getTime() - 1), until, context);
	return { ...base, certificates: [{ ...answerFor(scheduled, at), events: events.map(eventOut) }] };
}
