import { DurableObject } from "cloudflare:workers";
import type { CustomCertificate } from "cloudflare/resources/custom-certificates/custom-certificates";
import type { CustomHostname } from "cloudflare/resources/custom-hostnames/custom-hostnames";
import type { FallbackOriginGetResponse } from "cloudflare/resources/custom-hostnames/fallback-origin";
import type { QuotaGetResponse } from "cloudflare/resources/custom-hostnames/quota";
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import type { UrlNormalization } from "../common/url-normalization";
import type { LogEntry, LogRow } from "../logs/entry";
import { sampled } from "../logs/format";
import {
	type CertificatePack,
	CertificateStore,
	type ChainAnswer,
	type CustomCertificateInput,
	type HostnameSource,
	type PackOrder,
	type TotalTlsSettings,
	type UniversalSettings,
	type ZoneRef,
} from "./certificates/store";
import { type ClockReading, type ClockSetting, EmulatorClock } from "./clock";
import { acmeTxtName, ownershipTxtName } from "./custom-hostnames/lifecycle";
import { baseName } from "./custom-hostnames/names";
import {
	type CustomHostnameEdit,
	type CustomHostnameInput,
	type CustomHostnameQuery,
	CustomHostnameStore,
	QUOTA_HARD_CAP,
} from "./custom-hostnames/store";
import type { JobDelivery } from "./delivery";
import { type Destination, destinationBucket } from "./destinations";
import { type DnsEntry, type DnsRecords, SimulatedDns, type TxtRecord } from "./dns";
import type { RecordQuery } from "./dns-record-checks";
import {
	type CaaAnswer,
	type DnsRecord,
	DnsRecordStore,
	type RecordBatch,
	type RecordBatchResult,
	type RecordImport,
	type RecordInput,
	type RecordPage,
	type RecordPatch,
} from "./dns-records";
import { ConfigVersion, type EdgeConfig } from "./edge-config";
import { EdgeLogStore, type PendingRow } from "./edge-log";
import { type Result, rehearse, transact } from "./failure";
import {
	type Entry,
	type Filter,
	type FilterEdit,
	type FilterInput,
	type FilterQuery,
	FilterStore,
	type Page,
	type UnknownIds,
} from "./filters";
import {
	type DeletedRule,
	type FirewallRule,
	type FirewallRuleEdit,
	type FirewallRuleInput,
	type FirewallRuleQuery,
	type FirewallRuleReplace,
	FirewallRuleStore,
} from "./firewall-rules";
import { LogScheduler, type LogStatus } from "./log-delivery";
import { type Challenge, type JobSettings, type JobWrite, type LogpushJob, LogpushStore } from "./logpush";
import { ManagedTransformStore, type ManagedTransforms, type ManagedTransformsPatch } from "./managed-transforms";
import type { Notice } from "./outbox";
import type { Rule } from "./phases/actions";
import { enabledCustomFields } from "./phases/log-custom-fields";
import { LogpullRetention } from "./retention";
import {
	type EntrypointUpdate,
	type Position,
	type RuleInput,
	type RulePatch,
	type Ruleset,
	type RulesetCreate,
	type RulesetPage,
	RulesetStore,
	type RulesetSummary,
	type RulesetUpdate,
} from "./rulesets";
import { migrate, ZONE_MIGRATIONS } from "./schema";
import { UrlNormalizationStore } from "./url-normalization";
import { type WorkersRoute, type WorkersRouteInput, WorkersRouteStore } from "./workers-routes";
import { ZoneAnswerSnapshot } from "./zone-answers";
import { type ZoneSetting, ZoneSettingStore } from "./zone-settings";

/**
 * All state of one zone, one store each: rulesets, log-push jobs and the pending edge log (with
 * Logpull retention; its appends, delivery and the zone's one alarm: `log-delivery.ts`), filters
 * and firewall rules, custom hostnames, certificates, the URL normalization setting, DNS records, Workers routes, and the
 * emulator's clock, simulated DNS and outbox. Writes the edge depends on bump the zone's config version in their transaction
 * (`#write`), and `edgeConfig()` answers the edge's view with that version.
 *
 * One instance per zone, addressed with `zoneState(env, zone_id)` (`src/common/durable-objects.ts`): edgezone's
 * design, one Durable Object per zone with its state in SQLite. Each public method is one RPC
 * call; each write runs in one SQLite transaction (`ctx.storage.transactionSync`), so a failed
 * validation leaves nothing changed. Methods answer a `Result` rather than throw, because errors
 * lose their fields across RPC. Helpers are `#private` so RPC cannot reach them.
 */
export class Zone extends DurableObject<Env> {
	readonly #rulesets: RulesetStore;
	readonly #logpush: LogpushStore;
	readonly #filters: FilterStore;
	readonly #firewall: FirewallRuleStore;
	readonly #config: ConfigVersion;
	readonly #clock: EmulatorClock;
	readonly #certificates: CertificateStore;
	readonly #log: EdgeLogStore;
	readonly #retention: LogpullRetention;
	/** Appends to the pending log, its delivery and the zone's one alarm (`log-delivery.ts`). */
	readonly #logs: LogScheduler;
	readonly #dns: SimulatedDns;
	readonly #hostnames: CustomHostnameStore;
	readonly #urlNormalization: UrlNormalizationStore;
	readonly #managedTransforms: ManagedTransformStore;
	readonly #settings: ZoneSettingStore;
	readonly #records: DnsRecordStore;
	readonly #workersRoutes: WorkersRouteStore;
	/** The zones' DNS records, which answer for the names they hold (`zone-answers.ts`). */
	readonly #answers: ZoneAnswerSnapshot;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		this.#rulesets = new RulesetStore(ctx.storage.sql);
		this.#logpush = new LogpushStore(ctx.storage.sql);
		this.#filters = new FilterStore(ctx.storage.sql);
		this.#firewall = new FirewallRuleStore(ctx.storage.sql, this.#filters);
		this.#config = new ConfigVersion(ctx.storage.sql);
		this.#clock = new EmulatorClock(ctx.storage.sql);
		// CAA records are read when asked, from the simulated DNS (constructed below or above).
		this.#certificates = new CertificateStore(ctx.storage.sql, (name) => this.#dns.view().caa(name).records);
		this.#log = new EdgeLogStore(ctx.storage.sql);
		this.#retention = new LogpullRetention(ctx.storage.sql);
		this.#logs = new LogScheduler(ctx.storage, env, {
			log: this.#log,
			jobs: this.#logpush,
			retention: this.#retention,
		});
		// The TXT and CAA records are read when asked, from the DNS records (constructed below).
		this.#answers = new ZoneAnswerSnapshot(
			() => this.#records.txtRecords(),
			() => this.#records.caaAnswers(),
		);
		this.#dns = new SimulatedDns(ctx.storage.sql, this.#answers);
		this.#hostnames = new CustomHostnameStore(ctx.storage.sql, this.#dns);
		this.#urlNormalization = new UrlNormalizationStore(ctx.storage.sql);
		this.#managedTransforms = new ManagedTransformStore(ctx.storage.sql);
		this.#settings = new ZoneSettingStore(ctx.storage.sql);
		this.#records = new DnsRecordStore(ctx.storage.sql);
		this.#workersRoutes = new WorkersRouteStore(ctx.storage.sql);
		void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, ZONE_MIGRATIONS));
	}

	/** One page of rulesets (without rules), after the ruleset id `after`. */
	listRulesets(perPage: number, after?: string): Result<RulesetPage> {
		return this.#run(() => this.#rulesets.list(perPage, after));
	}

	/**
	 * Creates a ruleset (20217 for a second `zone` ruleset in a phase). Each ruleset write takes
	 * `dryRun`: the write is rehearsed (`#write`), answering what it would have stored.
	 */
	createRuleset(input: RulesetCreate, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.create(input, new Date()), dryRun);
	}

	/** The latest version of a ruleset. */
	getRuleset(id: string): Result<Ruleset> {
		return this.#run(() => this.#rulesets.get(id));
	}

	/** Replaces the rules of a ruleset: a new version. */
	updateRuleset(id: string, input: RulesetUpdate, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.update(id, input, new Date()), dryRun);
	}

	/** Deletes a ruleset with all its versions. */
	deleteRuleset(id: string, dryRun = false): Result<null> {
		return this.#write(() => {
			this.#rulesets.delete(id);
			return null;
		}, dryRun);
	}

	/** The entrypoint (`kind: zone`) ruleset of a phase. */
	getEntrypoint(phase: Phase): Result<Ruleset> {
		return this.#run(() => this.#rulesets.entrypoint(phase));
	}

	/** Replaces the rules of a phase's entrypoint, creating it when missing. */
	putEntrypoint(phase: Phase, input: EntrypointUpdate, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.putEntrypoint(phase, input, new Date()), dryRun);
	}

	/** Adds a rule to a ruleset. */
	addRule(rulesetId: string, rule: RuleInput, position?: Position, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.addRule(rulesetId, rule, position, new Date()), dryRun);
	}

	/** Changes and/or moves one rule. */
	editRule(rulesetId: string, ruleId: string, patch: RulePatch, position?: Position, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.editRule(rulesetId, ruleId, patch, position, new Date()), dryRun);
	}

	/** Removes one rule. */
	deleteRule(rulesetId: string, ruleId: string, dryRun = false): Result<Ruleset> {
		return this.#write(() => this.#rulesets.deleteRule(rulesetId, ruleId, new Date()), dryRun);
	}

	/** All versions of a ruleset, without rules. */
	listRulesetVersions(id: string): Result<RulesetSummary[]> {
		return this.#run(() => this.#rulesets.versions(id));
	}

	/** One version of a ruleset, with its rules. */
	getRulesetVersion(id: string, version: number): Result<Ruleset> {
		return this.#run(() => this.#rulesets.version(id, version));
	}

	/** The kept versions of a phase's entrypoint, without rules; none when the phase has none. */
	listEntrypointVersions(phase: Phase): Result<RulesetSummary[]> {
		return this.#run(() => this.#rulesets.entrypointVersions(phase));
	}

	/** One version of a phase's entrypoint, with its rules. */
	getEntrypointVersion(phase: Phase, version: number): Result<Ruleset> {
		return this.#run(() => this.#rulesets.entrypointVersion(phase, version));
	}

	/** All log-push jobs. */
	listJobs(): Result<LogpushJob[]> {
		return this.#run(() => this.#logpush.list());
	}

	/** Creates a log-push job; an enabled one delivers the entries logged from now on. */
	async createJob(write: JobWrite<JobSettings>): Promise<Result<LogpushJob>> {
		const result = this.#write(() => {
			const now = new Date();
			const job = this.#logpush.create(write, now);
			if (job.enabled) this.#log.start(job.id, now.getTime());
			return job;
		});
		await this.#logs.schedule(undefined);
		return result;
	}

	/** One log-push job. */
	getJob(id: number): Result<LogpushJob> {
		return this.#run(() => this.#logpush.get(id));
	}

	/** Changes the given settings of a log-push job (its interval and limits change its due time). */
	async updateJob(id: number, write: JobWrite<Partial<JobSettings>>): Promise<Result<LogpushJob>> {
		let stopped = false;
		const result = this.#write(() => {
			const now = new Date();
			const before = this.#logpush.get(id);
			const job = this.#logpush.update(id, write, now);
			// Enabling starts from new entries, as a new job does; disabling forgets the place.
			if (job.enabled && !before.enabled) this.#log.start(id, now.getTime());
			if (!job.enabled) this.#log.stop(id);
			stopped = before.enabled && !job.enabled;
			return job;
		});
		// A job that stops reading may leave entries no other reader needs: trim them at once.
		await this.#logs.schedule(result.ok && stopped ? Date.now() : undefined);
		return result;
	}

	/** Deletes a log-push job; the entries only it still needed are trimmed at once. */
	async deleteJob(id: number): Promise<Result<{ id: number }>> {
		const result = this.#write(() => {
			this.#log.stop(id);
			return this.#logpush.delete(id);
		});
		await this.#logs.schedule(result.ok ? Date.now() : undefined);
		return result;
	}

	/**
	 * Appends the edge's entries to the pending log when an enabled `http_requests` job will read
	 * them or Logpull retention is on (else drops them), and brings the alarm forward to when they
	 * fall due (`log-delivery.ts`).
	 * @returns how many entries were kept.
	 */
	async appendLog(entries: readonly (LogEntry | LogRow)[]): Promise<number> {
		return this.#logs.append(entries);
	}

	/** The zone's Logpull retention flag (`retention.ts`). */
	logpullRetention(): Result<{ flag: boolean }> {
		return this.#run(() => ({ flag: this.#retention.flag() }));
	}

	/** Turns Logpull retention on or off: a write the edge depends on (it logs every request while on). */
	async setLogpullRetention(flag: boolean): Promise<Result<{ flag: boolean }>> {
		const result = this.#write(() => ({ flag: this.#retention.set(flag) }));
		await this.#logs.schedule(undefined);
		return result;
	}

	/** The zone's URL normalization setting (`url-normalization.ts`). */
	urlNormalization(): Result<UrlNormalization> {
		return this.#run(() => this.#urlNormalization.get());
	}

	/** Replaces the URL normalization setting: a write the edge depends on (the rules see the normalized URL). */
	setUrlNormalization(setting: UrlNormalization): Result<UrlNormalization> {
		return this.#write(() => this.#urlNormalization.set(setting));
	}

	/** Puts the URL normalization setting back to Cloudflare's default (the API's DELETE). */
	resetUrlNormalization(): Result<null> {
		return this.#write(() => {
			this.#urlNormalization.reset();
			return null;
		});
	}

	/** The zone's Managed Transforms (`managed-transforms.ts`). */
	managedTransforms(): Result<ManagedTransforms> {
		return this.#run(() => this.#managedTransforms.list());
	}

	/** Switches Managed Transforms on or off: a write the edge depends on (they change the headers both ways). */
	editManagedTransforms(patch: ManagedTransformsPatch): Result<ManagedTransforms> {
		return this.#write(() => this.#managedTransforms.edit(patch));
	}

	/** Turns every Managed Transform off (the API's DELETE). */
	resetManagedTransforms(): Result<null> {
		return this.#write(() => {
			this.#managedTransforms.reset();
			return null;
		});
	}

	/** One zone setting (`zone-settings.ts`): 400 1006 for a setting edgezone does not know. */
	zoneSetting(id: string): Result<ZoneSetting> {
		return this.#run(() => this.#settings.get(id));
	}

	/**
	 * Changes one zone setting: a write the edge depends on (`ip_geolocation` decides the
	 * `CF-IPCountry` header an origin gets). 400 1006 for an unknown setting, 1007 for a value
	 * it does not take.
	 */
	editZoneSetting(id: string, value: unknown): Result<ZoneSetting> {
		return this.#write(() => this.#settings.edit(id, value, new Date()));
	}

	/**
	 * Up to `limit` retained entries after `seq` (oldest first), received in [from, to) ms and with
	 * RayID `rayId` when given, and the `seq` to continue from (null when nothing follows). Entries
	 * whose RayID hash falls outside `sample` (0, 1] are skipped, as log-push's `sample_rate` does.
	 */
	logpullPage(
		query: { from: number; to: number; rayId?: string | undefined; sample: number },
		seq: number,
		limit: number,
	): Result<{ entries: string[]; next: number | null }> {
		return this.#run(() => {
			const rows: PendingRow[] = this.#log.retainedAfter(query, seq, limit);
			const last = rows.at(-1);
			return {
				entries: rows.filter((row) => sampled(row.ray_id, query.sample)).map((row) => row.entry),
				next: rows.length === limit && last !== undefined ? last.seq : null,
			};
		});
	}

	/** Delivers everything pending at once, for every enabled job (emulator route `.../emulator/logs/flush`). */
	async flushLogs(): Promise<JobDelivery[]> {
		return this.#logs.flush();
	}

	/**
	 * The pending log as each enabled job sees it: entries it has not delivered, the oldest
	 * one's time, and its back-off; and the log's own size.
	 */
	logStatus(): LogStatus {
		return this.#logs.status();
	}

	/** Delivers what is due, trims, and sets the next alarm (`log-delivery.ts`, `alarm.ts`). */
	override async alarm(): Promise<void> {
		await this.#logs.alarmFired();
	}

	/**
	 * Issues an ownership token and writes it into the destination bucket as
	 * `<path>/ownership-challenge.txt` (docs logpush-ownership-challenge.mdx). The token
	 * is committed before the file is written: a failed write leaves an unused token,
	 * never a file whose token is unknown.
	 */
	async createOwnershipChallenge(destination: Destination): Promise<Result<Challenge>> {
		const result = this.#run(() => this.#logpush.challenge(destination, new Date()));
		if (result.ok) await destinationBucket(this.env, destination).put(result.value.filename, result.value.token);
		return result;
	}

	/** Whether a token is a valid ownership challenge for a destination. */
	validateOwnershipChallenge(destination: Destination, token: string): Result<boolean> {
		return this.#run(() => this.#logpush.isValidChallenge(destination, token, new Date()));
	}

	/** One page of filters. */
	listFilters(query: FilterQuery): Result<Page<Filter>> {
		return this.#run(() => this.#filters.list(query));
	}

	/** Creates filters, all or none (10014 invalid expression, 10102 duplicate). */
	createFilters(entries: Entry<FilterInput>[]): Result<Filter[]> {
		return this.#write(() => this.#filters.create(entries));
	}

	/** One filter. */
	getFilter(id: string): Result<Filter> {
		return this.#run(() => this.#filters.get(id));
	}

	/** Changes filters, all or none (locked filters refused). */
	updateFilters(entries: Entry<FilterEdit>[]): Result<Filter[]> {
		return this.#write(() => this.#filters.update(entries));
	}

	/** Deletes filters, all or none (referenced filters refused; unknown ones refused or skipped, as `unknown` says). */
	deleteFilters(entries: Entry<string>[], unknown: UnknownIds): Result<{ id: string }[]> {
		return this.#write(() => this.#filters.delete(entries, unknown));
	}

	/** One page of firewall rules, in evaluation order. */
	listFirewallRules(query: FirewallRuleQuery): Result<Page<FirewallRule>> {
		return this.#run(() => this.#firewall.list(query));
	}

	/**
	 * Creates firewall rules and their new filters in one transaction, all or none, except past
	 * the zone's `quota` of rules: the new filters are then committed without their rules and the
	 * answer is the quota failure (docs `firewall/api/call-sequence`,
	 * https://developers.cloudflare.com/firewall/api/call-sequence/: a POST that creates both may
	 * leave the filter without its rule).
	 */
	createFirewallRules(entries: Entry<FirewallRuleInput>[], quota: number): Result<FirewallRule[]> {
		const outcome = this.#write(() => this.#firewall.create(entries, quota));
		return outcome.ok ? outcome.value : outcome;
	}

	/** One firewall rule. */
	getFirewallRule(id: string): Result<FirewallRule> {
		return this.#run(() => this.#firewall.get(id));
	}

	/** Replaces firewall rules (PUT), all or none. */
	replaceFirewallRules(entries: Entry<FirewallRuleReplace>[]): Result<FirewallRule[]> {
		return this.#write(() => this.#firewall.replace(entries));
	}

	/** Changes the given fields of firewall rules (PATCH), all or none. */
	editFirewallRules(entries: Entry<FirewallRuleEdit>[]): Result<FirewallRule[]> {
		return this.#write(() => this.#firewall.edit(entries));
	}

	/**
	 * Deletes firewall rules, all or none (unknown ones refused or skipped, as `unknown` says);
	 * with `deleteFilterIfUnused`, their filters left unused too.
	 */
	deleteFirewallRules(ids: string[], deleteFilterIfUnused: boolean, unknown: UnknownIds): Result<DeletedRule[]> {
		return this.#write(() => this.#firewall.delete(ids, deleteFilterIfUnused, unknown));
	}

	/** The zone's emulator clock (`clock.ts`). */
	clock(): Result<ClockReading> {
		return this.#run(() => this.#clock.reading());
	}

	/**
	 * Sets the zone's emulator clock. A write the edge depends on: what it serves (which custom
	 * hostnames are active, which chain a certificate gets) may change with the date.
	 */
	setClock(setting: ClockSetting): Result<ClockReading> {
		return this.#write(() => this.#clock.set(setting));
	}

	/** Moves the zone's emulator clock forward by `ms` milliseconds. */
	advanceClock(ms: number): Result<ClockReading> {
		return this.#write(() => this.#clock.advance(ms));
	}

	/** Every certificate pack at the zone's clock (universal, advanced, custom); the API pages it. */
	listCertificatePacks(zone: ZoneRef): Promise<Result<CertificatePack[]>> {
		return this.#onClock(zone, (now) => this.#certificates.packs(zone, now));
	}

	/** One certificate pack. */
	getCertificatePack(zone: ZoneRef, id: string): Promise<Result<CertificatePack>> {
		return this.#onClock(zone, (now) => this.#certificates.pack(zone, id, now));
	}

	/** Orders an advanced certificate pack. */
	orderCertificatePack(zone: ZoneRef, order: PackOrder): Promise<Result<CertificatePack>> {
		return this.#onClock(zone, (now) => this.#certificates.order(zone, order, now));
	}

	/** Restarts validation of an advanced pack (PATCH), setting `cloudflare_branding` when given. */
	restartCertificatePack(zone: ZoneRef, id: string, branding: boolean | undefined): Promise<Result<CertificatePack>> {
		return this.#onClock(zone, (now) => this.#certificates.restart(zone, id, branding, now));
	}

	/** Deletes an advanced pack. */
	deleteCertificatePack(zone: ZoneRef, id: string): Promise<Result<{ id: string }>> {
		return this.#onClock(zone, () => this.#certificates.deletePack(id));
	}

	/** The advanced pack quota. */
	certificatePackQuota(zone: ZoneRef): Promise<Result<{ advanced: { allocated: number; used: number } }>> {
		return this.#onClock(zone, () => this.#certificates.quota());
	}

	/** Universal SSL settings. */
	universalSettings(zone: ZoneRef): Promise<Result<UniversalSettings>> {
		return this.#onClock(zone, (now) => this.#certificates.universalSettings(zone, now));
	}

	/** Changes Universal SSL settings. */
	editUniversalSettings(zone: ZoneRef, edit: Partial<UniversalSettings>): Promise<Result<UniversalSettings>> {
		return this.#onClock(zone, (now) => this.#certificates.editUniversal(zone, edit, now));
	}

	/** Total TLS settings. */
	totalTls(zone: ZoneRef): Promise<Result<TotalTlsSettings>> {
		return this.#onClock(zone, () => this.#certificates.totalTls());
	}

	/** Sets Total TLS. */
	setTotalTls(
		zone: ZoneRef,
		enabled: boolean,
		authority: UniversalSettings["certificate_authority"] | undefined,
	): Promise<Result<TotalTlsSettings>> {
		return this.#onClock(zone, (now) => this.#certificates.setTotalTls(enabled, authority, now));
	}

	/** Every custom certificate, oldest first; the API filters and pages. */
	listCustomCertificates(zone: ZoneRef): Promise<Result<CustomCertificate[]>> {
		return this.#onClock(zone, (now) => this.#certificates.customCertificates(zone, now));
	}

	/** One custom certificate. */
	getCustomCertificate(zone: ZoneRef, id: string): Promise<Result<CustomCertificate>> {
		return this.#onClock(zone, (now) => this.#certificates.customCertificate(zone, id, now));
	}

	/** Uploads a custom certificate (parsed and checked by the API layer). */
	createCustomCertificate(
		zone: ZoneRef,
		input: CustomCertificateInput & Required<Pick<CustomCertificateInput, "bundle">>,
	): Promise<Result<CustomCertificate>> {
		return this.#onClock(zone, (now) => this.#certificates.custom.create(zone, input, now));
	}

	/** Changes a custom certificate. */
	editCustomCertificate(zone: ZoneRef, id: string, input: CustomCertificateInput): Promise<Result<CustomCertificate>> {
		return this.#onClock(zone, (now) => this.#certificates.custom.edit(zone, id, input, now));
	}

	/** Deletes a custom certificate. */
	deleteCustomCertificate(zone: ZoneRef, id: string): Promise<Result<{ id: string }>> {
		return this.#onClock(zone, () => this.#certificates.custom.delete(id));
	}

	/** The e-mails sent by the zone's current time (`outbox.ts`). */
	outbox(zone: ZoneRef): Promise<Result<Notice[]>> {
		return this.#onClock(zone, (now) => this.#certificates.outbox.list(now));
	}

	/** Which CA issued a certificate pack or custom certificate, the chain served and who validates it, at `at` (ms; default the clock). */
	chains(zone: ZoneRef, id: string, at: number | null): Promise<Result<ChainAnswer>> {
		return this.#onClock(zone, (now) => this.#certificates.chains(zone, id, at ?? now, this.#hostnameSource()));
	}

	/** One page of custom hostnames, in their states at the zone's now. */
	async listCustomHostnames(query: CustomHostnameQuery): Promise<Result<Page<CustomHostname>>> {
		await this.#refreshAnswers();
		return this.#run(() => this.#hostnames.list(query, this.#now()));
	}

	/** Creates a custom hostname (409 1406 for a hostname the zone has). */
	async createCustomHostname(input: CustomHostnameInput): Promise<Result<CustomHostname>> {
		await this.#refreshAnswers(input.hostname);
		return this.#write(() => this.#hostnames.create(input, this.#now()));
	}

	/** One custom hostname (404 1436 when unknown). */
	async getCustomHostname(id: string): Promise<Result<CustomHostname>> {
		await this.#refreshAnswers();
		return this.#run(() => this.#hostnames.get(id, this.#now()));
	}

	/** Changes a custom hostname: origins, metadata, its certificate (re-issue, re-validation). */
	async editCustomHostname(id: string, edit: CustomHostnameEdit): Promise<Result<CustomHostname>> {
		await this.#refreshAnswers();
		// The e-mails due about the hostname as it stood are sent before it changes (certificates/store.ts).
		return this.#write(() => {
			this.#certificates.mailCustomHostnames(this.#hostnameSource(), this.#now());
			return this.#hostnames.edit(id, edit, this.#now());
		});
	}

	/** Deletes a custom hostname; answers its id and hostname. */
	async deleteCustomHostname(id: string): Promise<Result<{ id: string; hostname: string }>> {
		await this.#refreshAnswers();
		return this.#write(() => {
			this.#certificates.mailCustomHostnames(this.#hostnameSource(), this.#now());
			return this.#hostnames.delete(id);
		});
	}

	/** The custom hostname quota. */
	customHostnameQuota(): Result<QuotaGetResponse> {
		return this.#run(() => this.#hostnames.quota());
	}

	/** The fallback origin of custom hostnames (404 1414 when none). */
	fallbackOrigin(): Result<FallbackOriginGetResponse> {
		return this.#run(() => this.#hostnames.fallbackOrigin(this.#now()));
	}

	/** Sets the fallback origin of custom hostnames. */
	setFallbackOrigin(origin: string): Result<FallbackOriginGetResponse> {
		return this.#write(() => this.#hostnames.setFallbackOrigin(origin, this.#now()));
	}

	/** Removes the fallback origin (404 1414 when none). */
	deleteFallbackOrigin(): Result<FallbackOriginGetResponse> {
		return this.#write(() => this.#hostnames.deleteFallbackOrigin(this.#now()));
	}

	/**
	 * One page of the zone's DNS records (`dns-records.ts`). The records' writes take the zone's
	 * name (`zone`), which relative names are completed with; each write bumps the config version,
	 * as the edge routes by the records and custom hostname validation reads their TXT values.
	 */
	listDnsRecords(query: RecordQuery, page: number, perPage: number): Result<RecordPage> {
		return this.#run(() => this.#records.list(query, page, perPage));
	}

	/** Creates a DNS record. */
	createDnsRecord(input: RecordInput, zone: string): Result<DnsRecord> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.create(input, zone, now)));
	}

	/** One DNS record (404 81044). */
	getDnsRecord(id: string): Result<DnsRecord> {
		return this.#run(() => this.#records.get(id));
	}

	/** Changes the given fields of a DNS record. */
	editDnsRecord(id: string, patch: RecordPatch, zone: string): Result<DnsRecord> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.edit(id, patch, zone, now)));
	}

	/** Overwrites a DNS record. */
	overwriteDnsRecord(id: string, input: RecordInput, zone: string): Result<DnsRecord> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.overwrite(id, input, zone, now)));
	}

	/** Deletes a DNS record; answers it as it was. */
	deleteDnsRecord(id: string): Result<DnsRecord> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.delete(id, now)));
	}

	/** A batch of DNS record changes, in one transaction: all of it, or nothing and its first failure. */
	batchDnsRecords(batch: RecordBatch, zone: string): Result<RecordBatchResult> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.batch(batch, zone, now)));
	}

	/** The records of an import, each created or refused alone, in one transaction (`DnsRecordStore.importRecords`). */
	importDnsRecords(inputs: RecordInput[], zone: string): Result<RecordImport> {
		return this.#write(() => this.#dnsWrite((now) => this.#records.importRecords(inputs, zone, now)));
	}

	/** The zone's Workers routes, in creation order (`workers-routes.ts`). */
	listWorkersRoutes(): Result<WorkersRoute[]> {
		return this.#run(() => this.#workersRoutes.list());
	}

	/** Creates a Workers route in the zone named `zone`; the edge runs it from the next request. */
	createWorkersRoute(input: WorkersRouteInput, zone: string): Result<WorkersRoute> {
		return this.#write(() => this.#workersRoutes.create(input, zone));
	}

	/** One Workers route (404 10007). */
	getWorkersRoute(id: string): Result<WorkersRoute> {
		return this.#run(() => this.#workersRoutes.get(id));
	}

	/** Replaces a Workers route's pattern and script. */
	updateWorkersRoute(id: string, input: WorkersRouteInput, zone: string): Result<WorkersRoute> {
		return this.#write(() => this.#workersRoutes.update(id, input, zone));
	}

	/** Deletes a Workers route. */
	deleteWorkersRoute(id: string): Result<{ id: string }> {
		return this.#write(() => this.#workersRoutes.delete(id));
	}

	/** Every name of the simulated DNS holding records (emulator-only, `dns.ts`). */
	dnsEntries(): Result<DnsEntry[]> {
		return this.#run(() => this.#dns.list());
	}

	/** The records of one name of the simulated DNS (empty when none). */
	dnsEntry(name: string): Result<DnsEntry> {
		return this.#run(() => this.#dns.get(name));
	}

	/**
	 * Replaces the records of a name of the simulated DNS. A write the edge depends on (a custom
	 * hostname becomes active when its ownership token appears); what the DNS proved before the
	 * change is stored first, so a removed token does not undo a validation.
	 */
	putDnsEntry(name: string, records: DnsRecords): Result<DnsEntry> {
		return this.#write(() => {
			const now = this.#now();
			this.#hostnames.settle(now);
			return this.#dns.put(name, records, now);
		});
	}

	/** Removes every record of a name of the simulated DNS; false when it had none. */
	deleteDnsEntry(name: string): Result<boolean> {
		return this.#write(() => {
			const now = this.#now();
			this.#hostnames.settle(now);
			return this.#dns.delete(name, now);
		});
	}

	/** The zone's TXT and CAA records, as other zones' validations read them (`zone-answers.ts`). Never fails. */
	dnsAnswers(): { txt: TxtRecord[]; caa: CaaAnswer[] } {
		return { txt: this.#records.txtRecords(), caa: this.#records.caaAnswers() };
	}

	/**
	 * The custom hostnames the edge may route to this zone (ownership verified at the zone's now),
	 * when the zone's configuration is not at `version` any more, else null (`zone-routing.ts`).
	 */
	edgeHostnamesIfChanged(version: number): { version: number; active: string[] } | null {
		// No refresh of the other zones' records (`zone-answers.ts`): a hostname they verify is on a
		// zone's name, which the edge leaves to that zone whatever this answers (`zone-routing.ts`).
		return this.ctx.storage.transactionSync(() => {
			const current = this.#config.current();
			return current === version ? null : { version: current, active: this.#hostnames.activeHostnames(this.#now()) };
		});
	}

	/** Deletes everything of this zone (the zone itself was removed from the registry), leaving an empty schema. */
	async destroy(): Promise<void> {
		await this.#logs.cancelAlarm();
		await this.ctx.storage.deleteAll();
		this.#logs.forgetReaders();
		migrate(this.ctx.storage, ZONE_MIGRATIONS);
	}

	/**
	 * The edge's periodic check (`edge/zone-view.ts`): appends the log entries waiting in its
	 * isolate, as `appendLog` does, then answers the edge's view when the zone's configuration is
	 * not at `version` any more, else null. The edge asks with the version it holds, so an
	 * unchanged zone costs one one-row read; carrying the entries saves an RPC of their own.
	 */
	async edgeCheckIn(version: number, entries: readonly LogRow[]): Promise<EdgeConfig | null> {
		if (entries.length > 0) await this.appendLog(entries);
		return this.#config.current() === version ? null : this.edgeConfig();
	}

	/**
	 * What the edge needs of this zone, with the version to cache it by (`edge-config.ts`).
	 * Read in one transaction, so the version matches the data. Never fails.
	 */
	edgeConfig(): EdgeConfig {
		return this.ctx.storage.transactionSync(() => ({
			version: this.#config.current(),
			logCustomFields: enabledCustomFields(this.#rulesets.entrypointRules("http_log_custom_fields")),
			logpushJobs: this.#logpush.list().filter((job) => job.enabled),
			firewallRules: this.#firewall.all(),
			firewallCustomRules: this.#rulesets
				.entrypointRules("http_request_firewall_custom")
				.filter((rule) => rule.enabled),
			logpullRetention: this.#retention.flag(),
			urlNormalization: this.#urlNormalization.get(),
			ipGeolocation: this.#settings.get("ip_geolocation").value === "on",
			managedTransforms: [...this.#managedTransforms.enabled()],
			workersRoutes: this.#workersRoutes.list(),
			dnsRecords: this.#records.edgeRecords(),
			saasOrigins: this.#hostnames.saasOrigins(),
			redirectRules: this.#enabledRules("http_request_dynamic_redirect"),
			urlRewriteRules: this.#enabledRules("http_request_transform"),
			originRules: this.#enabledRules("http_request_origin"),
			requestHeaderRules: this.#enabledRules("http_request_late_transform"),
			responseHeaderRules: this.#enabledRules("http_response_headers_transform"),
		}));
	}

	/** The enabled rules of the zone's entrypoint ruleset of `phase`, in rule order. */
	#enabledRules(phase: Phase): Rule[] {
		return this.#rulesets.entrypointRules(phase).filter((rule) => rule.enabled);
	}

	/**
	 * A certificate operation at the zone's clock, in one transaction, after the clock's moves due
	 * by now are applied (the universal pack made, notices sent: `certificates/store.ts`).
	 */
	async #onClock<T>(zone: ZoneRef, op: (now: number) => T): Promise<Result<T>> {
		await this.#refreshAnswers(zone.name);
		return this.#run(() => {
			const now = this.#now();
			this.#certificates.catchUp(zone, now, this.#hostnameSource());
			return op(now);
		});
	}

	/**
	 * Reads again which zone holds which name and the other zones' records that the custom
	 * hostnames (and `extra`: a hostname being created, the zone's own name) validate by, before a
	 * read that validates them (`zone-answers.ts`).
	 */
	async #refreshAnswers(...extra: string[]): Promise<void> {
		const names = [...this.#hostnames.hostnames(), ...extra].flatMap((hostname) => [
			baseName(hostname),
			ownershipTxtName(hostname),
			acmeTxtName(hostname),
		]);
		await this.#answers.refresh(this.env, this.ctx.id, names, this.#now());
	}

	/** The zone's clock now, in ms since the epoch. */
	#now(): number {
		return this.#clock.now().getTime();
	}

	/** The custom hostnames and simulated DNS as the certificates read them (`certificates/store.ts`). */
	#hostnameSource(): HostnameSource {
		return {
			all: (now) =>
				this.#hostnames.list({ order: "ssl", direction: "asc", page: 1, perPage: QUOTA_HARD_CAP }, now).items,
			caa: (name) => this.#dns.view().caa(name).records,
		};
	}

	/**
	 * A write of DNS records at the zone's now: what the DNS proved before it is stored first (as
	 * for the simulated DNS), since custom hostname validation reads the records' TXT values.
	 */
	#dnsWrite<T>(op: (now: number) => T): T {
		const now = this.#now();
		this.#hostnames.settle(now);
		return op(now);
	}

	#run<T>(op: () => T): Result<T> {
		return transact(this.ctx.storage, op);
	}

	/**
	 * A write that changes what the edge does: `op` and a bump of the config version, in one
	 * transaction. With `dryRun` the same transaction is rolled back at its end (`rehearse`): the
	 * answer is what it would have stored, or the failures it would have had, and nothing changes.
	 */
	#write<T>(op: () => T, dryRun = false): Result<T> {
		const write = () => {
			const value = op();
			this.#config.bump();
			return value;
		};
		if (dryRun) return rehearse(this.ctx.storage, write);
		this.#logs.forgetReaders();
		return transact(this.ctx.storage, write);
	}
}
