/**
 * The Security page's forms (`pages/security.tsx`): the actions each rule kind takes, the values of
 * the firewall rule, filter and WAF custom rule forms as typed, the API bodies made from them, the
 * field an API error points at, and the fields shared by a rule's create and edit forms.
 */
import type { Child, FC } from "hono/jsx";
import {
	Checkbox,
	Csrf,
	ErrorSummary,
	type FormErrors,
	numberOrText,
	SelectField,
	TextField,
} from "../components/form";
import { Layout } from "../layout";
import type { EntrypointRule } from "../log-field-rules";
import type { Ctx } from "../types";
import { ExpressionEditor } from "./expression-editor";

export const FIREWALL_ACTIONS: [string, string][] = [
	["block", "Block"],
	["managed_challenge", "Managed Challenge"],
	["js_challenge", "JS Challenge"],
	["challenge", "Interactive Challenge"],
	["allow", "Allow"],
	["log", "Log"],
	["bypass", "Bypass"],
];
export const CUSTOM_ACTIONS: [string, string][] = [
	["block", "Block"],
	["managed_challenge", "Managed Challenge"],
	["js_challenge", "JS Challenge"],
	["challenge", "Interactive Challenge"],
	["log", "Log"],
	["skip", "Skip the remaining custom rules"],
];
const CONTENT_TYPES: [string, string][] = [
	["text/html", "text/html"],
	["text/plain", "text/plain"],
	["application/json", "application/json"],
	["text/xml", "text/xml"],
];

export const labelOf = (options: [string, string][], value: string) => options.find(([v]) => v === value)?.[1] ?? value;

/** A firewall rule form as typed (create and edit). */
export interface RuleValues {
	description: string;
	expression: string;
	action: string;
	priority: string;
	paused: boolean;
}
export const EMPTY_RULE: RuleValues = { description: "", expression: "", action: "block", priority: "", paused: false };

/** The create-filter form as typed. */
export interface FilterValues {
	description: string;
	expression: string;
}

/** The create-custom-rule form as typed. */
export interface CustomValues {
	description: string;
	expression: string;
	action: string;
	enabled: boolean;
	status_code: string;
	content_type: string;
	content: string;
}
export const EMPTY_CUSTOM: CustomValues = {
	description: "",
	expression: "",
	action: "block",
	enabled: true,
	status_code: "",
	content_type: "text/html",
	content: "",
};

/** A path of the zone's Security page. */
export const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/security${rest}`;

/** The field of a form an API error is about: the pointer's first step after a batch index or `/rules/N`. */
export function fieldOf(fields: readonly string[]): (pointer: string) => string | undefined {
	return (pointer) => {
		const steps = pointer.split("/").filter((s) => s !== "");
		if (steps[0] === "rules") steps.splice(0, 2);
		else if (/^\d+$/.test(steps[0] ?? "")) steps.shift();
		const [top, , leaf] = steps;
		const field = top === "filter" ? "expression" : top === "action_parameters" ? leaf : top;
		return field !== undefined && fields.includes(field) ? field : undefined;
	};
}

/** The fields every rule form starts with: its name, its expression (checked as typed), its action. */
const RuleHead: FC<{
	c: Ctx;
	form: string;
	values: { description: string; expression: string; action: string };
	errors: FormErrors;
	actions: [string, string][];
}> = (p) => (
	<>
		<TextField form={p.form} name="description" label="Rule name" value={p.values.description} errors={p.errors} />
		<ExpressionEditor
			form={p.form}
			label="Expression"
			value={p.values.expression}
			errors={p.errors}
			validateUrl={pagePath(p.c, "/expression")}
		/>
		<SelectField
			form={p.form}
			name="action"
			label="Action"
			options={p.actions}
			value={p.values.action}
			errors={p.errors}
		/>
	</>
);

/**
 * An edit page of the Security page: the form posting to `action`, with Save and Cancel, and the
 * editor's script.
 */
export const EditPage: FC<{ c: Ctx; title: string; action: string; errors: string[]; children?: Child }> = (p) => (
	<Layout title={p.title} csrf={p.c.var.csrf} zone={{ ...p.c.var.zone, page: "security" }}>
		<p class="crumbs">
			Security › <a href={pagePath(p.c)}>Security rules</a> › {p.title}
		</p>
		<h1>{p.title}</h1>
		<ErrorSummary messages={p.errors} />
		<form method="post" action={p.action} aria-label={p.title}>
			<Csrf token={p.c.var.csrf} />
			{p.children}
			<div class="actions">
				<button type="submit">Save</button>
				<a href={pagePath(p.c)}>Cancel</a>
			</div>
		</form>
		<script src="/assets/expression-check.js" defer />
	</Layout>
);

/** The fields of a firewall rule form (create and edit); `form` keeps ids unique. */
export const RuleFields: FC<{ c: Ctx; form: string; values: RuleValues; errors: FormErrors; edit?: boolean }> = (p) => (
	<>
		<RuleHead c={p.c} form={p.form} values={p.values} errors={p.errors} actions={FIREWALL_ACTIONS} />
		<TextField
			form={p.form}
			name="priority"
			label="Priority"
			type="number"
			value={p.values.priority}
			errors={p.errors}
			hint="Lower runs first; empty: after every rule that has one."
		/>
		{p.edit && <Checkbox form={p.form} name="paused" label="Paused" checked={p.values.paused} />}
	</>
);

/** The body of a firewall rule POST or PUT from its form. */
export function ruleBody(values: RuleValues): Record<string, unknown> {
	const priority = values.priority.trim();
	return {
		filter: { expression: values.expression },
		action: values.action,
		description: values.description.trim(),
		paused: values.paused,
		priority: priority === "" ? null : numberOrText(priority),
	};
}

export const RULE_FIELDS = ["description", "expression", "action", "priority", "paused"] as const;
export const FILTER_FIELDS = ["description", "expression"] as const;
export const CUSTOM_FIELDS = [
	"description",
	"expression",
	"action",
	"enabled",
	"status_code",
	"content_type",
	"content",
];

/** The custom rule body from its form: `action_parameters` only for a block response or a skip. */
export function customBody(values: CustomValues): Record<string, unknown> {
	const statusCode = values.status_code.trim();
	const parameters =
		values.action === "skip"
			? { ruleset: "current" }
			: values.action === "block" && statusCode !== ""
				? {
						response: {
							status_code: numberOrText(statusCode),
							content_type: values.content_type,
							content: values.content,
						},
					}
				: undefined;
	return {
		description: values.description.trim(),
		expression: values.expression,
		action: values.action,
		enabled: values.enabled,
		...(parameters === undefined ? {} : { action_parameters: parameters }),
	};
}

/** A WAF custom rule's form values from the rule as the API answers it. */
export function customValuesOf(rule: EntrypointRule): CustomValues {
	const response = rule.action_parameters?.response as
		| { status_code?: number; content_type?: string; content?: string }
		| undefined;
	return {
		description: rule.description ?? "",
		expression: rule.expression,
		action: rule.action,
		enabled: rule.enabled !== false,
		status_code: response?.status_code === undefined ? "" : String(response.status_code),
		content_type: response?.content_type ?? EMPTY_CUSTOM.content_type,
		content: response?.content ?? "",
	};
}

/** The fields of a WAF custom rule form (create and edit); `form` keeps ids unique. */
export const CustomFields: FC<{ c: Ctx; form: string; values: CustomValues; errors: FormErrors }> = (p) => (
	<>
		<RuleHead c={p.c} form={p.form} values={p.values} errors={p.errors} actions={CUSTOM_ACTIONS} />
		<fieldset>
			<legend>Custom block response (Block only, optional)</legend>
			<TextField
				form={p.form}
				name="status_code"
				label="Response status code"
				type="number"
				value={p.values.status_code}
				errors={p.errors}
				hint="400 to 499; empty: the edge's block page (403)."
			/>
			<SelectField
				form={p.form}
				name="content_type"
				label="Response content type"
				options={CONTENT_TYPES}
				value={p.values.content_type}
				errors={p.errors}
			/>
			<label for={`${p.form}-content`}>Response body</label>
			<textarea id={`${p.form}-content`} name="content" rows={3}>
				{p.values.content}
			</textarea>
			{p.errors.fields.content !== undefined && <p class="error">{p.errors.fields.content.join(" ")}</p>}
		</fieldset>
		<Checkbox form={p.form} name="enabled" label="Enabled" checked={p.values.enabled} />
	</>
);
