import { DurableObject } from "cloudflare:workers";
import type { Zone as ZoneObject } from "cloudflare/resources/zones/zones";
import { HEX_ID_PATTERN, randomHexId } from "../common/ids";
import type { BucketStorageClass } from "../runtime-buckets/names";
import { type BucketCreate, type CreatedBucket, CreatedBucketStore, createIn } from "../runtime-buckets/store";
import * as sessions from "./dashboard-sessions";
import { CODES, conflict, invalid, notFound, type Result, transact } from "./failure";
import * as r2Domains from "./r2-custom-domains";
import { migrate, REGISTRY_MIGRATIONS } from "./schema";

/**
 * The list of zones behind `POST /zones` and `GET /zones`: one instance, addressed with
 * `zoneRegistry(env)` (`src/common/durable-objects.ts`).
 *
 * A class of its own rather than a special `Zone` instance, so each class has one
 * schema and one RPC surface. The registry holds the zone objects; each zone's
 * configuration lives in its own `Zone` object. The default zone of the `DEFAULT_ZONE_*`
 * vars is seeded once (recorded in `seeded_defaults`), so deleting it sticks across
 * restarts. Zones are active at once: nothing local checks name servers.
 * It also keeps the dashboard's signed-in sessions (`dashboard-sessions.ts`), which belong to a
 * credential rather than to any zone.
 * And the buckets created at run time (`src/runtime-buckets/store.ts`), an account's one list.
 */
export class ZoneRegistry extends DurableObject<Env> {
	readonly #buckets: CreatedBucketStore;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.#buckets = new CreatedBucketStore(ctx.storage.sql);
		void ctx.blockConcurrencyWhile(async () => {
			migrate(ctx.storage, REGISTRY_MIGRATIONS);
			this.#seedDefault();
		});
	}

	/**
	 * Every zone's id and name, for the edge's map of hosts to zones. One row per zone, from
	 * the `name` column (no JSON parsed), so even thousands of zones answer in one small read.
	 */
	zoneNames(): ZoneName[] {
		return this.ctx.storage.sql.exec<ZoneName>("SELECT id, name FROM zones ORDER BY id").toArray();
	}

	/**
	 * What the edge routes by: every zone's id and name, and which zone holds each custom
	 * hostname (whether it is active is the zone's answer, `edge/custom-hostname-routing.ts`).
	 */
	edgeRoutes(): EdgeRoutes {
		return {
			zones: this.zoneNames(),
			customHostnames: this.ctx.storage.sql
				.exec<CustomHostnameRoute>("SELECT hostname, zone_id FROM custom_hostname_routes")
				.toArray(),
		};
	}

	/**
	 * Records that `zoneId` holds the custom hostname `hostname`; 409 1406 when another zone
	 * does. Answers whether the record is new (false: the zone had claimed it already).
	 */
	claimCustomHostname(hostname: string, zoneId: string): Result<boolean> {
		return this.#run(() => {
			const holder = this.ctx.storage.sql
				.exec<{ zone_id: string }>("SELECT zone_id FROM custom_hostname_routes WHERE hostname = ?", hostname)
				.toArray()[0];
			if (holder !== undefined && holder.zone_id !== zoneId)
				conflict(CODES.customHostnameDuplicate, "Duplicate custom hostname found.", "/hostname");
			if (holder !== undefined) return false;
			this.ctx.storage.sql.exec(
				"INSERT INTO custom_hostname_routes (hostname, zone_id) VALUES (?, ?)",
				hostname,
				zoneId,
			);
			return true;
		});
	}

	/** Forgets that `zoneId` holds the custom hostname `hostname` (nothing when it does not). */
	releaseCustomHostname(hostname: string, zoneId: string): Result<null> {
		return this.#run(() => {
			this.ctx.storage.sql.exec(
				"DELETE FROM custom_hostname_routes WHERE hostname = ? AND zone_id = ?",
				hostname,
				zoneId,
			);
			return null;
		});
	}

	/** One page of the zones a caller may see, and how many there are in all. */
	list(query: ZoneQuery): Result<{ zones: ZoneObject[]; total: number }> {
		return this.#run(() => {
			const where: string[] = [];
			const args: (string | number)[] = [];
			if (query.visible !== "*") {
				// One bound JSON array, not one variable per id: Durable Object SQLite allows 100 bound
				// variables a statement, and a credential may reach any number of zones.
				where.push("id IN (SELECT value FROM json_each(?))");
				args.push(JSON.stringify(query.visible));
			}
			if (query.name !== undefined) {
				const [clause, values] = nameFilter(query.name);
				where.push(clause);
				args.push(...values);
			}
			for (const [field, value] of [
				["status", query.status],
				["account.id", query.accountId],
				["account.name", query.accountName],
			] as const) {
				if (value === undefined) continue;
				where.push(`json_extract(zone, '$.${field}') = ?`);
				args.push(value);
			}
			const filter = where.length > 0 ? `WHERE ${where.join(" AND ")}` : "";
			const total = this.ctx.storage.sql
				.exec<{ n: number }>(`SELECT count(*) AS n FROM zones ${filter}`, ...args)
				.one().n;
			const order = `json_extract(zone, '$.${query.order}') ${query.direction === "desc" ? "DESC" : "ASC"}, id`;
			const zones = this.ctx.storage.sql
				.exec<{ zone: string }>(
					`SELECT zone FROM zones ${filter} ORDER BY ${order} LIMIT ? OFFSET ?`,
					...args,
					query.perPage,
					(query.page - 1) * query.perPage,
				)
				.toArray()
				.map((row) => JSON.parse(row.zone) as ZoneObject);
			return { zones, total };
		});
	}

	/** Creates a zone; 1061 when the name is taken. */
	create(input: ZoneCreate): Result<ZoneObject> {
		return this.#run(() => this.#insert(randomHexId(), input, new Date()));
	}

	/** One zone; 404 (1003) when unknown. */
	get(id: string): Result<ZoneObject> {
		return this.#run(() => this.#get(id));
	}

	/** Changes `paused`, `type` and/or `vanity_name_servers` of a zone. */
	edit(id: string, patch: ZoneEdit): Result<ZoneObject> {
		return this.#run(() => {
			const zone: ZoneObject = { ...this.#get(id), ...patch, modified_on: new Date().toISOString() };
			this.ctx.storage.sql.exec("UPDATE zones SET zone = ? WHERE id = ?", JSON.stringify(zone), id);
			return zone;
		});
	}

	/** Removes a zone from the registry; the caller then destroys its `Zone` object. */
	delete(id: string): Result<{ id: string }> {
		return this.#run(() => {
			this.#get(id);
			this.ctx.storage.sql.exec("DELETE FROM zones WHERE id = ?", id);
			this.ctx.storage.sql.exec("DELETE FROM custom_hostname_routes WHERE zone_id = ?", id);
			r2Domains.forgetZone(this.ctx.storage.sql, id);
			return { id };
		});
	}

	/** The custom domains of the R2 bucket `bucket` (`r2-custom-domains.ts`). */
	r2CustomDomains(bucket: string): Result<r2Domains.R2CustomDomain[]> {
		return this.#run(() => r2Domains.listDomains(this.ctx.storage.sql, bucket));
	}

	/** One custom domain of `bucket`; 404 when it has none of that name. */
	r2CustomDomain(bucket: string, domain: string): Result<r2Domains.R2CustomDomain> {
		return this.#run(() => r2Domains.getDomain(this.ctx.storage.sql, bucket, domain));
	}

	/** Connects a custom domain of a zone of `accountId` to `bucket` (`r2-custom-domains.ts` says the rules). */
	attachR2CustomDomain(
		accountId: string,
		bucket: string,
		input: r2Domains.R2CustomDomainCreate,
	): Result<r2Domains.R2CustomDomain> {
		return this.#run(() => r2Domains.attachDomain(this.ctx.storage.sql, accountId, bucket, input));
	}

	/** Changes a custom domain's `enabled`, `minTLS` or `ciphers`; 404 when `bucket` has no such domain. */
	updateR2CustomDomain(
		bucket: string,
		domain: string,
		patch: r2Domains.R2CustomDomainUpdate,
	): Result<r2Domains.R2CustomDomain> {
		return this.#run(() => r2Domains.updateDomain(this.ctx.storage.sql, bucket, domain, patch));
	}

	/** Disconnects a custom domain from `bucket`; 404 when it is not connected to it. */
	removeR2CustomDomain(bucket: string, domain: string): Result<{ domain: string }> {
		return this.#run(() => r2Domains.removeDomain(this.ctx.storage.sql, bucket, domain));
	}

	/** Whether the `r2.dev` URL of `bucket` is on. */
	r2ManagedEnabled(bucket: string): boolean {
		return r2Domains.managedEnabled(this.ctx.storage.sql, bucket);
	}

	/** Turns the `r2.dev` URL of `bucket` (the host `domain`) on or off. */
	setR2Managed(bucket: string, domain: string, enabled: boolean): Result<null> {
		return this.#run(() => {
			r2Domains.setManaged(this.ctx.storage.sql, bucket, domain, enabled);
			return null;
		});
	}

	/**
	 * Every host serving a bucket publicly now, for the edge (`edge/r2-domain/hosts.ts`), with the
	 * bucket's row when it was created at run time (null for a declared one): the edge then reaches
	 * it without asking again, and a host kept a while never serves a bucket created anew under the
	 * name.
	 */
	r2PublicHosts(): PublicBucketHost[] {
		const created = new Map(this.#buckets.all().map((bucket) => [bucket.name, bucket]));
		return r2Domains
			.publicHosts(this.ctx.storage.sql)
			.map((row) => ({ ...row, created: created.get(row.bucket) ?? null }));
	}

	/** Records a dashboard session of `credential` (an HMAC of it), signed in until `expiresAt` (seconds). */
	startDashboardSession(sid: string, credential: string, expiresAt: number): void {
		const now = Math.floor(Date.now() / 1000);
		this.ctx.storage.transactionSync(() =>
			sessions.startSession(this.ctx.storage.sql, sid, credential, expiresAt, now),
		);
	}

	/** Whether the dashboard session `sid` is still signed in (not ended, not expired). */
	dashboardSessionActive(sid: string): boolean {
		return sessions.sessionActive(this.ctx.storage.sql, sid, Math.floor(Date.now() / 1000));
	}

	/** Ends one dashboard session (sign-out). */
	endDashboardSession(sid: string): void {
		sessions.endSession(this.ctx.storage.sql, sid);
	}

	/** Ends every dashboard session of `credential` (an HMAC of it); answers how many there were. */
	endDashboardSessionsOf(credential: string): number {
		return sessions.endCredentialSessions(this.ctx.storage.sql, credential);
	}

	#get(id: string): ZoneObject {
		const row = this.ctx.storage.sql.exec<{ zone: string }>("SELECT zone FROM zones WHERE id = ?", id).toArray()[0];
		if (row === undefined) notFound(CODES.zoneNotFound, "Invalid zone identifier");
		return JSON.parse(row.zone) as ZoneObject;
	}

	#insert(id: string, input: ZoneCreate, now: Date): ZoneObject {
		if (this.ctx.storage.sql.exec("SELECT 1 FROM zones WHERE name = ?", input.name).toArray().length > 0) {
			invalid(CODES.zoneExists, `${input.name} already exists`, "/name");
		}
		const zone = newZone(id, input, now);
		this.ctx.storage.sql.exec(
			"INSERT INTO zones (id, name, zone) VALUES (?, ?, ?)",
			id,
			input.name,
			JSON.stringify(zone),
		);
		return zone;
	}

	/** Creates the `DEFAULT_ZONE_*` zone unless it was seeded before or its name is taken. */
	#seedDefault(): void {
		const id = this.env.DEFAULT_ZONE_ID;
		if (!HEX_ID_PATTERN.test(id) || !HEX_ID_PATTERN.test(this.env.DEFAULT_ACCOUNT_ID)) {
			// A zone with such an id could never be addressed (7003); say so instead of seeding it.
			console.error(
				"edgezone: DEFAULT_ZONE_ID and DEFAULT_ACCOUNT_ID must be 32 lower-case hex; no default zone seeded",
			);
			return;
		}
		const seeded =
			this.ctx.storage.sql.exec("INSERT OR IGNORE INTO seeded_defaults (zone_id) VALUES (?)", id).rowsWritten > 0;
		const nameTaken =
			this.ctx.storage.sql
				.exec("SELECT 1 FROM zones WHERE id = ? OR name = ?", id, this.env.DEFAULT_ZONE_NAME)
				.toArray().length > 0;
		if (seeded && !nameTaken) {
			this.#insert(
				id,
				{ name: this.env.DEFAULT_ZONE_NAME, accountId: this.env.DEFAULT_ACCOUNT_ID, type: "full" },
				new Date(),
			);
		}
	}

	/** Every bucket created at run time, in name order. */
	createdBuckets(): CreatedBucket[] {
		return this.#buckets.all();
	}

	/** The created bucket called `name`, or null. */
	createdBucket(name: string): CreatedBucket | null {
		return this.#buckets.byName(name) ?? null;
	}

	/** The created bucket of id `id`, or null. */
	createdBucketById(id: string): CreatedBucket | null {
		return this.#buckets.byId(id) ?? null;
	}

	/** Creates a bucket (`createIn`: 409 10073 taken, 400 10009 too many); `declared` are wrangler.toml's names. */
	createBucket(input: BucketCreate, declared: string[]): Result<CreatedBucket> {
		return this.#run(() => createIn(this.#buckets, input, declared, new Date().toISOString()));
	}

	/** Sets a created bucket's default storage class; null when there is no such bucket. */
	setBucketStorageClass(name: string, storageClass: BucketStorageClass): CreatedBucket | null {
		return this.#buckets.setStorageClass(name, storageClass) ? (this.#buckets.byName(name) ?? null) : null;
	}

	/**
	 * Forgets the created bucket `name` if it is still the one of id `id`, with its public access
	 * (a bucket created again under the name starts with none); whether it did.
	 */
	forgetBucket(name: string, id: string): boolean {
		// No await between the read and the writes: the Durable Object runs them as one.
		if (this.#buckets.byId(id)?.name !== name) return false;
		r2Domains.forgetBucket(this.ctx.storage.sql, name);
		return this.#buckets.remove(name);
	}

	#run<T>(op: () => T): Result<T> {
		return transact(this.ctx.storage, op);
	}
}

/** A zone's id and name, as the edge routes by them. */
export type ZoneName = {
	id: string;
	name: string;
};

/** A custom hostname and the zone that holds it. */
type CustomHostnameRoute = {
	hostname: string;
	zone_id: string;
};

/** A host serving a bucket publicly (`r2PublicHosts`), and the bucket's row when it was created at run time. */
export interface PublicBucketHost extends r2Domains.R2PublicHost {
	created: CreatedBucket | null;
}

/** What the edge routes requests by (`edgeRoutes`). */
export type EdgeRoutes = {
	zones: ZoneName[];
	customHostnames: CustomHostnameRoute[];
};

/** Zone types (SDK `Type`). */
type ZoneType = "full" | "partial" | "secondary" | "internal";

/** A validated `POST /zones` body. */
export interface ZoneCreate {
	name: string;
	accountId: string;
	type: ZoneType;
}

/** A validated `PATCH /zones/{id}` body. */
export interface ZoneEdit {
	paused?: boolean;
	type?: ZoneType;
	vanity_name_servers?: string[];
}

/** A validated `GET /zones` query plus the zone ids the caller may see (`"*"` for all). */
export interface ZoneQuery {
	visible: string[] | "*";
	name?: string;
	status?: string;
	accountId?: string;
	accountName?: string;
	order: "name" | "status" | "account.id" | "account.name";
	direction: "asc" | "desc";
	page: number;
	perPage: number;
}

/** The SQL filter of `name`: exact, or `contains:`, `starts_with:`, `ends_with:` as the real list accepts. */
function nameFilter(name: string): [string, string[]] {
	const [, op, value = ""] = /^(contains|starts_with|ends_with):(.*)$/.exec(name) ?? [];
	switch (op) {
		case "contains":
			return ["instr(name, ?) > 0", [value]];
		case "starts_with":
			return ["instr(name, ?) = 1", [value]];
		case "ends_with":
			return ["substr(name, length(name) - length(?) + 1) = ?", [value, value]];
		default:
			return ["name = ?", [name]];
	}
}

/** A new zone object with every field of the SDK's `Zone`. */
function newZone(id: string, input: ZoneCreate, now: Date): ZoneObject {
	const at = now.toISOString();
	return {
		id,
		name: input.name,
		account: { id: input.accountId, name: "edgezone" },
		activated_on: at,
		created_on: at,
		modified_on: at,
		development_mode: 0,
		meta: {
			cdn_only: false,
			custom_certificate_quota: 0,
			dns_only: false,
			foundation_dns: false,
			page_rule_quota: 3,
			phishing_detected: false,
			step: 2,
		},
		name_servers: ["ns1.edgezone.localhost", "ns2.edgezone.localhost"],
		original_dnshost: null,
		original_name_servers: null,
		original_registrar: null,
		owner: { type: "user" },
		plan: {
			id: "enterprise",
			name: "Enterprise Website",
			currency: "USD",
			frequency: "",
			is_subscribed: true,
			can_subscribe: false,
			price: 0,
		},
		paused: false,
		status: "active",
		type: input.type,
		vanity_name_servers: [],
		permissions: ["#zone:read", "#zone:edit"],
	} satisfies ZoneObject;
}
