/**
 * Object lifecycle rules through S3 (src/edge/s3/bucket-lifecycle.ts) and their effect on the
 * bucket (src/bucket/lifecycle/sweep.ts), seen through `env.BUCKET` and S3's own listings, with
 * the emulator route that applies them at a chosen moment (`/zones/{zone_id}/emulator/buckets`).
 */
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type BucketLedger, bucketLedger } from "../../src/bucket/bucket-ledger";
import { R2_ADMIN_READ_TOKEN, R2_BUCKET_ITEM_TOKEN, READ_TOKEN } from "../api/credentials";
import { call, zonePath } from "../api/http";
import { BUCKET, clientOf, expectS3Error, s3, xmlOf } from "./helpers";

const DAY = 86_400_000;
const LIFECYCLE = `/${BUCKET}?lifecycle`;

interface RuleXml {
	ID: string;
	Filter?: { Prefix: string };
	Prefix?: string;
	Status: string;
	Expiration?: { Days?: string; Date?: string };
	AbortIncompleteMultipartUpload?: { DaysAfterInitiation: string };
}

/** The rules GetBucketLifecycleConfiguration answers. */
async function rulesOf(response: Response): Promise<RuleXml[]> {
	expect(response.status).toBe(200);
	const { LifecycleConfiguration: config } = await xmlOf<{ LifecycleConfiguration: { Rule: RuleXml | RuleXml[] } }>(
		response,
	);
	return [config.Rule].flat();
}

const putRules = (rules: string) =>
	s3(LIFECYCLE, { method: "PUT", body: `<LifecycleConfiguration>${rules}</LifecycleConfiguration>` });

const expireRule = (id: string, prefix: string, days: number, status = "Enabled") =>
	`<Rule><ID>${id}</ID><Filter><Prefix>${prefix}</Prefix></Filter><Status>${status}</Status><Expiration><Days>${days}</Days></Expiration></Rule>`;

/** Applies the rules as at `at` through the emulator route; its `result`. */
async function sweepAt(at: number, bucket = BUCKET) {
	const answer = await call("POST", zonePath(`/emulator/buckets/${bucket}/lifecycle`), {
		at: new Date(at).toISOString(),
	});
	expect(answer.status).toBe(200);
	return answer.body.result as { bucket: string; at: string; objects_expired: number; uploads_aborted: number };
}

async function createUpload(key: string): Promise<string> {
	const { InitiateMultipartUploadResult: result } = await xmlOf<{
		InitiateMultipartUploadResult: { UploadId: string };
	}>(await s3(`/${BUCKET}/${key}?uploads`, { method: "POST" }));
	return result.UploadId;
}

describe("GetBucketLifecycleConfiguration, PutBucketLifecycleConfiguration, DeleteBucketLifecycle", () => {
	it("answers R2's default rule before any configuration, replaces every rule on a put, and 404s after a delete", async () => {
		// No test of this file configures the log bucket: it has R2's default rule.
		const fresh = await rulesOf(await s3(`/edgezone-logs?lifecycle`));
		expect(fresh).toEqual([
			{
				ID: "Default Multipart Abort Rule",
				Filter: { Prefix: "" },
				Status: "Enabled",
				AbortIncompleteMultipartUpload: { DaysAfterInitiation: "7" },
			},
		]);

		const put = await putRules(
			expireRule("logs", "logs/", 90) +
				"<Rule><ID>2019</ID><Filter><Prefix>2019/</Prefix></Filter><Status>Disabled</Status><Expiration><Date>2024-01-01T00:00:00Z</Date></Expiration></Rule>" +
				// S3's older form, a prefix of the rule's own, is answered back in that form.
				"<Rule><ID>old</ID><Prefix>old/</Prefix><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>",
		);
		expect(put.status).toBe(200);
		expect(await rulesOf(await s3(LIFECYCLE))).toEqual([
			{ ID: "logs", Filter: { Prefix: "logs/" }, Status: "Enabled", Expiration: { Days: "90" } },
			{ ID: "2019", Filter: { Prefix: "2019/" }, Status: "Disabled", Expiration: { Date: "2024-01-01T00:00:00Z" } },
			{ ID: "old", Prefix: "old/", Status: "Enabled", Expiration: { Days: "3" } },
		]);

		const deleted = await s3(LIFECYCLE, { method: "DELETE" });
		expect(deleted.status).toBe(204);
		const error = await expectS3Error(await s3(LIFECYCLE), 404, "NoSuchLifecycleConfiguration");
		expect(error?.BucketName).toBe(BUCKET);
	});

	it("refuses a document it cannot apply, and keeps the rules it had", async () => {
		expect((await putRules(expireRule("kept", "kept/", 5))).status).toBe(200);
		await expectS3Error(await putRules("<Rule>"), 400, "MalformedXML");
		await expectS3Error(await putRules(expireRule("zero", "", 0)), 400, "InvalidArgument");
		const transition = await expectS3Error(
			await putRules(
				"<Rule><ID>ia</ID><Status>Enabled</Status><Transition><Days>30</Days><StorageClass>STANDARD_IA</StorageClass></Transition></Rule>",
			),
			501,
			"NotImplemented",
		);
		expect(transition?.Message).toContain("Transition");
		expect((await rulesOf(await s3(LIFECYCLE))).map((rule) => rule.ID)).toEqual(["kept"]);
	});

	it("needs Admin Read & Write to change the rules, and an Admin permission to read them", async () => {
		const objectWriter = await clientOf(R2_BUCKET_ITEM_TOKEN);
		const adminReader = await clientOf(R2_ADMIN_READ_TOKEN);
		await expectS3Error(await s3(LIFECYCLE, {}, objectWriter), 403, "AccessDenied");
		expect((await s3(LIFECYCLE, {}, adminReader)).status).not.toBe(403);
		await expectS3Error(
			await s3(
				LIFECYCLE,
				{ method: "PUT", body: `<LifecycleConfiguration>${expireRule("x", "", 1)}</LifecycleConfiguration>` },
				adminReader,
			),
			403,
			"AccessDenied",
		);
		await expectS3Error(await s3(LIFECYCLE, { method: "DELETE" }, adminReader), 403, "AccessDenied");
	});
});

describe("the rules applied", () => {
	it("deletes the objects an enabled expiration rule has made due, and nothing else", async () => {
		expect(
			(await putRules(expireRule("short", "lc-short/", 1) + expireRule("off", "lc-off/", 1, "Disabled"))).status,
		).toBe(200);
		for (const key of ["lc-short/a", "lc-short/b", "lc-off/a", "lc-other/a"]) await env.BUCKET.put(key, key);

		const now = await sweepAt(Date.now());
		expect(now).toMatchObject({ bucket: BUCKET, objects_expired: 0 });
		expect(await env.BUCKET.head("lc-short/a")).not.toBeNull();

		const later = await sweepAt(Date.now() + 3 * DAY);
		expect(later.objects_expired).toBe(2);
		expect(await env.BUCKET.head("lc-short/a")).toBeNull();
		expect(await env.BUCKET.head("lc-short/b")).toBeNull();
		expect(await env.BUCKET.head("lc-off/a")).not.toBeNull();
		expect(await env.BUCKET.head("lc-other/a")).not.toBeNull();
		await env.BUCKET.delete(["lc-off/a", "lc-other/a"]);
	});

	it("expires every object under a rule's prefix on its date", async () => {
		expect(
			(
				await putRules(
					"<Rule><ID>dated</ID><Filter><Prefix>lc-dated/</Prefix></Filter><Status>Enabled</Status><Expiration><Date>2031-01-01T00:00:00Z</Date></Expiration></Rule>",
				)
			).status,
		).toBe(200);
		await env.BUCKET.put("lc-dated/x", "x");
		expect((await sweepAt(Date.parse("2030-12-31T23:59:59Z"))).objects_expired).toBe(0);
		expect((await sweepAt(Date.parse("2031-01-01T00:00:00Z"))).objects_expired).toBe(1);
		expect(await env.BUCKET.head("lc-dated/x")).toBeNull();
	});

	it("aborts an incomplete multipart upload after its days, so S3 no longer lists it", async () => {
		expect(
			(
				await putRules(
					"<Rule><ID>abort</ID><Filter><Prefix>lc-up/</Prefix></Filter><Status>Enabled</Status><AbortIncompleteMultipartUpload><DaysAfterInitiation>2</DaysAfterInitiation></AbortIncompleteMultipartUpload></Rule>",
				)
			).status,
		).toBe(200);
		const uploadId = await createUpload("lc-up/big");
		const kept = await createUpload("lc-elsewhere/big");
		expect((await sweepAt(Date.now() + DAY)).uploads_aborted).toBe(0);
		expect((await sweepAt(Date.now() + 4 * DAY)).uploads_aborted).toBe(1);

		const listed = await (await s3(`/${BUCKET}?uploads`)).text();
		expect(listed).not.toContain(uploadId);
		expect(listed).toContain(kept);
		await expectS3Error(
			await s3(`/${BUCKET}/lc-up/big?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`, {
				method: "PUT",
				body: "part",
			}),
			404,
			"NoSuchUpload",
		);
		await s3(`/${BUCKET}/lc-elsewhere/big?uploadId=${encodeURIComponent(kept)}`, { method: "DELETE" });
	});

	it("R2's default rule aborts an upload left open for seven days, in a bucket never configured", async () => {
		const uploadId = await createUpload("lc-default/upload");
		const logsUpload = await s3(`/edgezone-logs/lc-default/upload?uploads`, { method: "POST" });
		const { InitiateMultipartUploadResult: logs } = await xmlOf<{
			InitiateMultipartUploadResult: { UploadId: string };
		}>(logsUpload);
		expect((await sweepAt(Date.now() + 6 * DAY, "edgezone-logs")).uploads_aborted).toBe(0);
		expect((await sweepAt(Date.now() + 9 * DAY, "edgezone-logs")).uploads_aborted).toBe(1);
		expect(await (await s3("/edgezone-logs?uploads")).text()).not.toContain(logs.UploadId);
		await s3(`/${BUCKET}/lc-default/upload?uploadId=${encodeURIComponent(uploadId)}`, { method: "DELETE" });
	});
});

describe("the daily sweep", () => {
	it("is armed by a put, and applies the rules at real time when its alarm rings", async () => {
		const ledger = bucketLedger(env, "BUCKET");
		await runInDurableObject(ledger, (_: BucketLedger, state) => state.storage.deleteAlarm());
		expect(
			(
				await putRules(
					"<Rule><ID>past</ID><Filter><Prefix>lc-alarm/</Prefix></Filter><Status>Enabled</Status><Expiration><Date>2020-01-01T00:00:00Z</Date></Expiration></Rule>",
				)
			).status,
		).toBe(200);
		const alarm = await runInDurableObject(ledger, (_: BucketLedger, state) => state.storage.getAlarm());
		expect(alarm).toBeGreaterThan(Date.now() + DAY - 60_000);
		await env.BUCKET.put("lc-alarm/old", "old");
		expect(await runDurableObjectAlarm(ledger)).toBe(true);
		expect(await env.BUCKET.head("lc-alarm/old")).toBeNull();
		// Armed again for the next day.
		expect(await runInDurableObject(ledger, (_: BucketLedger, state) => state.storage.getAlarm())).not.toBeNull();
	});
});

describe("the emulator route", () => {
	it("answers 404 for a bucket wrangler.toml does not declare, 400 for a bad moment, 403 without R2 write", async () => {
		const missing = await call("POST", zonePath("/emulator/buckets/not-declared/lifecycle"), {});
		expect(missing.status).toBe(404);
		expect(missing.body.errors?.[0]?.code).toBe(9404);
		const bad = await call("POST", zonePath(`/emulator/buckets/${BUCKET}/lifecycle`), { at: "tomorrow" });
		expect(bad.status).toBe(400);
		expect(bad.body.errors?.[0]?.code).toBe(9400);
		const reader = await call(
			"POST",
			zonePath(`/emulator/buckets/${BUCKET}/lifecycle`),
			{},
			{
				Authorization: `Bearer ${READ_TOKEN}`,
			},
		);
		expect(reader.status).toBe(403);
	});
});

describe("x-amz-expiration", () => {
	it("tells each write (put, copy, completed upload) and read when a rule expires the object, and which rule", async () => {
		expect(
			(await putRules(expireRule("week", "lc-exp/", 7) + expireRule('say "soon"', "lc-exp/soon/", 1))).status,
		).toBe(200);
		const put = await s3(`/${BUCKET}/lc-exp/a.txt`, { method: "PUT", body: "a" });
		expect(put.status).toBe(200);
		const uploaded = (await env.BUCKET.head("lc-exp/a.txt"))?.uploaded.getTime() ?? 0;
		const due = new Date((Math.floor((uploaded + 7 * DAY) / DAY) + 1) * DAY).toUTCString();
		const expected = `expiry-date="${due}", rule-id="week"`;
		expect(put.headers.get("x-amz-expiration")).toBe(expected);
		expect((await s3(`/${BUCKET}/lc-exp/a.txt`)).headers.get("x-amz-expiration")).toBe(expected);
		expect((await s3(`/${BUCKET}/lc-exp/a.txt`, { method: "HEAD" })).headers.get("x-amz-expiration")).toBe(expected);

		// The earliest rule wins; its ID quoted as a header's quoted-string.
		await env.BUCKET.put("lc-exp/soon/b.txt", "b");
		expect((await s3(`/${BUCKET}/lc-exp/soon/b.txt`, { method: "HEAD" })).headers.get("x-amz-expiration")).toMatch(
			/, rule-id="say \\"soon\\""$/,
		);
		// A copy and a completed upload are new objects, and are told too.
		const copy = await s3(`/${BUCKET}/lc-exp/copy.txt`, {
			method: "PUT",
			headers: { "x-amz-copy-source": `/${BUCKET}/lc-exp/a.txt` },
		});
		expect(copy.status).toBe(200);
		const copied = (await env.BUCKET.head("lc-exp/copy.txt"))?.uploaded.getTime() ?? 0;
		expect(copy.headers.get("x-amz-expiration")).toBe(
			`expiry-date="${new Date((Math.floor((copied + 7 * DAY) / DAY) + 1) * DAY).toUTCString()}", rule-id="week"`,
		);
		const uploadId = await createUpload("lc-exp/soon/multi.bin");
		const part = await s3(`/${BUCKET}/lc-exp/soon/multi.bin?partNumber=1&uploadId=${encodeURIComponent(uploadId)}`, {
			method: "PUT",
			body: "part",
		});
		const complete = await s3(`/${BUCKET}/lc-exp/soon/multi.bin?uploadId=${encodeURIComponent(uploadId)}`, {
			method: "POST",
			body: `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${part.headers.get("etag")}</ETag></Part></CompleteMultipartUpload>`,
		});
		expect(complete.status).toBe(200);
		expect(complete.headers.get("x-amz-expiration")).toMatch(/^expiry-date="[^"]+ GMT", rule-id="say \\"soon\\""$/);

		// An object no rule expires, and a missing one, carry none.
		await env.BUCKET.put("lc-kept/c.txt", "c");
		expect((await s3(`/${BUCKET}/lc-kept/c.txt`)).headers.get("x-amz-expiration")).toBeNull();
		expect((await s3(`/${BUCKET}/lc-exp/missing`)).headers.get("x-amz-expiration")).toBeNull();

		// A delete of the rules is seen by the very next read.
		await s3(LIFECYCLE, { method: "DELETE" });
		expect((await s3(`/${BUCKET}/lc-exp/a.txt`)).headers.get("x-amz-expiration")).toBeNull();
		await env.BUCKET.delete([
			"lc-exp/a.txt",
			"lc-exp/soon/b.txt",
			"lc-kept/c.txt",
			"lc-exp/copy.txt",
			"lc-exp/soon/multi.bin",
		]);
	});
});
