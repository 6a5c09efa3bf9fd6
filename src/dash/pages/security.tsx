/**
 * The Security page of a zone (Security > Security rules): firewall rules and their filters, WAF
 * custom rules, an expression editor that checks each expression with the Rules language engine
 * as it is typed, and the recent requests each rule matched.
 *
 * Every read and write is the API v4's (`api-call.ts`): `/firewall/rules` (create, replace, pause
 * or resume with PATCH, delete with `delete_filter_if_unused`), `/filters` (create, edit, pause,
 * delete),
 * the `http_request_firewall_custom` entrypoint for WAF custom rules (PUT when it does not exist
 * yet, then `/rulesets/{id}/rules` to add, enable or disable, and delete one rule; an edit PUTs
 * the entrypoint with the rule replaced in place), Logpull's
 * `/logs/received` for the matches and `/logs/control/retention/flag` for whether there are any.
 * The one route that is not a call to the API is `POST .../security/expression`: it compiles an
 * expression with `expressionError` (`zone/expressions.ts`, the door the filters, firewall rules
 * and rulesets APIs use, with the same fields) and answers the engine's text, so the editor shows
 * exactly what a save would be refused with, line, column and carets included.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { expressionError } from "../../zone/expressions";
import { CODES } from "../../zone/failure";
import type { Filter } from "../../zone/filters";
import type { FirewallRule } from "../../zone/firewall-rules";
import { type ApiAnswer, callApi, messagesOf, statusOf, zonePath } from "../api-call";
import {
	Checkbox,
	Csrf,
	ErrorSummary,
	type FormErrors,
	NO_ERRORS,
	Notice,
	sortErrors,
	TextField,
} from "../components/form";
import { Listing } from "../components/listing";
import { Layout } from "../layout";
import { asInput, type EntrypointRule } from "../log-field-rules";
import { readRecentLog } from "../recent-log";
import { render } from "../render";
import { ExpressionEditor } from "../security/expression-editor";
import {
	CUSTOM_FIELDS,
	CustomFields,
	type CustomValues,
	customBody,
	customValuesOf,
	EditPage,
	EMPTY_CUSTOM,
	EMPTY_RULE,
	FILTER_FIELDS,
	type FilterValues,
	fieldOf,
	pagePath,
	RULE_FIELDS,
	RuleFields,
	type RuleValues,
	ruleBody,
} from "../security/forms";
import { MATCH_FIELDS, MATCH_READ_LIMIT, matchesByRule } from "../security/matches";
import {
	CustomRuleRow,
	FilterRow,
	FirewallRuleRow,
	type MatchState,
	Pager,
	RecentMatches,
	ruleName,
} from "../security/rows";
import type { Ctx, DashEnv } from "../types";

const CUSTOM_PHASE_PATH = "/rulesets/phases/http_request_firewall_custom/entrypoint";
const PER_PAGE = 100;

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	"rule-created": "Firewall rule created.",
	"rule-saved": "Firewall rule saved.",
	"rule-paused": "Firewall rule paused.",
	"rule-resumed": "Firewall rule resumed.",
	"rule-deleted": "Firewall rule deleted.",
	"filter-created": "Filter created.",
	"filter-saved": "Filter saved.",
	"filter-paused": "Filter paused.",
	"filter-resumed": "Filter resumed.",
	"filter-deleted": "Filter deleted.",
	"custom-created": "WAF custom rule created.",
	"custom-saved": "WAF custom rule saved.",
	"custom-enabled": "WAF custom rule enabled.",
	"custom-disabled": "WAF custom rule disabled.",
	"custom-deleted": "WAF custom rule deleted.",
	"retention-on": "Log retention turned on: requests from now on are kept, and their matches show here.",
};

/** What the page shows besides the zone's state: a notice, refused forms, errors of row actions. */
interface PageState {
	notice?: string;
	rule?: { values: RuleValues; errors: FormErrors };
	filter?: { values: FilterValues; errors: FormErrors };
	custom?: { values: CustomValues; errors: FormErrors };
	ruleErrors?: string[];
	filterErrors?: string[];
	customErrors?: string[];
	matchErrors?: string[];
}

const param = (c: Ctx, name: string) => encodeURIComponent(c.req.param(name) ?? "");

/** The form's values: strings, "" for an absent field. */
async function formOf(c: Ctx): Promise<(name: string) => string> {
	const body = await c.req.parseBody();
	return (name) => {
		const value = body[name];
		return typeof value === "string" ? value : "";
	};
}

/** The zone's WAF custom rules, with the entrypoint's id; none (and no id) when it does not exist yet. */
async function readCustomRules(c: Ctx): Promise<ApiAnswer<{ id?: string; rules: EntrypointRule[] }>> {
	const answer = await callApi<{ id: string; rules?: EntrypointRule[] }>(
		c,
		c.var.session.credential,
		"GET",
		zonePath(c, CUSTOM_PHASE_PATH),
	);
	if (answer.ok) return { ...answer, result: { id: answer.result.id, rules: answer.result.rules ?? [] } };
	if (answer.errors.some((e) => e.code === CODES.entrypointNotFound))
		return { ok: true, status: 200, result: { rules: [] } };
	return answer;
}

/** The recent matches by rule id, or why there are none: retention off, or the API's errors. */
async function readMatches(c: Ctx): Promise<MatchState> {
	const log = await readRecentLog(c, MATCH_FIELDS, MATCH_READ_LIMIT);
	return "records" in log ? { retention: true, byRule: matchesByRule(log.records) } : log;
}

/** A page number from the query (1 when absent or not a positive integer). */
function pageOf(c: Ctx, name: string): number {
	const n = Number(c.req.query(name));
	return Number.isInteger(n) && n > 0 ? n : 1;
}

// ---- Parts ------------------------------------------------------------------------------------

// ---- Pages ------------------------------------------------------------------------------------

/** The Security page: firewall rules, filters, WAF custom rules, their forms, recent matches. */
async function securityPage(c: Ctx, state: PageState = {}, status: ContentfulStatusCode = 200) {
	const credential = c.var.session.credential;
	const rulesPage = pageOf(c, "rules_page");
	const filtersPage = pageOf(c, "filters_page");
	const [rules, filters, custom, matches] = await Promise.all([
		callApi<FirewallRule[]>(
			c,
			credential,
			"GET",
			zonePath(c, `/firewall/rules?per_page=${PER_PAGE}&page=${rulesPage}`),
		),
		callApi<Filter[]>(c, credential, "GET", zonePath(c, `/filters?per_page=${PER_PAGE}&page=${filtersPage}`)),
		readCustomRules(c),
		readMatches(c),
	]);
	const byRule = "retention" in matches && matches.retention ? matches.byRule : undefined;
	const names = new Map<string, string>();
	for (const r of rules.ok ? rules.result : []) names.set(r.id, `Firewall rule ${ruleName(r)}`);
	for (const r of custom.ok ? custom.result.rules : []) names.set(r.id ?? "", `WAF custom rule ${ruleName(r)}`);
	const usedBy = new Map<string, string[]>();
	for (const r of rules.ok ? rules.result : [])
		usedBy.set(r.filter.id, [...(usedBy.get(r.filter.id) ?? []), ruleName(r)]);
	const rule = state.rule ?? { values: EMPTY_RULE, errors: NO_ERRORS };
	const filter = state.filter ?? { values: { description: "", expression: "" }, errors: NO_ERRORS };
	const customForm = state.custom ?? { values: EMPTY_CUSTOM, errors: NO_ERRORS };
	return render(
		c,
		<Layout title="Security rules" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "security" }}>
			<p class="crumbs">Security › Security rules</p>
			<h1>Security rules</h1>
			<Notice text={state.notice} />

			<section class="card" aria-labelledby="rules-heading">
				<h2 id="rules-heading">Firewall rules</h2>
				<ErrorSummary messages={state.ruleErrors ?? []} />
				{!rules.ok && <ErrorSummary messages={messagesOf(rules.errors)} />}
				{rules.ok && rules.result.length === 0 && <p>No firewall rules in this zone.</p>}
				{rules.ok && rules.result.length > 0 && (
					<Listing
						caption="In evaluation order"
						columns={["Priority", "Name", "Expression", "Action", "Status", "Matches (last hour)", "Actions"]}
					>
						{rules.result.map((r) => (
							<FirewallRuleRow c={c} rule={r} matches={byRule} />
						))}
					</Listing>
				)}
				{rules.ok && <Pager base={pagePath(c)} name="rules_page" page={rulesPage} info={rules.resultInfo} />}
			</section>

			<section class="card" aria-labelledby="custom-heading">
				<h2 id="custom-heading">WAF custom rules</h2>
				<ErrorSummary messages={state.customErrors ?? []} />
				{!custom.ok && <ErrorSummary messages={messagesOf(custom.errors)} />}
				{custom.ok && custom.result.rules.length === 0 && <p>No WAF custom rules in this zone.</p>}
				{custom.ok && custom.result.rules.length > 0 && (
					<Listing
						caption="In evaluation order, after the firewall rules"
						columns={["Name", "Expression", "Action", "Status", "Matches (last hour)", "Actions"]}
					>
						{custom.result.rules.map((r) => (
							<CustomRuleRow c={c} rulesetId={custom.result.id ?? ""} rule={r} matches={byRule} />
						))}
					</Listing>
				)}
			</section>

			<RecentMatches c={c} state={matches} names={names} errors={state.matchErrors ?? []} />

			<section class="card" aria-labelledby="create-rule-heading">
				<h2 id="create-rule-heading">Create a firewall rule</h2>
				<ErrorSummary messages={rule.errors.form} />
				<form method="post" action={pagePath(c, "/rules")} aria-labelledby="create-rule-heading">
					<Csrf token={c.var.csrf} />
					<RuleFields c={c} form="rule" values={rule.values} errors={rule.errors} />
					<div class="actions">
						<button type="submit">Deploy firewall rule</button>
					</div>
				</form>
			</section>

			<section class="card" aria-labelledby="create-custom-heading">
				<h2 id="create-custom-heading">Create a WAF custom rule</h2>
				<ErrorSummary messages={customForm.errors.form} />
				<form method="post" action={pagePath(c, "/custom-rules")} aria-labelledby="create-custom-heading">
					<Csrf token={c.var.csrf} />
					<CustomFields c={c} form="custom" values={customForm.values} errors={customForm.errors} />
					<div class="actions">
						<button type="submit">Deploy custom rule</button>
					</div>
				</form>
			</section>

			<section class="card" aria-labelledby="filters-heading">
				<h2 id="filters-heading">Filters</h2>
				<p>The expressions firewall rules use; a filter made with a rule belongs to it.</p>
				<ErrorSummary messages={state.filterErrors ?? []} />
				{!filters.ok && <ErrorSummary messages={messagesOf(filters.errors)} />}
				{filters.ok && filters.result.length === 0 && <p>No filters in this zone.</p>}
				{filters.ok && filters.result.length > 0 && (
					<Listing columns={["Expression", "Description", "Status", "Used by", "Actions"]}>
						{filters.result.map((f) => (
							<FilterRow c={c} filter={f} usedBy={usedBy.get(f.id) ?? []} />
						))}
					</Listing>
				)}
				{filters.ok && <Pager base={pagePath(c)} name="filters_page" page={filtersPage} info={filters.resultInfo} />}
				<details open={state.filter !== undefined}>
					<summary>Create a filter</summary>
					<h3 id="create-filter-heading">Create a filter</h3>
					<ErrorSummary messages={filter.errors.form} />
					<form method="post" action={pagePath(c, "/filters")} aria-labelledby="create-filter-heading">
						<Csrf token={c.var.csrf} />
						<ExpressionEditor
							form="filter"
							label="Filter expression"
							value={filter.values.expression}
							errors={filter.errors}
							validateUrl={pagePath(c, "/expression")}
						/>
						<TextField
							form="filter"
							name="description"
							label="Filter description"
							value={filter.values.description}
							errors={filter.errors}
						/>
						<div class="actions">
							<button type="submit" class="secondary">
								Create filter
							</button>
						</div>
					</form>
				</details>
			</section>
			<script src="/assets/expression-check.js" defer />
		</Layout>,
		status,
	);
}

/** The edit page of one firewall rule: its fields, saved with a PUT. */
async function editRulePage(
	c: Ctx,
	state: { values?: RuleValues; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	let values = state.values;
	let errors = state.errors ?? NO_ERRORS;
	if (values === undefined) {
		const answer = await callApi<FirewallRule>(
			c,
			c.var.session.credential,
			"GET",
			zonePath(c, `/firewall/rules/${param(c, "rule_id")}`),
		);
		if (!answer.ok) {
			values = EMPTY_RULE;
			errors = { fields: {}, form: messagesOf(answer.errors) };
			status = statusOf(answer);
		} else {
			const r = answer.result;
			values = {
				description: r.description,
				expression: "expression" in r.filter ? r.filter.expression : "",
				action: r.action,
				priority: r.priority === null ? "" : String(r.priority),
				paused: r.paused,
			};
		}
	}
	return render(
		c,
		<EditPage
			c={c}
			title="Edit firewall rule"
			action={pagePath(c, `/rules/${param(c, "rule_id")}`)}
			errors={errors.form}
		>
			<RuleFields c={c} form="edit" values={values} errors={errors} edit />
		</EditPage>,
		status,
	);
}

/** A filter's edit form as typed. */
type EditFilterValues = FilterValues & { paused: boolean };

/** The edit page of one filter: its expression, description and pause, saved with a PUT. */
async function editFilterPage(
	c: Ctx,
	state: { values?: EditFilterValues; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	let values = state.values;
	let errors = state.errors ?? NO_ERRORS;
	if (values === undefined) {
		const path = zonePath(c, `/filters/${param(c, "filter_id")}`);
		const answer = await callApi<Filter>(c, c.var.session.credential, "GET", path);
		if (!answer.ok) {
			values = { description: "", expression: "", paused: false };
			errors = { fields: {}, form: messagesOf(answer.errors) };
			status = statusOf(answer);
		} else {
			const f = answer.result;
			values = { description: f.description ?? "", expression: f.expression, paused: f.paused };
		}
	}
	return render(
		c,
		<EditPage c={c} title="Edit filter" action={pagePath(c, `/filters/${param(c, "filter_id")}`)} errors={errors.form}>
			<p>Every firewall rule that uses this filter runs the new expression.</p>
			<ExpressionEditor
				form="edit-filter"
				label="Filter expression"
				value={values.expression}
				errors={errors}
				validateUrl={pagePath(c, "/expression")}
			/>
			<TextField
				form="edit-filter"
				name="description"
				label="Filter description"
				value={values.description}
				errors={errors}
			/>
			<Checkbox form="edit-filter" name="paused" label="Paused" checked={values.paused} />
		</EditPage>,
		status,
	);
}

/**
 * The edit page of one WAF custom rule: its fields, saved by PUTting the entrypoint with the rule
 * replaced in place (its id and ref kept, the other rules as they are), so the rule is exactly
 * the form's, whatever a PATCH would keep of the stored one.
 */
async function editCustomRulePage(
	c: Ctx,
	state: { values?: CustomValues; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	let values = state.values;
	let errors = state.errors ?? NO_ERRORS;
	if (values === undefined) {
		const found = await customRule(c);
		if ("errors" in found) {
			values = EMPTY_CUSTOM;
			errors = { fields: {}, form: found.errors };
			status = found.status;
		} else values = customValuesOf(found.rule);
	}
	const action = pagePath(c, `/custom-rules/${param(c, "ruleset_id")}/${param(c, "rule_id")}`);
	return render(
		c,
		<EditPage c={c} title="Edit WAF custom rule" action={action} errors={errors.form}>
			<CustomFields c={c} form="edit-custom" values={values} errors={errors} />
		</EditPage>,
		status,
	);
}

/** The WAF custom rule of the route, with the entrypoint's rules; or the API's errors, or not found. */
async function customRule(
	c: Ctx,
): Promise<{ rule: EntrypointRule; rules: EntrypointRule[] } | { errors: string[]; status: ContentfulStatusCode }> {
	const existing = await readCustomRules(c);
	if (!existing.ok) return { errors: messagesOf(existing.errors), status: statusOf(existing) };
	const rule = existing.result.rules.find((r) => r.id === c.req.param("rule_id"));
	if (existing.result.id !== c.req.param("ruleset_id") || rule === undefined)
		return { errors: ["This WAF custom rule does not exist (any more)."], status: 404 };
	return { rule, rules: existing.result.rules };
}

/** The custom rule form's values from a POST. */
async function customValues(c: Ctx): Promise<CustomValues> {
	const form = await formOf(c);
	return {
		description: form("description"),
		expression: form("expression"),
		action: form("action"),
		enabled: form("enabled") === "true",
		status_code: form("status_code"),
		content_type: form("content_type"),
		content: form("content"),
	};
}

/** The rule form's values from a POST. */
async function ruleValues(c: Ctx): Promise<RuleValues> {
	const form = await formOf(c);
	return {
		description: form("description"),
		expression: form("expression"),
		action: form("action"),
		priority: form("priority"),
		paused: form("paused") === "true",
	};
}

/**
 * A row's action (pause, enable, delete, retention): `method path body` through the API, then the
 * page again saying `done`, or, refused, the page with the API's messages at `errorsAt`.
 */
async function rowAction(
	c: Ctx,
	errorsAt: "ruleErrors" | "filterErrors" | "customErrors" | "matchErrors",
	method: "POST" | "PUT" | "PATCH" | "DELETE",
	path: string,
	body: unknown,
	done: string,
) {
	const answer = await callApi(c, c.var.session.credential, method, zonePath(c, path), body);
	if (!answer.ok) return securityPage(c, { [errorsAt]: messagesOf(answer.errors) }, statusOf(answer));
	return c.redirect(pagePath(c, `?done=${done}`), 303);
}

/** Routes under `/zones/{zone_id}/security`. */
export const security = new Hono<DashEnv>()
	.get("/", (c) => securityPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/expression", async (c) => {
		const expression = (await formOf(c))("expression");
		const error = expressionError(expression);
		return c.json(error === undefined ? { valid: true } : { valid: false, error });
	})
	.post("/rules", async (c) => {
		const values = await ruleValues(c);
		const answer = await callApi(c, c.var.session.credential, "POST", zonePath(c, "/firewall/rules"), [
			ruleBody(values),
		]);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, fieldOf(RULE_FIELDS));
			return securityPage(c, { rule: { values, errors } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=rule-created"), 303);
	})
	.get("/rules/:rule_id", (c) => editRulePage(c))
	.post("/rules/:rule_id", async (c) => {
		const values = await ruleValues(c);
		const path = zonePath(c, `/firewall/rules/${param(c, "rule_id")}`);
		const answer = await callApi(c, c.var.session.credential, "PUT", path, ruleBody(values));
		if (!answer.ok)
			return editRulePage(c, { values, errors: sortErrors(answer.errors, fieldOf(RULE_FIELDS)) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=rule-saved"), 303);
	})
	.post("/rules/:rule_id/paused", async (c) => {
		const paused = (await formOf(c))("paused") === "true";
		const path = `/firewall/rules/${param(c, "rule_id")}`;
		return rowAction(c, "ruleErrors", "PATCH", path, { paused }, paused ? "rule-paused" : "rule-resumed");
	})
	.post("/rules/:rule_id/delete", (c) =>
		// The rule's own filter goes with it (the dashboard made it); a shared one stays.
		rowAction(
			c,
			"ruleErrors",
			"DELETE",
			`/firewall/rules/${param(c, "rule_id")}?delete_filter_if_unused=true`,
			undefined,
			"rule-deleted",
		),
	)
	.post("/filters", async (c) => {
		const form = await formOf(c);
		const values = { description: form("description"), expression: form("expression") };
		const body = [{ expression: values.expression, description: values.description.trim() }];
		const answer = await callApi(c, c.var.session.credential, "POST", zonePath(c, "/filters"), body);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, fieldOf(FILTER_FIELDS));
			return securityPage(c, { filter: { values, errors } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=filter-created"), 303);
	})
	.get("/filters/:filter_id", (c) => editFilterPage(c))
	.post("/filters/:filter_id", async (c) => {
		const form = await formOf(c);
		const values = {
			description: form("description"),
			expression: form("expression"),
			paused: form("paused") === "true",
		};
		const body = { expression: values.expression, description: values.description.trim(), paused: values.paused };
		const path = zonePath(c, `/filters/${param(c, "filter_id")}`);
		const answer = await callApi(c, c.var.session.credential, "PUT", path, body);
		if (!answer.ok)
			return editFilterPage(c, { values, errors: sortErrors(answer.errors, fieldOf(FILTER_FIELDS)) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=filter-saved"), 303);
	})
	.post("/filters/:filter_id/paused", async (c) => {
		const paused = (await formOf(c))("paused") === "true";
		const path = `/filters/${param(c, "filter_id")}`;
		return rowAction(c, "filterErrors", "PUT", path, { paused }, paused ? "filter-paused" : "filter-resumed");
	})
	.post("/filters/:filter_id/delete", (c) =>
		rowAction(c, "filterErrors", "DELETE", `/filters/${param(c, "filter_id")}`, undefined, "filter-deleted"),
	)
	.post("/custom-rules", async (c) => {
		const values = await customValues(c);
		const existing = await readCustomRules(c);
		if (!existing.ok) {
			const errors = { fields: {}, form: messagesOf(existing.errors) };
			return securityPage(c, { custom: { values, errors } }, statusOf(existing));
		}
		const credential = c.var.session.credential;
		const rule = customBody(values);
		// No entrypoint yet: it is created with this one rule; otherwise the rule is added at the end.
		const answer =
			existing.result.id === undefined
				? await callApi(c, credential, "PUT", zonePath(c, CUSTOM_PHASE_PATH), { rules: [rule] })
				: await callApi(c, credential, "POST", zonePath(c, `/rulesets/${existing.result.id}/rules`), rule);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, fieldOf(CUSTOM_FIELDS));
			return securityPage(c, { custom: { values, errors } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=custom-created"), 303);
	})
	.get("/custom-rules/:ruleset_id/:rule_id", (c) => editCustomRulePage(c))
	.post("/custom-rules/:ruleset_id/:rule_id", async (c) => {
		const values = await customValues(c);
		const found = await customRule(c);
		if ("errors" in found)
			return editCustomRulePage(c, { values, errors: { fields: {}, form: found.errors } }, found.status);
		const edited = { ...customBody(values), id: found.rule.id, ref: found.rule.ref };
		const rules = found.rules.map((r) => (r.id === found.rule.id ? edited : asInput(r)));
		const answer = await callApi(c, c.var.session.credential, "PUT", zonePath(c, CUSTOM_PHASE_PATH), { rules });
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, fieldOf(CUSTOM_FIELDS));
			return editCustomRulePage(c, { values, errors }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=custom-saved"), 303);
	})
	.post("/custom-rules/:ruleset_id/:rule_id/enabled", async (c) => {
		const enabled = (await formOf(c))("enabled") === "true";
		const path = `/rulesets/${param(c, "ruleset_id")}/rules/${param(c, "rule_id")}`;
		return rowAction(c, "customErrors", "PATCH", path, { enabled }, enabled ? "custom-enabled" : "custom-disabled");
	})
	.post("/custom-rules/:ruleset_id/:rule_id/delete", (c) => {
		const path = `/rulesets/${param(c, "ruleset_id")}/rules/${param(c, "rule_id")}`;
		return rowAction(c, "customErrors", "DELETE", path, undefined, "custom-deleted");
	})
	.post("/retention", (c) =>
		rowAction(c, "matchErrors", "POST", "/logs/control/retention/flag", { flag: true }, "retention-on"),
	);
