/**
 * The storage class an object is written with, reported back as R2 reports it, though Miniflare's
 * binding forgets it (src/edge/s3/storage-class/): through S3 (PutObject, CreateMultipartUpload,
 * CopyObject; HeadObject, GetObject, ListObjects and ListObjectsV2) and the native gateway (PUT;
 * its headers and its list's JSON).
 */
import { describe, expect, it } from "vitest";
import { gw } from "../gateway/helpers";
import { BUCKET, s3, xmlOf } from "./helpers";

const key = (label: string) => `s3-storage-class/${label}-${crypto.randomUUID()}`;
const path = (k: string) => `/${BUCKET}/${k}`;
const IA = { "x-amz-storage-class": "STANDARD_IA" };

interface ListXml {
	ListBucketResult: { Contents?: { Key: string; StorageClass: string } | { Key: string; StorageClass: string }[] };
}

/** The StorageClass a ListObjectsV2 (or, with `v1`, ListObjects) of `k` answers. */
async function listedClass(k: string, v1 = false): Promise<string | undefined> {
	const query = `${v1 ? "" : "list-type=2&"}prefix=${encodeURIComponent(k)}`;
	const response = await s3(`/${BUCKET}?${query}`);
	expect(response.status).toBe(200);
	const { ListBucketResult: result } = await xmlOf<ListXml>(response);
	return [result.Contents].flat()[0]?.StorageClass;
}

async function headClass(k: string): Promise<string | null> {
	const response = await s3(path(k), { method: "HEAD" });
	expect(response.status).toBe(200);
	return response.headers.get("x-amz-storage-class");
}

describe("a storage class written", () => {
	it("PutObject with STANDARD_IA: HeadObject, GetObject and both lists report it", async () => {
		const k = key("put");
		expect((await s3(path(k), { method: "PUT", body: "ia", headers: IA })).status).toBe(200);
		expect(await headClass(k)).toBe("STANDARD_IA");
		const got = await s3(path(k));
		expect(got.headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
		await got.arrayBuffer();
		expect(await listedClass(k)).toBe("STANDARD_IA");
		expect(await listedClass(k, true)).toBe("STANDARD_IA");

		// Written again without a class, it is Standard again.
		expect((await s3(path(k), { method: "PUT", body: "standard" })).status).toBe(200);
		expect(await headClass(k)).not.toBe("STANDARD_IA");
		expect(await listedClass(k)).toBe("STANDARD");
	});

	it("a multipart upload created with STANDARD_IA completes into an object of that class", async () => {
		const k = key("multipart");
		const created = await s3(`${path(k)}?uploads`, { method: "POST", headers: IA });
		const { InitiateMultipartUploadResult: upload } = await xmlOf<{
			InitiateMultipartUploadResult: { UploadId: string };
		}>(created);
		const uploadId = encodeURIComponent(upload.UploadId);
		const part = await s3(`${path(k)}?partNumber=1&uploadId=${uploadId}`, { method: "PUT", body: "one part" });
		const etag = part.headers.get("etag") ?? "";
		const body = `<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>${etag}</ETag></Part></CompleteMultipartUpload>`;
		expect((await s3(`${path(k)}?uploadId=${uploadId}`, { method: "POST", body })).status).toBe(200);
		expect(await headClass(k)).toBe("STANDARD_IA");
		expect(await listedClass(k)).toBe("STANDARD_IA");
	});

	it("CopyObject keeps the class a copy names", async () => {
		const source = key("copy-source");
		const target = key("copy-target");
		expect((await s3(path(source), { method: "PUT", body: "copied" })).status).toBe(200);
		const copied = await s3(path(target), {
			method: "PUT",
			headers: { "x-amz-copy-source": `${BUCKET}/${source}`, ...IA },
		});
		expect(copied.status).toBe(200);
		await copied.arrayBuffer();
		expect(await headClass(target)).toBe("STANDARD_IA");
	});

	it("the native gateway: a PUT with InfrequentAccess reads back with it, in headers and list JSON", async () => {
		const k = key("gateway");
		const put = await gw(`/${k}`, {
			method: "PUT",
			body: "ia",
			headers: { "x-amz-storage-class": "InfrequentAccess" },
		});
		expect(put.status).toBe(200);
		expect(((await put.json()) as { storageClass: string }).storageClass).toBe("InfrequentAccess");
		const head = await gw(`/${k}`, { method: "HEAD" });
		expect(head.headers.get("x-amz-storage-class")).toBe("STANDARD_IA");
		const list = await gw(`/?list&prefix=${encodeURIComponent(k)}`);
		const page = (await list.json()) as { objects: { key: string; storageClass: string }[] };
		expect(page.objects.map((object) => object.storageClass)).toEqual(["InfrequentAccess"]);
		// And through S3, the same object.
		expect(await headClass(k)).toBe("STANDARD_IA");
	});
});
