/**
 * The Logpush page's jobs: the table of the zone's jobs with their actions, the create-job form,
 * and the ownership challenge of a destination; with the form's values and the API body they make.
 */
import type { FC } from "hono/jsx";
import type { LogpushJob } from "../../zone/logpush";
import {
	Checkbox,
	CheckboxGroup,
	Csrf,
	ErrorSummary,
	type FormErrors,
	FormScope,
	type formValues,
	numberOrText,
	PostForm,
	SelectField,
	TextArea,
	TextField,
} from "../components/form";

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
export interface JobValues {
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

export const EMPTY_JOB: JobValues = {
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

/** The create-job form's values as posted. */
export function jobValuesOf(form: Awaited<ReturnType<typeof formValues>>): JobValues {
	return {
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
}

/** Where a job form field's errors show, by the pointer of the API's error. */
export function jobFieldOf(pointer: string): string | undefined {
	const [, top, sub] = pointer.split("/");
	if (top === "output_options" && sub !== undefined) return sub;
	const fields = ["name", "destination_conf", "ownership_challenge", "enabled", "filter", ...LIMITS];
	return top !== undefined && fields.includes(top) ? top : undefined;
}

/** The create-job body from the form: empty fields are left out, so the API's defaults apply. */
export function jobBody(values: JobValues): Record<string, unknown> {
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

/** The zone's jobs, one row each with Enable/Disable and Delete; `base` is the Logpush page's path. */
export const JobsTable: FC<{ jobs: LogpushJob[]; csrf: string; base: string }> = ({ jobs, csrf, base }) =>
	jobs.length === 0 ? (
		<p>No Logpush jobs in this zone.</p>
	) : (
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
				{jobs.map((j) => (
					<JobRow job={j} csrf={csrf} base={base} />
				))}
			</tbody>
		</table>
	);

/**
 * The create-job form: `values` as typed and the API's `errors` by field; `datasetFields` the
 * dataset's field names, or the messages of the API's refusal to list them.
 */
export const CreateJobForm: FC<{
	action: string;
	csrf: string;
	values: JobValues;
	errors: FormErrors;
	datasetFields: { ok: true; names: string[] } | { ok: false; messages: string[] };
}> = ({ action, csrf, values, errors, datasetFields }) => (
	<>
		<h3 id="create-job-heading">Create a Logpush job</h3>
		<ErrorSummary messages={errors.form} />
		<form method="post" action={action} aria-labelledby="create-job-heading">
			<Csrf token={csrf} />
			<FormScope form="job" errors={errors}>
				<TextField
					name="name"
					label="Job name"
					value={values.name}
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
					name="destination_conf"
					label="Destination"
					value={values.destination_conf}
					required
					hint="r2://<bucket>/<zone id>/<path> or s3://<bucket>/<zone id>/<path>?region=<region>: the path starts with this zone's id, unless it carries S3 keys (access-key-id and secret-access-key), which then decide where it writes; {DATE} in the path becomes YYYYMMDD."
				/>
				<TextField
					name="ownership_challenge"
					label="Ownership challenge"
					value={values.ownership_challenge}
					hint="Required for s3:// destinations: request one below, then paste the token from the file."
				/>
				{datasetFields.ok ? (
					<CheckboxGroup
						name="field_names"
						label="Fields"
						options={datasetFields.names.map((f) => [f, f])}
						checked={values.field_names}
						hint="None chosen: the dataset's default fields. Custom fields need RequestHeaders, ResponseHeaders or Cookies."
					/>
				) : (
					<ErrorSummary messages={datasetFields.messages} />
				)}
				<SelectField
					name="timestamp_format"
					label="Timestamp format"
					options={TIMESTAMP_FORMATS}
					value={values.timestamp_format}
				/>
				<SelectField name="output_type" label="Output type" options={OUTPUT_TYPES} value={values.output_type} />
				<TextField
					name="sample_rate"
					label="Sample rate"
					value={values.sample_rate}
					hint="The fraction of requests logged, above 0 and at most 1; empty for 1."
				/>
				<TextField
					name="max_upload_records"
					label="Max records per batch"
					value={values.max_upload_records}
					hint="1,000 to 1,000,000; empty for Cloudflare's default (100,000)."
				/>
				<TextField
					name="max_upload_bytes"
					label="Max bytes per batch"
					value={values.max_upload_bytes}
					hint="Uncompressed, 5,000,000 to 1,000,000,000; empty for no limit."
				/>
				<TextField
					name="max_upload_interval_seconds"
					label="Max seconds per batch"
					value={values.max_upload_interval_seconds}
					hint="30 to 300; empty for Cloudflare's default (30). Locally LOGPUSH_MIN_INTERVAL_SECONDS caps it."
				/>
				<TextArea
					name="filter"
					label="Filter"
					value={values.filter}
					rows={3}
					hint='JSON, as the API takes it: {"where":{"key":"ClientRequestPath","operator":"startsWith","value":"/api"}}; empty to log every request.'
				/>
				<Checkbox name="enabled" label="Enabled" checked={values.enabled} />
			</FormScope>
			<div class="actions">
				<button type="submit">Create job</button>
			</div>
		</form>
	</>
);

/** A destination's ownership challenge as requested: the destination, errors, and the file written. */
export interface OwnershipState {
	destination: string;
	errors: FormErrors;
	filename?: string;
}

/** The "Prove ownership of a destination" form, with the file the last request wrote. */
export const OwnershipForm: FC<{ action: string; csrf: string; ownership?: OwnershipState }> = ({
	action,
	csrf,
	ownership,
}) => (
	<>
		<h3 id="ownership-heading">Prove ownership of a destination</h3>
		<p>Prove that a destination is yours: the token is written to a file in it, and a job for it takes that token.</p>
		<ErrorSummary messages={ownership?.errors.form ?? []} />
		{ownership?.filename !== undefined && (
			<p class="notice" role="status">
				Challenge written to <code>{ownership.filename}</code> in the destination. Paste its content into "Ownership
				challenge" above.
			</p>
		)}
		<form method="post" action={action} aria-labelledby="ownership-heading">
			<Csrf token={csrf} />
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
	</>
);
