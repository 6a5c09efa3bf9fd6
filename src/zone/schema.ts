/**
 * SQLite schemas of the Durable Objects and the migration runner.
 *
 * Migrations are append-only: each has a stable id, runs once, and is recorded in
 * `_migrations` in the same transaction as its DDL, so a crash never leaves a half
 * migration behind (edgezone's choice; Rules of Durable Objects: no `PRAGMA user_version`).
 * A new store appends its tables to `ZONE_MIGRATIONS` with the next id (a test checks the ids
 * run 1, 2, 3... and that every one is recorded).
 */
import { CREATED_BUCKETS_MIGRATION } from "../runtime-buckets/store";

/** One schema step: a stable id and the SQL it runs. */
export interface Migration {
	id: number;
	name: string;
	sql: string;
}

/** Tables of one zone (the `Zone` Durable Object). */
export const ZONE_MIGRATIONS: readonly Migration[] = [
	{
		id: 1,
		name: "rulesets",
		sql: `
			CREATE TABLE rulesets (
				id TEXT PRIMARY KEY,
				kind TEXT NOT NULL,
				phase TEXT NOT NULL,
				version INTEGER NOT NULL
			);
			-- "Only one zone-level ruleset per phase" (Cloudflare custom fields docs), enforced by the database too.
			CREATE UNIQUE INDEX rulesets_one_zone_kind_per_phase ON rulesets (phase) WHERE kind = 'zone';
			-- Every version stays readable: one JSON snapshot of the whole ruleset per version.
			CREATE TABLE ruleset_versions (
				ruleset_id TEXT NOT NULL REFERENCES rulesets (id) ON DELETE CASCADE,
				version INTEGER NOT NULL,
				snapshot TEXT NOT NULL,
				PRIMARY KEY (ruleset_id, version)
			);
		`,
	},
	{
		id: 2,
		name: "logpush",
		sql: `
			CREATE TABLE logpush_jobs (
				id INTEGER PRIMARY KEY AUTOINCREMENT,
				job TEXT NOT NULL
			);
			-- Ownership tokens written into destination buckets; valid for 7 days (Logpush ownership challenge docs).
			CREATE TABLE ownership_challenges (
				token TEXT PRIMARY KEY,
				fingerprint TEXT NOT NULL,
				expires_at INTEGER NOT NULL
			);
		`,
	},
	{
		id: 3,
		name: "zone_config",
		sql: `
			-- One row: the zone's configuration version, bumped by every edge-relevant write (edge-config.ts).
			CREATE TABLE zone_config (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				version INTEGER NOT NULL
			);
			INSERT INTO zone_config (id, version) VALUES (1, 0);
		`,
	},
	{
		id: 4,
		name: "filters_and_firewall_rules",
		sql: `
			-- Filters (Cloudflare Filters API): one per expression; locked = created by a firewall rules POST.
			CREATE TABLE filters (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				expression TEXT NOT NULL UNIQUE,
				paused INTEGER NOT NULL,
				description TEXT,
				ref TEXT,
				locked INTEGER NOT NULL
			);
			-- Firewall rules (Firewall Rules API); a referenced filter cannot be deleted, by the database too.
			CREATE TABLE firewall_rules (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				filter_id TEXT NOT NULL REFERENCES filters (id),
				action TEXT NOT NULL,
				priority INTEGER,
				paused INTEGER NOT NULL,
				description TEXT NOT NULL,
				ref TEXT NOT NULL,
				products TEXT
			);
			CREATE INDEX firewall_rules_by_filter ON firewall_rules (filter_id);
		`,
	},
	{
		id: 5,
		name: "emulator_clock",
		sql: `
			-- One row: the zone's clock (clock.ts); frozen_at, in ms since the epoch, when it stands still.
			CREATE TABLE emulator_clock (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				offset_ms INTEGER NOT NULL,
				frozen_at INTEGER
			);
			INSERT INTO emulator_clock (id, offset_ms, frozen_at) VALUES (1, 0, NULL);
		`,
	},
	{
		id: 6,
		name: "edge_log",
		sql: `
			-- The pending log: http_requests entries of the edge, oldest first (zone/edge-log.ts).
			CREATE TABLE edge_log (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				received_at INTEGER NOT NULL,
				ray_id TEXT NOT NULL,
				entry TEXT NOT NULL
			);
			-- Where each log-push job stands: the last entry delivered, and its retry back-off.
			CREATE TABLE logpush_cursors (
				job_id INTEGER PRIMARY KEY,
				delivered_seq INTEGER NOT NULL,
				failures INTEGER NOT NULL,
				retry_at INTEGER NOT NULL
			);
		`,
	},
	{
		id: 7,
		name: "custom_hostnames_and_simulated_dns",
		sql: `
			-- Custom hostnames (custom-hostnames/store.ts): the stored facts as JSON; states are derived at read time.
			CREATE TABLE custom_hostnames (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				hostname TEXT NOT NULL UNIQUE,
				record TEXT NOT NULL
			);
			-- One row at most: the zone's fallback origin for custom hostnames.
			CREATE TABLE custom_hostname_fallback_origin (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				origin TEXT NOT NULL,
				created_at INTEGER NOT NULL,
				updated_at INTEGER NOT NULL
			);
			-- The simulated DNS (dns.ts): CAA, TXT and HTTP tokens per name, with the clock time each was set.
			CREATE TABLE emulator_dns (
				name TEXT PRIMARY KEY,
				caa TEXT NOT NULL,
				caa_changed_at INTEGER NOT NULL,
				txt TEXT NOT NULL,
				http TEXT NOT NULL
			);
		`,
	},
	{
		id: 8,
		name: "logpull_retention",
		sql: `
			-- One row: the zone's Logpull retention flag (retention.ts); off by default, as Cloudflare's.
			CREATE TABLE logpull_retention (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				flag INTEGER NOT NULL
			);
			INSERT INTO logpull_retention (id, flag) VALUES (1, 0);
			-- When the zone received each entry (Logpull's "received" time, ms), and whether it was
			-- logged while retention was on (then Logpull serves it for the retention window).
			ALTER TABLE edge_log ADD COLUMN stored_at INTEGER NOT NULL DEFAULT 0;
			ALTER TABLE edge_log ADD COLUMN retained INTEGER NOT NULL DEFAULT 0;
			CREATE INDEX edge_log_retained_by_time ON edge_log (stored_at) WHERE retained = 1;
			CREATE INDEX edge_log_retained_by_ray ON edge_log (ray_id) WHERE retained = 1;
		`,
	},
	{
		id: 9,
		name: "certificates",
		sql: `
			-- Certificate packs (certificate packs API): the order; status and certificates derive from the clock.
			CREATE TABLE certificate_packs (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				type TEXT NOT NULL,
				hosts TEXT NOT NULL,
				requested_authority TEXT NOT NULL,
				validation_method TEXT NOT NULL,
				validity_days INTEGER NOT NULL,
				cloudflare_branding INTEGER NOT NULL,
				ordered_at INTEGER NOT NULL,
				with_zone INTEGER NOT NULL
			);
			CREATE UNIQUE INDEX certificate_packs_one_universal ON certificate_packs (type) WHERE type = 'universal';
			-- One row: Universal SSL (ssl/universal/settings) and Total TLS settings; '' = Cloudflare chooses the CA.
			CREATE TABLE ssl_settings (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				universal_enabled INTEGER NOT NULL,
				universal_authority TEXT NOT NULL,
				total_tls_enabled INTEGER NOT NULL,
				total_tls_authority TEXT NOT NULL,
				total_tls_at INTEGER
			);
			INSERT INTO ssl_settings VALUES (1, 1, '', 0, '', NULL);
			-- Uploaded certificates: the parsed leaf and chain as JSON; the private key is never stored.
			CREATE TABLE custom_certificates (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				type TEXT NOT NULL,
				bundle_method TEXT NOT NULL,
				leaf TEXT NOT NULL,
				chain TEXT NOT NULL,
				sha256 TEXT NOT NULL UNIQUE,
				uploaded_on INTEGER NOT NULL,
				modified_on INTEGER NOT NULL,
				geo_label TEXT,
				policy TEXT,
				priority INTEGER NOT NULL
			);
			-- The e-mails Cloudflare would send (outbox.ts), one per key.
			CREATE TABLE outbox (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				key TEXT NOT NULL UNIQUE,
				sent_at INTEGER NOT NULL,
				recipient TEXT NOT NULL,
				subject TEXT NOT NULL,
				text TEXT NOT NULL,
				certificate_type TEXT NOT NULL,
				certificate_id TEXT
			);
		`,
	},
	{
		id: 10,
		name: "logpush_cursor_since",
		sql: `
			-- When each job started (ms): it gets the entries the edge logged from then on (edge-log.ts).
			-- Cursors kept before this column start at 0: every entry after them is theirs, as before.
			ALTER TABLE logpush_cursors ADD COLUMN since INTEGER NOT NULL DEFAULT 0;
		`,
	},
	{
		id: 11,
		name: "url_normalization",
		sql: `
			-- One row: the zone's URL normalization setting (url-normalization.ts), Cloudflare's default.
			CREATE TABLE url_normalization (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				type TEXT NOT NULL,
				scope TEXT NOT NULL
			);
			INSERT INTO url_normalization (id, type, scope) VALUES (1, 'cloudflare', 'incoming');
		`,
	},
	{
		id: 12,
		name: "dns_records",
		sql: `
			-- The zone's DNS records (dns-records.ts); tags and settings as JSON, times as ISO 8601.
			CREATE TABLE dns_records (
				id TEXT PRIMARY KEY,
				name TEXT NOT NULL,
				type TEXT NOT NULL,
				content TEXT NOT NULL,
				ttl INTEGER NOT NULL,
				proxied INTEGER NOT NULL,
				priority INTEGER,
				comment TEXT,
				tags TEXT NOT NULL,
				settings TEXT NOT NULL,
				created_on TEXT NOT NULL,
				modified_on TEXT NOT NULL,
				comment_modified_on TEXT,
				tags_modified_on TEXT
			);
			-- The rules between records read the records of one name.
			CREATE INDEX dns_records_by_name ON dns_records (name);
		`,
	},
	{
		id: 13,
		name: "workers_routes",
		sql: `
			-- The zone's Workers routes (workers-routes.ts), in creation order (seq). pattern_key is the
			-- pattern with its host in lower case: two routes may not share it. script NULL: no Worker.
			CREATE TABLE workers_routes (
				seq INTEGER PRIMARY KEY AUTOINCREMENT,
				id TEXT NOT NULL UNIQUE,
				pattern TEXT NOT NULL,
				pattern_key TEXT NOT NULL UNIQUE,
				script TEXT
			);
		`,
	},
	{
		id: 14,
		name: "dns_caa_changes",
		sql: `
			-- When CAA records last changed at each name of the zone's DNS records (dns-records.ts), zone
			-- clock ms: kept after the last one is removed, since a removal changes what a CA may issue.
			CREATE TABLE dns_caa_changes (
				name TEXT PRIMARY KEY,
				changed_at INTEGER NOT NULL
			);
		`,
	},
	{
		id: 15,
		name: "zone_settings",
		sql: `
			-- The zone settings changed from their defaults (zone-settings.ts); modified_on ISO 8601.
			CREATE TABLE zone_settings (
				id TEXT PRIMARY KEY,
				value TEXT NOT NULL,
				modified_on TEXT NOT NULL
			);
		`,
	},
	{
		id: 16,
		name: "managed_transforms",
		sql: `
			-- The Managed Transforms that are on (managed-transforms.ts): a row each.
			CREATE TABLE managed_transforms (
				id TEXT PRIMARY KEY
			);
		`,
	},
];

/** Tables of the zone registry (the `ZoneRegistry` Durable Object). */
export const REGISTRY_MIGRATIONS: readonly Migration[] = [
	{
		id: 1,
		name: "zones",
		sql: `
			CREATE TABLE zones (
				id TEXT PRIMARY KEY,
				name TEXT NOT NULL UNIQUE,
				zone TEXT NOT NULL
			);
			-- Default zones seeded once: a deleted default zone stays deleted after a restart.
			CREATE TABLE seeded_defaults (zone_id TEXT PRIMARY KEY);
		`,
	},
	{
		id: 2,
		name: "custom_hostname_routes",
		sql: `
			-- Which zone holds each custom hostname (any zone's), for the edge's routing by Host.
			CREATE TABLE custom_hostname_routes (
				hostname TEXT PRIMARY KEY,
				zone_id TEXT NOT NULL
			);
			CREATE INDEX custom_hostname_routes_by_zone ON custom_hostname_routes (zone_id);
		`,
	},
	{
		id: 3,
		name: "dashboard_sessions",
		sql: `
			-- The dashboard's signed-in sessions (src/zone/dashboard-sessions.ts): a sealed cookie opens
			-- only while its row is here. \`credential\` is an HMAC of the credential, never the credential.
			CREATE TABLE dashboard_sessions (
				sid TEXT PRIMARY KEY,
				credential TEXT NOT NULL,
				expires_at INTEGER NOT NULL
			);
			CREATE INDEX dashboard_sessions_by_credential ON dashboard_sessions (credential);
			CREATE INDEX dashboard_sessions_by_expiry ON dashboard_sessions (expires_at);
		`,
	},
	{
		id: 4,
		name: "r2_public_access",
		sql: `
			-- R2 custom domains (src/zone/r2-custom-domains.ts): a domain serves one bucket.
			CREATE TABLE r2_custom_domains (
				domain TEXT PRIMARY KEY,
				bucket TEXT NOT NULL,
				zone_id TEXT NOT NULL,
				enabled INTEGER NOT NULL,
				min_tls TEXT NOT NULL,
				ciphers TEXT
			);
			CREATE INDEX r2_custom_domains_by_bucket ON r2_custom_domains (bucket);
			CREATE INDEX r2_custom_domains_by_zone ON r2_custom_domains (zone_id);
			-- Each bucket's r2.dev URL (its pub-<id>.r2.dev host) and whether it is on.
			CREATE TABLE r2_managed_domains (
				bucket TEXT PRIMARY KEY,
				domain TEXT NOT NULL,
				enabled INTEGER NOT NULL
			);
		`,
	},
	CREATED_BUCKETS_MIGRATION,
];

/**
 * Runs the migrations not yet recorded, each in its own transaction. Call it from the
 * constructor inside `blockConcurrencyWhile`, so no request sees an old schema.
 */
export function migrate(storage: DurableObjectStorage, migrations: readonly Migration[]): void {
	storage.sql.exec(
		"CREATE TABLE IF NOT EXISTS _migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
	);
	const applied = new Set(
		storage.sql
			.exec<{ id: number }>("SELECT id FROM _migrations")
			.toArray()
			.map((r) => r.id),
	);
	for (const migration of migrations) {
		if (applied.has(migration.id)) continue;
		storage.transactionSync(() => {
			storage.sql.exec(migration.sql);
			storage.sql.exec(
				"INSERT INTO _migrations (id, name, applied_at) VALUES (?, ?, ?)",
				migration.id,
				migration.name,
				new Date().toISOString(),
			);
		});
	}
}
