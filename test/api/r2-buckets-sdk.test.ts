/**
 * R2's buckets API (src/api/r2-buckets.ts) driven by the `cloudflare` SDK's `r2.buckets.*`: a
 * bucket created, got, listed, its storage class changed, deleted; R2's error codes; the
 * permission it asks; one list with S3's ListBuckets.
 */
import Cloudflare from "cloudflare";
import { describe, expect, it } from "vitest";
import { s3 } from "../s3/helpers";
import { R2_ADMIN_READ_TOKEN, R2_ZONE_EDIT_TOKEN, READ_TOKEN } from "./credentials";
import { call } from "./http";
import { sdkClient } from "./sdk";

const account_id = "01a7362d577a6c3019a474fd6f485823";
const unique = (stem: string) => `${stem}-${crypto.randomUUID().slice(0, 8)}`;

/** The first error code of a refused SDK call. */
async function codeOf(promise: Promise<unknown>): Promise<{ status: number | undefined; code: number | undefined }> {
	try {
		await promise;
	} catch (error) {
		if (error instanceof Cloudflare.APIError) {
			const errors = error.errors as { code: number }[];
			return { status: error.status, code: errors[0]?.code };
		}
		throw error;
	}
	throw new Error("the call succeeded");
}

describe("client.r2.buckets", () => {
	it("creates, gets, lists, edits and deletes a bucket", async () => {
		const client = sdkClient();
		const name = unique("api");
		const before = Date.now();
		const created = await client.r2.buckets.create({
			account_id,
			name,
			locationHint: "weur",
			storageClass: "InfrequentAccess",
		});
		expect(created).toMatchObject({
			name,
			location: "weur",
			storage_class: "InfrequentAccess",
			jurisdiction: "default",
		});
		expect(Date.parse(created.creation_date ?? "")).toBeGreaterThanOrEqual(before - 1000);
		expect(await client.r2.buckets.get(name, { account_id })).toEqual(created);
		const listed = await client.r2.buckets.list({ account_id, name_contains: name });
		expect(listed.buckets?.map((b) => b.name)).toEqual([name]);
		const all = await client.r2.buckets.list({ account_id, per_page: 1000 });
		expect(all.buckets?.map((b) => b.name)).toEqual(expect.arrayContaining(["edgezone-bucket", "edgezone-logs", name]));
		const edited = await client.r2.buckets.edit(name, { account_id, storage_class: "Standard" });
		expect(edited.storage_class).toBe("Standard");
		// The same bucket through S3.
		expect((await s3(`/${name}`, { method: "HEAD" })).status).toBe(200);
		await s3(`/${name}/k`, { method: "PUT", body: "k" });
		expect(await codeOf(client.r2.buckets.delete(name, { account_id }))).toEqual({ status: 409, code: 10008 });
		await s3(`/${name}/k`, { method: "DELETE" });
		await client.r2.buckets.delete(name, { account_id });
		expect(await codeOf(client.r2.buckets.get(name, { account_id }))).toEqual({ status: 404, code: 10006 });
		expect((await s3(`/${name}`, { method: "HEAD" })).status).toBe(404);
	});

	it("answers R2's codes: 10005 a bad name, 10073 a name taken (declared too), 10006 none, 9409 deleting a declared bucket", async () => {
		const client = sdkClient();
		expect(await codeOf(client.r2.buckets.create({ account_id, name: "Not_Valid" }))).toEqual({
			status: 400,
			code: 10005,
		});
		expect(await codeOf(client.r2.buckets.create({ account_id, name: "edgezone-bucket" }))).toEqual({
			status: 409,
			code: 10073,
		});
		const name = unique("taken");
		await client.r2.buckets.create({ account_id, name });
		expect(await codeOf(client.r2.buckets.create({ account_id, name }))).toEqual({ status: 409, code: 10073 });
		expect(await codeOf(client.r2.buckets.delete("no-such-bucket-here", { account_id }))).toEqual({
			status: 404,
			code: 10006,
		});
		expect(await codeOf(client.r2.buckets.delete("edgezone-logs", { account_id }))).toEqual({
			status: 409,
			code: 9409,
		});
		expect(
			(await call("POST", `/accounts/${account_id}/r2/buckets`, { name: unique("x"), locationHint: "mars" })).status,
		).toBe(400);
	});

	it("pages by per_page and cursor, in either direction, from start_after", async () => {
		const client = sdkClient();
		const stem = unique("page");
		for (const suffix of ["a", "b", "c"]) await client.r2.buckets.create({ account_id, name: `${stem}-${suffix}` });
		const first = await call("GET", `/accounts/${account_id}/r2/buckets?name_contains=${stem}&per_page=2`);
		const firstNames = (first.body.result as { buckets: { name: string }[] }).buckets.map((b) => b.name);
		expect(firstNames).toEqual([`${stem}-a`, `${stem}-b`]);
		const cursor = String(first.body.result_info?.cursor);
		const rest = await call(
			"GET",
			`/accounts/${account_id}/r2/buckets?name_contains=${stem}&per_page=2&cursor=${cursor}`,
		);
		expect((rest.body.result as { buckets: { name: string }[] }).buckets.map((b) => b.name)).toEqual([`${stem}-c`]);
		expect(rest.body.result_info?.cursor).toBeUndefined();
		const desc = await client.r2.buckets.list({
			account_id,
			name_contains: stem,
			direction: "desc",
			start_after: `${stem}-c`,
		});
		expect(desc.buckets?.map((b) => b.name)).toEqual([`${stem}-b`, `${stem}-a`]);
	});

	it("reads with Workers R2 Storage Read; writes need Edit and a credential of the whole account; another account is 403", async () => {
		const name = unique("perm");
		expect(await codeOf(sdkClient(R2_ADMIN_READ_TOKEN).r2.buckets.create({ account_id, name }))).toEqual({
			status: 403,
			code: 10000,
		});
		expect(await codeOf(sdkClient(READ_TOKEN).r2.buckets.create({ account_id, name }))).toEqual({
			status: 403,
			code: 10000,
		});
		expect(await codeOf(sdkClient(R2_ZONE_EDIT_TOKEN).r2.buckets.create({ account_id, name }))).toEqual({
			status: 403,
			code: 10000,
		});
		const listed = await sdkClient(R2_ADMIN_READ_TOKEN).r2.buckets.list({ account_id });
		expect(listed.buckets?.map((b) => b.name)).toContain("edgezone-bucket");
		expect(await codeOf(sdkClient().r2.buckets.list({ account_id: "0123456789abcdef0123456789abcdef" }))).toEqual({
			status: 403,
			code: 10000,
		});
	});
});
