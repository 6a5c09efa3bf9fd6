/**
 * The S3 command-line clients of Debian's packages (`awscli`, `rclone`, `s3cmd`; .ci/run installs
 * them) against wrangler dev, unchanged, each configured as its docs say through environment
 * variables or a config file in a temporary HOME outside the checkout: the aws CLI
 * (https://docs.aws.amazon.com/cli/latest/userguide/cli-configure-envvars.html, `--endpoint-url`),
 * rclone (https://rclone.org/s3/#cloudflare-r2, `RCLONE_CONFIG_<REMOTE>_<OPTION>`), s3cmd
 * (`-c FILE`, path-style when `host_bucket` has no `%(bucket)s`). And the refusals a client meets:
 * a tampered body, a wrong signature, an expired presigned URL and an unknown key, each refused
 * with nothing stored.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AwsClient } from "aws4fetch";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BUCKET, type Credentials, credentialsOf, nativeBucket, patternBytes, sha256Hex } from "./s3.ts";

const dev = inject("dev");
const native = nativeBucket(dev.url);
const MiB = 1024 * 1024;
/** Debian's paths: `aws` on PATH may be another install (a pyenv shim) first. */
const AWS = "/usr/bin/aws";
const RCLONE = "/usr/bin/rclone";
const S3CMD = "/usr/bin/s3cmd";
const CURL = "/usr/bin/curl";

const work = mkdtempSync(join(tmpdir(), "edgezone-s3-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const home = join(work, "home");
mkdirSync(home);

let admin: Credentials;
/** The environment every client runs in: a HOME of its own, none of this machine's AWS settings. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
	admin = await credentialsOf();
	env = envFor(admin);
});

/** The clients' environment for `credentials`: the aws CLI's and rclone's settings. */
function envFor(credentials: Credentials): NodeJS.ProcessEnv {
	const base = Object.fromEntries(
		Object.entries(process.env).filter(([name]) => !name.startsWith("AWS_") && !name.startsWith("RCLONE_")),
	);
	return {
		...base,
		HOME: home,
		AWS_ACCESS_KEY_ID: credentials.accessKeyId,
		AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
		AWS_DEFAULT_REGION: "auto",
		AWS_CONFIG_FILE: join(home, "aws-config"),
		AWS_SHARED_CREDENTIALS_FILE: join(home, "aws-credentials"),
		AWS_EC2_METADATA_DISABLED: "true",
		AWS_PAGER: "",
		RCLONE_CONFIG: join(home, "rclone.conf"),
		RCLONE_CONFIG_EZ_TYPE: "s3",
		RCLONE_CONFIG_EZ_PROVIDER: "Cloudflare",
		RCLONE_CONFIG_EZ_ACCESS_KEY_ID: credentials.accessKeyId,
		RCLONE_CONFIG_EZ_SECRET_ACCESS_KEY: credentials.secretAccessKey,
		RCLONE_CONFIG_EZ_ENDPOINT: dev.url,
		RCLONE_CONFIG_EZ_REGION: "auto",
		// A refusal fails the run at once, not after rclone's minutes of retries.
		RCLONE_RETRIES: "1",
		RCLONE_LOW_LEVEL_RETRIES: "1",
	};
}

/** Runs a client; answers its output (with its stderr when `withStderr`), or rejects with its stderr in the message. */
async function run(file: string, args: string[], environment = env, withStderr = false): Promise<string> {
	try {
		const { stdout, stderr } = await promisify(execFile)(file, args, { env: environment, maxBuffer: 64 * MiB });
		return withStderr ? `${stderr}${stdout}` : stdout;
	} catch (error) {
		const { stderr, stdout } = error as { stderr?: string; stdout?: string };
		throw new Error(`${file} ${args.join(" ")} failed:\n${stderr ?? ""}${stdout ?? ""}`);
	}
}

/** A client run that must fail: answers what it printed. */
async function refused(file: string, args: string[], environment = env): Promise<string> {
	try {
		await promisify(execFile)(file, args, { env: environment });
	} catch (error) {
		const { stderr, stdout } = error as { stderr?: string; stdout?: string };
		return `${stderr ?? ""}${stdout ?? ""}`;
	}
	throw new Error(`${file} ${args.join(" ")} succeeded`);
}

const aws = (...args: string[]) => run(AWS, ["--endpoint-url", dev.url, ...args]);
const file = (name: string, bytes: Uint8Array) => {
	const path = join(work, name);
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, bytes);
	return path;
};
const keysUnder = async (prefix: string) => (await native.list({ prefix })).objects.map((o) => o.key).sort();

describe.skipIf(!existsSync(AWS))("the aws CLI (Debian's awscli) against wrangler dev", () => {
	it("copies a 20 MiB file up and down, the same bytes both ways", async () => {
		const bytes = patternBytes(20 * MiB, 11);
		const source = file("big/up.bin", bytes);
		await aws("s3", "cp", source, `s3://${BUCKET}/s3-cli/aws/big.bin`);
		const stored = await native.head("s3-cli/aws/big.bin");
		expect(stored?.size).toBe(bytes.length);
		const back = join(work, "big/down.bin");
		await aws("s3", "cp", `s3://${BUCKET}/s3-cli/aws/big.bin`, back);
		expect(sha256Hex(readFileSync(back))).toBe(sha256Hex(bytes));
	});

	it("copies a 20 MiB file with a customer key (SSE-C), copies it under another key, and needs the key to read it", async () => {
		const bytes = patternBytes(20 * MiB, 13);
		const source = file("ssec/up.bin", bytes);
		const first = file("ssec/first.key", patternBytes(32, 1));
		const second = file("ssec/second.key", patternBytes(32, 2));
		const sseC = (keyFile: string) => ["--sse-c", "AES256", "--sse-c-key", `fileb://${keyFile}`];
		const stored = `s3://${BUCKET}/s3-cli/ssec/big.bin`;
		await aws("s3", "cp", source, stored, ...sseC(first));
		await aws(
			"s3",
			"cp",
			stored,
			`s3://${BUCKET}/s3-cli/ssec/rekeyed.bin`,
			// A multipart copy otherwise reads the source's tags (GetObjectTagging), which R2 does not implement.
			"--copy-props",
			"metadata-directive",
			"--sse-c-copy-source",
			"AES256",
			"--sse-c-copy-source-key",
			`fileb://${first}`,
			...sseC(second),
		);
		const back = join(work, "ssec/down.bin");
		await aws("s3", "cp", `s3://${BUCKET}/s3-cli/ssec/rekeyed.bin`, back, ...sseC(second));
		expect(sha256Hex(readFileSync(back))).toBe(sha256Hex(bytes));
		const awsArgs = ["--endpoint-url", dev.url, "s3", "cp"];
		expect(await refused(AWS, [...awsArgs, stored, join(work, "ssec/none.bin")])).toMatch(/\(400\).*HeadObject/);
		expect(await refused(AWS, [...awsArgs, stored, join(work, "ssec/other.bin"), ...sseC(second)])).toMatch(
			/\(403\).*HeadObject/,
		);
		await aws("s3", "rm", `s3://${BUCKET}/s3-cli/ssec/`, "--recursive");
		expect(await keysUnder("s3-cli/ssec/")).toEqual([]);
	});

	it("lists buckets and keys", async () => {
		expect(await aws("s3", "ls")).toMatch(/ edgezone-bucket$/m);
		await aws("s3", "cp", file("ls/one.txt", patternBytes(10)), `s3://${BUCKET}/s3-cli/ls/one.txt`);
		expect(await aws("s3", "ls", `s3://${BUCKET}/s3-cli/ls/`)).toMatch(/ 10 one\.txt$/m);
		expect(await aws("s3", "ls", `s3://${BUCKET}/s3-cli/`)).toMatch(/PRE ls\/$/m);
		await aws("s3", "cp", `s3://${BUCKET}/s3-cli/ls/one.txt`, join(work, "ls/back.txt"));
		expect(sha256Hex(readFileSync(join(work, "ls/back.txt")))).toBe(sha256Hex(patternBytes(10)));
	});

	it("syncs a directory up and down, then removes it with rm --recursive", async () => {
		const files = {
			"a.txt": patternBytes(100, 1),
			"sub/b.bin": patternBytes(70_000, 2),
			"sub/deep/c": patternBytes(0),
		};
		for (const [name, bytes] of Object.entries(files)) file(`sync/up/${name}`, bytes);
		await aws("s3", "sync", join(work, "sync/up"), `s3://${BUCKET}/s3-cli/sync`);
		expect(await keysUnder("s3-cli/sync/")).toEqual(
			Object.keys(files)
				.map((name) => `s3-cli/sync/${name}`)
				.sort(),
		);
		// A second sync finds nothing to do.
		expect(await aws("s3", "sync", join(work, "sync/up"), `s3://${BUCKET}/s3-cli/sync`)).toBe("");
		await aws("s3", "sync", `s3://${BUCKET}/s3-cli/sync`, join(work, "sync/down"));
		for (const [name, bytes] of Object.entries(files)) {
			expect(sha256Hex(readFileSync(join(work, "sync/down", name)))).toBe(sha256Hex(bytes));
		}
		await aws("s3", "rm", "--recursive", `s3://${BUCKET}/s3-cli/sync`);
		expect(await keysUnder("s3-cli/sync/")).toEqual([]);
	});
});

describe.skipIf(!existsSync(RCLONE))("rclone (Debian's) against wrangler dev", () => {
	it("copies a directory, then checks it against the bucket", async () => {
		const files = {
			"a.txt": patternBytes(5, 3),
			"sub/b.bin": patternBytes(300_000, 4),
			"sub/c d.txt": patternBytes(7, 5),
		};
		for (const [name, bytes] of Object.entries(files)) file(`rclone/${name}`, bytes);
		await run(RCLONE, ["copy", join(work, "rclone"), `ez:${BUCKET}/s3-cli/rclone`]);
		expect(await keysUnder("s3-cli/rclone/")).toEqual(
			Object.keys(files)
				.map((name) => `s3-cli/rclone/${name}`)
				.sort(),
		);
		await run(RCLONE, ["check", join(work, "rclone"), `ez:${BUCKET}/s3-cli/rclone`]);
		// check compares hashes too: a changed object fails it.
		await native.put("s3-cli/rclone/a.txt", "other");
		expect(await refused(RCLONE, ["check", join(work, "rclone"), `ez:${BUCKET}/s3-cli/rclone`])).toMatch(
			/1 differences/,
		);
	});

	// rclone signs `Accept-Encoding: gzip`, which wrangler dev (as Cloudflare's edge) rewrites to
	// `br, gzip` before the Worker sees it; a text object is then sent gzip-compressed.
	it("reads objects back: copy from the bucket, check --download and cat, the same bytes", async () => {
		const text = "rclone reads what it wrote.\n".repeat(200);
		const files = { "notes.txt": new TextEncoder().encode(text), "sub/data.bin": patternBytes(200_000, 8) };
		for (const [name, bytes] of Object.entries(files)) file(`rclone-read/up/${name}`, bytes);
		const remote = `ez:${BUCKET}/s3-cli/rclone-read`;
		await run(RCLONE, ["copy", join(work, "rclone-read/up"), remote]);
		await run(RCLONE, ["copy", remote, join(work, "rclone-read/down")]);
		for (const [name, bytes] of Object.entries(files)) {
			expect(sha256Hex(readFileSync(join(work, "rclone-read/down", name)))).toBe(sha256Hex(bytes));
		}
		expect(await run(RCLONE, ["check", "--download", join(work, "rclone-read/up"), remote], env, true)).toMatch(
			/0 differences found/,
		);
		expect(await run(RCLONE, ["cat", `${remote}/notes.txt`])).toBe(text);
		// check --download compares bytes: a changed object fails it.
		await native.put("s3-cli/rclone-read/notes.txt", "other");
		expect(await refused(RCLONE, ["check", "--download", join(work, "rclone-read/up"), remote])).toMatch(
			/1 differences found/,
		);
	});
});

describe.skipIf(!existsSync(CURL))("curl --aws-sigv4 against wrangler dev", () => {
	/** curl's signed GET of `key` with `Accept-Encoding: <acceptEncoding>` (signed: curl signs the headers it is given). */
	async function signedGet(key: string, acceptEncoding = "gzip") {
		const out = join(work, "curl", crypto.randomUUID());
		mkdirSync(join(out, ".."), { recursive: true });
		const status = await run(CURL, [
			"--silent",
			...["--aws-sigv4", "aws:amz:auto:s3", "--user", `${admin.accessKeyId}:${admin.secretAccessKey}`],
			...["-H", "x-amz-content-sha256: UNSIGNED-PAYLOAD", "-H", `Accept-Encoding: ${acceptEncoding}`],
			...["--dump-header", `${out}.headers`, "--output", out, "--write-out", "%{http_code}"],
			`${dev.url}/${BUCKET}/${key}`,
		]);
		return { status: Number(status), headers: readFileSync(`${out}.headers`, "utf8"), body: readFileSync(out) };
	}

	it("verifies a GET that signed Accept-Encoding: gzip, and answers the object", async () => {
		const bytes = patternBytes(5000, 21);
		await native.put("s3-cli/curl/object.bin", bytes);
		const answer = await signedGet("s3-cli/curl/object.bin");
		expect(answer.status).toBe(200);
		expect(sha256Hex(answer.body)).toBe(sha256Hex(bytes));
	});

	it("verifies an uncommon signed Accept-Encoding from the client's value, which request.cf keeps", async () => {
		await native.put("s3-cli/curl/uncommon.bin", patternBytes(100, 22));
		const answer = await signedGet("s3-cli/curl/uncommon.bin", "x-edgezone-test");
		expect(answer.status).toBe(200);
		expect(sha256Hex(answer.body)).toBe(sha256Hex(patternBytes(100, 22)));
	});

	it("answers an error uncompressed, though the client accepts gzip", async () => {
		const answer = await signedGet("s3-cli/curl/missing");
		expect(answer.status).toBe(404);
		expect(answer.headers).toMatch(/^content-encoding: identity\r$/im);
		expect(answer.body.toString("utf8")).toMatch(/^<\?xml .*<Code>NoSuchKey<\/Code>/);
	});
});

describe.skipIf(!existsSync(S3CMD))("s3cmd (Debian's) against wrangler dev", () => {
	it("puts, lists and gets a file", async () => {
		const config = join(home, "s3cfg");
		const host = new URL(dev.url).host;
		writeFileSync(
			config,
			[
				"[default]",
				`access_key = ${admin.accessKeyId}`,
				`secret_key = ${admin.secretAccessKey}`,
				`host_base = ${host}`,
				`host_bucket = ${host}`,
				"bucket_location = auto",
				"use_https = False",
				"signature_v2 = False",
			].join("\n"),
		);
		const s3cmd = (...args: string[]) => run(S3CMD, ["-c", config, ...args]);
		const bytes = patternBytes(400_000, 9);
		await s3cmd("put", file("s3cmd/up.bin", bytes), `s3://${BUCKET}/s3-cli/s3cmd/file.bin`);
		expect(await s3cmd("ls", `s3://${BUCKET}/s3-cli/s3cmd/`)).toMatch(
			/ 400000 +s3:\/\/edgezone-bucket\/s3-cli\/s3cmd\/file\.bin$/m,
		);
		expect(await s3cmd("ls")).toMatch(/s3:\/\/edgezone-bucket$/m);
		const back = join(work, "s3cmd/down.bin");
		await s3cmd("get", `s3://${BUCKET}/s3-cli/s3cmd/file.bin`, back);
		expect(sha256Hex(readFileSync(back))).toBe(sha256Hex(bytes));
	});
});

describe("refused requests store nothing", () => {
	const body = patternBytes(1000, 12);

	it.skipIf(!existsSync(AWS))("refuses a wrong secret with SignatureDoesNotMatch (aws CLI)", async () => {
		const wrong = envFor({ accessKeyId: admin.accessKeyId, secretAccessKey: "f".repeat(64) });
		const output = await refused(
			AWS,
			["--endpoint-url", dev.url, "s3", "cp", file("refused/a", body), `s3://${BUCKET}/s3-cli/refused/signature`],
			wrong,
		);
		expect(output).toMatch(/SignatureDoesNotMatch/);
		expect(await native.head("s3-cli/refused/signature")).toBeNull();
	});

	it.skipIf(!existsSync(AWS))("refuses an unknown access key with InvalidAccessKeyId (aws CLI)", async () => {
		const stranger = envFor({ accessKeyId: "0".repeat(32), secretAccessKey: admin.secretAccessKey });
		const output = await refused(
			AWS,
			["--endpoint-url", dev.url, "s3", "cp", file("refused/b", body), `s3://${BUCKET}/s3-cli/refused/unknown`],
			stranger,
		);
		expect(output).toMatch(/InvalidAccessKeyId/);
		expect(await native.head("s3-cli/refused/unknown")).toBeNull();
	});

	it.skipIf(!existsSync(AWS))("refuses a body whose Content-MD5 does not match with BadDigest (aws CLI)", async () => {
		const output = await refused(AWS, [
			"--endpoint-url",
			dev.url,
			"s3api",
			"put-object",
			"--bucket",
			BUCKET,
			"--key",
			"s3-cli/refused/md5",
			"--body",
			file("refused/c", body),
			"--content-md5",
			"1B2M2Y8AsgTpgAmY7PhCfg==",
		]);
		expect(output).toMatch(/BadDigest/);
		expect(await native.head("s3-cli/refused/md5")).toBeNull();
	});

	it("refuses a body changed after signing with XAmzContentSHA256Mismatch", async () => {
		const signer = new AwsClient({ ...admin, service: "s3", region: "auto" });
		// The body's SHA-256 signed, as the aws CLI and boto3 send a PutObject over plain HTTP.
		const signed = await signer.sign(`${dev.url}/${BUCKET}/s3-cli/refused/tampered`, {
			method: "PUT",
			body,
			headers: { "x-amz-content-sha256": sha256Hex(body) },
		});
		const tampered = new Uint8Array(body);
		tampered[0] = (tampered[0] ?? 0) ^ 1;
		const answer = await fetch(signed.url, { method: "PUT", headers: signed.headers, body: tampered });
		expect([answer.status, await answer.text()]).toEqual([400, expect.stringContaining("XAmzContentSHA256Mismatch")]);
		expect(await native.head("s3-cli/refused/tampered")).toBeNull();
	});

	it.skipIf(!existsSync(AWS))("refuses a URL of aws s3 presign past its expiry with AccessDenied", async () => {
		await native.put("s3-cli/refused/presigned", "secret");
		const fresh = (await aws("s3", "presign", `s3://${BUCKET}/s3-cli/refused/presigned`, "--expires-in", "300")).trim();
		expect(await (await fetch(fresh)).text()).toBe("secret");
		const url = (await aws("s3", "presign", `s3://${BUCKET}/s3-cli/refused/presigned`, "--expires-in", "1")).trim();
		expect(new URL(url).searchParams.get("X-Amz-Expires")).toBe("1");
		// Waits out the one second the URL lives: the expiry is checked to the second.
		await new Promise((resolve) => setTimeout(resolve, 2100));
		const answer = await fetch(url);
		expect([answer.status, await answer.text()]).toEqual([403, expect.stringContaining("<Code>AccessDenied</Code>")]);
	});
});
