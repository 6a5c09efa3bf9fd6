/**
 * The Logpush page's custom fields: the rules of the zone's `http_log_custom_fields` entrypoint
 * read and written through the API, the table of fields, and the "Set new Custom Field" form.
 */
import type { FC } from "hono/jsx";
import { CODES } from "../../zone/failure";
import { type ApiAnswer, callApi, zonePath } from "../api-call";
import { Csrf, ErrorSummary, type FormErrors, FormScope, PostForm, SelectField, TextField } from "../components/form";
import { type CustomField, type EntrypointRule, FIELD_TYPES, SETTABLE_TYPES } from "../log-field-rules";
import type { Ctx } from "../types";

const PHASE_PATH = "/rulesets/phases/http_log_custom_fields/entrypoint";

/** The zone's custom-field rules: [] when the entrypoint does not exist yet. */
export async function readRules(c: Ctx): Promise<ApiAnswer<EntrypointRule[]>> {
	const answer = await callApi<{ rules: EntrypointRule[] }>(
		c,
		c.var.session.credential,
		"GET",
		zonePath(c, PHASE_PATH),
	);
	if (answer.ok) return { ...answer, result: answer.result.rules };
	if (answer.errors.some((e) => e.code === CODES.entrypointNotFound)) return { ok: true, status: 200, result: [] };
	return answer;
}

/** PUTs the entrypoint with `rules`; answers the API's answer. */
export async function putRules(c: Ctx, rules: EntrypointRule[]) {
	return callApi(c, c.var.session.credential, "PUT", zonePath(c, PHASE_PATH), { rules });
}

/** The zone's custom fields; with `csrf` and `action`, each with a Remove button posting there. */
export const FieldsTable: FC<{ fields: CustomField[]; csrf?: string; action?: string }> = ({ fields, csrf, action }) =>
	fields.length === 0 ? (
		<p>No custom fields are set: log entries carry no request headers, response headers or cookies.</p>
	) : (
		<table>
			<thead>
				<tr>
					<th scope="col">Field Type</th>
					<th scope="col">Field Name</th>
					{csrf !== undefined && <th scope="col">Actions</th>}
				</tr>
			</thead>
			<tbody>
				{fields.map((f) => (
					<tr>
						<td>{FIELD_TYPES[f.type]}</td>
						<td>
							<code>{f.name}</code>
						</td>
						{csrf !== undefined && action !== undefined && (
							<td>
								<PostForm action={action} csrf={csrf} label={`Remove ${FIELD_TYPES[f.type]} ${f.name}`}>
									<input type="hidden" name="type" value={f.type} />
									<input type="hidden" name="name" value={f.name} />
									<button type="submit" class="danger" aria-label={`Remove ${FIELD_TYPES[f.type]} ${f.name}`}>
										Remove
									</button>
								</PostForm>
							</td>
						)}
					</tr>
				))}
			</tbody>
		</table>
	);

/** The "Set new Custom Field" form: Field Type and Field Name, with the values and errors of a refused save. */
export const SetFieldForm: FC<{
	action: string;
	cancel: string;
	csrf: string;
	values?: { type: string; name: string };
	errors: FormErrors;
}> = ({ action, cancel, csrf, values, errors }) => (
	<section aria-labelledby="set-field-heading" class="card">
		<h2 id="set-field-heading">Set new Custom Field</h2>
		<ErrorSummary messages={errors.form} />
		<form method="post" action={action}>
			<Csrf token={csrf} />
			<FormScope form="field" errors={errors}>
				<SelectField
					name="type"
					label="Field Type"
					options={SETTABLE_TYPES.map((t) => [t, FIELD_TYPES[t]])}
					value={values?.type}
				/>
				{/* Cloudflare's rule, which the API enforces (zone/phases/log-custom-fields.ts): header names in
				lower case, cookie names as sent (https://developers.cloudflare.com/logs/reference/custom-fields/). */}
				<TextField
					name="name"
					label="Field Name"
					value={values?.name}
					required
					hint="A header name in lower case (e.g. x-request-id), or a cookie name as the client sends it."
				/>
			</FormScope>
			<div class="actions">
				<button type="submit">Save</button>
				<a href={cancel}>Cancel</a>
			</div>
		</form>
	</section>
);
