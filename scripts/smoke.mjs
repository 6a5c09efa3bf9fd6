// End-to-end smoke run of the bucket gateway on real files, as a user would do it:
// starts `wrangler dev` (fresh persistence directory, free port), uploads the fixtures (the large
// one three ways: multipart in 8 MiB parts, one streamed PUT with Content-Length, one chunked PUT
// without it), reads everything back whole and by ranges, lists, deletes, and compares SHA-256
// everywhere. One line per step; exits non-zero on any difference. Memory-flat: files are
// streamed from disk and bodies hashed as they arrive.
//
//   npm run smoke                   EDGEZONE_TOKEN=<token> to use another read-write token
import { createHash } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { ensureFixtures, MiB } from "./lib/fixtures.mjs";
import { fileStream, hashBody, keyPath, rawRequest, wireSummary } from "./lib/http.mjs";
import { startWranglerDev } from "./lib/wrangler-dev.mjs";

const TOKEN = process.env.EDGEZONE_TOKEN ?? "dev-token";
const PART = 8 * MiB;
const PREFIX = "smoke/";

let failures = 0;
let warnings = 0;

/** A step result that is not a difference in the bytes but is worth a look (see BENCHMARKS.md). */
class Warning extends Error {}
let base;

function line(status, text) {
	console.log(`${status.padEnd(4)} ${text}`);
}

/** Runs one step; a thrown error or a returned list of differences is a FAIL line. */
async function step(title, fn) {
	const started = performance.now();
	try {
		const detail = await fn();
		const ms = Math.round(performance.now() - started);
		line("ok", `${title}${detail ? ` — ${detail}` : ""} (${ms} ms)`);
	} catch (error) {
		if (error instanceof Warning) warnings++;
		else failures++;
		line(error instanceof Warning ? "WARN" : "FAIL", `${title} — ${error.message}`);
	}
}

/** Throws unless `actual` equals `expected`. */
function expect(what, actual, expected) {
	if (actual !== expected)
		throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

/** A gateway request with the dev token. A stream body is sent as is (duplex "half"). */
function gw(method, path, { headers = {}, body } = {}) {
	return fetch(`${base}${path}`, {
		method,
		headers: { authorization: `Bearer ${TOKEN}`, ...headers },
		body,
		duplex: body instanceof ReadableStream ? "half" : undefined,
	});
}

async function json(response, status = 200) {
	const text = await response.text();
	if (response.status !== status)
		throw new Error(`status ${response.status}, expected ${status}: ${text.slice(0, 300)}`);
	return JSON.parse(text);
}

const md5 = (bytes) => createHash("md5").update(bytes).digest();
const human = (n) => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : n >= 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${n} B`);

/** MD5 of the bytes start..end (inclusive) of a file, streamed. */
async function md5OfFile(path, start, end) {
	return (await hashBody(fileStream(path, start, end), "md5")).digest;
}

/** R2's multipart ETag: MD5 of the parts' binary MD5s, then "-{count}". */
async function multipartEtag(path, size) {
	const digests = [];
	for (let start = 0; start < size; start += PART) {
		digests.push(Buffer.from(await md5OfFile(path, start, Math.min(start + PART, size) - 1), "hex"));
	}
	return `${md5(Buffer.concat(digests)).toString("hex")}-${digests.length}`;
}

async function main() {
	console.log(`edgezone smoke run — node ${process.version}`);
	const files = await ensureFixtures();
	line(
		"ok",
		`fixtures checked against fixtures/SHA256SUMS: ${files.map((f) => `${f.fixture.path} (${human(f.size)})`).join(", ")}`,
	);
	const byName = Object.fromEntries(files.map((f) => [f.fixture.name, f]));
	const large = byName.large;

	// Seed .dev.vars as `npm run dev` does, so the documented dev token works out of the box.
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev();
	base = dev.url;
	line("ok", `wrangler dev ready on ${dev.url} (pid ${dev.pid}, persistence ${dev.persistTo})`);

	/** Every object stored: key -> { path, size, sha256, start?, end?, contentType, etag }. */
	const stored = new Map();

	try {
		// ---- uploads of the small fixtures: one streamed PUT each, with a checksum R2 verifies.
		const small = ["text", "json", "image", "binary"].map((name) => byName[name]);
		const unicode = { ...byName.text, key: `${PREFIX}unicode/Übersicht – März/東京 ✓ 100%.txt` };
		for (const file of [...small.map((f) => ({ ...f, key: `${PREFIX}${f.fixture.path}` })), unicode]) {
			await step(
				`PUT ${file.key} (${human(file.size)}, ${file.fixture.contentType}, x-amz-checksum-sha256)`,
				async () => {
					const response = await gw("PUT", keyPath(file.key), {
						headers: {
							"content-type": file.fixture.contentType,
							"content-length": String(file.size),
							"x-amz-checksum-sha256": Buffer.from(file.sha256, "hex").toString("base64"),
							"x-amz-meta-fixture": file.fixture.path,
						},
						body: fileStream(file.path),
					});
					const object = await json(response);
					const etag = await md5OfFile(file.path);
					expect("key", object.key, file.key);
					expect("size", object.size, file.size);
					expect("etag (MD5 of the file)", object.etag, etag);
					expect("checksums.sha256", object.checksums?.sha256, file.sha256);
					stored.set(file.key, { ...file, contentType: file.fixture.contentType, etag });
					return `200, etag ${etag}`;
				},
			);
		}

		// ---- the large fixture, three ways.
		const multipartKey = `${PREFIX}large/multipart.bin`;
		await step(
			`multipart upload ${multipartKey} (${human(large.size)} in ${Math.ceil(large.size / PART)} parts of 8 MiB)`,
			async () => {
				const created = await json(
					await gw("POST", `${keyPath(multipartKey)}?uploads`, {
						headers: { "content-type": "application/octet-stream", "x-amz-meta-how": "multipart" },
					}),
				);
				expect("key", created.key, multipartKey);
				const parts = [];
				for (let start = 0, n = 1; start < large.size; start += PART, n++) {
					const end = Math.min(start + PART, large.size) - 1;
					const response = await gw(
						"PUT",
						`${keyPath(multipartKey)}?uploadId=${encodeURIComponent(created.uploadId)}&partNumber=${n}`,
						{
							headers: { "content-length": String(end - start + 1) },
							body: fileStream(large.path, start, end),
						},
					);
					const part = await json(response);
					expect(`part ${n} number`, part.partNumber, n);
					parts.push({ partNumber: n, etag: part.etag });
				}
				const object = await json(
					await gw("POST", `${keyPath(multipartKey)}?uploadId=${encodeURIComponent(created.uploadId)}`, {
						headers: { "content-type": "application/json" },
						body: JSON.stringify({ parts }),
					}),
				);
				expect("size", object.size, large.size);
				const etag = await multipartEtag(large.path, large.size);
				expect("etag (MD5 of part MD5s)", object.etag, etag);
				stored.set(multipartKey, { ...large, key: multipartKey, contentType: "application/octet-stream", etag });
				return `${parts.length} parts, etag ${object.etag}`;
			},
		);

		const putKey = `${PREFIX}large/put.bin`;
		await step(`PUT ${putKey} (${human(large.size)}, one streamed body with Content-Length)`, async () => {
			const object = await json(
				await gw("PUT", keyPath(putKey), {
					headers: { "content-type": "application/octet-stream", "content-length": String(large.size) },
					body: fileStream(large.path),
				}),
			);
			expect("size", object.size, large.size);
			const etag = await md5OfFile(large.path);
			expect("etag (MD5 of the file)", object.etag, etag);
			stored.set(putKey, { ...large, key: putKey, contentType: "application/octet-stream", etag });
			return `etag ${etag}`;
		});

		const chunkedKey = `${PREFIX}large/chunked.bin`;
		await step(`PUT ${chunkedKey} (${human(large.size)}, chunked: no Content-Length)`, async () => {
			const object = await json(
				await gw("PUT", keyPath(chunkedKey), {
					headers: {
						"content-type": "application/octet-stream",
						"x-amz-checksum-sha256": Buffer.from(large.sha256, "hex").toString("base64"),
					},
					body: fileStream(large.path),
				}),
			);
			expect("size", object.size, large.size);
			// docs/gateway.md: over 8 MiB, a chunked body becomes a multipart upload of 8 MiB parts.
			const etag = await multipartEtag(large.path, large.size);
			expect("etag (multipart, 8 MiB parts)", object.etag, etag);
			stored.set(chunkedKey, { ...large, key: chunkedKey, contentType: "application/octet-stream", etag });
			return `etag ${object.etag}`;
		});

		// ---- an object stored gzip-encoded must come back byte for byte, never decoded or re-encoded.
		const gzKey = `${PREFIX}encoded/edge-notes.txt.gz`;
		const gz = gzipSync(readFileSync(byName.text.path), { level: 9 });
		const gzSha = createHash("sha256").update(gz).digest("hex");
		await step(`PUT ${gzKey} (${human(gz.length)}, Content-Encoding: gzip)`, async () => {
			const object = await json(
				await gw("PUT", keyPath(gzKey), {
					headers: { "content-type": "text/plain; charset=utf-8", "content-encoding": "gzip" },
					body: gz,
				}),
			);
			expect("size", object.size, gz.length);
			expect("httpMetadata.contentEncoding", object.httpMetadata?.contentEncoding, "gzip");
			return `etag ${object.etag}`;
		});
		// Clients that take gzip, or say nothing, must get the stored bytes. A client that refuses
		// gzip gets what the runtime makes of it: wrangler dev emulates Cloudflare's compression
		// for text/* types and decodes or re-encodes (BENCHMARKS.md); reported, not failed.
		const plain = readFileSync(byName.text.path);
		const plainSha = createHash("sha256").update(plain).digest("hex");
		for (const acceptEncoding of [undefined, "gzip, br", "identity", "br"]) {
			const strict = acceptEncoding === undefined || acceptEncoding.startsWith("gzip");
			await step(
				`GET ${gzKey} on the wire, ${acceptEncoding ? `Accept-Encoding: ${acceptEncoding}` : "no Accept-Encoding"}`,
				async () => {
					const headers = { authorization: `Bearer ${TOKEN}` };
					if (acceptEncoding) headers["accept-encoding"] = acceptEncoding;
					const raw = await rawRequest(`${base}${keyPath(gzKey)}`, { headers });
					expect("status", raw.status, 200);
					const asStored = raw.headers["content-encoding"] === "gzip" && raw.sha256 === gzSha;
					if (strict) {
						expect("content-encoding", raw.headers["content-encoding"], "gzip");
						expect("sha-256 of the bytes as stored", raw.sha256, gzSha);
						expect("content-length", raw.headers["content-length"], String(gz.length));
						return `${wireSummary(raw.headers)}, bytes as stored`;
					}
					if (asStored) return `${wireSummary(raw.headers)}, bytes as stored`;
					const what =
						raw.sha256 === plainSha
							? "decoded to the original text"
							: `re-encoded as ${raw.headers["content-encoding"]}`;
					return `${wireSummary(raw.headers)} — NOTE: ${what} by the runtime (Miniflare's emulation of Cloudflare's compression; not the gateway)`;
				},
			);
		}

		// ---- reads: HEAD, whole GET, ranges.
		for (const object of stored.values()) {
			await step(`HEAD ${object.key}`, async () => {
				const response = await gw("HEAD", keyPath(object.key));
				expect("status", response.status, 200);
				expect("content-length", response.headers.get("content-length"), String(object.size));
				expect("etag", response.headers.get("etag"), `"${object.etag}"`);
				expect("content-type", response.headers.get("content-type"), object.contentType);
				return `${object.size} bytes, etag ${response.headers.get("etag")}`;
			});
			await step(`GET ${object.key} whole`, async () => {
				const response = await gw("GET", keyPath(object.key));
				expect("status", response.status, 200);
				const encoding = response.headers.get("content-encoding");
				const { digest, bytes } = await hashBody(response.body);
				expect("bytes", bytes, object.size);
				expect("sha-256", digest, object.sha256);
				return `sha-256 ${digest.slice(0, 16)}… matches${encoding ? ` (sent ${encoding}-encoded by the runtime)` : ""}`;
			});
			const s = object.size;
			// [first, last requested]; a last byte past the end is served clamped.
			const ranges = [
				[0, 0],
				[0, 1023],
				[Math.floor(s / 2), Math.floor(s / 2) + 4095],
				[s - 500, s - 1, "-500"],
				[s - 100, s - 1, `${s - 100}-`],
				[s - 10, s + 1000],
			];
			if (s > 2 * PART) {
				ranges.push(
					[PART - 8, PART + 7],
					[4 * MiB, 13 * MiB - 1],
					[s - (s % PART) - 10, s - 1, `${s - (s % PART) - 10}-`],
				);
			}
			for (const [first, requested, spec = `${first}-${requested}`] of ranges) {
				const last = Math.min(requested, s - 1);
				await step(`GET ${object.key} Range: bytes=${spec}`, async () => {
					const response = await gw("GET", keyPath(object.key), { headers: { range: `bytes=${spec}` } });
					expect("status", response.status, 206);
					expect("content-range", response.headers.get("content-range"), `bytes ${first}-${last}/${s}`);
					const got = await hashBody(response.body);
					const want = await hashBody(fileStream(object.path, first, last));
					expect("bytes", got.bytes, last - first + 1);
					expect("sha-256 of the range", got.digest, want.digest);
					return `206, ${human(got.bytes)}, sha-256 matches the file's bytes ${first}-${last}`;
				});
			}
			await step(`GET ${object.key} Range: bytes=${s}- (past the end)`, async () => {
				const response = await gw("GET", keyPath(object.key), { headers: { range: `bytes=${s}-` } });
				await response.body?.cancel();
				expect("status", response.status, 416);
				expect("content-range", response.headers.get("content-range"), `bytes */${s}`);
				return `416, Content-Range bytes */${s}`;
			});
		}

		// ---- the wire: does the runtime compress or re-frame what the gateway sends?
		for (const object of stored.values()) {
			await step(`GET ${object.key} on the wire, Accept-Encoding: gzip, br`, async () => {
				const raw = await rawRequest(`${base}${keyPath(object.key)}`, {
					headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": "gzip, br" },
				});
				expect("status", raw.status, 200);
				const encoding = raw.headers["content-encoding"];
				if (encoding === undefined) {
					expect("content-length", raw.headers["content-length"], String(object.size));
					expect("sha-256", raw.sha256, object.sha256);
				}
				const why = object.contentType
					? `${object.contentType} is on Cloudflare's compressible list`
					: "no Content-Type";
				return `${wireSummary(raw.headers)}${encoding ? ` — NOTE: compressed by the runtime (${why}; see BENCHMARKS.md)` : ", bytes as stored"}`;
			});
		}

		// ---- an object uploaded without Content-Type (curl -T, fetch with a byte body): its answer
		// has no Content-Type either, which Miniflare's compression emulation treats as compressible.
		const untypedKey = `${PREFIX}untyped/seeded-3MiB.bin`;
		await step(`PUT ${untypedKey} (${human(byName.binary.size)}, no Content-Type)`, async () => {
			const object = await json(
				await gw("PUT", keyPath(untypedKey), {
					headers: { "content-length": String(byName.binary.size) },
					body: fileStream(byName.binary.path),
				}),
			);
			expect("size", object.size, byName.binary.size);
			stored.set(untypedKey, { ...byName.binary, key: untypedKey, contentType: null, etag: object.etag });
			return `etag ${object.etag}`;
		});
		await step(`GET ${untypedKey} whole, on the wire, Accept-Encoding: gzip, br`, async () => {
			const raw = await rawRequest(`${base}${keyPath(untypedKey)}`, {
				headers: { authorization: `Bearer ${TOKEN}`, "accept-encoding": "gzip, br" },
			});
			expect("status", raw.status, 200);
			if (raw.headers["content-encoding"] !== undefined) {
				throw new Warning(
					`${wireSummary(raw.headers)}: random bytes gzip-compressed by the runtime because the answer has no Content-Type (expected: none, length ${byName.binary.size})`,
				);
			}
			expect("sha-256", raw.sha256, byName.binary.sha256);
			return `${wireSummary(raw.headers)}, bytes as stored`;
		});

		// ---- list, following truncated/cursor.
		const keys = [...stored.keys(), gzKey].sort();
		await step(`list prefix=${PREFIX} limit=3, following cursor`, async () => {
			const seen = [];
			let cursor;
			let pages = 0;
			do {
				const query = new URLSearchParams({ prefix: PREFIX, limit: "3", include: "customMetadata" });
				if (cursor) query.set("cursor", cursor);
				const page = await json(await gw("GET", `/?list&${query}`));
				pages++;
				for (const entry of page.objects) {
					seen.push(entry.key);
					const object = stored.get(entry.key);
					if (object) expect(`size of ${entry.key}`, entry.size, object.size);
				}
				cursor = page.truncated ? page.cursor : undefined;
				if (page.truncated && !cursor) throw new Error("truncated page without a cursor");
			} while (cursor);
			expect("keys listed", JSON.stringify(seen), JSON.stringify(keys));
			return `${seen.length} keys in ${pages} pages, all present with their sizes`;
		});
		await step(`list prefix=${PREFIX} delimiter=/`, async () => {
			const page = await json(await gw("GET", `/?list&${new URLSearchParams({ prefix: PREFIX, delimiter: "/" })}`));
			const expected = [...new Set(keys.map((k) => `${PREFIX}${k.slice(PREFIX.length).split("/")[0]}/`))].sort();
			expect("delimitedPrefixes", JSON.stringify([...page.delimitedPrefixes].sort()), JSON.stringify(expected));
			expect("objects", page.objects.length, 0);
			return `prefixes ${page.delimitedPrefixes.join(" ")}`;
		});

		// ---- deletes: one by DELETE, the rest in one bulk delete.
		const [first, ...rest] = keys;
		await step(`DELETE ${first}`, async () => {
			const response = await gw("DELETE", keyPath(first));
			expect("status", response.status, 204);
			const after = await gw("GET", keyPath(first));
			await after.body?.cancel();
			expect("GET after delete", after.status, 404);
			return "204, then GET 404";
		});
		await step(`POST /?delete (${rest.length} keys)`, async () => {
			const response = await gw("POST", "/?delete", {
				headers: { "content-type": "application/json" },
				body: JSON.stringify({ keys: rest }),
			});
			await response.body?.cancel();
			expect("status", response.status, 204);
			const page = await json(await gw("GET", `/?list&prefix=${encodeURIComponent(PREFIX)}`));
			expect("objects left", page.objects.length, 0);
			return "204, then the prefix lists empty";
		});
	} finally {
		await dev.stop();
		rmSync(dev.persistTo, { recursive: true, force: true });
		line("ok", `wrangler dev stopped, ${dev.persistTo} removed`);
	}
}

try {
	await main();
} catch (error) {
	failures++;
	line("FAIL", error.stack ?? String(error));
}
const warned = warnings > 0 ? `, ${warnings} warning(s) (WARN lines)` : "";
console.log(failures === 0 ? `smoke: all steps passed${warned}` : `smoke: ${failures} step(s) FAILED${warned}`);
process.exit(failures === 0 ? 0 : 1);
