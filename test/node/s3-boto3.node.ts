/**
 * boto3 (the first Python that has it; .ci/run installs Debian's `python3-boto3`) against wrangler dev, configured as R2's
 * docs configure it (https://developers.cloudflare.com/r2/examples/aws/boto3/) and otherwise
 * unchanged. test/node/s3-boto3.py makes the calls and prints what boto3 answered as JSON; this file
 * asserts it, and reads every write back through the native dialect (plain HTTP with the gateway's
 * token): objects (put with Content-Type and metadata, whole and ranged get, head), listings
 * (delimiter, paginator), copy, delete_objects, s3transfer's multipart upload_file / upload_fileobj
 * and ranged download_file, presigned GET and PUT fetched with plain `fetch`, and the ClientErrors a
 * user meets (an unknown key, a wrong secret, which stores nothing).
 */
import { execFile, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { BUCKET, type Credentials, credentialsOf, nativeBucket, patternBytes, sha256Hex } from "./s3.ts";

const dev = inject("dev");
const native = nativeBucket(dev.url);
const MiB = 1024 * 1024;
const SCRIPT = join(import.meta.dirname, "s3-boto3.py");
/**
 * The executable of the first Python that imports boto3: `python3` on PATH (a pyenv or venv
 * install), then Debian's, whose `python3-boto3` .ci/run installs. None: in CI (`CI=true`, as
 * test/dash/e2e/global-setup.ts reads it) the file fails; elsewhere its tests are skipped, loudly.
 */
const PYTHON = ["python3", "/usr/bin/python3"]
	.map((python) => spawnSync(python, ["-c", "import boto3, sys; print(sys.executable)"], { encoding: "utf8" }))
	// Its own path, not a pyenv shim's: the shim finds its Python through HOME, which boto3() changes.
	.find((found) => found.status === 0)
	?.stdout.trim();
if (PYTHON === undefined) {
	const why =
		"No Python with boto3 (tried python3 on PATH, then /usr/bin/python3): the boto3 tests need it. Install it with `apt-get install -y python3-boto3` (Debian) or `pip install boto3`.";
	if (process.env.CI === "true") throw new Error(why);
	console.warn(`\n${"!".repeat(100)}\n!! SKIPPING THE BOTO3 TESTS. ${why}\n${"!".repeat(100)}\n`);
}

const work = mkdtempSync(join(tmpdir(), "edgezone-s3-boto3-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let admin: Credentials;
beforeAll(async () => {
	admin = await credentialsOf();
});

/**
 * Runs a case of s3-boto3.py with `credentials`, in a HOME of its own and without this machine's
 * AWS_* settings (a config file or a CA bundle would change what boto3 does); answers its JSON.
 */
async function boto3<T = Record<string, unknown>>(args: string[], credentials = admin): Promise<T> {
	const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("AWS_")));
	const env = {
		...base,
		HOME: work,
		AWS_CONFIG_FILE: join(work, "aws-config"),
		AWS_SHARED_CREDENTIALS_FILE: join(work, "aws-credentials"),
		AWS_EC2_METADATA_DISABLED: "true",
		S3_ENDPOINT: dev.url,
		S3_ACCESS_KEY_ID: credentials.accessKeyId,
		S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
		S3_BUCKET: BUCKET,
	};
	try {
		const { stdout } = await promisify(execFile)(PYTHON ?? "python3", [SCRIPT, ...args], { env });
		return JSON.parse(stdout) as T;
	} catch (error) {
		const { stderr, stdout } = error as { stderr?: string; stdout?: string };
		throw new Error(`s3-boto3.py ${args.join(" ")} failed:\n${stderr ?? ""}${stdout ?? ""}`);
	}
}

/**
 * What the native dialect serves for `key` (a GET with the gateway's read-write token of
 * .dev.vars.example): its body by SHA-256, Content-Type and x-amz-meta-* headers; null when 404.
 */
async function served(key: string) {
	const answer = await fetch(`${dev.url}/${key}`, { headers: { Authorization: "Bearer dev-token" } });
	if (answer.status === 404) {
		await answer.body?.cancel();
		return null;
	}
	expect(answer.status).toBe(200);
	const meta = Object.fromEntries([...answer.headers].filter(([name]) => name.startsWith("x-amz-meta-")));
	return {
		sha256: sha256Hex(new Uint8Array(await answer.arrayBuffer())),
		contentType: answer.headers.get("content-type"),
		meta,
	};
}

const md5 = (bytes: Uint8Array | string) => createHash("md5").update(bytes).digest();

describe.skipIf(PYTHON === undefined)("boto3 against wrangler dev", () => {
	it("puts an object with a Content-Type and metadata, gets it whole and by range, and heads it", async () => {
		const key = "s3-boto3/objects/hello.txt";
		const body = "hello from boto3";
		const etag = `"${md5(body).toString("hex")}"`;
		const metadata = { owner: "ops", project: "edgezone" };
		expect(await boto3(["objects", key, body])).toEqual({
			put: { ETag: etag },
			get: { Body: body, ContentType: "text/plain; charset=utf-8", ContentLength: 16, Metadata: metadata, ETag: etag },
			range: { Body: "from", ContentRange: "bytes 6-9/16", ContentLength: 4, status: 206 },
			head: { ContentType: "text/plain; charset=utf-8", ContentLength: 16, Metadata: metadata, ETag: etag },
		});
		expect(await served(key)).toEqual({
			sha256: sha256Hex(body),
			contentType: "text/plain; charset=utf-8",
			meta: { "x-amz-meta-owner": "ops", "x-amz-meta-project": "edgezone" },
		});
	});

	it("lists with a Delimiter: the keys at that level, and the common prefixes of those below", async () => {
		const keys = ["a.txt", "b.txt", "sub/c.txt", "sub/deep/d.txt", "other/e.txt"];
		await Promise.all(keys.map((key) => native.put(`s3-boto3/list/${key}`, key)));
		expect(await boto3(["list-delimited", "s3-boto3/list/"])).toEqual({
			keys: ["s3-boto3/list/a.txt", "s3-boto3/list/b.txt"],
			prefixes: ["s3-boto3/list/other/", "s3-boto3/list/sub/"],
			// S3 counts both: "KeyCount ... is the number of keys returned with this request"
			// including common prefixes (https://docs.aws.amazon.com/AmazonS3/latest/API/API_ListObjectsV2.html).
			KeyCount: 4,
			IsTruncated: false,
		});
	});

	it("pages through more keys than MaxKeys with list_objects_v2's paginator", async () => {
		const keys = Array.from({ length: 7 }, (_, i) => `s3-boto3/many/key-${i}`);
		await Promise.all(keys.map((key) => native.put(key, key)));
		expect(await boto3(["paginate", "s3-boto3/many/", "3"])).toEqual({
			pages: [keys.slice(0, 3), keys.slice(3, 6), keys.slice(6)],
		});
	});

	it("copies an object with copy_object, its bytes, Content-Type and metadata with it", async () => {
		const body = patternBytes(10_000, 3);
		const etag = `"${md5(body).toString("hex")}"`;
		await native.put("s3-boto3/copy/source.bin", body, {
			httpMetadata: { contentType: "application/x-boto3" },
			customMetadata: { origin: "native" },
		});
		expect(await boto3(["copy", "s3-boto3/copy/source.bin", "s3-boto3/copy/copied.bin"])).toEqual({
			ETag: etag,
			head: { ContentType: "application/x-boto3", Metadata: { origin: "native" }, ETag: etag },
		});
		expect(await served("s3-boto3/copy/copied.bin")).toEqual({
			sha256: sha256Hex(body),
			contentType: "application/x-boto3",
			meta: { "x-amz-meta-origin": "native" },
		});
	});

	it("deletes keys with delete_objects, and they are gone", async () => {
		const keys = ["s3-boto3/delete/one", "s3-boto3/delete/two"];
		await Promise.all(keys.map((key) => native.put(key, key)));
		// S3 reports a key that was not there as deleted too
		// (https://docs.aws.amazon.com/AmazonS3/latest/API/API_DeleteObjects.html).
		expect(await boto3(["delete", ...keys, "s3-boto3/delete/never-there"])).toEqual({
			Deleted: [...keys, "s3-boto3/delete/never-there"].sort(),
			Errors: [],
			remaining: [],
		});
		expect(await Promise.all(keys.map(served))).toEqual([null, null]);
	});

	it("uploads 12 MiB in three parts with upload_file and upload_fileobj, and downloads it with download_file", async () => {
		const bytes = patternBytes(12 * MiB, 19);
		const path = join(work, "twelve.bin");
		writeFileSync(path, bytes);
		const downloaded = join(work, "downloaded.bin");
		// A multipart ETag: the MD5 of the parts' MD5s, then "-" and the number of parts, here
		// 5 + 5 + 2 MiB (https://docs.aws.amazon.com/AmazonS3/latest/userguide/checking-object-integrity.html).
		const parts = [bytes.subarray(0, 5 * MiB), bytes.subarray(5 * MiB, 10 * MiB), bytes.subarray(10 * MiB)];
		const etag = `"${md5(Buffer.concat(parts.map((part) => md5(part)))).toString("hex")}-3"`;
		expect(await boto3(["transfer", path, "s3-boto3/transfer/", downloaded])).toEqual({
			upload_file: etag,
			upload_fileobj: etag,
		});
		expect(sha256Hex(readFileSync(downloaded))).toBe(sha256Hex(bytes));
		for (const key of ["s3-boto3/transfer/upload_file.bin", "s3-boto3/transfer/upload_fileobj.bin"]) {
			expect((await served(key))?.sha256).toBe(sha256Hex(bytes));
		}
	});

	it("presigns get_object and put_object URLs that plain fetch uses", async () => {
		const key = "s3-boto3/presigned/object.txt";
		const urls = await boto3<{ get: string; put: string }>(["presign", key]);
		for (const url of [urls.get, urls.put]) {
			expect(new URL(url).searchParams.get("X-Amz-Algorithm")).toBe("AWS4-HMAC-SHA256");
		}
		const stored = await fetch(urls.put, { method: "PUT", body: "presigned by boto3" });
		expect([stored.status, await stored.text()]).toEqual([200, ""]);
		expect((await served(key))?.sha256).toBe(sha256Hex("presigned by boto3"));
		const read = await fetch(urls.get);
		expect([read.status, await read.text()]).toEqual([200, "presigned by boto3"]);
	});

	it("raises ClientError 304 for get_object with If-None-Match its ETag, checksum mode on", async () => {
		// botocore checks an answer's x-amz-checksum-* against its body before it looks at the
		// status: a 304 that carries the object's checksum failed with a TypeError instead.
		expect(await boto3(["not-modified", "s3-boto3/not-modified/object.txt", "cached"])).toEqual({
			error: { code: "304", status: 304 },
		});
		const stored = await native.get("s3-boto3/not-modified/object.txt");
		expect(stored?.checksums.toJSON()).toMatchObject({
			sha256: sha256Hex("cached"),
		});
	});

	it("raises ClientError NoSuchKey for get_object of an unknown key", async () => {
		expect(await boto3(["get", "s3-boto3/missing/nothing-here"])).toEqual({
			error: { code: "NoSuchKey", status: 404 },
		});
	});

	it("raises ClientError SignatureDoesNotMatch for a wrong secret, and stores nothing", async () => {
		const wrong = { accessKeyId: admin.accessKeyId, secretAccessKey: "f".repeat(64) };
		expect(await boto3(["put", "s3-boto3/refused/wrong-secret", "not stored"], wrong)).toEqual({
			error: { code: "SignatureDoesNotMatch", status: 403 },
		});
		expect(await served("s3-boto3/refused/wrong-secret")).toBeNull();
	});
});
