/**
 * The Logpush page of a zone (Analytics & Logs > Logpush), following spec area A's dashboard flow:
 * Custom Fields section > Edit Custom Fields > Set new Custom Field (Field Type: Request Header,
 * Response Header or Cookies; Field Name; Save). Also the zone's log-push jobs: their status
 * (enabled, last delivery, last error), create (destination, fields picked from the dataset's
 * fields, output options, batch limits, filter), enable or disable, delete, and the ownership
 * challenge of a destination.
 *
 * Every read and write is the API v4's (`api-call.ts`): the custom fields are the rules of the
 * `http_log_custom_fields` entrypoint (GET, and PUT with one field more or less); jobs are
 * `/logpush/jobs`; recent entries come from Logpull (`recent-log.ts`) while the zone's log
 * retention is on, which the section can turn on. Refusals show the API's message next to the
 * field its `source.pointer` names.
 */
import { Hono } from "hono";
import type { FC } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { CODES } from "../../zone/failure";
import type { LogpushJob } from "../../zone/logpush";
import { type ApiAnswer, callApi, messagesOf, statusOf, zonePath } from "../api-call";
import {
	Checkbox,
	CheckboxGroup,
	Csrf,
	ErrorSummary,
	type FormErrors,
	formValues,
	NO_ERRORS,
	Notice,
	numberOrText,
	PostForm,
	SelectField,
	sortErrors,
	TextArea,
	TextField,
} from "../components/form";
import { Listing } from "../components/listing";
import {
	type CustomField,
	type EntrypointRule,
	FIELD_TYPES,
	type FieldType,
	fieldsOf,
	isAbout,
	SETTABLE_TYPES,
	withField,
	withoutField,
} from "../custom-fields";
import { Layout } from "../layout";
import { type RecentLog, readRecentLog } from "../recent-log";
import { render } from "../render";
import type { Ctx, DashEnv } from "../types";

const PHASE_PATH = "/rulesets/phases/http_log_custom_fields/entrypoint";

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

/** What Recent entries shows of each request: who, what, the answer, and the custom fields. */
const RECENT_FIELDS = [
	"EdgeStartTimestamp",
	"ClientRequestMethod",
	"ClientRequestPath",
	"EdgeResponseStatus",
	"RayID",
	"RequestHeaders",
	"ResponseHeaders",
	"Cookies",
] as const;
/** Entries Recent entries shows, newest first. */
const RECENT_SHOWN = 20;

const TIMESTAMP_FORMATS: [string, string][] = [
	["unixnano", "unixnano (default)"],
	["unix", "unix"],
	["rfc3339", "rfc3339"],
	["rfc3339ms", "rfc3339ms"],
	["rfc3339ns", "rfc3339ns"],
];
const OUTPUT_TYPES: [string, string][] = [
	["ndjson", "ndjson (default)"],
	["csv", "csv"],
];

/** The create-job form as typed. */
interface JobValues {
	name: string;
	destination_conf: string;
	field_names: string[];
	timestamp_format: string;
	output_type: string;
	sample_rate: string;
	max_upload_records: string;
	max_upload_bytes: string;
	max_upload_interval_seconds: string;
	filter: string;
	enabled: boolean;
	ownership_challenge: string;
}

/** The job's batch limits, as the form names them. */
const LIMITS = ["max_upload_records", "max_upload_bytes", "max_upload_interval_seconds"] as const;

const EMPTY_JOB: JobValues = {
	name: "",
	destination_conf: "",
	field_names: [],
	timestamp_format: "unixnano",
	output_type: "ndjson",
	sample_rate: "",
	max_upload_records: "",
	max_upload_bytes: "",
	max_upload_interval_seconds: "",
	filter: "",
	enabled: true,
	ownership_challenge: "",
};

/** What the page shows besides the zone's state: a notice, and forms refused with their errors. */
interface PageState {
	notice?: string;
	job?: { values: JobValues; errors: FormErrors };
	ownership?: { destination: string; errors: FormErrors; filename?: string };
	/** Errors of a job row's action (enable, disable, delete). */
	jobErrors?: string[];
}

/** The zone's custom-field rules: [] when the entrypoint does not exist yet. */
async function readRules(c: Ctx): Promise<ApiAnswer<EntrypointRule[]>> {
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

const pagePath = (c: Ctx, rest = "") => `/zones/${c.var.zone.id}/logpush${rest}`;

// ---- Custom Fields ----------------------------------------------------------------------------

const FieldsTable: FC<{ fields: CustomField[]; csrf?: string; action?: string }> = ({ fields, csrf, action }) =>
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

/** The Edit Custom Fields page: the fields with Remove, and the "Set new Custom Field" form. */
async function editFieldsPage(
	c: Ctx,
	state: { notice?: string; values?: { type: string; name: string }; errors?: FormErrors } = {},
	status: ContentfulStatusCode = 200,
) {
	const rules = await readRules(c);
	const errors = state.errors ?? NO_ERRORS;
	const open = state.errors !== undefined;
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
			<details open={open}>
				<summary>Set new Custom Field</summary>
				<section aria-labelledby="set-field-heading" class="card">
					<h2 id="set-field-heading">Set new Custom Field</h2>
					<ErrorSummary messages={errors.form} />
					<form method="post" action={pagePath(c, "/custom-fields")}>
						<Csrf token={c.var.csrf} />
						<SelectField
							form="field"
							name="type"
							label="Field Type"
							options={SETTABLE_TYPES.map((t) => [t, FIELD_TYPES[t]])}
							value={state.values?.type}
							errors={errors}
						/>
						<TextField
							form="field"
							name="name"
							label="Field Name"
							value={state.values?.name}
							errors={errors}
							required
							hint="A header name in lower case (e.g. x-request-id), or a cookie name as the client sends it."
						/>
						<div class="actions">
							<button type="submit">Save</button>
							<a href={pagePath(c)}>Cancel</a>
						</div>
					</form>
				</section>
			</details>
		</Layout>,
		status,
	);
}

/** PUTs the entrypoint with `change`; answers the API's answer. */
async function putRules(c: Ctx, rules: EntrypointRule[]) {
	return callApi(c, c.var.session.credential, "PUT", zonePath(c, PHASE_PATH), { rules });
}

// ---- Jobs -------------------------------------------------------------------------------------

/** Where a job form field's errors show, by the pointer of the API's error. */
function jobFieldOf(pointer: string): string | undefined {
	const [, top, sub] = pointer.split("/");
	if (top === "output_options" && sub !== undefined) return sub;
	const fields = ["name", "destination_conf", "ownership_challenge", "enabled", "filter", ...LIMITS];
	return top !== undefined && fields.includes(top) ? top : undefined;
}

/** The create-job body from the form: empty fields are left out, so the API's defaults apply. */
function jobBody(values: JobValues): Record<string, unknown> {
	const sampleRate = values.sample_rate.trim();
	const output_options: Record<string, unknown> = {
		timestamp_format: values.timestamp_format,
		output_type: values.output_type,
		...(values.field_names.length > 0 ? { field_names: values.field_names } : {}),
		...(sampleRate === "" ? {} : { sample_rate: numberOrText(sampleRate) }),
	};
	// Empty limits and filter are left out: Cloudflare's defaults (30 s, 100,000 records, no filter).
	const limits = LIMITS.flatMap((name) => {
		const typed = values[name].trim();
		return typed === "" ? [] : [[name, numberOrText(typed)] as const];
	});
	const filter = values.filter.trim();
	return {
		dataset: "http_requests",
		destination_conf: values.destination_conf.trim(),
		enabled: values.enabled,
		...Object.fromEntries(limits),
		...(filter === "" ? {} : { filter }),
		...(values.name.trim() === "" ? {} : { name: values.name.trim() }),
		...(values.ownership_challenge.trim() === "" ? {} : { ownership_challenge: values.ownership_challenge.trim() }),
		output_options,
	};
}

const JobRow: FC<{ job: LogpushJob; csrf: string; base: string }> = ({ job, csrf, base }) => {
	const label = job.name ?? `job ${job.id}`;
	return (
		<tr>
			<td>{label}</td>
			<td>
				<code>{job.destination_conf}</code>
			</td>
			<td>{job.output_options.field_names.join(", ")}</td>
			<td>{job.enabled ? "Enabled" : "Disabled"}</td>
			<td>{job.last_complete ?? "never"}</td>
			<td>
				{job.last_error === null ? "none" : job.last_error}
				{job.error_message !== null && <p class="error">{job.error_message}</p>}
			</td>
			<td>
				<div class="row-actions">
					<PostForm action={`${base}/jobs/${job.id}/enabled`} csrf={csrf}>
						<input type="hidden" name="enabled" value={job.enabled ? "false" : "true"} />
						<button type="submit" class="secondary" aria-label={`${job.enabled ? "Disable" : "Enable"} ${label}`}>
							{job.enabled ? "Disable" : "Enable"}
						</button>
					</PostForm>
					<PostForm action={`${base}/jobs/${job.id}/delete`} csrf={csrf} confirm={`Delete the Logpush job ${label}?`}>
						<button type="submit" class="danger" aria-label={`Delete ${label}`}>
							Delete
						</button>
					</PostForm>
				</div>
			</td>
		</tr>
	);
};

/** A custom-field object of an entry (`RequestHeaders`, ...) as `name: value` lines; "" when empty. */
function customFieldText(value: unknown): string {
	if (typeof value !== "object" || value === null) return "";
	return Object.entries(value)
		.map(([name, v]) => `${name}: ${String(v)}`)
		.join("\n");
}

/**
 * The zone's last requests, newest first, with the custom fields they carried, read through
 * Logpull (`recent-log.ts`); with log retention off, why there are none and a button to turn it on.
 */
const RecentEntries: FC<{ c: Ctx; log: RecentLog }> = ({ c, log }) => (
	<section class="card" aria-labelledby="recent-heading">
		<h2 id="recent-heading">Recent entries</h2>
		{"errors" in log && <ErrorSummary messages={log.errors} />}
		{"retention" in log && !log.retention && (
			<>
				<p>
					Log retention is off: this zone keeps its requests only until a job delivers them. Turn it on to see the last
					hour's entries here (Logpull retention).
				</p>
				<PostForm action={pagePath(c, "/retention")} csrf={c.var.csrf}>
					<button type="submit">Turn on log retention</button>
				</PostForm>
			</>
		)}
		{"records" in log && log.records.length === 0 && <p>No request in the last hour.</p>}
		{"records" in log && log.records.length > 0 && (
			<Listing
				caption={`The newest ${Math.min(RECENT_SHOWN, log.records.length)} of the last hour, newest first`}
				columns={["Time", "Request", "Status", "Ray ID", "Request headers", "Response headers", "Cookies"]}
			>
				{log.records
					.slice(-RECENT_SHOWN)
					.reverse()
					.map((r) => (
						<tr>
							<td>{String(r.EdgeStartTimestamp ?? "")}</td>
							<td>
								{String(r.ClientRequestMethod ?? "")} <code>{String(r.ClientRequestPath ?? "")}</code>
							</td>
							<td>{String(r.EdgeResponseStatus ?? "")}</td>
							<td>
								<code>{String(r.RayID ?? "")}</code>
							</td>
							<td class="pre">{customFieldText(r.RequestHeaders)}</td>
							<td class="pre">{customFieldText(r.ResponseHeaders)}</td>
							<td class="pre">{customFieldText(r.Cookies)}</td>
						</tr>
					))}
			</Listing>
		)}
	</section>
);

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
	const ownership = state.ownership;
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
				{!jobs.ok && <ErrorSummary messages={messagesOf(jobs.errors)} />}
				{jobs.ok && jobs.result.length === 0 && <p>No Logpush jobs in this zone.</p>}
				{jobs.ok && jobs.result.length > 0 && (
					<table>
						<thead>
							<tr>
								<th scope="col">Name</th>
								<th scope="col">Destination</th>
								<th scope="col">Fields</th>
								<th scope="col">Status</th>
								<th scope="col">Last delivery</th>
								<th scope="col">Last error</th>
								<th scope="col">Actions</th>
							</tr>
						</thead>
						<tbody>
							{jobs.result.map((j) => (
								<JobRow job={j} csrf={c.var.csrf} base={base} />
							))}
						</tbody>
					</table>
				)}

				<h3 id="create-job-heading">Create a Logpush job</h3>
				<ErrorSummary messages={job.errors.form} />
				<form method="post" action={`${base}/jobs`} aria-labelledby="create-job-heading">
					<Csrf token={c.var.csrf} />
					<TextField
						form="job"
						name="name"
						label="Job name"
						value={job.values.name}
						errors={job.errors}
						hint="Letters, digits, hyphens and dots; optional."
					/>
					<SelectField
						form="job"
						name="dataset"
						label="Dataset"
						options={[["http_requests", "HTTP requests"]]}
						value="http_requests"
					/>
					<TextField
						form="job"
						name="destination_conf"
						label="Destination"
						value={job.values.destination_conf}
						errors={job.errors}
						required
						hint="r2://<bucket>/<zone id>/<path> or s3://<bucket>/<zone id>/<path>?region=<region>: the path starts with this zone's id; {DATE} in the path becomes YYYYMMDD."
					/>
					<TextField
						form="job"
						name="ownership_challenge"
						label="Ownership challenge"
						value={job.values.ownership_challenge}
						errors={job.errors}
						hint="Required for s3:// destinations: request one below, then paste the token from the file."
					/>
					{datasetFields.ok ? (
						<CheckboxGroup
							form="job"
							name="field_names"
							label="Fields"
							options={Object.keys(datasetFields.result).map((f) => [f, f])}
							checked={job.values.field_names}
							errors={job.errors}
							hint="None chosen: the dataset's default fields. Custom fields need RequestHeaders, ResponseHeaders or Cookies."
						/>
					) : (
						<ErrorSummary messages={messagesOf(datasetFields.errors)} />
					)}
					<SelectField
						form="job"
						name="timestamp_format"
						label="Timestamp format"
						options={TIMESTAMP_FORMATS}
						value={job.values.timestamp_format}
						errors={job.errors}
					/>
					<SelectField
						form="job"
						name="output_type"
						label="Output type"
						options={OUTPUT_TYPES}
						value={job.values.output_type}
						errors={job.errors}
					/>
					<TextField
						form="job"
						name="sample_rate"
						label="Sample rate"
						value={job.values.sample_rate}
						errors={job.errors}
						hint="The fraction of requests logged, above 0 and at most 1; empty for 1."
					/>
					<TextField
						form="job"
						name="max_upload_records"
						label="Max records per batch"
						value={job.values.max_upload_records}
						errors={job.errors}
						hint="1,000 to 1,000,000; empty for Cloudflare's default (100,000)."
					/>
					<TextField
						form="job"
						name="max_upload_bytes"
						label="Max bytes per batch"
						value={job.values.max_upload_bytes}
						errors={job.errors}
						hint="Uncompressed, 5,000,000 to 1,000,000,000; empty for no limit."
					/>
					<TextField
						form="job"
						name="max_upload_interval_seconds"
						label="Max seconds per batch"
						value={job.values.max_upload_interval_seconds}
						errors={job.errors}
						hint="30 to 300; empty for Cloudflare's default (30). Locally LOGPUSH_MIN_INTERVAL_SECONDS caps it."
					/>
					<TextArea
						form="job"
						name="filter"
						label="Filter"
						value={job.values.filter}
						errors={job.errors}
						rows={3}
						hint='JSON, as the API takes it: {"where":{"key":"ClientRequestPath","operator":"startsWith","value":"/api"}}; empty to log every request.'
					/>
					<Checkbox form="job" name="enabled" label="Enabled" checked={job.values.enabled} />
					<div class="actions">
						<button type="submit">Create job</button>
					</div>
				</form>

				<h3 id="ownership-heading">Prove ownership of a destination</h3>
				<p>
					Prove that a destination is yours: the token is written to a file in it, and a job for it takes that token.
				</p>
				<ErrorSummary messages={ownership?.errors.form ?? []} />
				{ownership?.filename !== undefined && (
					<p class="notice" role="status">
						Challenge written to <code>{ownership.filename}</code> in the destination. Paste its content into "Ownership
						challenge" above.
					</p>
				)}
				<form method="post" action={`${base}/ownership`} aria-labelledby="ownership-heading">
					<Csrf token={c.var.csrf} />
					<TextField
						form="ownership"
						name="destination_conf"
						label="Destination to prove"
						value={ownership?.destination}
						errors={ownership?.errors}
						required
					/>
					<div class="actions">
						<button type="submit" class="secondary">
							Request ownership challenge
						</button>
					</div>
				</form>
			</section>

			<RecentEntries c={c} log={recent} />
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
		const values: JobValues = {
			name: form.one("name"),
			destination_conf: form.one("destination_conf"),
			field_names: form.all("field_names"),
			timestamp_format: form.one("timestamp_format"),
			output_type: form.one("output_type"),
			sample_rate: form.one("sample_rate"),
			max_upload_records: form.one("max_upload_records"),
			max_upload_bytes: form.one("max_upload_bytes"),
			max_upload_interval_seconds: form.one("max_upload_interval_seconds"),
			filter: form.one("filter"),
			enabled: form.one("enabled") === "true",
			ownership_challenge: form.one("ownership_challenge"),
		};
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
