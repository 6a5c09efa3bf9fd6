/**
 * Zone-level rulesets: storage and semantics, run inside the Zone's transactions.
 *
 * Follows the Rulesets API (developers.cloudflare.com/ruleset-engine/rulesets-api/): one
 * `kind: zone` ruleset per phase (20217 at `/kind`, terraform-provider-cloudflare#3444); a PUT
 * replaces all rules; the ruleset `version` grows by one on every change and the latest
 * KEPT_VERSIONS (100) stay readable, a JSON snapshot each; rule ids and `ref` (the id by default),
 * `enabled` (true by default), rule `version` bumped only when the rule itself changes (reordering
 * does not bump it); `last_updated` with fractional seconds. A rule is validated by the schema of
 * its action, and its action and the whole ruleset by its phase's entry in the phase table
 * (`phases/table.ts`).
 * A dry run (`?dry_run=true`) is these same writes in a transaction the Zone rolls back.
 * Gaps: deleting single versions is not emulated; `name`, `kind` and
 * `phase` are immutable (docs: create.mdx), a changed value is a 400 at its field.
 */
import type { Phase } from "cloudflare/resources/rulesets/rulesets";
import { randomHexId } from "../common/ids";
import { CODES, type Failure, FailureSignal, fromZod, invalid, notFound } from "./failure";
import { KEPT_VERSIONS } from "./limits";
import { RULE, type Rule, type RuleInput, type RulePatch } from "./phases/actions";
import { PHASE_RULES, type PhaseRules } from "./phases/table";

export type { Rule, RuleInput, RulePatch } from "./phases/actions";

/** Ruleset kinds a zone may create (docs create.mdx: `root` is account level, `managed` is Cloudflare's). */
type ZoneKind = "zone" | "custom";

/** A ruleset with its rules, as `GET /rulesets/{id}` returns it. */
export interface Ruleset {
	id: string;
	name: string;
	description: string;
	kind: ZoneKind;
	phase: Phase;
	version: string;
	last_updated: string;
	rules: Rule[];
}

/** A ruleset without its rules, as lists return it. */
export type RulesetSummary = Omit<Ruleset, "rules">;

/**
 * Where a new or moved rule goes (SDK `RuleCreateParams.position`): before/after a rule id
 * ("" = top/bottom) or a 1-based index.
 */
export type Position = { before: string } | { after: string } | { index: number };

/** Body of `POST /rulesets`, validated by the API (each rule by its action's schema); rules are checked here by phase. */
export interface RulesetCreate {
	name: string;
	kind: ZoneKind;
	phase: Phase;
	description: string;
	rules: RuleInput[];
}

/** Body of `PUT /rulesets/{id}` and of the entrypoint PUT. */
export interface RulesetUpdate {
	rules: RuleInput[];
	name?: string;
	description?: string;
	kind?: ZoneKind;
	phase?: Phase;
}

/** Body of the entrypoint PUT: `kind` and `phase` come from the path ("unknown field kind" otherwise). */
export type EntrypointUpdate = Omit<RulesetUpdate, "kind" | "phase">;

/** One page of the ruleset list and the id to continue after. */
export interface RulesetPage {
	items: RulesetSummary[];
	nextAfter?: string;
}

/** A rule to place in a ruleset, and the JSON pointer of its failures. */
interface Entry {
	input: RuleInput;
	pointer: string;
}

/** Rulesets of one zone on its SQLite storage. Every method runs inside the caller's transaction. */
export class RulesetStore {
	readonly #sql: SqlStorage;

	constructor(sql: SqlStorage) {
		this.#sql = sql;
	}

	/** Up to `perPage` rulesets with ids after `after`, ordered by id. */
	list(perPage: number, after = ""): RulesetPage {
		const rows = this.#sql
			.exec<{ snapshot: string }>(
				`SELECT v.snapshot FROM rulesets r JOIN ruleset_versions v ON v.ruleset_id = r.id AND v.version = r.version
				 WHERE r.id > ? ORDER BY r.id LIMIT ?`,
				after,
				perPage + 1,
			)
			.toArray();
		const items = rows.slice(0, perPage).map((row) => summary(JSON.parse(row.snapshot) as Ruleset));
		const last = items.at(-1);
		return rows.length > perPage && last !== undefined ? { items, nextAfter: last.id } : { items };
	}

	/** Creates a ruleset at version 1. Fails with 20217 for a second `zone` ruleset in a phase. */
	create(input: RulesetCreate, now: Date): Ruleset {
		if (input.kind === "zone" && this.#zoneRulesetId(input.phase) !== undefined) {
			invalid(
				CODES.zoneRulesetPerPhase,
				`'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${input.phase}`,
				"/kind",
			);
		}
		const id = randomHexId();
		const ruleset: Ruleset = {
			id,
			name: input.name,
			description: input.description,
			kind: input.kind,
			phase: input.phase,
			version: "1",
			last_updated: timestamp(now),
			rules: this.#buildRules(input.phase, entries(input.rules, "/rules"), [], now),
		};
		this.#sql.exec("INSERT INTO rulesets (id, kind, phase, version) VALUES (?, ?, ?, 1)", id, input.kind, input.phase);
		this.#insertVersion(ruleset, 1);
		return ruleset;
	}

	/** The latest version of a ruleset; 404 when unknown. */
	get(id: string): Ruleset {
		const row = this.#sql
			.exec<{ snapshot: string }>(
				"SELECT v.snapshot FROM rulesets r JOIN ruleset_versions v ON v.ruleset_id = r.id AND v.version = r.version WHERE r.id = ?",
				id,
			)
			.toArray()[0];
		if (row === undefined) notFound(CODES.rulesetNotFound, `could not find ruleset ${id}`);
		return JSON.parse(row.snapshot) as Ruleset;
	}

	/** Replaces all rules (and optionally the description): a new version. */
	update(id: string, input: RulesetUpdate, now: Date): Ruleset {
		const current = this.get(id);
		for (const field of ["name", "kind", "phase"] as const) {
			const value = input[field];
			if (value !== undefined && value !== current[field]) {
				invalid(
					CODES.rulesetInvalid,
					`the ${field} of a ruleset cannot be changed (it is "${current[field]}")`,
					`/${field}`,
				);
			}
		}
		const rules = this.#buildRules(current.phase, entries(input.rules, "/rules"), current.rules, now);
		return this.#save({ ...current, description: input.description ?? current.description, rules }, now);
	}

	/** Deletes a ruleset and all its versions; 404 when unknown. */
	delete(id: string): void {
		this.get(id);
		this.#sql.exec("DELETE FROM ruleset_versions WHERE ruleset_id = ?", id);
		this.#sql.exec("DELETE FROM rulesets WHERE id = ?", id);
	}

	/** The zone's entrypoint ruleset of a phase (its `kind: zone` ruleset); 404 with 10003 when none. */
	entrypoint(phase: Phase): Ruleset {
		const id = this.#zoneRulesetId(phase);
		if (id === undefined) notFound(CODES.entrypointNotFound, `could not find entrypoint ruleset in the ${phase} phase`);
		return this.get(id);
	}

	/** The rules of a phase's entrypoint ruleset; none when the phase has no entrypoint. */
	entrypointRules(phase: Phase): Rule[] {
		const id = this.#zoneRulesetId(phase);
		return id === undefined ? [] : this.get(id).rules;
	}

	/** Updates the entrypoint of a phase, creating it (named "default" unless given) when missing (docs create.mdx). */
	putEntrypoint(phase: Phase, input: EntrypointUpdate, now: Date): Ruleset {
		const id = this.#zoneRulesetId(phase);
		if (id !== undefined) return this.update(id, input, now);
		return this.create(
			{ name: input.name ?? "default", kind: "zone", phase, description: input.description ?? "", rules: input.rules },
			now,
		);
	}

	/** Adds one rule (at the end unless `position` says otherwise): a new version. */
	addRule(rulesetId: string, rule: RuleInput, position: Position | undefined, now: Date): Ruleset {
		const current = this.get(rulesetId);
		const list: Entry[] = entries(current.rules.map(asInput), "/rules");
		list.splice(this.#indexOf(current.rules, position, current.rules.length), 0, { input: rule, pointer: "" });
		return this.#save({ ...current, rules: this.#buildRules(current.phase, list, current.rules, now) }, now);
	}

	/** Changes the given fields of one rule and/or moves it: a new version; 404 for an unknown rule, 400 for an invalid result. */
	editRule(rulesetId: string, ruleId: string, patch: RulePatch, position: Position | undefined, now: Date): Ruleset {
		const current = this.get(rulesetId);
		const at = current.rules.findIndex((r) => r.id === ruleId);
		const existing = current.rules[at];
		if (existing === undefined)
			notFound(CODES.rulesetNotFound, `could not find rule ${ruleId} in ruleset ${rulesetId}`);
		const others = current.rules.filter((r) => r.id !== ruleId);
		const list: Entry[] = entries(others.map(asInput), "/rules");
		// The edited rule as a whole must be valid: e.g. an expression its action refuses.
		const edited = RULE.safeParse({ ...asInput(existing), ...patch, id: ruleId });
		if (!edited.success) throw new FailureSignal(fromZod(edited.error, CODES.rulesetInvalid));
		list.splice(position === undefined ? at : this.#indexOf(others, position, others.length), 0, {
			input: edited.data,
			pointer: "",
		});
		return this.#save({ ...current, rules: this.#buildRules(current.phase, list, current.rules, now) }, now);
	}

	/** Removes one rule: a new version; 404 for an unknown rule. */
	deleteRule(rulesetId: string, ruleId: string, now: Date): Ruleset {
		const current = this.get(rulesetId);
		if (!current.rules.some((r) => r.id === ruleId))
			notFound(CODES.rulesetNotFound, `could not find rule ${ruleId} in ruleset ${rulesetId}`);
		return this.#save({ ...current, rules: current.rules.filter((r) => r.id !== ruleId) }, now);
	}

	/** The kept versions of a ruleset (the latest KEPT_VERSIONS), oldest first, without rules; 404 when unknown. */
	versions(id: string): RulesetSummary[] {
		this.get(id);
		return this.#sql
			.exec<{ snapshot: string }>("SELECT snapshot FROM ruleset_versions WHERE ruleset_id = ? ORDER BY version", id)
			.toArray()
			.map((row) => summary(JSON.parse(row.snapshot) as Ruleset));
	}

	/**
	 * The kept versions of a phase's entrypoint, as `versions`; none when the phase has no
	 * entrypoint ("returns an empty array", developers.cloudflare.com/ruleset-engine/rulesets-api/view/).
	 */
	entrypointVersions(phase: Phase): RulesetSummary[] {
		const id = this.#zoneRulesetId(phase);
		return id === undefined ? [] : this.versions(id);
	}

	/** One version of a phase's entrypoint, as `version`; 404 10003 when the phase has no entrypoint (same page). */
	entrypointVersion(phase: Phase, version: number): Ruleset {
		return this.version(this.entrypoint(phase).id, version);
	}

	/** One version of a ruleset, with its rules as they were; 404 when unknown or no longer kept. */
	version(id: string, version: number): Ruleset {
		const latest = Number(this.get(id).version);
		const row = this.#sql
			.exec<{ snapshot: string }>(
				"SELECT snapshot FROM ruleset_versions WHERE ruleset_id = ? AND version = ?",
				id,
				version,
			)
			.toArray()[0];
		if (row === undefined) {
			notFound(
				CODES.rulesetNotFound,
				version <= latest - KEPT_VERSIONS
					? `version ${version} of ruleset ${id} is no longer kept (edgezone keeps the latest ${KEPT_VERSIONS} versions)`
					: `could not find version ${version} of ruleset ${id}`,
			);
		}
		return JSON.parse(row.snapshot) as Ruleset;
	}

	#zoneRulesetId(phase: Phase): string | undefined {
		return this.#sql
			.exec<{ id: string }>("SELECT id FROM rulesets WHERE kind = 'zone' AND phase = ?", phase)
			.toArray()[0]?.id;
	}

	/** Stores `next` as the following version of its ruleset. */
	#save(next: Ruleset, now: Date): Ruleset {
		const version = Number(next.version) + 1;
		const saved: Ruleset = { ...next, version: String(version), last_updated: timestamp(now) };
		this.#sql.exec("UPDATE rulesets SET version = ? WHERE id = ?", version, saved.id);
		this.#insertVersion(saved, version);
		return saved;
	}

	/** Stores the snapshot of `ruleset` at `version`, and forgets versions beyond the latest KEPT_VERSIONS. */
	#insertVersion(ruleset: Ruleset, version: number): void {
		this.#sql.exec(
			"INSERT INTO ruleset_versions (ruleset_id, version, snapshot) VALUES (?, ?, ?)",
			ruleset.id,
			version,
			JSON.stringify(ruleset),
		);
		this.#sql.exec(
			"DELETE FROM ruleset_versions WHERE ruleset_id = ? AND version <= ?",
			ruleset.id,
			version - KEPT_VERSIONS,
		);
	}

	/** Where `position` puts a rule in `rules`; `fallback` when absent. A 400 at the position for unknown ids. */
	#indexOf(rules: Rule[], position: Position | undefined, fallback: number): number {
		if (position === undefined) return fallback;
		if ("index" in position) return Math.min(position.index - 1, rules.length);
		const [field, id] =
			"before" in position ? (["before", position.before] as const) : (["after", position.after] as const);
		if (id === "") return field === "before" ? 0 : rules.length;
		const at = rules.findIndex((r) => r.id === id);
		if (at === -1) invalid(CODES.rulesetInvalid, `could not find rule ${id} in this ruleset`, `/position/${field}`);
		return field === "before" ? at : at + 1;
	}

	/**
	 * Checks `list` against the phase's entry in the phase table and gives each rule its identity:
	 * an `id` must name a rule of `previous`; otherwise a matching `ref` keeps that rule's
	 * id; otherwise the rule is new. A rule keeps its version when nothing in it changed.
	 * Reports every invalid field at once, each with its pointer.
	 */
	#buildRules(phase: Phase, list: Entry[], previous: Rule[], now: Date): Rule[] {
		const phaseRules = PHASE_RULES[phase];
		if (phaseRules === undefined) {
			const first = list[0];
			if (first === undefined) return [];
			invalid(
				CODES.rulesetInvalid,
				`edgezone does not accept rules in phase ${phase} (only ${Object.keys(PHASE_RULES).join(", ")})`,
				`${first.pointer}/action`,
			);
		}
		const failures: Failure[] = [];
		const rules: Rule[] = [];
		const taken = new Set<string>();
		for (const { input, pointer } of list) {
			if (!phaseRules.actions.includes(input.action)) {
				failures.push({
					kind: "invalid",
					code: CODES.rulesetInvalid,
					message: notAllowed(phase, phaseRules),
					pointer: `${pointer}/action`,
				});
				continue;
			}
			const { id, ref, ...content } = input;
			const before = id !== undefined ? previous.find((r) => r.id === id) : previous.find((r) => r.ref === ref);
			if (id !== undefined && before === undefined) {
				failures.push({
					kind: "invalid",
					code: CODES.rulesetInvalid,
					message: `could not find rule ${id} in this ruleset`,
					pointer: `${pointer}/id`,
				});
				continue;
			}
			const ruleId = before?.id ?? randomHexId();
			const rule: Rule = {
				id: ruleId,
				version: "1",
				...content,
				last_updated: timestamp(now),
				ref: ref ?? before?.ref ?? ruleId,
			};
			for (const [field, value] of [
				["id", rule.id],
				["ref", rule.ref],
			] as const) {
				if (taken.has(`${field}:${value}`)) {
					failures.push({
						kind: "invalid",
						code: CODES.rulesetInvalid,
						message: `duplicate rule ${field} "${value}"`,
						pointer: `${pointer}/${field}`,
					});
				}
				taken.add(`${field}:${value}`);
			}
			rules.push(
				before === undefined
					? rule
					: sameContent(before, rule)
						? before
						: { ...rule, version: String(Number(before.version) + 1) },
			);
		}
		if (failures.length === 0) {
			for (const issue of phaseRules.checkAll?.(rules) ?? []) {
				failures.push({
					kind: "invalid",
					code: issue.code ?? CODES.rulesetInvalid,
					message: issue.message,
					pointer: `${list[issue.rule]?.pointer ?? ""}${issue.path}`,
				});
			}
		}
		if (failures.length > 0) throw new FailureSignal(failures);
		return rules;
	}
}

/** Why an action is refused in `phase`: the actions the phase accepts. */
function notAllowed(phase: Phase, phaseRules: PhaseRules): string {
	const [only, ...more] = phaseRules.actions;
	return more.length === 0
		? `${only} is the only action allowed in phase ${phase}`
		: `the actions allowed in phase ${phase} are ${phaseRules.actions.join(", ")}`;
}

function entries(inputs: RuleInput[], prefix: string): Entry[] {
	return inputs.map((input, i) => ({ input, pointer: `${prefix}/${i}` }));
}

/** A stored rule as the input that would produce it again. */
function asInput(rule: Rule): RuleInput {
	const { version: _v, last_updated: _l, ...input } = rule;
	return input;
}

function summary(ruleset: Ruleset): RulesetSummary {
	const { rules: _rules, ...rest } = ruleset;
	return rest;
}

/** Whether two rules hold the same configuration (key order ignored). */
function sameContent(a: Rule, b: Rule): boolean {
	return canonical(asInput(a)) === canonical(asInput(b));
}

function canonical(value: unknown): string {
	return JSON.stringify(value, (_key, v: unknown) =>
		v !== null && typeof v === "object" && !Array.isArray(v)
			? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
			: v,
	);
}

/**
 * An RFC 3339 UTC timestamp with microseconds, as rulesets show (`2021-03-17T15:42:37.917815Z`).
 * JavaScript clocks have millisecond precision, so the last three digits are zero.
 */
function timestamp(date: Date): string {
	return date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z");
}
