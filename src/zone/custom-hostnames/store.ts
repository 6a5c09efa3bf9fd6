/**
 * Custom hostnames of one zone (Cloudflare for SaaS;
 * developers.cloudflare.com/api/resources/custom_hostnames/): storage and semantics, run inside the
 * Zone's transactions, on the zone's clock.
 *
 * Emulates: create (hostname unique per zone: 409 1406 "Duplicate custom hostname found.", as
 * third-party clients record it), list with every filter of the SDK's `CustomHostnameListParams`
 * (applied to the states at the moment of the list, so `ssl_status=active` follows the clock),
 * get, edit (PATCH), delete, the fallback origin and the quota. The CA of a request is chosen
 * when it is made (`authorities.ts`): "" is the default CA (Google unless CAA blocks it, then
 * Let's Encrypt). A PATCH re-issues (new `ssl.id`, fresh tokens, back to `initializing`) when the
 * chosen CA or `wildcard` changes; a PATCH whose `ssl` changes neither re-triggers validation of
 * a certificate not yet validated, from now (the API's PATCH description: "used to indicate that hostname
 * should pass domain control validation"), and keeps the rest of an issued one.
 * Quota: 100 allocated (Cloudflare for SaaS includes 100 custom hostnames; docs cloudflare-for-
 * saas/plans), a hard cap of 1,000 (edgezone's: the list derives every hostname's state in
 * memory) beyond which a create is 400 1415.
 * Gaps: custom certificates (`custom_certificate`, `custom_key`, `custom_cert_bundle`,
 * `custom_csr_id`) are refused by the API; the fallback origin is not checked against DNS
 * records of the zone (edgezone has none) and is `active` DEPLOYMENT_MS after it is set.
 */

import type { CustomHostname } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type { FallbackOriginGetResponse } from "cloudflare/resources/custom-hostnames/fallback-origin";
import type { QuotaGetResponse } from "cloudflare/resources/custom-hostnames/quota";
import { randomHexId } from "../../common/ids";
import type { DnsView, SimulatedDns } from "../dns";
import { CODES, conflict, invalid, notFound } from "../failure";
import type { Page } from "../filters";
import { type Authority, defaultAuthority, type RequestedAuthority } from "./authorities";
import {
	type BundleMethod,
	type DcvMethod,
	DEPLOYMENT_MS,
	type HostnameRecord,
	hostnameStatus,
	ownershipMoment,
	type SslRecord,
	type SslSettings,
	sslState,
	validationMoment,
} from "./lifecycle";
import { baseName } from "./names";
import { customHostnameOf } from "./object";

/** Custom hostnames included in the plan (`quota.allocated`). */
const QUOTA_ALLOCATED = 100;
/** Custom hostnames a zone may hold (`quota.hard_cap`). */
export const QUOTA_HARD_CAP = 1000;

/** The `ssl` of a create or edit body, validated by the API. */
interface SslInput {
	method?: DcvMethod;
	type?: "dv";
	bundle_method?: BundleMethod;
	certificate_authority?: RequestedAuthority;
	wildcard?: boolean;
	settings?: SslSettings;
	cloudflare_branding?: boolean;
}

/** A PATCH body: the fields given replace the stored ones; "" clears an origin field. */
export interface CustomHostnameEdit {
	custom_metadata?: Record<string, string>;
	custom_origin_server?: string;
	custom_origin_sni?: string;
	ssl?: SslInput;
}

/** A POST body: a hostname (valid, lower-cased) and the edit fields. */
export interface CustomHostnameInput extends CustomHostnameEdit {
	hostname: string;
}

/** Filters, order and page of a list (SDK `CustomHostnameListParams`). */
export interface CustomHostnameQuery {
	id?: string;
	hostname?: { exact?: string; contain?: string; startsWith?: string };
	ssl?: boolean;
	ssl_status?: string;
	hostname_status?: string;
	certificate_authority?: Authority;
	/** A `*.` hostname or a certificate with `wildcard`. */
	wildcard?: boolean;
	custom_origin_server?: string;
	order: "ssl" | "ssl_status";
	direction: "asc" | "desc";
	page: number;
	perPage: number;
}

interface Row extends Record<string, SqlStorageValue> {
	seq: number;
	id: string;
	hostname: string;
	record: string;
}

interface FallbackRow extends Record<string, SqlStorageValue> {
	origin: string;
	created_at: number;
	updated_at: number;
}

/**
 * Where the edge sends a custom hostname's traffic (Cloudflare for SaaS): the zone's fallback
 * origin, and each custom hostname's `custom_origin_server` / `custom_origin_sni` when it has one.
 */
export interface SaasOrigins {
	fallbackOrigin?: string;
	/** Custom hostname -> its custom origin server and SNI. */
	customOrigins: Record<string, { server: string; sni?: string }>;
}

/** The `custom_hostnames` and `custom_hostname_fallback_origin` tables. */
export class CustomHostnameStore {
	readonly #sql: SqlStorage;
	readonly #dns: SimulatedDns;

	constructor(sql: SqlStorage, dns: SimulatedDns) {
		this.#sql = sql;
		this.#dns = dns;
	}

	/** Creates a custom hostname at zone time `now` (ms). */
	create(input: CustomHostnameInput, now: number): CustomHostname {
		if (this.#sql.exec("SELECT 1 FROM custom_hostnames WHERE hostname = ?", input.hostname).toArray().length > 0)
			conflict(CODES.customHostnameDuplicate, "Duplicate custom hostname found.", "/hostname");
		const count = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM custom_hostnames").one().n;
		if (count >= QUOTA_HARD_CAP)
			invalid(CODES.customHostnameQuota, `the zone holds its hard cap of ${QUOTA_HARD_CAP} custom hostnames`);
		const dns = this.#dns.view();
		const record: HostnameRecord = {
			// A UUID, as Cloudflare issues (the SDK's `client.customHostnames.get('0d89c70d-ad9f-4843-b99f-6cc0252067e9', ...)`);
			// rows stored before keep their 32-hex ids, which the API accepts too.
			id: crypto.randomUUID(),
			hostname: input.hostname,
			created_at: now,
			...origins({}, input),
			...(input.custom_metadata === undefined ? {} : { custom_metadata: input.custom_metadata }),
			ownership_value: crypto.randomUUID(),
			ownership_file: crypto.randomUUID(),
			verified_at: null,
			...(input.ssl === undefined ? {} : { ssl: newSsl(input.hostname, input.ssl, dns, now) }),
		};
		this.#sql.exec(
			"INSERT INTO custom_hostnames (id, hostname, record) VALUES (?, ?, ?)",
			record.id,
			record.hostname,
			JSON.stringify(record),
		);
		return customHostnameOf(record, dns, now);
	}

	/** One page of custom hostnames at `now`, and how many match in all. */
	list(query: CustomHostnameQuery, now: number): Page<CustomHostname> {
		const dns = this.#dns.view();
		const all = this.#rows().map((row) => ({ seq: row.seq, item: customHostnameOf(recordOf(row), dns, now) }));
		const matching = all.filter(({ item }) => matches(item, query));
		const key = (item: CustomHostname) => (query.order === "ssl_status" ? (item.ssl?.status ?? "") : item.ssl ? 1 : 0);
		const sign = query.direction === "desc" ? -1 : 1;
		matching.sort((a, b) => {
			const [ka, kb] = [key(a.item), key(b.item)];
			return (ka < kb ? -sign : ka > kb ? sign : 0) || a.seq - b.seq;
		});
		const start = (query.page - 1) * query.perPage;
		return { items: matching.slice(start, start + query.perPage).map(({ item }) => item), total: matching.length };
	}

	/** One custom hostname at `now`; 404 1436 when unknown. */
	get(id: string, now: number): CustomHostname {
		return customHostnameOf(this.#record(id), this.#dns.view(), now);
	}

	/** Applies a PATCH at `now` (see the file header for re-issue and re-validation). */
	edit(id: string, edit: CustomHostnameEdit, now: number): CustomHostname {
		const record = this.#record(id);
		const dns = this.#dns.view();
		const { custom_origin_server: _server, custom_origin_sni: _sni, ...rest } = record;
		const next: HostnameRecord = { ...rest, ...origins(record, edit) };
		if (edit.custom_metadata !== undefined) {
			if (Object.keys(edit.custom_metadata).length === 0) delete next.custom_metadata;
			else next.custom_metadata = edit.custom_metadata;
		}
		if (edit.ssl !== undefined)
			next.ssl =
				record.ssl === undefined
					? newSsl(record.hostname, edit.ssl, dns, now)
					: editedSsl(record.hostname, record.ssl, edit.ssl, dns, now);
		this.#save(next);
		return customHostnameOf(next, dns, now);
	}

	/** Deletes a custom hostname; answers its id and hostname. */
	delete(id: string): { id: string; hostname: string } {
		const { hostname } = this.#record(id);
		this.#sql.exec("DELETE FROM custom_hostnames WHERE id = ?", id);
		return { id, hostname };
	}

	/** The quota (SDK `QuotaGetResponse`). */
	quota(): QuotaGetResponse {
		const used = this.#sql.exec<{ n: number }>("SELECT count(*) AS n FROM custom_hostnames").one().n;
		return { allocated: QUOTA_ALLOCATED, used, exceeded: used > QUOTA_ALLOCATED, hard_cap: QUOTA_HARD_CAP };
	}

	/** Every custom hostname of the zone (the names its validations ask the DNS about). */
	hostnames(): string[] {
		return this.#sql
			.exec<{ hostname: string }>("SELECT hostname FROM custom_hostnames")
			.toArray()
			.map((row) => row.hostname);
	}

	/** The hostnames whose ownership is verified at `now`: those the edge routes to this zone. */
	activeHostnames(now: number): string[] {
		const dns = this.#dns.view();
		return this.#rows()
			.map(recordOf)
			.filter((record) => hostnameStatus(record, dns, now) === "active")
			.map((record) => record.hostname);
	}

	/** The fallback origin and the custom origins, as the edge routes by them. */
	saasOrigins(): SaasOrigins {
		const customOrigins: SaasOrigins["customOrigins"] = {};
		for (const record of this.#rows().map(recordOf)) {
			if (record.custom_origin_server === undefined) continue;
			customOrigins[record.hostname] = {
				server: record.custom_origin_server,
				...(record.custom_origin_sni === undefined ? {} : { sni: record.custom_origin_sni }),
			};
		}
		const fallback = this.#fallbackRow()?.origin;
		return { ...(fallback === undefined ? {} : { fallbackOrigin: fallback }), customOrigins };
	}

	/**
	 * Stores the moments the DNS has proven by `now` (ownership, validation, the latest renewal),
	 * so a change of the DNS that follows cannot undo them. Call before every DNS write.
	 */
	settle(now: number): void {
		const dns = this.#dns.view();
		for (const row of this.#rows()) {
			const record = recordOf(row);
			const next = structuredClone(record);
			const verified = ownershipMoment(record, dns);
			if (record.verified_at === null && verified !== undefined && verified <= now) next.verified_at = verified;
			if (next.ssl !== undefined) {
				const validated = validationMoment(record.hostname, next.ssl, dns);
				if (next.ssl.validated_at === null && validated !== undefined && validated <= now)
					next.ssl.validated_at = validated;
				const cert = sslState(record.hostname, next.ssl, dns, now).certificate;
				if (cert !== undefined && cert.generation > 0)
					next.ssl.renewed = { issued_at: cert.issuedAt, generation: cert.generation };
			}
			if (JSON.stringify(next) !== row.record) this.#save(next);
		}
	}

	/** The fallback origin at `now`; 404 1414 when none is set. */
	fallbackOrigin(now: number): FallbackOriginGetResponse {
		const row = this.#fallbackRow();
		if (row === undefined) notFound(CODES.fallbackOriginNotFound, "No fallback origin is set for this zone.");
		return fallbackOf(row, now);
	}

	/** Sets the fallback origin (a valid host name) at `now`. */
	setFallbackOrigin(origin: string, now: number): FallbackOriginGetResponse {
		const old = this.#fallbackRow();
		this.#sql.exec(
			`INSERT INTO custom_hostname_fallback_origin (id, origin, created_at, updated_at) VALUES (1, ?, ?, ?)
			 ON CONFLICT (id) DO UPDATE SET origin = excluded.origin, updated_at = excluded.updated_at`,
			origin,
			old?.created_at ?? now,
			now,
		);
		return this.fallbackOrigin(now);
	}

	/** Removes the fallback origin; answers it as `pending_deletion`. 404 1414 when none is set. */
	deleteFallbackOrigin(now: number): FallbackOriginGetResponse {
		const old = this.fallbackOrigin(now);
		this.#sql.exec("DELETE FROM custom_hostname_fallback_origin WHERE id = 1");
		return { ...old, status: "pending_deletion" };
	}

	#rows(): Row[] {
		return this.#sql.exec<Row>("SELECT * FROM custom_hostnames ORDER BY seq").toArray();
	}

	#record(id: string): HostnameRecord {
		const row = this.#sql.exec<Row>("SELECT * FROM custom_hostnames WHERE id = ?", id).toArray()[0];
		if (row === undefined) notFound(CODES.customHostnameNotFound, "The custom hostname was not found.");
		return recordOf(row);
	}

	#save(record: HostnameRecord): void {
		this.#sql.exec("UPDATE custom_hostnames SET record = ? WHERE id = ?", JSON.stringify(record), record.id);
	}

	#fallbackRow(): FallbackRow | undefined {
		return this.#sql.exec<FallbackRow>("SELECT * FROM custom_hostname_fallback_origin WHERE id = 1").toArray()[0];
	}
}

function recordOf(row: Row): HostnameRecord {
	return JSON.parse(row.record) as HostnameRecord;
}

/** The origin fields after an edit: given ones replace, "" removes. */
function origins(
	record: Pick<HostnameRecord, "custom_origin_server" | "custom_origin_sni">,
	edit: CustomHostnameEdit,
): Pick<HostnameRecord, "custom_origin_server" | "custom_origin_sni"> {
	const pick = (old: string | undefined, given: string | undefined) =>
		given === undefined ? old : given === "" ? undefined : given;
	const server = pick(record.custom_origin_server, edit.custom_origin_server);
	const sni = pick(record.custom_origin_sni, edit.custom_origin_sni);
	return {
		...(server === undefined ? {} : { custom_origin_server: server }),
		...(sni === undefined ? {} : { custom_origin_sni: sni }),
	};
}

/** Whether the certificate covers a wildcard name: a `*.` hostname, or `wildcard`. */
function coversWildcard(hostname: string, wildcard: boolean): boolean {
	return wildcard || hostname.startsWith("*.");
}

/** The CA a request gets now: the one named, or the default CA by the CAA records of now. */
function chosenAuthority(hostname: string, requested: RequestedAuthority, wildcard: boolean, dns: DnsView): Authority {
	if (requested !== "") return requested;
	return defaultAuthority(dns.caa(baseName(hostname)).records, coversWildcard(hostname, wildcard));
}

/** A new certificate request at `now`: new id, tokens and serial; HTTP DCV refused for wildcards. */
function newSsl(hostname: string, input: SslInput, dns: DnsView, now: number): SslRecord {
	const wildcard = input.wildcard ?? false;
	const method = input.method ?? (coversWildcard(hostname, wildcard) ? "txt" : "http");
	refuseHttpForWildcard(hostname, method, wildcard);
	const requested = input.certificate_authority ?? "";
	return {
		id: crypto.randomUUID(),
		type: "dv",
		method,
		bundle_method: input.bundle_method ?? "ubiquitous",
		requested_authority: requested,
		certificate_authority: chosenAuthority(hostname, requested, wildcard, dns),
		wildcard,
		settings: input.settings ?? {},
		...(input.cloudflare_branding === undefined ? {} : { cloudflare_branding: input.cloudflare_branding }),
		requested_at: now,
		validated_at: null,
		txt_values: wildcard && !hostname.startsWith("*.") ? [randomHexId(), randomHexId()] : [randomHexId()],
		http_file: `ca3-${randomHexId()}.txt`,
		http_body: `ca3-${randomHexId()}`,
		serial: randomHexId().slice(0, 18),
		renewed: null,
	};
}

/** A PATCH of an existing certificate: re-issue, re-validation or a change of its settings. */
function editedSsl(hostname: string, old: SslRecord, input: SslInput, dns: DnsView, now: number): SslRecord {
	const wildcard = input.wildcard ?? old.wildcard;
	const requested = input.certificate_authority ?? old.requested_authority;
	const authority =
		input.certificate_authority === undefined
			? old.certificate_authority
			: chosenAuthority(hostname, requested, wildcard, dns);
	if (authority !== old.certificate_authority || wildcard !== old.wildcard) {
		return newSsl(
			hostname,
			{
				method: input.method ?? old.method,
				bundle_method: input.bundle_method ?? old.bundle_method,
				certificate_authority: requested,
				wildcard,
				settings: input.settings ?? old.settings,
				cloudflare_branding: input.cloudflare_branding ?? old.cloudflare_branding,
			},
			dns,
			now,
		);
	}
	const method = input.method ?? old.method;
	refuseHttpForWildcard(hostname, method, wildcard);
	const next: SslRecord = {
		...old,
		method,
		requested_authority: requested,
		bundle_method: input.bundle_method ?? old.bundle_method,
		settings: input.settings ?? old.settings,
		...(input.cloudflare_branding === undefined ? {} : { cloudflare_branding: input.cloudflare_branding }),
	};
	const status = sslState(hostname, old, dns, now).status;
	const notValidated =
		status === "initializing" || status === "pending_validation" || status === "validation_timed_out";
	return notValidated ? { ...next, requested_at: now, validated_at: null } : next;
}

function refuseHttpForWildcard(hostname: string, method: DcvMethod, wildcard: boolean): void {
	if (method === "http" && coversWildcard(hostname, wildcard))
		invalid(
			CODES.customHostnameInvalid,
			"HTTP validation is not available for wildcard certificates; use txt",
			"/ssl/method",
		);
}

/** Whether a custom hostname passes every filter of `query`. */
function matches(item: CustomHostname, q: CustomHostnameQuery): boolean {
	const h = q.hostname;
	const wildcard = item.hostname.startsWith("*.") || item.ssl?.wildcard === true;
	return (
		(q.id === undefined || item.id === q.id) &&
		(h?.exact === undefined || item.hostname === h.exact) &&
		(h?.contain === undefined || item.hostname.includes(h.contain)) &&
		(h?.startsWith === undefined || item.hostname.startsWith(h.startsWith)) &&
		(q.ssl === undefined || (item.ssl !== undefined) === q.ssl) &&
		(q.ssl_status === undefined || item.ssl?.status === q.ssl_status) &&
		(q.hostname_status === undefined || item.status === q.hostname_status) &&
		(q.certificate_authority === undefined || item.ssl?.certificate_authority === q.certificate_authority) &&
		(q.wildcard === undefined || wildcard === q.wildcard) &&
		(q.custom_origin_server === undefined || item.custom_origin_server === q.custom_origin_server)
	);
}

function fallbackOf(row: FallbackRow, now: number): FallbackOriginGetResponse {
	return {
		origin: row.origin,
		status: now < row.updated_at + DEPLOYMENT_MS ? "pending_deployment" : "active",
		errors: [],
		created_at: new Date(row.created_at).toISOString(),
		updated_at: new Date(row.updated_at).toISOString(),
	};
}
