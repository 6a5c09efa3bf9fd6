// RemoteBucket from Node 22, end to end: imports src/client/index.ts as Node's type stripping
// runs it (no bundler, no build), starts `wrangler dev` (fresh persistence directory, free port)
// and runs the binding behaviours the parity suite can only show inside workerd through the real
// front line, the one wrangler dev emulates: raw bodies (issue 11, items 1 and 2), errors equal
// to the binding's (3, 5, 6), list metadata (4), foreign Headers (7), metadata size (11) and the
// keys . and .. (12); and what only Node shows: Miniflare's Headers, and bodies read back, whose
// answers carry no length in Node's fetch. One line per check; exits non-zero on any failure.
//
//   npx node scripts/client-node-check.mjs      (Node 22.18 or later: type stripping on by default)
import { deepStrictEqual, equal, rejects } from "node:assert/strict";
import { createRequire } from "node:module";
import { gzipSync } from "node:zlib";
import { startWranglerDev } from "./lib/wrangler-dev.mjs";

const [major, minor] = process.versions.node.split(".").map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
	console.error(`client-node-check needs Node 22.18 or later (type stripping); this is ${process.version}.`);
	console.error("Run it with the project's Node: npx node scripts/client-node-check.mjs");
	process.exit(1);
}

const { RemoteBucket } = await import("../src/client/index.ts");
// Miniflare's own Headers (its copy of undici), as Miniflare's R2 tests pass them: the copy wrangler runs.
const { Headers: MiniflareHeaders } = await import(
	createRequire(createRequire(import.meta.url).resolve("wrangler/package.json")).resolve("miniflare")
);
const TOKEN = process.env.EDGEZONE_TOKEN ?? "dev-token";
let failures = 0;

/** Runs one check; a thrown error is a FAIL line. */
async function check(title, fn) {
	try {
		await fn();
		console.log(`ok   ${title}`);
	} catch (error) {
		failures++;
		console.log(`FAIL ${title} — ${error.message.split("\n").slice(0, 6).join(" ")}`);
	}
}

/** The binding's error for `action`, as workerd formats it. */
const r2Error = (action, message, code) => new Error(`${action}: ${message} (${code})`);

/** The bytes of an object, read whole. */
const bytesOf = async (object) => new Uint8Array(await object.arrayBuffer());

async function main() {
	// Seed .dev.vars as `npm run dev` does, so the documented dev token works out of the box.
	await import("./dev-vars.mjs");
	const dev = await startWranglerDev();
	const bucket = new RemoteBucket({ url: dev.url, token: TOKEN });
	try {
		await check("put, head, get, list and delete a key", async () => {
			const put = await bucket.put("node/a.txt", "hello", { customMetadata: { from: "node" } });
			equal(put.etag, "5d41402abc4b2a76b9719d911017c592");
			equal((await bucket.head("node/a.txt")).size, 5);
			equal(await (await bucket.get("node/a.txt")).text(), "hello");
			deepStrictEqual(
				(await bucket.list({ prefix: "node/" })).objects.map((object) => object.key),
				["node/a.txt"],
			);
			await bucket.delete("node/a.txt");
			equal(await bucket.head("node/a.txt"), null);
		});

		const httpMetadata = { contentEncoding: "gzip", contentType: "text/plain" };
		await check("a gzip-stored object comes back as stored, with its contentEncoding (item 1)", async () => {
			const gzip = new Uint8Array(gzipSync("compressed ".repeat(200)));
			await bucket.put("node/gzip.txt", gzip, { httpMetadata });
			const object = await bucket.get("node/gzip.txt");
			deepStrictEqual(object.httpMetadata, httpMetadata);
			equal(object.size, gzip.byteLength);
			deepStrictEqual(await bytesOf(object), gzip);
			deepStrictEqual((await bucket.head("node/gzip.txt")).httpMetadata, httpMetadata);
		});

		await check("a gzip-labelled object whose bytes are not gzip comes back as stored (item 2)", async () => {
			const plain = new TextEncoder().encode("labelled gzip, but plain text");
			await bucket.put("node/not-gzip.txt", plain, { httpMetadata });
			const object = await bucket.get("node/not-gzip.txt");
			deepStrictEqual(object.httpMetadata, httpMetadata);
			deepStrictEqual(await bytesOf(object), plain);
		});

		const invalidName = "The specified object name is not valid.";
		await check("errors equal the binding's, head's included (items 3, 6)", async () => {
			await rejects(bucket.head("ü".repeat(513)), r2Error("head", invalidName, 10020));
			await rejects(bucket.put("ü".repeat(513), "x"), r2Error("put", invalidName, 10020));
			const denied = new RemoteBucket({ url: dev.url, token: "not-a-token" });
			await rejects(denied.head("node/a.txt"), r2Error("head", "The token is not valid.", 10002));
		});

		await check("list entries carry the binding's metadata without include (item 4)", async () => {
			await bucket.put("node/list/x", "x", { customMetadata: { a: "b" } });
			const [entry] = (await bucket.list({ prefix: "node/list/" })).objects;
			deepStrictEqual([entry.httpMetadata, entry.customMetadata], [{}, {}]);
		});

		await check("list limits and duplicate parts fail with the binding's errors (item 5)", async () => {
			const maxKeys = r2Error("list", "MaxKeys params must be positive integer <= 1000.", 10022);
			await rejects(bucket.list({ limit: 0 }), maxKeys);
			await rejects(bucket.list({ limit: 1001 }), maxKeys);
			const upload = await bucket.createMultipartUpload("node/mp");
			const part = await upload.uploadPart(1, "abc");
			await rejects(
				upload.complete([part, part]),
				r2Error("completeMultipartUpload", "We encountered an internal error. Please try again.", 10001),
			);
			await upload.abort();
		});

		await check("a Headers that is not Node's is read as the binding reads it (item 7)", async () => {
			await bucket.put("node/range", "0123456789");
			const polyfill = { map: { range: "bytes=2-4" }, get: (name) => polyfill.map[name] ?? null };
			equal(await (await bucket.get("node/range", { range: polyfill })).text(), "0123456789");
			equal(await (await bucket.get("node/range", { range: new Headers({ range: "bytes=2-4" }) })).text(), "234");
		});

		await check("Miniflare's Headers is read as headers, as the binding Miniflare hands to Node reads it", async () => {
			await bucket.put("node/range", "abcdefghijklmnopqrstuvwxyz");
			const object = await bucket.get("node/range", { range: new MiniflareHeaders({ Range: "bytes=3-6" }) });
			deepStrictEqual([await object.text(), object.range], ["defg", { offset: 3, length: 4 }]);
		});

		await check("a body read back is stored again as the binding's is: one put, same etag, and as a part", async () => {
			const bytes = new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 255);
			const original = await bucket.put("node/big", bytes);
			const copy = await bucket.put("node/big-copy", (await bucket.get("node/big")).body);
			deepStrictEqual([copy.etag, copy.checksums.toJSON()], [original.etag, { md5: original.etag }]);
			const upload = await bucket.createMultipartUpload("node/joined");
			const part = await upload.uploadPart(1, (await bucket.get("node/big", { range: { length: 6 } })).body);
			equal((await upload.complete([part])).size, 6);
		});

		await check("complete and abort of an unknown upload fail with the binding's 10001", async () => {
			const internal = "We encountered an internal error. Please try again.";
			const unknown = bucket.resumeMultipartUpload("node/mp", "no-such-upload");
			await rejects(unknown.complete([]), r2Error("completeMultipartUpload", internal, 10001));
			await rejects(unknown.abort(), r2Error("abortMultipartUpload", internal, 10001));
		});

		await check("custom metadata over the binding's limit is refused (item 11)", async () => {
			const tooLarge = r2Error("put", "Your metadata headers exceed the maximum allowed metadata size.", 10012);
			await rejects(bucket.put("node/meta", "x", { customMetadata: { a: "x".repeat(8192) } }), tooLarge);
			await rejects(
				bucket.put("node/meta", "x", { customMetadata: { A: "x".repeat(5000), a: "y".repeat(5000) } }),
				tooLarge,
			);
			equal(await bucket.head("node/meta"), null);
		});

		await check("the keys . and .. are stored apart from the empty key (item 12)", async () => {
			await bucket.put("", "empty");
			for (const key of [".", ".."]) {
				equal((await bucket.put(key, `is ${key}`)).key, key);
				equal(await (await bucket.get(key)).text(), `is ${key}`);
			}
			equal(await (await bucket.get("")).text(), "empty");
			await bucket.delete([".", "..", ""]);
			equal(await bucket.head(".."), null);
		});
	} finally {
		await dev.stop();
	}
}

try {
	await main();
} catch (error) {
	failures++;
	console.log(`FAIL ${error.stack ?? String(error)}`);
}
console.log(failures === 0 ? "client-node-check: all checks passed" : `client-node-check: ${failures} check(s) FAILED`);
process.exit(failures === 0 ? 0 : 1);
