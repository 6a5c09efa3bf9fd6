/**
 * The Logpush page of a zone (Analytics & Logs > Logpush), following the dashboard flow of
 * https://developers.cloudflare.com/logs/reference/custom-fields/: Custom Fields section > Edit
 * Custom Fields > Set new Custom Field (Field Type: Request Header, Response Header or Cookies;
 * Field Name; Save). Also the zone's log-push jobs: their status
 * (enabled, last delivery, last error), create (destination, fields picked from the dataset's
 * fields, output options, batch limits, filter), enable or disable, delete, and the ownership
 * challenge of a destination.
 *
 * Every read and write is the API v4's (`api-call.ts`): the custom fields are the rules of the
 * `http_log_custom_fields` entrypoint (GET, and PUT with one field more or less); jobs are
 * `/logpush/jobs`; recent entries come from Logpull (`recent-log.ts`) while the zone's log
 * retention is on, which the section can turn on. Refusals show the API's message next to the
 * field its `source.pointer` names.
 *
 * The page's parts live in `logpush/`: `field-editor.tsx` (the entrypoint's rules, the fields
 * table and form), `jobs.tsx` (jobs table, create-job and ownership forms, the job's API body)
 * and `recent-entries.tsx`.
 */
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { LogpushJob } from "../../zone/logpush";
import { callApi, messagesOf, statusOf, zonePath } from "../api-call";
import { ErrorSummary, type FormErrors, formValues, NO_ERRORS, Notice, sortErrors } from "../components/form";
import { Layout } from "../layout";
import {
	FIELD_TYPES,
	type FieldType,
	fieldsOf,
	isAbout,
	SETTABLE_TYPES,
	withField,
	withoutField,
} from "../log-field-rules";
import { FieldsTable, putRules, readRules, SetFieldForm } from "../logpush/field-editor";
import {
	CreateJobForm,
	EMPTY_JOB,
	JobsTable,
	type JobValues,
	jobBody,
	jobFieldOf,
	jobValuesOf,
	OwnershipForm,
	type OwnershipState,
} from "../logpush/jobs";
import { RECENT_FIELDS, RecentEntries } from "../logpush/recent-entries";
import { readRecentLog } from "../recent-log";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

/** What a redirect after a successful POST says (`?done=`): fixed texts, nothing from the URL is shown. */
const DONE: Record<string, string> = {
	"field-saved": "Custom field saved.",
	"field-removed": "Custom field removed.",
	"job-created": "Logpush job created.",
	"job-enabled": "Logpush job enabled.",
	"job-disabled": "Logpush job disabled.",
	"job-deleted": "Logpush job deleted.",
	"retention-on": "Log retention turned on: requests from now on are kept, and show under Recent entries.",
};

/** What the page shows besides the zone's state: a notice, and forms refused with their errors. */
interface PageState {
	notice?: string;
	job?: { values: JobValues; errors: FormErrors };
	ownership?: OwnershipState;
	/** Errors of a job row's action (enable, disable, delete). */
	jobErrors?: string[];
}

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/logpush${rest}`;

/** The Edit Custom Fields page: the fields with Remove, and the "Set new Custom Field" form. */
async function editFieldsPage(
	c: Ctx,
	state: { notice?: string; values?: { type: string; name: string }; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	const rules = await readRules(c);
	return render(
		c,
		<Layout title="Edit Custom Fields" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "logpush" }}>
			<p class="crumbs">
				Analytics &amp; Logs › <a href={pagePath(c)}>Logpush</a> › Custom Fields
			</p>
			<h1>Edit Custom Fields</h1>
			<Notice text={state.notice} />
			<p>
				Request headers, response headers and cookies named here are added to the entries of every job of this zone
				whose fields include <code>RequestHeaders</code>, <code>ResponseHeaders</code> or <code>Cookies</code>. At most
				40 names in all.
			</p>
			{rules.ok ? (
				<FieldsTable fields={fieldsOf(rules.result)} csrf={c.var.csrf} action={pagePath(c, "/custom-fields/remove")} />
			) : (
				<ErrorSummary messages={messagesOf(rules.errors)} />
			)}
			<details open={state.errors !== undefined}>
				<summary>Set new Custom Field</summary>
				<SetFieldForm
					action={pagePath(c, "/custom-fields")}
					cancel={pagePath(c)}
					csrf={c.var.csrf}
					values={state.values}
					errors={state.errors ?? NO_ERRORS}
				/>
			</details>
		</Layout>,
		status,
	);
}

/** The Logpush page: custom fields, jobs, the create-job and ownership forms, recent entries. */
async function logpushPage(c: Ctx, state: PageState = {}, status: ContentfulStatusCode = 200) {
	const credential = c.var.session.credential;
	const [rules, jobs, datasetFields, recent] = await Promise.all([
		readRules(c),
		callApi<LogpushJob[]>(c, credential, "GET", zonePath(c, "/logpush/jobs")),
		callApi<Record<string, string>>(c, credential, "GET", zonePath(c, "/logpush/datasets/http_requests/fields")),
		readRecentLog(c, RECENT_FIELDS, 1000),
	]);
	const job = state.job ?? { values: EMPTY_JOB, errors: NO_ERRORS };
	const base = pagePath(c);
	return render(
		c,
		<Layout title="Logpush" csrf={c.var.csrf} zone={{ ...c.var.zone, page: "logpush" }}>
			<p class="crumbs">Analytics &amp; Logs › Logpush</p>
			<h1>Logpush</h1>
			<Notice text={state.notice} />

			<section class="card" aria-labelledby="custom-fields-heading">
				<h2 id="custom-fields-heading">Custom Fields</h2>
				{rules.ok ? (
					<FieldsTable fields={fieldsOf(rules.result)} />
				) : (
					<ErrorSummary messages={messagesOf(rules.errors)} />
				)}
				<p>
					<a href={pagePath(c, "/custom-fields")}>Edit Custom Fields</a>
				</p>
			</section>

			<section class="card" aria-labelledby="jobs-heading">
				<h2 id="jobs-heading">Logpush jobs</h2>
				<ErrorSummary messages={state.jobErrors ?? []} />
				{jobs.ok ? (
					<JobsTable jobs={jobs.result} csrf={c.var.csrf} base={base} />
				) : (
					<ErrorSummary messages={messagesOf(jobs.errors)} />
				)}
				<CreateJobForm
					action={`${base}/jobs`}
					csrf={c.var.csrf}
					values={job.values}
					errors={job.errors}
					datasetFields={
						datasetFields.ok
							? { ok: true, names: Object.keys(datasetFields.result) }
							: { ok: false, messages: messagesOf(datasetFields.errors) }
					}
				/>
				<OwnershipForm action={`${base}/ownership`} csrf={c.var.csrf} ownership={state.ownership} />
			</section>

			<RecentEntries log={recent} csrf={c.var.csrf} retentionAction={pagePath(c, "/retention")} />
		</Layout>,
		status,
	);
}

/** Routes under `/zones/{zone_id}/logpush`. */
export const logpush = new Hono<DashEnv>()
	.get("/", (c) => logpushPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.get("/custom-fields", (c) => editFieldsPage(c, { notice: DONE[c.req.query("done") ?? ""] }))
	.post("/custom-fields", async (c) => {
		const form = await formValues(c);
		const values = { type: form.one("type"), name: form.one("name") };
		const type = SETTABLE_TYPES.find((t) => t === values.type);
		if (type === undefined) {
			return editFieldsPage(c, { values, errors: { fields: { type: ["Choose a Field Type."] }, form: [] } }, 400);
		}
		const rules = await readRules(c);
		if (!rules.ok)
			return editFieldsPage(c, { values, errors: { fields: {}, form: messagesOf(rules.errors) } }, statusOf(rules));
		const change = withField(rules.result, { type, name: values.name });
		const answer = await putRules(c, change.rules);
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, (pointer) => (isAbout(pointer, change.pointer) ? "name" : undefined));
			return editFieldsPage(c, { values, errors }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "/custom-fields?done=field-saved"), 303);
	})
	.post("/custom-fields/remove", async (c) => {
		const form = await formValues(c);
		const type = Object.keys(FIELD_TYPES).find((t): t is FieldType => t === form.one("type"));
		const rules = await readRules(c);
		if (type === undefined || !rules.ok) {
			const messages = rules.ok ? ["Unknown Field Type."] : messagesOf(rules.errors);
			return editFieldsPage(c, { errors: { fields: {}, form: messages } }, 400);
		}
		const answer = await putRules(c, withoutField(rules.result, { type, name: form.one("name") }).rules);
		if (!answer.ok)
			return editFieldsPage(c, { errors: { fields: {}, form: messagesOf(answer.errors) } }, statusOf(answer));
		return c.redirect(pagePath(c, "/custom-fields?done=field-removed"), 303);
	})
	.post("/jobs", async (c) => {
		const form = await formValues(c);
		const values = jobValuesOf(form);
		const answer = await callApi(c, c.var.session.credential, "POST", zonePath(c, "/logpush/jobs"), jobBody(values));
		if (!answer.ok) {
			return logpushPage(c, { job: { values, errors: sortErrors(answer.errors, jobFieldOf) } }, statusOf(answer));
		}
		return c.redirect(pagePath(c, "?done=job-created"), 303);
	})
	.post("/jobs/:job_id/enabled", async (c) => {
		const enabled = (await formValues(c)).one("enabled") === "true";
		const path = zonePath(c, `/logpush/jobs/${encodeURIComponent(c.req.param("job_id"))}`);
		const answer = await callApi(c, c.var.session.credential, "PUT", path, { enabled });
		if (!answer.ok) return logpushPage(c, { jobErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, `?done=${enabled ? "job-enabled" : "job-disabled"}`), 303);
	})
	.post("/jobs/:job_id/delete", async (c) => {
		const path = zonePath(c, `/logpush/jobs/${encodeURIComponent(c.req.param("job_id"))}`);
		const answer = await callApi(c, c.var.session.credential, "DELETE", path);
		if (!answer.ok) return logpushPage(c, { jobErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=job-deleted"), 303);
	})
	.post("/retention", async (c) => {
		const path = zonePath(c, "/logs/control/retention/flag");
		const answer = await callApi(c, c.var.session.credential, "POST", path, { flag: true });
		if (!answer.ok) return logpushPage(c, { jobErrors: messagesOf(answer.errors) }, statusOf(answer));
		return c.redirect(pagePath(c, "?done=retention-on#recent-heading"), 303);
	})
	.post("/ownership", async (c) => {
		const destination = (await formValues(c)).one("destination_conf").trim();
		const answer = await callApi<{ filename: string; valid: boolean; message: string }>(
			c,
			c.var.session.credential,
			"POST",
			zonePath(c, "/logpush/ownership"),
			{ destination_conf: destination },
		);
		const job = { values: { ...EMPTY_JOB, destination_conf: destination }, errors: NO_ERRORS };
		if (!answer.ok) {
			const errors = sortErrors(answer.errors, (p) => (p === "/destination_conf" ? "destination_conf" : undefined));
			return logpushPage(c, { job, ownership: { destination, errors } }, statusOf(answer));
		}
		// The API answers 200 with valid: false and a message for a destination it cannot write to.
		if (!answer.result.valid) {
			const errors = { fields: { destination_conf: [answer.result.message] }, form: [] };
			return logpushPage(c, { job, ownership: { destination, errors } }, 400);
		}
		return logpushPage(c, { job, ownership: { destination, errors: NO_ERRORS, filename: answer.result.filename } });
	});
