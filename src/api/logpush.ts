/**
 * `/zones/{zone_id}/logpush`: log-push jobs, destination ownership challenges and the
 * fields of the `http_requests` dataset (developers.cloudflare.com/logs/logpush/logpush-job/
 * api-configuration/; SDK `client.logpush.*`).
 *
 * Emulates: job create / list / get / replace (PUT) / delete with the job object of the
 * SDK's `LogpushJob`; `destination_conf` parsed against the bound buckets
 * (`src/zone/destinations.ts`, an unknown bucket is a 400) and written where it may
 * (`destinationRefusal`): the S3 keys a destination carries decide, checked as an S3 client's
 * (the key exists, the secret matches, it may write the path: anywhere in the bucket for a token
 * of the whole account, under its zones' ids for one of listed zones), refused with Cloudflare's
 * "error validating destination" message; a destination without keys is confined to the zone's
 * own prefix, `<zone_id>/` (edgezone's rule: the buckets are shared). Refused, a job is a 400 at
 * `/destination_conf`, a challenge `valid: false` with no file written, a validation
 * `valid: false`; `output_options` shape-checked
 * here, `field_names` checked against the dataset, and the documented defaults of a job and
 * its output filled in by `newJobSettings` (`zone/logpush.ts`) and `withOutputDefaults` (`logs/output-options.ts`); ownership
 * challenge and validation answering 200 with `valid: false` for a bad destination,
 * as the real API does (developers.cloudflare.com/logs/logpush/examples/example-logpush-curl/;
 * terraform-provider-cloudflare#726).
 * `filter` is checked by `logs/filter.ts` and `record_template` by `logs/format.ts` (a 400 1002
 * at their pointer); `filter: null` or `""` removes a job's filter.
 * Gaps: only the dataset `http_requests`; `logpull_options` and Instant Logs
 * (`kind: edge`) are refused with a 400 saying so. Delivery: `zone/delivery.ts`.
 * Size limits (a longer value is a 400 1002 at its pointer): `destination_conf` 4096 and
 * `ownership_challenge` 4096 characters, `name` 512 (maxLength in Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas,
 * SDK docs "maxLength4096"); not documented, so edgezone's: each `output_options` framing
 * string (`batch_*`, `record_prefix` / `_suffix` / `_delimiter`, `field_delimiter`) 1024
 * characters, `record_template` 16384 (a template naming every field of the dataset is about
 * 8 KB), `field_names` at most the dataset's field count (more must repeat one).
 */

import type { FieldGetResponse } from "cloudflare/resources/logpush/datasets/fields";
import type { JobDeleteResponse, LogpushJob as SdkLogpushJob } from "cloudflare/resources/logpush/jobs";
import type { OwnershipCreateResponse, OwnershipValidation } from "cloudflare/resources/logpush/ownership";
import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import { HTTP_REQUESTS_FIELDS } from "../logs/datasets/http-requests";
import { parseFilter } from "../logs/filter";
import { parseTemplate } from "../logs/format";
import { withOutputDefaults } from "../logs/output-options";
import {
	bucketMap,
	type Destination,
	destinationRefusal,
	type ParsedDestination,
	parseDestination,
} from "../zone/destinations";
import { CODES } from "../zone/failure";
import { JOB_DEFAULTS, type JobSettings, newJobSettings } from "../zone/logpush";
import { ok } from "./envelope";
import { ApiError, unwrap } from "./errors";
import { readsLogpush, writes } from "./permissions";
import type { ApiEnv } from "./types";
import { INT_ID, parseBody, parseParam } from "./validate";

/** 0 (the default) or a number in [min, max]: the `max_upload_*` ranges of Cloudflare's OpenAPI schema, github.com/cloudflare/api-schemas. */
const zeroOr = (min: number, max: number) =>
	z
		.number()
		.int()
		.nullable()
		.refine((n) => n === null || n === 0 || (n >= min && n <= max), `must be 0 or between ${min} and ${max}`)
		.transform((n) => n ?? 0);

const FRAMING_MAX = 1024;
const TEMPLATE_MAX = 16_384;
// Worst case job row: 4096 + 512 + 6 * 1024 + 16384 characters of strings plus about 5 K of
// field names, each character at most 6 bytes of JSON (`\u0000`): under 200 KB, far from the
// 2 MB a row of Durable Object SQLite may hold.

const FIELD_NAMES = z
	.array(z.string())
	.min(1)
	// `abort`: an oversized list is refused before each name gets an issue of its own.
	.max(Object.keys(HTTP_REQUESTS_FIELDS).length, { abort: true })
	.superRefine((names, ctx) => {
		names.forEach((name, i) => {
			if (!Object.hasOwn(HTTP_REQUESTS_FIELDS, name))
				ctx.addIssue({ code: "custom", path: [i], message: `"${name}" is not a field of the dataset http_requests` });
			if (names.indexOf(name) !== i) ctx.addIssue({ code: "custom", path: [i], message: `duplicate field "${name}"` });
		});
	});

// Shapes only: `withOutputDefaults` (`logs/output-options.ts`) fills in what is missing or null.
const OUTPUT_OPTIONS = z
	.strictObject({
		field_names: FIELD_NAMES.optional(),
		output_type: z.enum(["ndjson", "csv"]).optional(),
		timestamp_format: z.enum(["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"]).optional(),
		sample_rate: z.number().gt(0).lte(1).nullable().optional(),
		batch_prefix: z.string().max(FRAMING_MAX).nullable().optional(),
		batch_suffix: z.string().max(FRAMING_MAX).nullable().optional(),
		record_prefix: z.string().max(FRAMING_MAX).nullable().optional(),
		record_suffix: z.string().max(FRAMING_MAX).nullable().optional(),
		record_delimiter: z.string().max(FRAMING_MAX).nullable().optional(),
		field_delimiter: z.string().max(FRAMING_MAX).nullable().optional(),
		record_template: z
			.string()
			.max(TEMPLATE_MAX)
			.superRefine((template, ctx) => {
				const parsed = parseTemplate(template);
				if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
			})
			.nullable()
			.optional(),
		"CVE-2021-44228": z.boolean().nullable().optional(),
		merge_subrequests: z.boolean().nullable().optional(),
	})
	.transform(withOutputDefaults);

/**
 * A challenge token as Cloudflare's OpenAPI schema spells `logpush_ownership_challenge`
 * (github.com/cloudflare/api-schemas): at most 4096 characters of `^[a-zA-Z0-9/\+\.\-_]*$`.
 * Both the job and the validation endpoint check it; anything else is a 400 1002 at the field.
 */
const OWNERSHIP_CHALLENGE = z
	.string()
	.max(4096)
	.regex(/^[a-zA-Z0-9/+.\-_]*$/, "must match ^[a-zA-Z0-9/\\+\\.\\-_]*$: letters, digits, /, +, ., - and _");

const refused = (message: string) =>
	z
		.unknown()
		.refine((v) => v === undefined, message)
		.optional();

// Every settable field, optional: create applies defaults, PUT changes only what it names.
const JOB_FIELDS = z.strictObject({
	destination_conf: z.string().min(1).max(4096).optional(),
	dataset: z.literal("http_requests", { error: "edgezone serves the dataset http_requests only" }).optional(),
	enabled: z.boolean().optional(),
	name: z
		.string()
		.max(512)
		.regex(/^[a-zA-Z0-9\-.]*$/, "may hold letters, digits, hyphens and dots")
		.nullable()
		.optional(),
	kind: z.literal("", { error: 'kind must be "" (Instant Logs jobs, kind "edge", are not emulated)' }).optional(),
	frequency: z.enum(["high", "low"]).nullable().optional(),
	max_upload_bytes: zeroOr(5_000_000, 1_000_000_000).optional(),
	max_upload_records: zeroOr(1_000, 1_000_000).optional(),
	max_upload_interval_seconds: zeroOr(30, 300).optional(),
	output_options: OUTPUT_OPTIONS.nullable().optional(),
	ownership_challenge: OWNERSHIP_CHALLENGE.optional(),
	filter: z
		.string()
		.superRefine((filter, ctx) => {
			const parsed = parseFilter(filter);
			if (!parsed.ok) ctx.addIssue({ code: "custom", message: parsed.message });
		})
		.nullable()
		.optional(),
	logpull_options: refused("logpull_options is deprecated and not supported; use output_options"),
});

const DESTINATION = z.strictObject({ destination_conf: z.string().min(1).max(4096) });
const VALIDATION = z.strictObject({
	destination_conf: z.string().min(1).max(4096),
	ownership_challenge: OWNERSHIP_CHALLENGE,
});

/**
 * Parses `destination_conf` for the path's zone: a known bucket, and a path its keys may write,
 * or without keys one under the zone's own prefix (`destinationRefusal`).
 */
async function zoneDestination(c: Context<ApiEnv>, conf: string): Promise<ParsedDestination> {
	const parsed = parseDestination(conf, bucketMap(c.env));
	if (!parsed.ok) return parsed;
	const refusal = await destinationRefusal(c.env, parsed.destination, c.var.zone.id);
	return refusal === undefined ? parsed : { ok: false, message: refusal };
}

/**
 * Parses `destination_conf`; an invalid one, one its keys may not write, or one without keys
 * outside the zone's prefix, is a 400 1002 at `/destination_conf`, and nothing is stored.
 */
async function destinationOf(c: Context<ApiEnv>, conf: string): Promise<Destination> {
	const parsed = await zoneDestination(c, conf);
	if (!parsed.ok)
		throw new ApiError(400, [
			{ code: CODES.logpushInvalid, message: parsed.message, source: { pointer: "/destination_conf" } },
		]);
	return parsed.destination;
}

/** Job settings as given, with null `output_options` / `frequency` meaning "the default". */
function settingsOf(body: z.output<typeof JOB_FIELDS>): Partial<JobSettings> {
	const { ownership_challenge: _token, filter, logpull_options: _logpull, output_options, frequency, ...rest } = body;
	return {
		...rest,
		...(frequency === undefined ? {} : { frequency: frequency ?? JOB_DEFAULTS.frequency }),
		// null or "" removes the filter: an undefined value overrides the stored one and is not stored.
		...(filter === undefined ? {} : { filter: filter === null || filter === "" ? undefined : filter }),
		...(output_options === undefined ? {} : { output_options: output_options ?? withOutputDefaults({}) }),
	};
}

/** Routes under `/zones/{zone_id}/logpush`. */
export const logpush = new Hono<ApiEnv>()
	.get("/jobs", readsLogpush, async (c) => ok(unwrap(await c.var.zoneState.listJobs()) satisfies SdkLogpushJob[]))
	.post("/jobs", writes("Logs"), async (c) => {
		const body = await parseBody(c, JOB_FIELDS.required({ destination_conf: true }), CODES.logpushInvalid);
		const destination = await destinationOf(c, body.destination_conf);
		const settings = newJobSettings({ ...settingsOf(body), destination_conf: body.destination_conf });
		const job = unwrap(
			await c.var.zoneState.createJob({ settings, destination, ownership_challenge: body.ownership_challenge }),
		);
		return ok(job satisfies SdkLogpushJob);
	})
	.get("/jobs/:job_id", readsLogpush, async (c) =>
		ok(unwrap(await c.var.zoneState.getJob(parseParam(c, "job_id", INT_ID))) satisfies SdkLogpushJob),
	)
	.put("/jobs/:job_id", writes("Logs"), async (c) => {
		const id = parseParam(c, "job_id", INT_ID);
		const body = await parseBody(c, JOB_FIELDS, CODES.logpushInvalid);
		const destination = body.destination_conf === undefined ? undefined : await destinationOf(c, body.destination_conf);
		const job = unwrap(
			await c.var.zoneState.updateJob(id, {
				settings: settingsOf(body),
				destination,
				ownership_challenge: body.ownership_challenge,
			}),
		);
		return ok(job satisfies SdkLogpushJob);
	})
	.delete("/jobs/:job_id", writes("Logs"), async (c) =>
		ok(unwrap(await c.var.zoneState.deleteJob(parseParam(c, "job_id", INT_ID))) satisfies JobDeleteResponse),
	)
	// Writes: puts a challenge file into the destination bucket.
	.post("/ownership", writes("Logs"), async (c) => {
		const { destination_conf } = await parseBody(c, DESTINATION, CODES.logpushInvalid);
		const parsed = await zoneDestination(c, destination_conf);
		if (!parsed.ok)
			return ok({ filename: "", valid: false, message: parsed.message } satisfies OwnershipCreateResponse);
		const { filename } = unwrap(await c.var.zoneState.createOwnershipChallenge(parsed.destination));
		return ok({ filename, valid: true, message: "" } satisfies OwnershipCreateResponse);
	})
	// A POST that only reads: compares a token with the challenge file, changes nothing.
	.post("/ownership/validate", readsLogpush, async (c) => {
		const body = await parseBody(c, VALIDATION, CODES.logpushInvalid);
		const parsed = await zoneDestination(c, body.destination_conf);
		const valid =
			parsed.ok &&
			unwrap(await c.var.zoneState.validateOwnershipChallenge(parsed.destination, body.ownership_challenge));
		return ok({ valid } satisfies OwnershipValidation);
	})
	.get("/datasets/:dataset_id/fields", readsLogpush, (c) => {
		const dataset = c.req.param("dataset_id");
		if (dataset !== "http_requests") {
			throw new ApiError(400, [
				{ code: CODES.logpushInvalid, message: `edgezone serves the dataset http_requests only, not "${dataset}"` },
			]);
		}
		return ok(HTTP_REQUESTS_FIELDS satisfies FieldGetResponse);
	});
