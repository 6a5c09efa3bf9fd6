/**
 * A log-push job's `output_options`: what a client may send and the defaults filled in for what
 * it leaves out (docs `logs/logpush/logpush-job/log-output-options`,
 * https://developers.cloudflare.com/logs/logpush/logpush-job/log-output-options/). Pure: the job
 * store (`zone/logpush.ts`), the formatter (`format.ts`) and Logpull (`logpull.ts`) read it.
 */
import { HTTP_REQUESTS_DEFAULT_FIELDS } from "./datasets/http-requests";

/** `output_options` with every default filled in. */
export interface OutputOptions {
	field_names: string[];
	output_type: "ndjson" | "csv";
	timestamp_format: "unixnano" | "unix" | "rfc3339" | "rfc3339ms" | "rfc3339ns";
	sample_rate: number;
	batch_prefix: string;
	batch_suffix: string;
	record_prefix: string;
	record_suffix: string;
	record_delimiter: string;
	field_delimiter: string;
	record_template: string;
	"CVE-2021-44228": boolean;
	merge_subrequests: boolean;
}

/** `output_options` as a client sends them: every field may be missing or null, meaning "the default". */
type OutputOptionsInput = { [K in keyof OutputOptions]?: OutputOptions[K] | null | undefined };

/**
 * `output_options` with every default filled in (docs log-output-options):
 * ndjson, unixnano, sample rate 1, the dataset's default fields, fields joined by ",", no
 * batch framing or template; records framed by `{` and `}\n` for ndjson, by nothing and `\n` for csv.
 * Key order is the order the API has always answered with.
 */
export function withOutputDefaults(given: OutputOptionsInput): OutputOptions {
	const output_type = given.output_type ?? "ndjson";
	return {
		output_type,
		timestamp_format: given.timestamp_format ?? "unixnano",
		sample_rate: given.sample_rate ?? 1,
		batch_prefix: given.batch_prefix ?? "",
		batch_suffix: given.batch_suffix ?? "",
		record_delimiter: given.record_delimiter ?? "",
		field_delimiter: given.field_delimiter ?? ",",
		record_template: given.record_template ?? "",
		"CVE-2021-44228": given["CVE-2021-44228"] ?? false,
		merge_subrequests: given.merge_subrequests ?? false,
		field_names: given.field_names ?? [...HTTP_REQUESTS_DEFAULT_FIELDS],
		record_prefix: given.record_prefix ?? (output_type === "ndjson" ? "{" : ""),
		record_suffix: given.record_suffix ?? (output_type === "ndjson" ? "}\n" : "\n"),
	};
}
