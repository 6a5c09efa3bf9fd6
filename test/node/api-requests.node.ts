/**
 * The API's example requests (fixtures/api/*.json, in file order) sent to wrangler dev with fetch,
 * each answered with the status its fixture expects; then the same flow on a wrangler dev of its
 * own, stopped and started again on the same `--persist-to`, reading the ruleset and the jobs back
 * unchanged, and the buckets' creation dates ListBuckets answers (state lives in the Durable
 * Objects' storage, not in the isolate).
 *
 * Fixture format: {description, method, path, body?, expect, save?: {name: "result field"}};
 * `{name}` in path or body is replaced by a saved value, `{unique}` by a fresh label, and
 * `{ownership_challenge}` by the token the last ownership request wrote into the bucket.
 */
import { readdirSync, readFileSync } from "node:fs";
import { ListBucketsCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { credentialsOf, s3Client } from "./s3";
import { DEV_VARS_EXAMPLE, type RunningDev, startDev } from "./wrangler-dev";

const FIXTURES = new URL("../../fixtures/api/", import.meta.url);
/** The all-zones API token and the read-write gateway token of .dev.vars.example. */
const API_TOKEN = "edgezone_dev_token_000000000000000000000";
const GATEWAY_TOKEN = "dev-token";
const LOG_BUCKET = "edgezone-logs";
const READ_BACK = ["09-read-ruleset.json", "10-read-job.json", "11-list-jobs.json"];

interface Fixture {
	file: string;
	description: string;
	method: string;
	path: string;
	body?: unknown;
	expect: number;
	save?: Record<string, string>;
}

const fixtures: Fixture[] = readdirSync(FIXTURES)
	.filter((file) => file.endsWith(".json"))
	.sort()
	.map((file) => ({ file, ...JSON.parse(readFileSync(new URL(file, FIXTURES), "utf8")) }));

/** Replaces lower-case `{name}` placeholders from `vars`; `{DATE}`, a log-push path placeholder, is sent as is. */
function fill(text: string, vars: Record<string, string>): string {
	return text.replace(/\{([a-z_]+)\}/g, (_whole, name: string) => {
		const value = vars[name];
		if (value === undefined) throw new Error(`no value for {${name}}`);
		return value;
	});
}

/** One run of the fixtures against a wrangler dev: the values they saved, and each answer. */
class Flow {
	readonly vars: Record<string, string> = { unique: `node-${Date.now().toString(36)}` };
	readonly answers = new Map<string, { status: number; body: unknown }>();
	constructor(private readonly base: string) {}

	/** Sends one fixture; records its answer and the values it saves. */
	async send(fixture: Fixture): Promise<{ status: number; body: unknown }> {
		if (JSON.stringify(fixture.body ?? "").includes("{ownership_challenge}"))
			this.vars.ownership_challenge = await this.challenge();
		const body = fixture.body === undefined ? undefined : fill(JSON.stringify(fixture.body), this.vars);
		const response = await fetch(`${this.base}/client/v4${fill(fixture.path, this.vars)}`, {
			method: fixture.method,
			headers: { authorization: `Bearer ${API_TOKEN}`, ...(body ? { "content-type": "application/json" } : {}) },
			body,
		});
		const text = await response.text();
		const answer = { status: response.status, body: text === "" ? null : (JSON.parse(text) as unknown) };
		this.answers.set(fixture.file, answer);
		const result = (answer.body as { result?: Record<string, unknown> } | null)?.result;
		for (const [name, field] of Object.entries(fixture.save ?? {})) this.vars[name] = String(result?.[field]);
		return answer;
	}

	/** The token the last ownership request wrote into the log bucket, read through the gateway. */
	private async challenge(): Promise<string> {
		const file = this.vars.challenge_file;
		if (file === undefined) throw new Error("no ownership challenge was requested before");
		const response = await fetch(`${this.base}/${file}`, {
			headers: { authorization: `Bearer ${GATEWAY_TOKEN}`, "x-r2-bucket": LOG_BUCKET },
		});
		expect(response.status).toBe(200);
		return (await response.text()).trim();
	}
}

describe("the API's example requests (fixtures/api), in file order", () => {
	const flow = new Flow(inject("dev").url);
	for (const fixture of fixtures) {
		it(`answers ${fixture.expect} to ${fixture.file}: ${fixture.description}`, async () => {
			const answer = await flow.send(fixture);
			expect(answer.status, JSON.stringify(answer.body)).toBe(fixture.expect);
		});
	}
});

describe("the API's state across a restart of wrangler dev", () => {
	let dev: RunningDev | undefined;
	beforeAll(async () => {
		dev = await startDev(DEV_VARS_EXAMPLE);
	});
	afterAll(async () => {
		await dev?.stop();
	});

	/** Each bucket's name and CreationDate (ms) as ListBuckets answers them. */
	const bucketDates = async (url: string) => {
		const { Buckets = [] } = await s3Client(url, await credentialsOf()).send(new ListBucketsCommand({}));
		return Buckets.map((bucket) => [bucket.Name, bucket.CreationDate?.getTime()]);
	};

	it("reads the ruleset and the jobs back unchanged after wrangler dev stops and starts on the same state", async () => {
		if (dev === undefined) throw new Error("wrangler dev did not start");
		const before = new Flow(dev.url);
		for (const fixture of fixtures) expect((await before.send(fixture)).status).toBe(fixture.expect);
		const created = await bucketDates(dev.url);
		await dev.stop();
		dev = await startDev(DEV_VARS_EXAMPLE, { persistTo: dev.persistTo });
		// The buckets' creation dates, which the buckets' ledgers recorded, are the same after it.
		expect(await bucketDates(dev.url)).toEqual(created);
		for (const [name, date] of created) expect(date, String(name)).toBeGreaterThan(Date.parse("2020-01-01"));
		const after = new Flow(dev.url);
		Object.assign(after.vars, before.vars);
		for (const file of READ_BACK) {
			const fixture = fixtures.find((f) => f.file === file);
			if (fixture === undefined) throw new Error(`fixtures/api/${file} is missing`);
			expect(await after.send(fixture), file).toEqual(before.answers.get(file));
		}
	});
});
