/** Log-push jobs, destinations, ownership challenges and the http_requests field list. */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { credentialsOf } from "../s3/helpers";
import { DEFAULT_ZONE_ID, SCOPED_TOKEN, TOKEN } from "./credentials";
import { call, freshZone } from "./http";
import { callWithEnv } from "./with-env";

interface Job {
	id: number;
	enabled: boolean;
	name: string | null;
	destination_conf: string;
	output_options: Record<string, unknown> & { field_names: string[] };
}

// A zone's destinations lie under its id in the shared buckets (edgezone's rule).
const r2 = (zone: string) => `r2://edgezone-logs/${zone}/logs/{DATE}`;
const s3 = (zone: string) => `s3://edgezone-logs/${zone}/s3logs?region=us-east-1`;
const today = () => new Date().toISOString().slice(0, 10).replaceAll("-", "");

async function jobsOf() {
	const zone = await freshZone();
	return {
		zone,
		jobs: `/zones/${zone}/logpush/jobs`,
		ownership: `/zones/${zone}/logpush/ownership`,
		R2: r2(zone),
		S3: s3(zone),
	};
}

describe("POST .../logpush/jobs", () => {
	it("creates a disabled r2:// job with the documented defaults, without an ownership challenge", async () => {
		const { jobs, R2 } = await jobsOf();
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
		const { jobs, R2 } = await jobsOf();
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
		const { jobs, R2 } = await jobsOf();
		const job = (
			await call("POST", jobs, { destination_conf: R2, output_options: { output_type: "csv", field_names: ["RayID"] } })
		).body.result as Job;
		expect(job.output_options).toMatchObject({ output_type: "csv", record_prefix: "", record_suffix: "\n" });
	});

	it.each(["unixnano", "unix", "rfc3339", "rfc3339ms", "rfc3339ns"])(
		"accepts timestamp_format %s",
		async (timestamp_format) => {
			const { jobs, R2 } = await jobsOf();
			const res = await call("POST", jobs, { destination_conf: R2, output_options: { timestamp_format } });
			expect((res.body.result as Job).output_options.timestamp_format).toBe(timestamp_format);
		},
	);

	it.each([
		{
			name: "r2 with its account and the S3 keys of a token in the query",
			conf: async (zone: string) => {
				const { accessKeyId, secretAccessKey } = await credentialsOf(TOKEN);
				return `r2://edgezone-logs/${zone}/a/b?account-id=${env.DEFAULT_ACCOUNT_ID}&access-key-id=${accessKeyId}&secret-access-key=${secretAccessKey}`;
			},
		},
		{ name: "r2 with the zone's id as its whole path", conf: async (zone: string) => `r2://edgezone-logs/${zone}` },
	])("accepts the destination $name", async ({ conf }) => {
		const { zone, jobs } = await jobsOf();
		expect((await call("POST", jobs, { destination_conf: await conf(zone) })).status).toBe(200);
	});

	const invalid: { name: string; body: Record<string, unknown>; pointer: string }[] = [
		{ name: "no destination_conf", body: { destination_conf: undefined }, pointer: "/destination_conf" },
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
		{ name: "another dataset", body: { dataset: "firewall_events" }, pointer: "/dataset" },
		{ name: "Instant Logs (kind edge)", body: { kind: "edge" }, pointer: "/kind" },
		{ name: "a name with a space", body: { name: "my job" }, pointer: "/name" },
		{ name: "enabled that is no boolean", body: { enabled: "true" }, pointer: "/enabled" },
		{ name: "an unknown frequency", body: { frequency: "often" }, pointer: "/frequency" },
		{
			name: "max_upload_bytes below 5 MB",
			body: { max_upload_bytes: 4_999_999 },
			pointer: "/max_upload_bytes",
		},
		{
			name: "max_upload_bytes above 1 GB",
			body: { max_upload_bytes: 1_000_000_001 },
			pointer: "/max_upload_bytes",
		},
		{
			name: "max_upload_records below 1000",
			body: { max_upload_records: 999 },
			pointer: "/max_upload_records",
		},
		{
			name: "max_upload_records above 1000000",
			body: { max_upload_records: 1_000_001 },
			pointer: "/max_upload_records",
		},
		{
			name: "max_upload_interval_seconds below 30",
			body: { max_upload_interval_seconds: 29 },
			pointer: "/max_upload_interval_seconds",
		},
		{
			name: "max_upload_interval_seconds above 300",
			body: { max_upload_interval_seconds: 301 },
			pointer: "/max_upload_interval_seconds",
		},
		{
			name: "an unknown field name",
			body: { output_options: { field_names: ["RayID", "NoSuchField"] } },
			pointer: "/output_options/field_names/1",
		},
		{
			name: "a duplicate field name",
			body: { output_options: { field_names: ["RayID", "RayID"] } },
			pointer: "/output_options/field_names/1",
		},
		{
			name: "no field names",
			body: { output_options: { field_names: [] } },
			pointer: "/output_options/field_names",
		},
		{
			name: "an unknown timestamp format",
			body: { output_options: { timestamp_format: "iso" } },
			pointer: "/output_options/timestamp_format",
		},
		{
			name: "an unknown output type",
			body: { output_options: { output_type: "xml" } },
			pointer: "/output_options/output_type",
		},
		{
			name: "a sample rate of 0",
			body: { output_options: { sample_rate: 0 } },
			pointer: "/output_options/sample_rate",
		},
		{
			name: "a sample rate above 1",
			body: { output_options: { sample_rate: 1.5 } },
			pointer: "/output_options/sample_rate",
		},
		{
			name: "an unknown output option",
			body: { output_options: { compression: "gzip" } },
			pointer: "/output_options/compression",
		},
		{ name: "a filter", body: { filter: "{}" }, pointer: "/filter" },
		{
			name: "logpull_options",
			body: { logpull_options: "fields=RayID" },
			pointer: "/logpull_options",
		},
		{ name: "an unknown field", body: { colour: "red" }, pointer: "/colour" },
	];
	it.each(invalid)("refuses $name with a 400 at $pointer, creating nothing", async ({ body, pointer }) => {
		const { jobs, R2 } = await jobsOf();
		const res = await call("POST", jobs, { destination_conf: R2, ...body });
		expect(res.status).toBe(400);
		expect(res.body.errors?.map((e) => e.source?.pointer)).toContain(pointer);
		expect((await call("GET", jobs)).body.result).toEqual([]);
	});

	it.each([
		{ field: "max_upload_bytes", values: [0, 5_000_000, 1_000_000_000] },
		{ field: "max_upload_records", values: [0, 1_000, 1_000_000] },
		{ field: "max_upload_interval_seconds", values: [0, 30, 300] },
	])("accepts $field at 0 and at both ends of its range", async ({ field, values }) => {
		const { jobs, R2 } = await jobsOf();
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
			const { jobs, R2 } = await jobsOf();
			const res = await call("POST", jobs, { destination_conf: R2, ...body });
			expect(res.status).toBe(400);
			const pointer = "output_options" in body ? `/output_options/${name}` : `/${name}`;
			expect(res.body.errors).toEqual([expect.objectContaining({ code: 1002, source: { pointer } })]);
			expect((await call("GET", jobs)).body.result).toEqual([]);
		},
	);

	it("refuses more field names than the dataset has with one error", async () => {
		const { zone, jobs, R2 } = await jobsOf();
		const fields = [...(await allFields(zone)), "RayID"];
		const res = await call("POST", jobs, { destination_conf: R2, output_options: { field_names: fields } });
		expect(res.status).toBe(400);
		expect(res.body.errors).toEqual([
			expect.objectContaining({ code: 1002, source: { pointer: "/output_options/field_names" } }),
		]);
	});

	it("accepts every value at its limit", async () => {
		const { zone, jobs } = await jobsOf();
		const destination_conf = `r2://edgezone-logs/${zone}/${text(4096 - 19 - zone.length - 1)}`;
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
		const { ownership, R2 } = await jobsOf();
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
		const { ownership, zone, R2 } = await jobsOf();
		const res = await call("POST", ownership, { destination_conf: R2 });
		expect(res.status).toBe(200);
		const filename = `${zone}/logs/${today()}/ownership-challenge.txt`;
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
		const { ownership, zone, S3 } = await jobsOf();
		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get(`${zone}/s3logs/ownership-challenge.txt`))?.text()) ?? "";
		const validate = async (destination_conf: string, ownership_challenge: string) =>
			(await call("POST", `${ownership}/validate`, { destination_conf, ownership_challenge })).body.result;
		expect(await validate(S3, token)).toEqual({ valid: true });
		expect(await validate(S3, "wrong")).toEqual({ valid: false });
		expect(await validate(`s3://edgezone-logs/${zone}/elsewhere?region=us-east-1`, token)).toEqual({ valid: false });
		expect(await validate("gs://nowhere", token)).toEqual({ valid: false });
	});

	it("is required for s3:// jobs: missing or wrong is a 400, the issued token works", async () => {
		const { zone, jobs, ownership, S3 } = await jobsOf();
		const missing = await call("POST", jobs, { destination_conf: S3 });
		expect(missing.status).toBe(400);
		expect(missing.body.errors?.[0]).toMatchObject({ code: 1002, source: { pointer: "/ownership_challenge" } });
		const wrong = await call("POST", jobs, { destination_conf: S3, ownership_challenge: "not-the-token" });
		expect(wrong.status).toBe(400);
		expect(wrong.body.errors?.[0]?.source?.pointer).toBe("/ownership_challenge");

		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get(`${zone}/s3logs/ownership-challenge.txt`))?.text()) ?? "";
		const created = await call("POST", jobs, { destination_conf: S3, ownership_challenge: token });
		expect(created.status).toBe(200);
		expect((created.body.result as Job).destination_conf).toBe(S3);
		expect(JSON.stringify(created.body.result)).not.toContain(token);
	});

	it.each(["a b", "token=", "<jwt>", "é", "a\nb"])(
		"refuses the challenge %j, outside the schema's pattern, with a 400 1002 on the job and the validation",
		async (ownership_challenge) => {
			const { jobs, ownership, S3 } = await jobsOf();
			for (const path of [jobs, `${ownership}/validate`]) {
				const res = await call("POST", path, { destination_conf: S3, ownership_challenge });
				expect(res.status, path).toBe(400);
				expect(res.body.errors).toEqual([
					expect.objectContaining({ code: 1002, source: { pointer: "/ownership_challenge" } }),
				]);
			}
			expect((await call("GET", jobs)).body.result).toEqual([]);
		},
	);

	it("answers 400 for a body without destination_conf", async () => {
		const { ownership, S3 } = await jobsOf();
		expect((await call("POST", ownership, {})).status).toBe(400);
		expect((await call("POST", `${ownership}/validate`, { destination_conf: S3 })).status).toBe(400);
	});
});

describe("GET, PUT and DELETE .../logpush/jobs/{job_id}", () => {
	it("lists, gets, replaces fields of and deletes a job", async () => {
		const { jobs, R2 } = await jobsOf();
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
		const { zone, jobs, ownership, R2, S3 } = await jobsOf();
		const job = (await call("POST", jobs, { destination_conf: R2 })).body.result as Job;
		const refused = await call("PUT", `${jobs}/${job.id}`, { destination_conf: S3 });
		expect(refused.status).toBe(400);
		expect((await call("GET", `${jobs}/${job.id}`)).body.result).toEqual(job);
		await call("POST", ownership, { destination_conf: S3 });
		const token = (await (await env.LOGS.get(`${zone}/s3logs/ownership-challenge.txt`))?.text()) ?? "";
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
		const { jobs, R2 } = await jobsOf();
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
			const { jobs, R2 } = await jobsOf();
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

describe("a zone's destinations in the shared log buckets", () => {
	// The scoped token reaches the default zone only; zone B is another zone of the same buckets.
	const scoped = { Authorization: `Bearer ${SCOPED_TOKEN}`, "Content-Type": "application/json" };
	const mine = `/zones/${DEFAULT_ZONE_ID}/logpush`;
	const inB = async () => (await env.LOGS.list({ prefix: `${await freshZoneB}/` })).objects;
	const freshZoneB = freshZone();

	it("refuses an ownership challenge into another zone's path: valid false, no file written", async () => {
		const b = await freshZoneB;
		for (const destination_conf of [`s3://edgezone-logs/${b}/logs?region=us-east-1`, `r2://edgezone-logs/${b}`]) {
			const res = await call("POST", `${mine}/ownership`, { destination_conf }, scoped);
			expect(res.status).toBe(200);
			expect(res.body.result).toEqual({
				filename: "",
				valid: false,
				message: expect.stringContaining(`must start with the zone's id`),
			});
		}
		expect(await inB()).toEqual([]);
		const validate = await call(
			"POST",
			`${mine}/ownership/validate`,
			{ destination_conf: `s3://edgezone-logs/${b}/logs?region=us-east-1`, ownership_challenge: "x" },
			scoped,
		);
		expect(validate.body.result).toEqual({ valid: false });
	});

	it("refuses a job into another zone's path, or outside every zone's, with a 400 at /destination_conf", async () => {
		const b = await freshZoneB;
		for (const destination_conf of [
			`r2://edgezone-logs/${b}/logs/{DATE}`,
			"r2://edgezone-logs/logs/{DATE}",
			`r2://edgezone-logs/${DEFAULT_ZONE_ID}{DATE}`,
			"r2://edgezone-logs",
		]) {
			const res = await call("POST", `${mine}/jobs`, { destination_conf, enabled: true }, scoped);
			expect(res.status, destination_conf).toBe(400);
			expect(res.body.errors).toEqual([
				expect.objectContaining({ code: 1002, source: { pointer: "/destination_conf" } }),
			]);
		}
		const jobs = (await call("GET", `${mine}/jobs`, undefined, scoped)).body.result as Job[];
		expect(jobs.filter((j) => !j.destination_conf.startsWith(`r2://edgezone-logs/${DEFAULT_ZONE_ID}/`))).toEqual([]);
		expect(await inB()).toEqual([]);
	});

	it("refuses moving a job into another zone's path, leaving it as it was", async () => {
		const b = await freshZoneB;
		const own = `r2://edgezone-logs/${DEFAULT_ZONE_ID}/own/{DATE}`;
		const job = (await call("POST", `${mine}/jobs`, { destination_conf: own }, scoped)).body.result as Job;
		const moved = await call(
			"PUT",
			`${mine}/jobs/${job.id}`,
			{ destination_conf: `r2://edgezone-logs/${b}/x` },
			scoped,
		);
		expect(moved.status).toBe(400);
		expect(moved.body.errors?.[0]?.source?.pointer).toBe("/destination_conf");
		expect((await call("GET", `${mine}/jobs/${job.id}`, undefined, scoped)).body.result).toEqual(job);
		await call("DELETE", `${mine}/jobs/${job.id}`, undefined, scoped);
	});

	it("lets the zone write under its own id", async () => {
		const res = await call(
			"POST",
			`${mine}/ownership`,
			{ destination_conf: `s3://edgezone-logs/${DEFAULT_ZONE_ID}/mine?region=us-east-1` },
			scoped,
		);
		expect(res.body.result).toMatchObject({ valid: true, filename: `${DEFAULT_ZONE_ID}/mine/ownership-challenge.txt` });
		expect(await env.LOGS.head(`${DEFAULT_ZONE_ID}/mine/ownership-challenge.txt`)).not.toBeNull();
	});
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
