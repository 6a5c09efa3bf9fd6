/**
 * DeleteObjects through the S3 dialect: an XML list of keys, one `delete(keys)`, verbose and
 * quiet answers, and a refused request (tampered, malformed, bad Content-MD5) deleting nothing.
 */
import { describe, expect, it } from "vitest";
import { READ_TOKEN } from "../api/credentials";
import { BUCKET, bucket, clientOf, expectS3Error, s3, sha256Hex, xmlOf } from "./helpers";

interface DeleteResult {
	DeleteResult: { Deleted?: { Key: string } | { Key: string }[] };
}

const key = (label: string) => `s3-delete/${label}-${crypto.randomUUID()}`;

/** A `<Delete>` document for `keys`. */
function document(keys: string[], quiet?: boolean): string {
	const objects = keys.map((k) => `<Object><Key>${k.replaceAll("&", "&amp;").replaceAll("<", "&lt;")}</Key></Object>`);
	return `<Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${objects.join("")}${quiet === undefined ? "" : `<Quiet>${quiet}</Quiet>`}</Delete>`;
}

async function stored(keys: string[]): Promise<string[]> {
	const found = await Promise.all(keys.map((k) => bucket().head(k)));
	return keys.filter((_, i) => found[i] !== null);
}

async function putAll(keys: string[]): Promise<void> {
	for (const k of keys) await bucket().put(k, k);
}

describe("DeleteObjects", () => {
	it("deletes every key listed and reports each, a missing one included", async () => {
		const keys = [key("a"), key("b & <c>")];
		await putAll(keys);
		const missing = key("missing");
		const response = await s3(`/${BUCKET}?delete`, { method: "POST", body: document([...keys, missing]) });
		expect(response.status).toBe(200);
		const { DeleteResult: result } = await xmlOf<DeleteResult>(response);
		expect([result.Deleted].flat().map((d) => d?.Key)).toEqual([...keys, missing]);
		expect(await stored(keys)).toEqual([]);
	});

	it("answers no Deleted entries in quiet mode", async () => {
		const keys = [key("quiet")];
		await putAll(keys);
		const response = await s3(`/${BUCKET}?delete`, { method: "POST", body: document(keys, true) });
		expect(response.status).toBe(200);
		expect((await xmlOf<DeleteResult>(response)).DeleteResult.Deleted).toBeUndefined();
		expect(await stored(keys)).toEqual([]);
	});

	it("refuses a document that is not the one signed, and deletes nothing", async () => {
		const keys = [key("tampered")];
		await putAll(keys);
		const response = await s3(`/${BUCKET}?delete`, {
			method: "POST",
			body: document(keys),
			headers: { "x-amz-content-sha256": await sha256Hex(document([key("other")])) },
		});
		await expectS3Error(response, 400, "XAmzContentSHA256Mismatch");
		expect(await stored(keys)).toEqual(keys);
	});

	it("refuses a Content-MD5 that is not the document's, and deletes nothing", async () => {
		const keys = [key("md5")];
		await putAll(keys);
		const response = await s3(`/${BUCKET}?delete`, {
			method: "POST",
			body: document(keys),
			headers: { "content-md5": btoa("0123456789abcdef") },
		});
		await expectS3Error(response, 400, "BadDigest");
		expect(await stored(keys)).toEqual(keys);
	});

	it("refuses malformed XML and an empty list with MalformedXML", async () => {
		await expectS3Error(
			await s3(`/${BUCKET}?delete`, { method: "POST", body: "<Delete><Object>" }),
			400,
			"MalformedXML",
		);
		await expectS3Error(await s3(`/${BUCKET}?delete`, { method: "POST", body: document([]) }), 400, "MalformedXML");
	});

	it("refuses a read-only token with AccessDenied before reading the document", async () => {
		const keys = [key("read-only")];
		await putAll(keys);
		const response = await s3(
			`/${BUCKET}?delete`,
			{ method: "POST", body: document(keys) },
			await clientOf(READ_TOKEN),
		);
		await expectS3Error(response, 403, "AccessDenied");
		expect(await stored(keys)).toEqual(keys);
	});
});
