/**
 * The zone's configuration version and the edge's view of the zone.
 *
 * The edge reads a zone's compiled firewall rules and custom fields through one RPC, cached in
 * the isolate by the zone's config version (edgezone's design). Every write that
 * changes what the edge must do (rulesets; log-push job create, update, delete; filters
 * and firewall rules, including a quota-refused POST that kept its filters; the Logpull
 * retention flag; the URL normalization setting; the zone settings; the Managed Transforms;
 * Workers routes; DNS records; the fallback origin) bumps one per-zone counter in the same
 * transaction, so a cached view is current exactly when its version equals the stored one.
 * Reads and refused writes (rolled back) leave it as it is.
 */
import type { UrlNormalization } from "../common/url-normalization";
import type { SaasOrigins } from "./custom-hostnames/store";
import type { EdgeRecord } from "./dns-records";
import type { EnforcedFirewallRule } from "./firewall-rules";
import type { LogpushJob } from "./logpush";
import type { ManagedTransformId } from "./managed-transforms";
import type { Rule } from "./phases/actions";
import type { LogCustomFieldParameters } from "./phases/log-custom-fields";
import type { WorkersRoute } from "./workers-routes";

/** What the edge of one zone needs, as `Zone.edgeConfig()` answers it. */
export interface EdgeConfig {
	/** The zone's configuration version: 0 for a new zone, one more after every edge-relevant write. */
	version: number;
	/**
	 * `action_parameters` of the enabled `log_custom_field` rules of the zone's
	 * `http_log_custom_fields` entrypoint ruleset, in rule order; empty when there is none.
	 */
	logCustomFields: LogCustomFieldParameters[];
	/** The zone's enabled log-push jobs, by id. */
	logpushJobs: LogpushJob[];
	/**
	 * Every firewall rule (legacy Firewall Rules API), in evaluation order (priority, null last,
	 * then creation), each with its filter's expression; paused rules and rules of paused filters
	 * are included with their `paused` flags, which the edge must honour.
	 */
	firewallRules: EnforcedFirewallRule[];
	/** The enabled rules of the zone's `http_request_firewall_custom` entrypoint ruleset, in rule order. */
	firewallCustomRules: Rule[];
	/** Whether Logpull retention is on (`retention.ts`): the edge then logs every request. */
	logpullRetention: boolean;
	/** The zone's URL normalization setting (`url-normalization.ts`): what the rules and the origin see. */
	urlNormalization: UrlNormalization;
	/** Whether the zone's `ip_geolocation` setting is on (`zone-settings.ts`): origins get `CF-IPCountry`. */
	ipGeolocation: boolean;
	/** The zone's Managed Transforms that are on (`managed-transforms.ts`). */
	managedTransforms: ManagedTransformId[];
	/** The zone's Workers routes (`workers-routes.ts`), in creation order; the edge ranks them. */
	workersRoutes: WorkersRoute[];
	/** The zone's DNS records as the edge routes by them (`edge/origin/records.ts`). */
	dnsRecords: EdgeRecord[];
	/** Where custom hostnames' traffic goes (Cloudflare for SaaS, `edge/destination.ts`). */
	saasOrigins: SaasOrigins;
	/** The enabled rules of the zone's `http_request_dynamic_redirect` entrypoint (Single Redirects), in rule order. */
	redirectRules: Rule[];
	/** The enabled rules of the zone's `http_request_transform` entrypoint (URL rewrites), in rule order. */
	urlRewriteRules: Rule[];
	/** The enabled rules of the zone's `http_request_origin` entrypoint (Origin Rules), in rule order. */
	originRules: Rule[];
	/** The enabled rules of the zone's `http_request_late_transform` entrypoint (request header rules), in rule order. */
	requestHeaderRules: Rule[];
	/** The enabled rules of the zone's `http_response_headers_transform` entrypoint (response header rules), in rule order. */
	responseHeaderRules: Rule[];
}

/** The one-row `zone_config` table. Every method runs inside the caller's transaction. */
export class ConfigVersion {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** The current version. */
	current(): number {
		return this.#sql.exec<{ version: number }>("SELECT version FROM zone_config WHERE id = 1").one().version;
	}

	/** Adds one to the version: call it in the transaction of the write it versions. */
	bump(): void {
		this.#sql.exec("UPDATE zone_config SET version = version + 1 WHERE id = 1");
	}
}
