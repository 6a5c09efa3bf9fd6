/**
 * The Security page's rows and sections (`pages/security.tsx`): a row per firewall rule, filter and
 * WAF custom rule with its actions, the pager of a list, and the recent matches of each rule.
 */
import type { Child, FC } from "hono/jsx";
import type { Filter } from "../../zone/filters";
import type { FirewallRule } from "../../zone/firewall-rules";
import { ErrorSummary, PostForm } from "../components/form";
import { Listing } from "../components/listing";
import type { EntrypointRule } from "../log-field-rules";
import type { Ctx } from "../types";
import { CUSTOM_ACTIONS, FIREWALL_ACTIONS, labelOf, pagePath } from "./forms";
import type { RuleMatches } from "./matches";

/** The recent matches by rule id, or why there are none: retention off, or the API's errors. */
export type MatchState =
	| { retention: true; byRule: Map<string, RuleMatches> }
	| { retention: false }
	| { errors: string[] };

export const ruleName = (rule: { id?: string; description?: string }) =>
	rule.description !== undefined && rule.description !== "" ? rule.description : `rule ${rule.id ?? ""}`;

/** The matches cell of a rule row: how many in the last hour, linking to the list below. */
const MatchCount: FC<{ id: string; matches: Map<string, RuleMatches> | undefined }> = ({ id, matches }) => {
	if (matches === undefined) return <>–</>;
	const count = matches.get(id)?.count ?? 0;
	return count === 0 ? <>0</> : <a href={`#matches-${id}`}>{count}</a>;
};

/** Previous / next links of a paged list, when it has more than one page. */
export const Pager: FC<{ base: string; name: string; page: number; info?: Record<string, unknown> }> = (p) => {
	const pages = Number(p.info?.total_pages ?? 1);
	if (!(pages > 1)) return null;
	return (
		<nav class="actions" aria-label={`Pages of ${p.name}`}>
			{p.page > 1 && <a href={`${p.base}?${p.name}=${p.page - 1}`}>Previous page</a>}
			<span>
				Page {p.page} of {pages}
			</span>
			{p.page < pages && <a href={`${p.base}?${p.name}=${p.page + 1}`}>Next page</a>}
		</nav>
	);
};

/**
 * A row's buttons: a switch that posts `field=value` to `toggle.action` (pause / resume, enable /
 * disable), and Delete, confirmed first; `name` makes each button's accessible name unique.
 */
const RowActions: FC<{
	c: Ctx;
	name: string;
	toggle: { action: string; field: string; value: boolean; label: string };
	remove: { action: string; confirm: string };
	children?: Child;
}> = ({ c, name, toggle, remove, children }) => (
	<div class="row-actions">
		{children}
		<PostForm action={toggle.action} csrf={c.var.csrf}>
			<input type="hidden" name={toggle.field} value={String(toggle.value)} />
			<button type="submit" class="secondary" aria-label={`${toggle.label} ${name}`}>
				{toggle.label}
			</button>
		</PostForm>
		<PostForm action={remove.action} csrf={c.var.csrf} confirm={remove.confirm}>
			<button type="submit" class="danger" aria-label={`Delete ${name}`}>
				Delete
			</button>
		</PostForm>
	</div>
);

export const FirewallRuleRow: FC<{ c: Ctx; rule: FirewallRule; matches?: Map<string, RuleMatches> }> = ({
	c,
	rule,
	matches,
}) => {
	const name = ruleName(rule);
	const expression = "expression" in rule.filter ? rule.filter.expression : "(filter deleted)";
	return (
		<tr>
			<td>{rule.priority ?? "–"}</td>
			<td>{name}</td>
			<td>
				<code>{expression}</code>
			</td>
			<td>{labelOf(FIREWALL_ACTIONS, rule.action)}</td>
			<td>{rule.paused ? "Paused" : "Active"}</td>
			<td>
				<MatchCount id={rule.id} matches={matches} />
			</td>
			<td>
				<RowActions
					c={c}
					name={name}
					toggle={{
						action: pagePath(c, `/rules/${rule.id}/paused`),
						field: "paused",
						value: !rule.paused,
						label: rule.paused ? "Resume" : "Pause",
					}}
					remove={{ action: pagePath(c, `/rules/${rule.id}/delete`), confirm: `Delete the firewall rule ${name}?` }}
				>
					<a href={pagePath(c, `/rules/${rule.id}`)} aria-label={`Edit ${name}`}>
						Edit
					</a>
				</RowActions>
			</td>
		</tr>
	);
};

export const FilterRow: FC<{ c: Ctx; filter: Filter; usedBy: string[] }> = ({ c, filter, usedBy }) => {
	const name = filter.description !== undefined && filter.description !== "" ? filter.description : filter.expression;
	return (
		<tr>
			<td>
				<code>{filter.expression}</code>
			</td>
			<td>{filter.description ?? ""}</td>
			<td>{filter.paused ? "Paused" : "Active"}</td>
			<td>{usedBy.length === 0 ? "no rule" : usedBy.join(", ")}</td>
			<td>
				<RowActions
					c={c}
					name={`filter ${name}`}
					toggle={{
						action: pagePath(c, `/filters/${filter.id}/paused`),
						field: "paused",
						value: !filter.paused,
						label: filter.paused ? "Resume" : "Pause",
					}}
					remove={{ action: pagePath(c, `/filters/${filter.id}/delete`), confirm: `Delete the filter ${name}?` }}
				>
					<a href={pagePath(c, `/filters/${filter.id}`)} aria-label={`Edit filter ${name}`}>
						Edit
					</a>
				</RowActions>
			</td>
		</tr>
	);
};

export const CustomRuleRow: FC<{
	c: Ctx;
	rulesetId: string;
	rule: EntrypointRule;
	matches?: Map<string, RuleMatches>;
}> = ({ c, rulesetId, rule, matches }) => {
	const name = ruleName(rule);
	const enabled = rule.enabled !== false;
	const base = pagePath(c, `/custom-rules/${rulesetId}/${rule.id ?? ""}`);
	const response = rule.action_parameters?.response as { status_code?: number } | undefined;
	return (
		<tr>
			<td>{name}</td>
			<td>
				<code>{rule.expression}</code>
			</td>
			<td>
				{labelOf(CUSTOM_ACTIONS, rule.action)}
				{response?.status_code !== undefined && ` (${response.status_code})`}
			</td>
			<td>{enabled ? "Enabled" : "Disabled"}</td>
			<td>
				<MatchCount id={rule.id ?? ""} matches={matches} />
			</td>
			<td>
				<RowActions
					c={c}
					name={name}
					toggle={{
						action: `${base}/enabled`,
						field: "enabled",
						value: !enabled,
						label: enabled ? "Disable" : "Enable",
					}}
					remove={{ action: `${base}/delete`, confirm: `Delete the WAF custom rule ${name}?` }}
				>
					<a href={base} aria-label={`Edit ${name}`}>
						Edit
					</a>
				</RowActions>
			</td>
		</tr>
	);
};

/** The recent-matches section: per rule that matched, its newest requests. */
export const RecentMatches: FC<{
	c: Ctx;
	state: MatchState;
	names: Map<string, string>;
	errors: string[];
}> = ({ c, state, names, errors }) => (
	<section class="card" aria-labelledby="matches-heading">
		<h2 id="matches-heading">Recent matches</h2>
		<ErrorSummary messages={errors} />
		{"errors" in state && <ErrorSummary messages={state.errors} />}
		{"retention" in state && !state.retention && (
			<>
				<p>
					Log retention is off: this zone keeps no log of its requests, so the requests its rules matched cannot be
					shown. Turn it on to keep every request from now on (Logpull retention).
				</p>
				<PostForm action={pagePath(c, "/retention")} csrf={c.var.csrf}>
					<button type="submit">Turn on log retention</button>
				</PostForm>
			</>
		)}
		{"retention" in state && state.retention && state.byRule.size === 0 && (
			<p>No request matched a rule in the last hour.</p>
		)}
		{"retention" in state &&
			state.retention &&
			[...state.byRule].map(([id, m]) => (
				<div id={`matches-${id}`}>
					<h3>
						{names.get(id) ?? `rule ${id}`}: {m.count} in the last hour
					</h3>
					<Listing
						caption={`${m.count > m.recent.length ? `The newest ${m.recent.length}` : "All of them"}, newest first`}
						columns={["Time", "Path", "Client IP", "Rule action", "Outcome", "Ray ID"]}
					>
						{m.recent.map((r) => (
							<tr>
								<td>{r.time}</td>
								<td>
									<code>{r.path}</code>
								</td>
								<td>{r.clientIp}</td>
								<td>{r.action}</td>
								<td>{r.securityAction === "" ? "none" : r.securityAction}</td>
								<td>
									<code>{r.rayId}</code>
								</td>
							</tr>
						))}
					</Listing>
				</div>
			))}
	</section>
);
