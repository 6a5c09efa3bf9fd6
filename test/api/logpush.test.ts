/** Log-push jobs, destinations, ownership challenges and the http_requests field list. */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { call, freshZone } from "./http";
import { callWithEnv } from "./with-env";

interface Job {
	id: number;
	enabled: boolean;
	name: string | null;
	destination_conf: string;
	output_options: Record<string, unknown> & { field_names: string[] };
}

const R2 = "r2://edgezone-logs/logs/{DATE}";
const S3 = "s3://edgezone-logs/s3logs?region=us-east-1";
const today = () => new Date().toISOString().slice(0, 10).replaceAll("-", "");

async function jobsOf() {
	const zone = await freshZone();
	return { zone, jobs: `/zones/${zone}/logpush/jobs`, ownership: `/zones/${zone}/logpush/ownership` };
}

describe("POST .../logpush/jobs", () => {
	it("creates a disabled r2:// job with the documented defaults, without an ownership challenge", async () => {
		const { jobs } = await jobsOf();
		const res = await call("POST", jobs, { destination_conf: R2 });
		expect(res.status).toBe(200);
		expect(res.body.result).toStrictEqual({
			id: 1,
			dataset: "http_requests",
			destination_conf: R2,
			enabled: false,
			name: null,
			kind: "",
			frequency: "high",
			max_upload_bytes: 0,
			max_upload_records: 0,
			max_upload_interval_seconds: 0,
			output_options: {
				field_names: [
					"ClientIP",
					"ClientRequestHost",
					"ClientRequestMethod",
					"ClientRequestURI",
					"EdgeEndTimestamp",
					"EdgeResponseBytes",
					"EdgeResponseStatus",
					"EdgeStartTimestamp",
					"RayID",
				],
				output_type: "ndjson",
				timestamp_format: "unixnano",
				sample_rate: 1,
				batch_prefix: "",
				batch_suffix: "",
				record_prefix: "{",
				record_suffix: "}\n",
				record_delimiter: "",
				field_delimiter: ",",
				record_template: "",
				"CVE-2021-44228": false,
				merge_subrequests: false,
			},
			last_complete: null,
			last_error: null,
			error_message: null,
		});
		expect((await call("POST", jobs, { destination_conf: R2 })).body.result).toMatchObject({ id: 2 });
	});

	it("keeps the spec's example job: custom-field outputs, rfc3339, a name, enabled", async () => {
		const { jobs } = await jobsOf();
		const body = {
			name: "example.com",
			destination_conf: R2,
			dataset: "http_requests",
			enabled: true,
			output_options: {
				field_names: ["RayID", "EdgeStartTimestamp", "Cookies", "RequestHeaders", "ResponseHeaders"],
				timestamp_format: "rfc3339",
			},
		};
		const job = (await call("POST", jobs, body)).body.result as Job;
		expect(job).toMatchObject({ name: "example.com", enabled: true, output_options: body.output_options });
	});

	it("frames csv records with no prefix and a newline suffix by default", async () => {
		const { jobs } = await jobsOf();
		const job = (
			await call("POST", jobs, { destination_conf: R2, output_options: { output_type: "csv", field_names: ["RayID"] } })
		).body.result as Job;
		expect(job.output_options).toMatchObject({ output_type: "csv", record_prefix: "", record_suffix: "\n" });
	});

	it.each(["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"])(
		"accepts timestamp_format %s",
		async (timestamp_format) => {
			const { jobs } = await jobsOf();
			const res = await call("POST", jobs, { destination_conf: R2, output_options: { timestamp_format } });
			expect((res.body.result as Job).output_options.timestamp_format).toBe(timestamp_format);
		},
	);

	it.each([
		{
			name: "r2 with its credentials in the query",
			conf: "r2://edgezone-logs/a/b?account-id=x&access-key-id=y&secret-access-key=z",
		},
		{ name: "r2 with no path", conf: "r2://edgezone-logs" },
	])("accepts the destination $name", async ({ conf }) => {
		const { jobs } = await jobsOf();
		expect((await call("POST", jobs, { destination_conf: conf })).status).toBe(200);
	});

	const invalid: { name: string; body: unknown; pointer: string }[] = [
		{ name: "no destination_conf", body: {}, pointer: "/destination_conf" },
		{
			name: "an unknown bucket",
			body: { destination_conf: "r2://someone-elses-bucket/logs" },
			pointer: "/destination_conf",
		},
		{
			name: "an unsupported scheme",
			body: { destination_conf: "gs://edgezone-logs/logs" },
			pointer: "/destination_conf",
		},
		{
			name: "an unknown r2 parameter",
			body: { destination_conf: "r2://edgezone-logs/logs?region=x" },
			pointer: "/destination_conf",
		},
		{
			name: "s3 without a region",
			body: { destination_conf: "s3://edgezone-logs/logs" },
			pointer: "/destination_conf",
		},
		{ name: "a malformed bucket", body: { destination_conf: "r2://A_B/logs" }, pointer: "/destination_conf" },
		{ name: "another dataset", body: { destination_conf: R2, dataset: "firewall_events" }, pointer: "/dataset" },
		{ name: "Instant Logs (kind edge)", body: { destination_conf: R2, kind: "edge" }, pointer: "/kind" },
		{ name: "a name with a space", body: { destination_conf: R2, name: "my job" }, pointer: "/name" },
		{ name: "enabled that is no boolean", body: { destination_conf: R2, enabled: "true" }, pointer: "/enabled" },
		{ name: "an unknown frequency", body: { destination_conf: R2, frequency: "often" }, pointer: "/frequency" },
		{
			name: "max_upload_bytes below 5 MB",
			body: { destination_conf: R2, max_upload_bytes: 4_999_999 },
			pointer: "/max_upload_bytes",
		},
		{
			name: "max_upload_bytes above 1 GB",
			body: { destination_conf: R2, max_upload_bytes: 1_000_000_001 },
			pointer: "/max_upload_bytes",
		},
		{
			name: "max_upload_records below 1000",
			body: { destination_conf: R2, max_upload_records: 999 },
			pointer: "/max_upload_records",
		},
		{
			name: "max_upload_records above 1000000",
			body: { destination_conf: R2, max_upload_records: 1_000_001 },
			pointer: "/max_upload_records",
		},
		{
			name: "max_upload_interval_seconds below 30",
			body: { destination_conf: R2, max_upload_interval_seconds: 29 },
			pointer: "/max_upload_interval_seconds",
		},
		{
			name: "max_upload_interval_seconds above 300",
			body: { destination_conf: R2, max_upload_interval_seconds: 301 },
			pointer: "/max_upload_interval_seconds",
		},
		{
			name: "an unknown field name",
			body: { destination_conf: R2, output_options: { field_names: ["RayID", "NoSuchField"] } },
			pointer: "/output_options/field_names/1",
		},
		{
			name: "a duplicate field name",
			body: { destination_conf: R2, output_options: { field_names: ["RayID", "RayID"] } },
			pointer: "/output_options/field_names/1",
		},
		{
			name: "no field names",
			body: { destination_conf: R2, output_options: { field_names: [] } },
			pointer: "/output_options/field_names",
		},
		{
			name: "an unknown timestamp format",
			body: { destination_conf: R2, output_options: { timestamp_format: "iso" } },
			pointer: "/output_options/timestamp_format",
		},
		{
			name: "an unknown output type",
			body: { destination_conf: R2, output_options: { output_type: "xml" } },
			pointer: "/output_options/output_type",
		},
		{
			name: "a sample rate of 0",
			body: { destination_conf: R2, output_options: { sample_rate: 0 } },
			pointer: "/output_options/sample_rate",
		},
		{
			name: "a sample rate above 1",
			body: { destination_conf: R2, output_options: { sample_rate: 1.5 } },
			pointer: "/output_options/sample_rate",
		},
		{
			name: "an unknown output option",
			body: { destination_conf: R2, output_options: { compression: "gzip" } },
			pointer: "/output_options/compression",
		},
		{ name: "a filter", body: { destination_conf: R2, filter: "{}" }, pointer: "/filter" },
		{
			name: "logpull_options",
			body: { destination_conf: R2, logpull_options: "fields=RayID" },
			pointer: "/logpull_options",
		},
		{ name: "an unknown field", body: { destination_conf: R2, colour: "red" }, pointer: "/colour" },
	];
	it.each(invalid)("refuses $name with a 400 at $pointer, creating nothing", async ({ body, pointer }) => {
		const { jobs } = await jobsOf();
		const res = await call("POST", jobs, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect((await call("GET", jobs)).body.result).toEqual([]);
	});

	it.each([
		{ field: "max_upload_bytes", values: [0, 5_000_000, 1_000_000_000] },
		{ field: "max_upload_records", values: [0, 1_000, 1_000_000] },
		{ field: "max_upload_interval_seconds", values: [0, 30, 300] },
	])("accepts $field at 0 and at both ends of its range", async ({ field, values }) => {
		const { jobs } = await jobsOf();
		for (const value of values) {
			const res = await call("POST", jobs, { destination_conf: R2, [field]: value });
			expect((res.body.result as Record<string, unknown>)[field]).toBe(value);
		}
	});
});

describe("size limits", () => {
	const text = (n: number) => "a".repeat(n);
	const framing = [
		"batch_prefix",
		"batch_suffix",
		"record_prefix",
		"record_suffix",
		"record_delimiter",
		"field_delimiter",
	];
	const allFields = async (zone: string) =>
		Object.keys((await call("GET", `/zones/${zone}/logpush/datasets/http_requests/fields`)).body.result as object);

	it.each([
		{ name: "destination_conf", body: { destination_conf: `r2://edgezone-logs/${text(4097 - 19)}` } },
		{ name: "name", body: { name: text(513) } },
		{ name: "ownership_challenge", body: { ownership_challenge: text(4097) } },
		...framing.map((field) => ({ name: field, body: { output_options: { [field]: text(1025) } } })),
		{ name: "record_template", body: { output_options: { record_template: text(16_385) } } },
		{ name: "record_template", body: { output_options: { record_template: text(1_000_000) } } },
	])(
		"refuses a $name one character or more over its limit with a 400 1002, creating nothing",
		async ({ name, body }) => {
			const { jobs } = await jobsOf();
			const res = await call("POST", jobs, { destination_conf: R2, ...body });
			expect(res.status).toBe(400);
			const pointer = "output_options" in body ? `/output_options/${name}` : `/${name}`;
			expect(res.body.errors).toEqual([expect.objectContaining({ code: 1002, source: { pointer } })]);
			expect((await call("GET", jobs)).body.result).toEqual([]);
		},
	);

	it("refuses more field names than the dataset has with one error", async () => {
		const { zone, jobs } = await jobsOf();
		const fields = [...(await allFields(zone)), "RayID"];
		const res = await call("POST", jobs, { destination_conf: R2, output_options: { field_names: fields } });
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			expect.objectContaining({ code: 1002, source: { pointer: "/output_options/field_names" } }),
		]);
	});

	it("accepts every value at its limit", async () => {
		const { zone, jobs } = await jobsOf();
		const destination_conf = `r2://edgezone-logs/${text(4096 - 19)}`;
		const output_options = {
			field_names: await allFields(zone),
			record_template: text(16_384),
			...Object.fromEntries(framing.map((field) => [field, text(1024)])),
		};
		const res = await call("POST", jobs, { destination_conf, name: text(512), output_options });
		expect(res.status).toBe(200);
		expect(res.body.result).toMatchObject({ destination_conf, name: text(512), output_options });
	});

	it("refuses oversized values on the ownership endpoints", async () => {
		const { ownership } = await jobsOf();
		const tooLong = `r2://edgezone-logs/${text(4097 - 19)}`;
		const create = await call("POST", ownership, { destination_conf: tooLong });
		expect(create.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/destination_conf" } });
		const validate = await call("POST", `${ownership}/validate`, {
			destination_conf: R2,
			ownership_challenge: text(4097),
		});
		expect(validate.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/ownership_challenge" } });
	});
});

describe("ownership challenges", () => {
	it("writes a token file into the destination bucket, {DATE} expanded", async () => {
		const { ownership } = await jobsOf();
		const res = await call("POST", ownership, { destination_conf: R2 });
		expect(res.status).toBe(200);
		const filename = `logs/${today()}/ownership-challenge.txt`;
		expect(res.body.result).toEqual({ filename, valid: true, message: "" });
		const token = await (await env.LOGS.get(filename))?.text();
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});

	it("answers valid: false with a reason for a destination it cannot write", async () => {
		const { ownership } = await jobsOf();
		const res = await call("POST", ownership, { destination_conf: "s3://unknown-bucket/x?region=eu" });
		expect(res.status).toBe(200);
		expect(res.body.result).toMatchObject({ valid: false, message: expect.stringContaining("unknown-bucket") });
	});

	it("validates a token only for its own destination", async () => {
		const { ownership } = await jobsOf();
		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get("s3logs/ownership-challenge.txt"))?.text()) ?? "";
		const validate = async (destination_conf: string, ownership_challenge: string) =>
			(await call("POST", `${ownership}/validate`, { destination_conf, ownership_challenge })).body.result;
		expect(await validate(S3, token)).toEqual({ valid: true });
		expect(await validate(S3, "wrong")).toEqual({ valid: false });
		expect(await validate("s3://edgezone-logs/elsewhere?region=us-east-1", token)).toEqual({ valid: false });
		expect(await validate("gs://nowhere", token)).toEqual({ valid: false });
	});

	it("is required for s3:// jobs: missing or wrong is a 400, the issued token works", async () => {
		const { jobs, ownership } = await jobsOf();
		const missing = await call("POST", jobs, { destination_conf: S3 });
		expect(missing.status).toBe(400);
		expect(missing.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/ownership_challenge" } });
		const wrong = await call("POST", jobs, { destination_conf: S3, ownership_challenge: "not-the-token" });
		expect(wrong.status).toBe(400);
		expect(wrong.body.errors?.[0]?.source?.pointer).toBe("/ownership_challenge");

		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get("s3logs/ownership-challenge.txt"))?.text()) ?? "";
		const created = await call("POST", jobs, { destination_conf: S3, ownership_challenge: token });
		expect(created.status).toBe(200);
		expect((created.body.result as Job).destination_conf).toBe(S3);
		expect(JSON.stringify(created.body.result)).not.toContain(token);
	});

	it("answers 400 for a body without destination_conf", async () => {
		const { ownership } = await jobsOf();
		expect((await call("POST", ownership, {})).status).toBe(400);
		expect((await call("POST", `${ownership}/validate`, { destination_conf: S3 })).status).toBe(400);
	});
});

describe("GET, PUT and DELETE .../logpush/jobs/{job_id}", () => {
	it("lists, gets, replaces fields of and deletes a job", async () => {
		const { jobs } = await jobsOf();
		const job = (await call("POST", jobs, { destination_conf: R2, name: "a" })).body.result as Job;
		expect((await call("GET", jobs)).body.result).toEqual([job]);
		expect((await call("GET", `${jobs}/${job.id}`)).body.result).toEqual(job);

		const updated = (
			await call("PUT", `${jobs}/${job.id}`, { enabled: true, output_options: { field_names: ["RayID"] } })
		).body.result as Job;
		expect(updated).toMatchObject({
			id: job.id,
			name: "a",
			enabled: true,
			destination_conf: R2,
			output_options: { field_names: ["RayID"], timestamp_format: "unixnano" },
		});
		expect((await call("GET", `${jobs}/${job.id}`)).body.result).toEqual(updated);

		const deleted = await call("DELETE", `${jobs}/${job.id}`);
		expect(deleted.body.result).toEqual({ id: job.id });
		expect((await call("GET", jobs)).body.result).toEqual([]);
	});

	it("answers 404 'job not found' for an unknown job", async () => {
		const { jobs } = await jobsOf();
		for (const method of ["GET", "PUT", "DELETE"]) {
			const res = await call(method, `${jobs}/99`, method === "PUT" ? { enabled: true } : undefined);
			expect(res.status).toBe(404);
			expect(res.body.errors?.[0]?.message).toBe("job not found");
		}
	});

	it("needs an ownership challenge to move a job to an s3:// destination", async () => {
		const { jobs, ownership } = await jobsOf();
		const job = (await call("POST", jobs, { destination_conf: R2 })).body.result as Job;
		const refused = await call("PUT", `${jobs}/${job.id}`, { destination_conf: S3 });
		expect(refused.status).toBe(400);
		expect((await call("GET", `${jobs}/${job.id}`)).body.result).toEqual(job);
		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get("s3logs/ownership-challenge.txt"))?.text()) ?? "";
		expect((await call("PUT", `${jobs}/${job.id}`, { destination_conf: S3, ownership_challenge: token })).status).toBe(
			200,
		);
	});

	it.each([
		{ name: "an unknown bucket", body: { destination_conf: "r2://nope-bucket/x" }, pointer: "/destination_conf" },
		{
			name: "an invalid field name",
			body: { output_options: { field_names: ["Nope"] } },
			pointer: "/output_options/field_names/0",
		},
		{ name: "an unknown field", body: { id: 5 }, pointer: "/id" },
		{
			name: "an oversized record_template",
			body: { output_options: { record_template: "a".repeat(16_385) } },
			pointer: "/output_options/record_template",
		},
	])("refuses $name on PUT, leaving the job unchanged", async ({ body, pointer }) => {
		const { jobs } = await jobsOf();
		const job = (await call("POST", jobs, { destination_conf: R2 })).body.result as Job;
		const res = await call("PUT", `${jobs}/${job.id}`, body);
		expect(res.status).toBe(400);
		expect(res.body.errors?.[0]?.source?.pointer).toBe(pointer);
		expect((await call("GET", `${jobs}/${job.id}`)).body.result).toEqual(job);
	});
});

describe("a misconfigured LOGPUSH_BUCKETS", () => {
	it.each([
		{ name: "not JSON", value: "{edgezone-logs: LOGS" },
		{ name: "a malformed bucket name", value: '{"Bad_Bucket": "LOGS"}' },
		{ name: "a list", value: '["edgezone-logs"]' },
	])(
		"is a server error (500 10001), not the client's, when it is $name; nothing is created and the log says why",
		async ({ value }) => {
			const { jobs } = await jobsOf();
			const log = vi.spyOn(console, "error").mockImplementation(() => {});
			const res = await callWithEnv({ LOGPUSH_BUCKETS: value }, "POST", jobs, { body: { destination_conf: R2 } });
			const logged = log.mock.calls.flat().map(String).join(" ");
			log.mockRestore();
			expect(res.status).toBe(500);
			expect(res.body.errors).toEqual([{ code: 10001, message: "Internal server error" }]);
			expect(logged).toContain("LOGPUSH_BUCKETS is not valid");
			expect((await call("GET", jobs)).body.result).toEqual([]);
		},
	);
});

describe("GET .../logpush/datasets/{dataset}/fields", () => {
	it("maps each http_requests field to a description, including the custom-field outputs", async () => {
		const zone = await freshZone();
		const res = await call("GET", `/zones/${zone}/logpush/datasets/http_requests/fields`);
		const fields = res.body.result as Record<string, string>;
		for (const name of [
			"Cookies",
			"RequestHeaders",
			"ResponseHeaders",
			"RayID",
			"EdgeStartTimestamp",
			"ClientIP",
			"ClientRequestHost",
			"EdgeResponseStatus",
		]) {
			expect(typeof fields[name], name).toBe("string");
		}
		expect(Object.keys(fields).length).toBeGreaterThan(100);
	});

	it("answers 400 for another dataset", async () => {
		const zone = await freshZone();
		expect((await call("GET", `/zones/${zone}/logpush/datasets/dns_logs/fields`)).status).toBe(400);
	});
});
