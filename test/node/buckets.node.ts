/**
 * Buckets created at run time, driven from outside by real clients against wrangler dev: the AWS
 * SDK's CreateBucket/DeleteBucket, the aws CLI's `mb`/`rb` (Debian's awscli), and wrangler itself
 * as a client of the R2 REST API (`CLOUDFLARE_API_BASE_URL` pointed at edgezone's `/client/v4`):
 * `r2 bucket create/list/info/delete`, `r2 bucket cors set/list`, `r2 bucket lifecycle
 * add/list/remove` and `r2 object put/get/delete --remote`, each bucket created, filled, listed,
 * emptied and deleted, and seen by the other dialects.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import {
	type BucketLocationConstraint,
	CreateBucketCommand,
	DeleteBucketCommand,
	DeleteObjectCommand,
	GetObjectCommand,
	HeadBucketCommand,
	ListBucketsCommand,
	ListObjectsV2Command,
	PutObjectCommand,
} from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Credentials, credentialsOf, DEV_TOKEN, s3Client } from "./s3.ts";

const dev = inject("dev");
const ACCOUNT = "01a7362d577a6c3019a474fd6f485823";
const AWS = "/usr/bin/aws";
const BIN = join(import.meta.dirname, "..", "..", "node_modules", ".bin");

const work = mkdtempSync(join(tmpdir(), "edgezone-buckets-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const home = join(work, "home");
mkdirSync(home);

let credentials: Credentials;
beforeAll(async () => {
	credentials = await credentialsOf();
});

const unique = (stem: string) => `${stem}-${Math.random().toString(36).slice(2, 10)}`;

/** This process's environment without the settings of a developer's own AWS or Cloudflare account. */
const cleanEnv = (): NodeJS.ProcessEnv =>
	Object.fromEntries(
		Object.entries(process.env).filter(
			([name]) => !name.startsWith("AWS_") && !name.startsWith("CLOUDFLARE_") && !name.startsWith("WRANGLER_"),
		),
	);

/** Runs a command; answers stdout and stderr together, or rejects with them in the message. */
async function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
	try {
		const { stdout, stderr } = await promisify(execFile)(file, args, { env, cwd: work, maxBuffer: 16 * 1024 * 1024 });
		return `${stderr}${stdout}`;
	} catch (error) {
		const { stderr, stdout } = error as { stderr?: string; stdout?: string };
		throw new Error(`${file} ${args.join(" ")} failed:\n${stderr ?? ""}${stdout ?? ""}`);
	}
}

/** A command that must fail: answers what it printed. */
async function refused(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<string> {
	try {
		await promisify(execFile)(file, args, { env, cwd: work });
	} catch (error) {
		const { stderr, stdout } = error as { stderr?: string; stdout?: string };
		return `${stderr ?? ""}${stdout ?? ""}`;
	}
	throw new Error(`${file} ${args.join(" ")} succeeded`);
}

describe("the AWS SDK's CreateBucket and DeleteBucket", () => {
	it("creates a bucket, fills, lists, empties and deletes it; ListBuckets has it meanwhile", async () => {
		const s3 = s3Client(dev.url, credentials);
		const Bucket = unique("sdk");
		await s3.send(
			new CreateBucketCommand({
				Bucket,
				// R2's one location; not among the SDK's AWS regions.
				CreateBucketConfiguration: { LocationConstraint: "auto" as BucketLocationConstraint },
			}),
		);
		await s3.send(new HeadBucketCommand({ Bucket }));
		const listed = await s3.send(new ListBucketsCommand({}));
		const entry = listed.Buckets?.find((b) => b.Name === Bucket);
		expect(entry?.CreationDate?.getTime()).toBeGreaterThan(Date.now() - 120_000);
		await s3.send(new PutObjectCommand({ Bucket, Key: "a/one.txt", Body: "one" }));
		await s3.send(new PutObjectCommand({ Bucket, Key: "b.txt", Body: "b" }));
		const keys = await s3.send(new ListObjectsV2Command({ Bucket }));
		expect(keys.Contents?.map((o) => o.Key)).toEqual(["a/one.txt", "b.txt"]);
		expect(await (await s3.send(new GetObjectCommand({ Bucket, Key: "a/one.txt" }))).Body?.transformToString()).toBe(
			"one",
		);
		await expect(s3.send(new DeleteBucketCommand({ Bucket }))).rejects.toMatchObject({ name: "BucketNotEmpty" });
		await s3.send(new DeleteObjectCommand({ Bucket, Key: "a/one.txt" }));
		await s3.send(new DeleteObjectCommand({ Bucket, Key: "b.txt" }));
		await s3.send(new DeleteBucketCommand({ Bucket }));
		await expect(s3.send(new HeadBucketCommand({ Bucket }))).rejects.toMatchObject({
			$metadata: { httpStatusCode: 404 },
		});
	});
});

describe.skipIf(!existsSync(AWS))("the aws CLI's mb and rb (Debian's awscli)", () => {
	it("makes a bucket, copies into it, lists, removes everything with rb --force", async () => {
		const env = {
			...cleanEnv(),
			HOME: home,
			AWS_ACCESS_KEY_ID: credentials.accessKeyId,
			AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
			AWS_DEFAULT_REGION: "auto",
			AWS_CONFIG_FILE: join(home, "aws-config"),
			AWS_SHARED_CREDENTIALS_FILE: join(home, "aws-credentials"),
			AWS_EC2_METADATA_DISABLED: "true",
			AWS_PAGER: "",
		};
		const aws = (...args: string[]) => run(AWS, ["--endpoint-url", dev.url, ...args], env);
		const bucket = unique("cli");
		expect(await aws("s3", "mb", `s3://${bucket}`)).toContain(`make_bucket: ${bucket}`);
		expect(await aws("s3", "ls")).toMatch(new RegExp(` ${bucket}$`, "m"));
		const local = join(work, "cli.txt");
		writeFileSync(local, "from the aws CLI");
		await aws("s3", "cp", local, `s3://${bucket}/docs/cli.txt`);
		expect(await aws("s3", "ls", `s3://${bucket}/docs/`)).toMatch(/ 16 cli\.txt$/m);
		expect(await refused(AWS, ["--endpoint-url", dev.url, "s3", "rb", `s3://${bucket}`], env)).toContain(
			"BucketNotEmpty",
		);
		expect(await aws("s3", "rb", `s3://${bucket}`, "--force")).toContain(`remove_bucket: ${bucket}`);
		expect(await aws("s3", "ls")).not.toContain(bucket);
	});
});

describe("wrangler as a client of the R2 REST API", () => {
	const env = (): NodeJS.ProcessEnv => ({
		...cleanEnv(),
		// The project's Node (the `node` package), which wrangler asks for.
		PATH: `${BIN}:${process.env.PATH ?? ""}`,
		HOME: home,
		CI: "true",
		CLOUDFLARE_API_BASE_URL: `${dev.url}/client/v4`,
		CLOUDFLARE_API_TOKEN: DEV_TOKEN,
		CLOUDFLARE_ACCOUNT_ID: ACCOUNT,
		WRANGLER_SEND_METRICS: "false",
	});
	const wrangler = (...args: string[]) => run(join(BIN, "wrangler"), args, env());

	it("creates, lists, describes and deletes a bucket; sets and lists its CORS and lifecycle; puts, gets and deletes an object", async () => {
		const bucket = unique("wrangler");
		await wrangler("r2", "bucket", "create", bucket);
		expect(await wrangler("r2", "bucket", "list")).toContain(`name:           ${bucket}`);
		expect(await wrangler("r2", "bucket", "info", bucket)).toMatch(/default_storage_class:\s+Standard/);

		const cors = join(work, "cors.json");
		writeFileSync(
			cors,
			JSON.stringify({ rules: [{ allowed: { origins: ["https://app.example"], methods: ["GET"] } }] }),
		);
		await wrangler("r2", "bucket", "cors", "set", bucket, "--file", cors, "--force");
		expect(await wrangler("r2", "bucket", "cors", "list", bucket)).toMatch(/allowed_origins:\s+https:\/\/app\.example/);
		const s3 = s3Client(dev.url, credentials);

		await wrangler(
			"r2",
			"bucket",
			"lifecycle",
			"add",
			bucket,
			"expire-logs",
			"logs/",
			"--expire-days",
			"30",
			"--force",
		);
		expect(await wrangler("r2", "bucket", "lifecycle", "list", bucket)).toMatch(
			/name:\s+expire-logs[\s\S]*after 30 days/,
		);
		await wrangler("r2", "bucket", "lifecycle", "remove", bucket, "--name", "expire-logs");
		expect(await wrangler("r2", "bucket", "lifecycle", "list", bucket)).not.toContain("expire-logs");

		const local = join(work, "hello.txt");
		writeFileSync(local, "hello from wrangler");
		await wrangler("r2", "object", "put", `${bucket}/dir/hello.txt`, "--file", local, "--remote");
		const viaS3 = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: "dir/hello.txt" }));
		expect(await viaS3.Body?.transformToString()).toBe("hello from wrangler");
		const back = join(work, "back.txt");
		await wrangler("r2", "object", "get", `${bucket}/dir/hello.txt`, "--file", back, "--remote");
		expect(readFileSync(back, "utf8")).toBe("hello from wrangler");
		expect(await refused(join(BIN, "wrangler"), ["r2", "bucket", "delete", bucket], env())).toContain("[code: 10008]");
		await wrangler("r2", "object", "delete", `${bucket}/dir/hello.txt`, "--remote");
		await wrangler("r2", "bucket", "delete", bucket);
		expect(await wrangler("r2", "bucket", "list")).not.toContain(bucket);
		await expect(s3.send(new HeadBucketCommand({ Bucket: bucket }))).rejects.toMatchObject({
			$metadata: { httpStatusCode: 404 },
		});
	});
});
