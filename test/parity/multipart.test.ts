import { describe, expect, it } from "vitest";
import { BUCKETS, bytesOf, concat, expectR2Error, hexDigest, scope } from "./buckets";

/** The binding's error for `action`, code and message, as workerd formats it. */
const r2Error = (action: string, message: string, code: number) => new Error(`${action}: ${message} (${code})`);
const INTERNAL_ERROR = "We encountered an internal error. Please try again.";

/** R2's minimum size of every part but the last; the local simulator enforces it too. */
const MIB = 1024 * 1024;
const PART = 5 * MIB;

describe.each(BUCKETS)("multipart uploads on $name", ({ bucket }) => {
	const first = bytesOf(PART, 1);
	const second = bytesOf(PART, 2);
	const last = bytesOf(1234, 3);

	it("creates with metadata, uploads parts, completes out of order, and serves the whole object", async () => {
		const key = `${scope("multipart")}video.bin`;
		const httpMetadata = {
			contentType: "video/mp4",
			contentDisposition: "inline",
			cacheExpiry: new Date("2032-01-01T00:00:00Z"),
		};
		const customMetadata = { camera: "x100", place: "Genève" };
		const upload = await bucket.createMultipartUpload(key, { httpMetadata, customMetadata });
		expect(upload.key).toBe(key);
		expect(upload.uploadId).toEqual(expect.any(String));
		expect(upload.uploadId.length).toBeGreaterThan(0);
		// Parts may be uploaded in any order, and complete takes them in any order, but R2 checks the
		// 5 MiB minimum in argument order: the short part comes last (Miniflare's `workers/r2/`).
		const part3 = await upload.uploadPart(3, last);
		const part1 = await upload.uploadPart(1, first);
		const part2 = await upload.uploadPart(2, second.buffer);
		expect(part1).toEqual({ partNumber: 1, etag: expect.any(String) });
		expect(part3.partNumber).toBe(3);
		const object = await upload.complete([part2, part1, part3]);
		expect(object.key).toBe(key);
		expect(object.size).toBe(2 * PART + 1234);
		expect(object.etag).toMatch(/^[0-9a-f]{32}-3$/);
		expect(object.httpEtag).toBe(`"${object.etag}"`);
		expect(object.version).toMatch(/^[0-9a-f]{32}$/);
		expect(object.httpMetadata).toEqual(httpMetadata);
		expect(object.customMetadata).toEqual(customMetadata);

		const head = await bucket.head(key);
		expect(head?.etag).toBe(object.etag);
		expect(head?.httpMetadata).toEqual(httpMetadata);
		expect(head?.customMetadata).toEqual(customMetadata);
		const get = await bucket.get(key);
		const bytes = new Uint8Array((await get?.arrayBuffer()) ?? new ArrayBuffer(0));
		expect(await hexDigest("SHA-256", bytes)).toBe(await hexDigest("SHA-256", concat(first, second, last)));
		const range = await bucket.get(key, { range: { offset: PART - 2, length: 4 } });
		expect(new Uint8Array((await range?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(
			concat(first.subarray(PART - 2), second.subarray(0, 2)),
		);
	});

	it("resumes an upload by its id: no request, no check, and the parts land in the same upload", async () => {
		const key = `${scope("multipart-resume")}r`;
		const created = await bucket.createMultipartUpload(key);
		const part1 = await created.uploadPart(1, first);
		const resumed = bucket.resumeMultipartUpload(key, created.uploadId);
		expect(resumed.key).toBe(key);
		expect(resumed.uploadId).toBe(created.uploadId);
		const part2 = await resumed.uploadPart(2, "the last part");
		const object = await resumed.complete([part1, part2]);
		expect(object.size).toBe(PART + 13);
		expect(await (await bucket.get(key, { range: { suffix: 13 } }))?.text()).toBe("the last part");
		// resumeMultipartUpload is synchronous and checks nothing, whatever the id.
		expect(bucket.resumeMultipartUpload(key, "no-such-upload").uploadId).toBe("no-such-upload");
	});

	it("a single small part is a valid upload (the last part has no minimum)", async () => {
		const key = `${scope("multipart-single")}s`;
		const upload = await bucket.createMultipartUpload(key);
		const object = await upload.complete([await upload.uploadPart(1, "tiny")]);
		expect(object.size).toBe(4);
		expect(object.etag).toMatch(/-1$/);
		expect(await (await bucket.get(key))?.text()).toBe("tiny");
	});

	it("uploads parts given as strings, views, Blobs and streams of known length", async () => {
		const key = `${scope("multipart-values")}v`;
		const upload = await bucket.createMultipartUpload(key);
		const parts = [
			await upload.uploadPart(1, new Blob([first])),
			await upload.uploadPart(2, new Response(second).body ?? ""),
			await upload.uploadPart(3, new DataView(last.buffer, 0, 10)),
		];
		const object = await upload.complete(parts);
		expect(object.size).toBe(2 * PART + 10);
	});

	it("a re-uploaded part replaces the earlier one, whose etag no longer completes", async () => {
		const key = `${scope("multipart-reupload")}r`;
		const upload = await bucket.createMultipartUpload(key);
		const old = await upload.uploadPart(1, "old");
		const fresh = await upload.uploadPart(1, "fresh");
		await expectR2Error(upload.complete([old]), "completeMultipartUpload", 10025);
		const object = await upload.complete([fresh]);
		expect(await (await bucket.get(object.key))?.text()).toBe("fresh");
	});

	it("abort ends the upload: no object, and its parts can no longer be used", async () => {
		const key = `${scope("multipart-abort")}a`;
		const upload = await bucket.createMultipartUpload(key);
		const part = await upload.uploadPart(1, "abc");
		await upload.abort();
		expect(await bucket.head(key)).toBeNull();
		await expectR2Error(upload.uploadPart(2, "def"), "uploadPart", 10024);
		await expectR2Error(upload.complete([part]), "completeMultipartUpload", 10024);
	});

	it("in-progress uploads are invisible to head, get and list", async () => {
		const prefix = scope("multipart-invisible");
		const upload = await bucket.createMultipartUpload(`${prefix}pending`);
		await upload.uploadPart(1, "pending");
		expect(await bucket.head(`${prefix}pending`)).toBeNull();
		expect(await bucket.get(`${prefix}pending`)).toBeNull();
		expect((await bucket.list({ prefix })).objects).toEqual([]);
		await upload.abort();
	});

	it("refuses a part other than the last under 5 MiB with 10011", async () => {
		const key = `${scope("multipart-small")}s`;
		const upload = await bucket.createMultipartUpload(key);
		const parts = [await upload.uploadPart(1, bytesOf(MIB)), await upload.uploadPart(2, last)];
		await expectR2Error(upload.complete(parts), "completeMultipartUpload", 10011);
		expect(await bucket.head(key)).toBeNull();
	});

	it("refuses a wrong etag or an unknown part number with 10025", async () => {
		const key = `${scope("multipart-etag")}e`;
		const upload = await bucket.createMultipartUpload(key);
		const part = await upload.uploadPart(1, "abc");
		await expectR2Error(upload.complete([{ partNumber: 1, etag: "not-the-etag" }]), "completeMultipartUpload", 10025);
		await expectR2Error(upload.complete([{ partNumber: 2, etag: part.etag }]), "completeMultipartUpload", 10025);
		expect(await bucket.head(key)).toBeNull();
	});

	// Emulated, not improved on: the binding says 10024 to uploadPart of an upload id it does not
	// know, but an internal error to complete and abort (Miniflare `completeMultipartUpload` and
	// `abortMultipartUpload` find no upload row), and so for an upload id named under another key.
	it("refuses an unknown upload id as the binding does: 10024 on uploadPart, 10001 on complete and abort", async () => {
		const key = `${scope("multipart-unknown")}u`;
		const upload = bucket.resumeMultipartUpload(key, "bm8tc3VjaC11cGxvYWQ");
		await expect(upload.uploadPart(1, "abc")).rejects.toThrow(
			r2Error("uploadPart", "The specified multipart upload does not exist.", 10024),
		);
		await expect(upload.complete([{ partNumber: 1, etag: "x" }])).rejects.toThrow(
			r2Error("completeMultipartUpload", INTERNAL_ERROR, 10001),
		);
		await expect(upload.abort()).rejects.toThrow(r2Error("abortMultipartUpload", INTERNAL_ERROR, 10001));
	});

	it("refuses an upload id named under another key as the binding does: 10001 on complete and abort", async () => {
		const prefix = scope("multipart-other-key");
		const created = await bucket.createMultipartUpload(`${prefix}mine`);
		const part = await created.uploadPart(1, "abc");
		const elsewhere = bucket.resumeMultipartUpload(`${prefix}other`, created.uploadId);
		await expect(elsewhere.complete([part])).rejects.toThrow(r2Error("completeMultipartUpload", INTERNAL_ERROR, 10001));
		await expect(elsewhere.abort()).rejects.toThrow(r2Error("abortMultipartUpload", INTERNAL_ERROR, 10001));
		expect(await bucket.head(`${prefix}other`)).toBeNull();
		expect((await created.complete([part])).size).toBe(3);
	});

	it("aborts a finished upload again without error, and refuses to complete it with 10024", async () => {
		const upload = await bucket.createMultipartUpload(`${scope("multipart-finished")}f`);
		await upload.abort();
		await upload.abort();
		await expect(upload.complete([])).rejects.toThrow(
			r2Error("completeMultipartUpload", "The specified multipart upload does not exist.", 10024),
		);
	});

	it("refuses part numbers outside 1 to 10000 before any request, as workerd does", async () => {
		const upload = await bucket.createMultipartUpload(`${scope("multipart-number")}n`);
		await expect(upload.uploadPart(0, "x")).rejects.toThrow(TypeError);
		await expect(upload.uploadPart(10001, "x")).rejects.toThrow(TypeError);
		await upload.abort();
	});

	it("completing with no parts stores an empty object", async () => {
		const key = `${scope("multipart-empty")}e`;
		const upload = await bucket.createMultipartUpload(key);
		const object = await upload.complete([]);
		expect(object.size).toBe(0);
		expect(object.etag).toBe("d41d8cd98f00b204e9800998ecf8427e-0");
	});
});
