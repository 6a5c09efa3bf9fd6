/**
 * The bucket gateway on real files, through wrangler dev as a user reaches it: the fixtures
 * (fixtures/SHA256SUMS; the 80 MiB one generated on first use) uploaded every way (streamed PUTs
 * with a checksum R2 verifies, the large one as a multipart upload in 8 MiB parts, as one streamed
 * PUT with Content-Length and as a chunked PUT without it), then read back whole and by ranges,
 * listed and deleted, comparing SHA-256 everywhere. Bodies are streamed from disk and hashed as
 * they arrive, so memory stays flat. Also what goes over the wire: a gzip-stored object comes back
 * byte for byte to a client that takes gzip.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { gzipSync } from "node:zlib";
import { describe, expect, inject, it } from "vitest";
import { ensureFixtures, MiB } from "../../scripts/lib/fixtures.mjs";
import { fileStream, hashBody, keyPath, rawRequest } from "../../scripts/lib/http.mjs";

const base = inject("dev").url;
/** The read-write gateway token of .dev.vars.example. */
const TOKEN = "dev-token";
const PART = 8 * MiB;
const PREFIX = "files/";

interface Fixture {
	fixture: { name: string; path: string; contentType: string };
	path: string;
	sha256: string;
	size: number;
}
const files = (await ensureFixtures()) as Fixture[];
const byName = (name: string): Fixture => {
	const file = files.find((f) => f.fixture.name === name);
	if (file === undefined) throw new Error(`no fixture ${name}`);
	return file;
};
const large = byName("large");

/** A gateway request with the token. A stream body is sent as is (duplex "half"). */
function gateway(
	method: string,
	path: string,
	init: { headers?: Record<string, string>; body?: BodyInit | NodeReadableStream } = {},
) {
	return fetch(`${base}${path}`, {
		method,
		headers: { authorization: `Bearer ${TOKEN}`, ...init.headers },
		body: init.body,
		...(init.body instanceof ReadableStream ? { duplex: "half" } : {}),
	} as RequestInit);
}

/** The JSON body of an answer that must have `status`. */
async function json<T = Record<string, unknown>>(response: Response, status = 200): Promise<T> {
	const text = await response.text();
	expect(response.status, text.slice(0, 300)).toBe(status);
	return JSON.parse(text) as T;
}

const md5 = (bytes: Uint8Array) => createHash("md5").update(bytes).digest();

/** MD5 (hex) of the bytes start..end (inclusive) of a file, streamed. */
async function md5OfFile(path: string, start?: number, end?: number): Promise<string> {
	return (await hashBody(fileStream(path, start, end), "md5")).digest;
}

/** R2's multipart ETag: MD5 of the parts' binary MD5s, then "-{count}". */
async function multipartEtag(path: string, size: number): Promise<string> {
	const digests: Buffer[] = [];
	for (let start = 0; start < size; start += PART)
		digests.push(Buffer.from(await md5OfFile(path, start, Math.min(start + PART, size) - 1), "hex"));
	return `${md5(Buffer.concat(digests)).toString("hex")}-${digests.length}`;
}

/** An object the tests stored: where its bytes are on disk, and what the gateway must say of it. */
interface Stored {
	key: string;
	path: string;
	size: number;
	sha256: string;
	contentType: string | null;
	etag: string;
}
const stored = new Map<string, Stored>();
/** The stored objects, in upload order; never none, so a read test cannot pass on an empty loop. */
function storedObjects(): Stored[] {
	expect(stored.size, "objects stored by the upload tests").toBeGreaterThan(0);
	return [...stored.values()];
}
/** The object uploaded without Content-Type: read on the wire and listed, apart from `stored`. */
let untyped: Stored | undefined;
const small = ["text", "json", "image", "binary"].map((name) => {
	const file = byName(name);
	return { ...file, key: `${PREFIX}${file.fixture.path}` };
});
const unicode = { ...byName("text"), key: `${PREFIX}unicode/Übersicht – März/東京 ✓ 100%.txt` };
const gzKey = `${PREFIX}encoded/edge-notes.txt.gz`;
const gz = gzipSync(readFileSync(byName("text").path), { level: 9 });
const gzSha = createHash("sha256").update(gz).digest("hex");
const untypedKey = `${PREFIX}untyped/seeded-3MiB.bin`;

describe("uploads of real files through the gateway", () => {
	for (const file of [...small, unicode]) {
		it(`stores ${file.key} from a streamed PUT with x-amz-checksum-sha256, answering its MD5 etag`, async () => {
			const object = await json(
				await gateway("PUT", keyPath(file.key), {
					headers: {
						"content-type": file.fixture.contentType,
						"content-length": String(file.size),
						"x-amz-checksum-sha256": Buffer.from(file.sha256, "hex").toString("base64"),
						"x-amz-meta-fixture": file.fixture.path,
					},
					body: fileStream(file.path),
				}),
			);
			const etag = await md5OfFile(file.path);
			expect(object.key).toBe(file.key);
			expect(object.size).toBe(file.size);
			expect(object.etag).toBe(etag);
			expect((object.checksums as Record<string, string>).sha256).toBe(file.sha256);
			stored.set(file.key, { ...file, contentType: file.fixture.contentType, etag });
		});
	}

	const multipartKey = `${PREFIX}large/multipart.bin`;
	it(`stores ${multipartKey} (80 MiB) from a multipart upload in 8 MiB parts, with the multipart etag`, async () => {
		const created = await json<{ key: string; uploadId: string }>(
			await gateway("POST", `${keyPath(multipartKey)}?uploads`, {
				headers: { "content-type": "application/octet-stream", "x-amz-meta-how": "multipart" },
			}),
		);
		expect(created.key).toBe(multipartKey);
		const upload = `${keyPath(multipartKey)}?uploadId=${encodeURIComponent(created.uploadId)}`;
		const parts: { partNumber: number; etag: string }[] = [];
		for (let start = 0, n = 1; start < large.size; start += PART, n++) {
			const end = Math.min(start + PART, large.size) - 1;
			const part = await json<{ partNumber: number; etag: string }>(
				await gateway("PUT", `${upload}&partNumber=${n}`, {
					headers: { "content-length": String(end - start + 1) },
					body: fileStream(large.path, start, end),
				}),
			);
			expect(part.partNumber).toBe(n);
			parts.push({ partNumber: n, etag: part.etag });
		}
		const object = await json(
			await gateway("POST", upload, {
				headers: { "content-type": "application/json" },
				body: JSON.stringify({ parts }),
			}),
		);
		const etag = await multipartEtag(large.path, large.size);
		expect(object.size).toBe(large.size);
		expect(object.etag).toBe(etag);
		stored.set(multipartKey, { ...large, key: multipartKey, contentType: "application/octet-stream", etag });
	});

	const putKey = `${PREFIX}large/put.bin`;
	it(`stores ${putKey} (80 MiB) from one streamed PUT with Content-Length, with its MD5 etag`, async () => {
		const object = await json(
			await gateway("PUT", keyPath(putKey), {
				headers: { "content-type": "application/octet-stream", "content-length": String(large.size) },
				body: fileStream(large.path),
			}),
		);
		const etag = await md5OfFile(large.path);
		expect(object.size).toBe(large.size);
		expect(object.etag).toBe(etag);
		stored.set(putKey, { ...large, key: putKey, contentType: "application/octet-stream", etag });
	});

	const chunkedKey = `${PREFIX}large/chunked.bin`;
	it(`stores ${chunkedKey} (80 MiB) from a chunked PUT as a multipart upload of 8 MiB parts`, async () => {
		const object = await json(
			await gateway("PUT", keyPath(chunkedKey), {
				headers: {
					"content-type": "application/octet-stream",
					"x-amz-checksum-sha256": Buffer.from(large.sha256, "hex").toString("base64"),
				},
				body: fileStream(large.path),
			}),
		);
		// docs/gateway.md: over 8 MiB, a chunked body becomes a multipart upload of 8 MiB parts.
		const etag = await multipartEtag(large.path, large.size);
		expect(object.size).toBe(large.size);
		expect(object.etag).toBe(etag);
		stored.set(chunkedKey, { ...large, key: chunkedKey, contentType: "application/octet-stream", etag });
	});
});

describe("a gzip-encoded object on the wire", () => {
	it(`stores ${gzKey} with Content-Encoding: gzip`, async () => {
		const object = await json(
			await gateway("PUT", keyPath(gzKey), {
				headers: { "content-type": "text/plain; charset=utf-8", "content-encoding": "gzip" },
				body: gz,
			}),
		);
		expect(object.size).toBe(gz.length);
		expect((object.httpMetadata as Record<string, string>).contentEncoding).toBe("gzip");
	});

	// A client that takes gzip, or says nothing, gets the stored bytes. A client that refuses gzip
	// gets what the runtime makes of it: wrangler dev emulates Cloudflare's compression for text/*
	// types and decodes or re-encodes (BENCHMARKS.md), which is not the gateway's doing.
	for (const acceptEncoding of [undefined, "gzip, br"]) {
		it(`sends the bytes as stored, gzip-labelled, to ${acceptEncoding ? `Accept-Encoding: ${acceptEncoding}` : "a client without Accept-Encoding"}`, async () => {
			const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
			if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
			const raw = await rawRequest(`${base}${keyPath(gzKey)}`, { headers });
			expect(raw.status).toBe(200);
			expect(raw.headers["content-encoding"]).toBe("gzip");
			expect(raw.sha256).toBe(gzSha);
			expect(raw.headers["content-length"]).toBe(String(gz.length));
		});
	}
	for (const acceptEncoding of ["identity", "br"]) {
		it(`answers 200 to Accept-Encoding: ${acceptEncoding}, the original text or an encoding it takes`, async () => {
			const raw = await rawRequest(`${base}${keyPath(gzKey)}`, {
				headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": acceptEncoding },
			});
			expect(raw.status).toBe(200);
		});
	}
});

describe("reads of the stored files", () => {
	it("has every upload stored before reading (the uploads above passed)", () => {
		expect(stored.size).toBe(small.length + 4);
	});

	it("answers HEAD with each object's length, etag and type", async () => {
		for (const object of storedObjects()) {
			const response = await gateway("HEAD", keyPath(object.key));
			expect(response.status, object.key).toBe(200);
			expect(response.headers.get("content-length"), object.key).toBe(String(object.size));
			expect(response.headers.get("etag"), object.key).toBe(`"${object.etag}"`);
			expect(response.headers.get("content-type"), object.key).toBe(object.contentType);
		}
	});

	it("answers GET of each object with the file's bytes", async () => {
		for (const object of storedObjects()) {
			const response = await gateway("GET", keyPath(object.key));
			expect(response.status, object.key).toBe(200);
			const { digest, bytes } = await hashBody(response.body);
			expect(bytes, object.key).toBe(object.size);
			expect(digest, object.key).toBe(object.sha256);
		}
	});

	it("answers 206 with the file's bytes to each range, a last byte past the end clamped", async () => {
		for (const object of storedObjects()) {
			const s = object.size;
			// [first, last requested, Range spec]
			const ranges: [number, number, string?][] = [
				[0, 0],
				[0, 1023],
				[Math.floor(s / 2), Math.floor(s / 2) + 4095],
				[s - 500, s - 1, "-500"],
				[s - 100, s - 1, `${s - 100}-`],
				[s - 10, s + 1000],
			];
			if (s > 2 * PART) {
				// Across part boundaries of the multipart objects.
				ranges.push(
					[PART - 8, PART + 7],
					[4 * MiB, 13 * MiB - 1],
					[s - (s % PART) - 10, s - 1, `${s - (s % PART) - 10}-`],
				);
			}
			for (const [first, requested, spec = `${first}-${requested}`] of ranges) {
				const what = `${object.key} bytes=${spec}`;
				const last = Math.min(requested, s - 1);
				const response = await gateway("GET", keyPath(object.key), { headers: { range: `bytes=${spec}` } });
				expect(response.status, what).toBe(206);
				expect(response.headers.get("content-range"), what).toBe(`bytes ${first}-${last}/${s}`);
				const got = await hashBody(response.body);
				const want = await hashBody(fileStream(object.path, first, last));
				expect(got.bytes, what).toBe(last - first + 1);
				expect(got.digest, what).toBe(want.digest);
			}
		}
	});

	it("answers 416 with Content-Range bytes */size to a range starting past the end", async () => {
		for (const object of storedObjects()) {
			const response = await gateway("GET", keyPath(object.key), { headers: { range: `bytes=${object.size}-` } });
			await response.body?.cancel();
			expect(response.status, object.key).toBe(416);
			expect(response.headers.get("content-range"), object.key).toBe(`bytes */${object.size}`);
		}
	});

	// The runtime may compress what the gateway sends (Miniflare's emulation of Cloudflare's
	// compression: text types, and answers without a Content-Type, BENCHMARKS.md); the gateway's own
	// answer is checked where it arrives unencoded.
	it("sends each object unchanged over the wire to Accept-Encoding: gzip, br, unless the runtime compressed it", async () => {
		for (const object of storedObjects()) {
			const raw = await rawRequest(`${base}${keyPath(object.key)}`, {
				headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": "gzip, br" },
			});
			expect(raw.status, object.key).toBe(200);
			if (raw.headers["content-encoding"] === undefined) {
				expect(raw.headers["content-length"], object.key).toBe(String(object.size));
				expect(raw.sha256, object.key).toBe(object.sha256);
			}
		}
	});
});

describe("an object uploaded without Content-Type (curl -T, fetch with a byte body)", () => {
	it(`stores ${untypedKey} from a PUT without Content-Type`, async () => {
		const binary = byName("binary");
		const object = await json(
			await gateway("PUT", keyPath(untypedKey), {
				headers: { "content-length": String(binary.size) },
				body: fileStream(binary.path),
			}),
		);
		expect(object.size).toBe(binary.size);
		untyped = { ...binary, key: untypedKey, contentType: null, etag: String(object.etag) };
	});

	// Its answer has no Content-Type either, which Miniflare's emulation of Cloudflare's compression
	// treats as compressible: random bytes may come gzip-encoded (BENCHMARKS.md), not the gateway's doing.
	it("sends it to Accept-Encoding: gzip, br as stored, unless the runtime compressed it", async () => {
		const binary = byName("binary");
		const raw = await rawRequest(`${base}${keyPath(untypedKey)}`, {
			headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": "gzip, br" },
		});
		expect(raw.status).toBe(200);
		if (raw.headers["content-encoding"] === undefined) expect(raw.sha256).toBe(binary.sha256);
	});
});

describe("listing and deleting the stored files", () => {
	const keys = () => [...stored.keys(), ...(untyped ? [untyped.key] : []), gzKey].sort();

	it("lists every key with its size, three a page, following the cursor", async () => {
		const seen: string[] = [];
		let cursor: string | undefined;
		do {
			const query = new URLSearchParams({ prefix: PREFIX, limit: "3", include: "customMetadata" });
			if (cursor) query.set("cursor", cursor);
			const page = await json<{ objects: { key: string; size: number }[]; truncated: boolean; cursor?: string }>(
				await gateway("GET", `/?list&${query}`),
			);
			for (const entry of page.objects) {
				seen.push(entry.key);
				const object = entry.key === untyped?.key ? untyped : stored.get(entry.key);
				if (object) expect(entry.size, entry.key).toBe(object.size);
			}
			if (page.truncated) expect(page.cursor, "a truncated page's cursor").toBeTruthy();
			cursor = page.truncated ? page.cursor : undefined;
		} while (cursor);
		expect(seen).toEqual(keys());
	});

	it("lists the folders under the prefix with delimiter=/", async () => {
		const page = await json<{ objects: unknown[]; delimitedPrefixes: string[] }>(
			await gateway("GET", `/?list&${new URLSearchParams({ prefix: PREFIX, delimiter: "/" })}`),
		);
		const folders = [...new Set(keys().map((k) => `${PREFIX}${k.slice(PREFIX.length).split("/")[0]}/`))].sort();
		expect([...page.delimitedPrefixes].sort()).toEqual(folders);
		expect(page.objects).toHaveLength(0);
	});

	it("deletes one key with DELETE (204, then GET 404) and the rest with one bulk delete", async () => {
		const [first, ...rest] = keys();
		if (first === undefined) throw new Error("nothing stored");
		const deleted = await gateway("DELETE", keyPath(first));
		await deleted.body?.cancel();
		expect(deleted.status).toBe(204);
		const after = await gateway("GET", keyPath(first));
		await after.body?.cancel();
		expect(after.status).toBe(404);

		const bulk = await gateway("POST", "/?delete", {
			headers: { "content-type": "application/json" },
			body: JSON.stringify({ keys: rest }),
		});
		await bulk.body?.cancel();
		expect(bulk.status).toBe(204);
		const page = await json<{ objects: unknown[] }>(
			await gateway("GET", `/?list&prefix=${encodeURIComponent(PREFIX)}`),
		);
		expect(page.objects).toHaveLength(0);
	});
});
