/**
 * The Rules pages' parts: a section's table of rules (order, name, expression, what the rule
 * does, status, actions) and the create/edit form of a rule of each kind, with the fields
 * Cloudflare's dashboard shows for it (https://developers.cloudflare.com/rules/).
 */
import type { FC } from "hono/jsx";
import {
	Checkbox,
	DeleteForm,
	type FormErrors,
	FormScope,
	HeadedForm,
	SelectField,
	TextArea,
	TextField,
} from "../components/form";
import type { EntrypointRule } from "../log-field-rules";
import { headerRows, type RuleKind, type RuleValues } from "./kinds";

const STATIC_OR_DYNAMIC: [string, string][] = [
	["static", "Static"],
	["dynamic", "Dynamic"],
];

const REWRITE_PART: [string, string][] = [
	["preserve", "Preserve"],
	["static", "Rewrite to static"],
	["dynamic", "Rewrite to dynamic"],
];

const STATUS_CODES: [string, string][] = ["301", "302", "303", "307", "308"].map((c) => [c, c]);

const OPERATIONS: [string, string][] = [
	["set", "Set"],
	["add", "Add"],
	["remove", "Remove"],
];

/** The fields of a kind's own parameters. */
const KindFields: FC<{ kindKey: string; values: RuleValues }> = ({ kindKey, values: v }) => {
	switch (kindKey) {
		case "redirects":
			return (
				<>
					<SelectField name="target_kind" label="Target URL type" options={STATIC_OR_DYNAMIC} value={v.target_kind} />
					<TextField
						name="target"
						label="Target URL"
						value={v.target}
						hint="Static: an absolute URL. Dynamic: an expression, e.g. concat(&quot;https://example.com&quot;, http.request.uri.path)."
					/>
					<SelectField name="status_code" label="Status code" options={STATUS_CODES} value={v.status_code} />
					<Checkbox name="preserve_query" label="Preserve query string" checked={v.preserve_query === "true"} />
				</>
			);
		case "url-rewrites":
			return (
				<>
					<SelectField name="path_kind" label="Path" options={REWRITE_PART} value={v.path_kind} />
					<TextField name="path" label="New path" value={v.path} hint="A path starting with /, or an expression." />
					<SelectField name="query_kind" label="Query" options={REWRITE_PART} value={v.query_kind} />
					<TextField name="query" label="New query" value={v.query} hint="Without the ?, or an expression." />
				</>
			);
		case "origin":
			return (
				<>
					<TextField name="host_header" label="Host Header" value={v.host_header} hint="Rewrite to: a hostname." />
					<TextField name="origin_host" label="DNS Record" value={v.origin_host} hint="Override to: a hostname." />
					<TextField name="origin_port" label="Destination Port" value={v.origin_port} hint="Rewrite to: 1 to 65535." />
					<TextField name="sni" label="SNI" value={v.sni} hint="Override to: a hostname." />
				</>
			);
		default: {
			const rows = Array.from({ length: headerRows(v) }, (_, i) => i);
			return (
				<>
					{rows.map((i) => (
						<fieldset>
							<legend>Header {i + 1}</legend>
							<TextField name={`name_${i}`} label={`Header ${i + 1} name`} value={v[`name_${i}`]} />
							<SelectField
								name={`operation_${i}`}
								label={`Header ${i + 1} operation`}
								options={OPERATIONS}
								value={v[`operation_${i}`] ?? "set"}
							/>
							<SelectField
								name={`kind_${i}`}
								label={`Header ${i + 1} value type`}
								options={STATIC_OR_DYNAMIC}
								value={v[`kind_${i}`] ?? "static"}
							/>
							<TextField name={`value_${i}`} label={`Header ${i + 1} value`} value={v[`value_${i}`]} />
						</fieldset>
					))}
				</>
			);
		}
	}
};

/** A rule's create or edit form of `kind`: name, expression, the kind's fields, enabled. */
export const RuleForm: FC<{
	kindKey: string;
	kind: RuleKind;
	title: string;
	action: string;
	csrf: string;
	values: RuleValues;
	errors: FormErrors;
}> = (p) => (
	<HeadedForm id="rule-form-heading" title={p.title} action={p.action} csrf={p.csrf} errors={p.errors} submit="Save">
		<FormScope form="rule" errors={p.errors}>
			<TextField name="description" label="Rule name" value={p.values.description} />
			<TextArea
				name="expression"
				label="When incoming requests match"
				value={p.values.expression}
				rows={3}
				required
				hint="An expression of the Rules language; true for all incoming requests."
			/>
			<KindFields kindKey={p.kindKey} values={p.values} />
			<Checkbox name="enabled" label="Enabled" checked={p.values.enabled === "true"} />
		</FormScope>
	</HeadedForm>
);

/** A section's rules, in order, with Edit and Delete; `base` is the kind's path (`.../rules/redirects`). */
export const RulesTable: FC<{ kind: RuleKind; rules: EntrypointRule[]; base: string; csrf: string }> = (p) =>
	p.rules.length === 0 ? (
		<p>No {p.kind.noun}s.</p>
	) : (
		<table>
			<thead>
				<tr>
					<th scope="col">Order</th>
					<th scope="col">Name</th>
					<th scope="col">Expression</th>
					<th scope="col">Then</th>
					<th scope="col">Status</th>
					<th scope="col">Actions</th>
				</tr>
			</thead>
			<tbody>
				{p.rules.map((rule, i) => {
					const name = rule.description || `${p.kind.noun} ${i + 1}`;
					return (
						<tr>
							<td>{i + 1}</td>
							<td>{name}</td>
							<td>
								<code>{rule.expression}</code>
							</td>
							<td>{p.kind.summary(rule.action_parameters ?? {})}</td>
							<td>{rule.enabled === false ? "Disabled" : "Enabled"}</td>
							<td>
								<div class="row-actions">
									<a href={`${p.base}/${rule.id}`} aria-label={`Edit ${name}`}>
										Edit
									</a>
									<DeleteForm
										action={`${p.base}/${rule.id}/delete`}
										csrf={p.csrf}
										confirm={`Delete the ${p.kind.noun} ${name}?`}
										label={`Delete ${name}`}
									/>
								</div>
							</td>
						</tr>
					);
				})}
			</tbody>
		</table>
	);
