/**
 * R2's public access to a bucket, account-wide: the custom domains connected to each bucket and
 * whether its managed `r2.dev` URL is on (https://developers.cloudflare.com/r2/buckets/public-buckets/;
 * API https://developers.cloudflare.com/api/resources/r2/subresources/buckets/subresources/domains/).
 * Kept in the `ZoneRegistry` Durable Object: buckets are the account's, not a zone's, and a custom
 * domain's zone is any zone of the account, which the registry lists.
 *
 * Rules on connecting a domain (public-buckets page, "Custom domains"): the domain must be in a zone
 * of the same account, the zone `zoneId` names, and not a zone on a partial (CNAME) setup; a domain
 * serves one bucket. A zone deleted takes its custom domains with it (`forgetZone`).
 * Edgezone's choices: a connected domain is active at once (`status` ownership and SSL
 * `active`, as zones are active at once here); no DNS record is created for it (which one
 * Cloudflare creates is not public). Error codes other than 10006 are not public (`failure.ts`).
 * Each function runs inside the registry's transaction and throws its `FailureSignal`s.
 */
import { hostnameProblem, normalizeHostname } from "./custom-hostnames/names";
import { CODES, conflict, invalid, notFound } from "./failure";

/** The TLS versions a custom domain may require (SDK `minTLS`); Cloudflare's default is 1.0. */
export const MIN_TLS_VERSIONS = ["1.0", "1.1", "1.2", "1.3"] as const;
type MinTls = (typeof MIN_TLS_VERSIONS)[number];

/** One custom domain as the API answers it (SDK `CustomGetResponse`), and the bucket it serves. */
export interface R2CustomDomain {
	domain: string;
	enabled: boolean;
	status: { ownership: "active"; ssl: "active" };
	minTLS: MinTls;
	ciphers?: string[];
	zoneId: string;
	zoneName: string;
}

/** A custom domain to connect (SDK `CustomCreateParams`, validated). */
export interface R2CustomDomainCreate {
	domain: string;
	zoneId: string;
	enabled: boolean;
	minTLS: MinTls;
	ciphers?: string[];
}

/** A change of a custom domain's settings (SDK `CustomUpdateParams`): absent fields keep their value. */
export interface R2CustomDomainUpdate {
	enabled?: boolean;
	minTLS?: MinTls;
	ciphers?: string[];
}

/** A host that serves a bucket publicly, for the edge: a custom domain or a bucket's `r2.dev` host. */
export type R2PublicHost = {
	host: string;
	bucket: string;
};

type Row = {
	domain: string;
	enabled: number;
	min_tls: string;
	ciphers: string | null;
	zone_id: string;
	zone_name: string | null;
};

const SELECT = `SELECT d.domain, d.enabled, d.min_tls, d.ciphers, d.zone_id, z.name AS zone_name
	FROM r2_custom_domains d LEFT JOIN zones z ON z.id = d.zone_id`;

function fromRow(row: Row): R2CustomDomain {
	return {
		domain: row.domain,
		enabled: row.enabled === 1,
		status: { ownership: "active", ssl: "active" },
		minTLS: row.min_tls as MinTls,
		...(row.ciphers === null ? {} : { ciphers: JSON.parse(row.ciphers) as string[] }),
		zoneId: row.zone_id,
		zoneName: row.zone_name ?? "",
	};
}

/** Every custom domain of `bucket`, by domain name. */
export function listDomains(sql: SqlStorage, bucket: string): R2CustomDomain[] {
	return sql.exec<Row>(`${SELECT} WHERE d.bucket = ? ORDER BY d.domain`, bucket).toArray().map(fromRow);
}

/** The custom domain `domain` of `bucket`; 404 when the bucket has none of that name. */
export function getDomain(sql: SqlStorage, bucket: string, domain: string): R2CustomDomain {
	const row = sql.exec<Row>(`${SELECT} WHERE d.bucket = ? AND d.domain = ?`, bucket, domain).toArray()[0];
	if (row === undefined) {
		notFound(CODES.r2CustomDomainNotFound, `The custom domain ${domain} is not connected to the bucket ${bucket}.`);
	}
	return fromRow(row);
}

/**
 * Connects `input.domain` to `bucket`, for the account `accountId`: 400 for a name that is no
 * host name, for a zone that is not the account's, is on a partial setup, or does not hold the
 * domain; 409 when the domain is connected to a bucket already.
 */
export function attachDomain(
	sql: SqlStorage,
	accountId: string,
	bucket: string,
	input: R2CustomDomainCreate,
): R2CustomDomain {
	const problem = hostnameProblem(input.domain);
	if (problem !== undefined || input.domain.includes("*")) {
		invalid(CODES.r2CustomDomainInvalid, `domain ${problem ?? "may not be a wildcard"}`, "/domain");
	}
	const domain = normalizeHostname(input.domain);
	const zone = sql
		.exec<{ name: string; zone: string }>("SELECT name, zone FROM zones WHERE id = ?", input.zoneId)
		.toArray()[0];
	const parsed = zone === undefined ? undefined : (JSON.parse(zone.zone) as { account: { id: string }; type: string });
	if (zone === undefined || parsed?.account.id !== accountId) {
		invalid(CODES.r2CustomDomainInvalid, `zone ${input.zoneId} is not a zone of the account ${accountId}`, "/zoneId");
	}
	if (parsed?.type === "partial") {
		invalid(
			CODES.r2CustomDomainInvalid,
			`zone ${zone.name} is on a partial (CNAME) setup, which custom domains do not support`,
			"/zoneId",
		);
	}
	if (domain !== zone.name && !domain.endsWith(`.${zone.name}`)) {
		invalid(CODES.r2CustomDomainInvalid, `domain ${domain} is not in the zone ${zone.name}`, "/domain");
	}
	const holder = sql
		.exec<{ bucket: string }>("SELECT bucket FROM r2_custom_domains WHERE domain = ?", domain)
		.toArray();
	if (holder.length > 0) {
		conflict(CODES.r2CustomDomainTaken, `The domain ${domain} is already connected to an R2 bucket.`, "/domain");
	}
	sql.exec(
		"INSERT INTO r2_custom_domains (domain, bucket, zone_id, enabled, min_tls, ciphers) VALUES (?, ?, ?, ?, ?, ?)",
		domain,
		bucket,
		input.zoneId,
		input.enabled ? 1 : 0,
		input.minTLS,
		input.ciphers === undefined ? null : JSON.stringify(input.ciphers),
	);
	return getDomain(sql, bucket, domain);
}

/** Changes the settings `patch` names of the custom domain `domain` of `bucket`; 404 when it has none. */
export function updateDomain(
	sql: SqlStorage,
	bucket: string,
	domain: string,
	patch: R2CustomDomainUpdate,
): R2CustomDomain {
	const current = getDomain(sql, bucket, domain);
	const ciphers = patch.ciphers ?? current.ciphers;
	sql.exec(
		"UPDATE r2_custom_domains SET enabled = ?, min_tls = ?, ciphers = ? WHERE domain = ?",
		(patch.enabled ?? current.enabled) ? 1 : 0,
		patch.minTLS ?? current.minTLS,
		ciphers === undefined ? null : JSON.stringify(ciphers),
		current.domain,
	);
	return getDomain(sql, bucket, domain);
}

/** Disconnects the custom domain `domain` from `bucket`; 404 when it is not connected to it. */
export function removeDomain(sql: SqlStorage, bucket: string, domain: string): { domain: string } {
	const current = getDomain(sql, bucket, domain);
	sql.exec("DELETE FROM r2_custom_domains WHERE domain = ?", current.domain);
	return { domain: current.domain };
}

/** Whether the `r2.dev` URL of `bucket` is on (off until turned on, as for a new bucket). */
export function managedEnabled(sql: SqlStorage, bucket: string): boolean {
	return (
		sql.exec<{ enabled: number }>("SELECT enabled FROM r2_managed_domains WHERE bucket = ?", bucket).toArray()[0]
			?.enabled === 1
	);
}

/** Turns the `r2.dev` URL of `bucket`, the host `domain`, on or off. */
export function setManaged(sql: SqlStorage, bucket: string, domain: string, enabled: boolean): void {
	sql.exec(
		"INSERT OR REPLACE INTO r2_managed_domains (bucket, domain, enabled) VALUES (?, ?, ?)",
		bucket,
		domain,
		enabled ? 1 : 0,
	);
}

/** Every host that serves a bucket now: enabled custom domains and `r2.dev` URLs turned on. */
export function publicHosts(sql: SqlStorage): R2PublicHost[] {
	return sql
		.exec<R2PublicHost>(
			`SELECT domain AS host, bucket FROM r2_custom_domains WHERE enabled = 1
			UNION ALL SELECT domain AS host, bucket FROM r2_managed_domains WHERE enabled = 1`,
		)
		.toArray();
}

/** Forgets the public access of a bucket being deleted: its custom domains and its r2.dev URL. */
export function forgetBucket(sql: SqlStorage, bucket: string): void {
	sql.exec("DELETE FROM r2_custom_domains WHERE bucket = ?", bucket);
	sql.exec("DELETE FROM r2_managed_domains WHERE bucket = ?", bucket);
}

/** Forgets the custom domains of a zone being deleted. */
export function forgetZone(sql: SqlStorage, zoneId: string): void {
	sql.exec("DELETE FROM r2_custom_domains WHERE zone_id = ?", zoneId);
}
