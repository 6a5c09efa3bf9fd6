// HTTP helpers shared by the gateway tests in Node (test/node) and the benchmark: streamed file bodies, incremental
// hashing of response bodies, and a raw GET that shows the wire as it is (fetch would decode a
// compressed body and hide it).
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";

/** The URL path of a key: each segment percent-encoded once, slashes kept. */
export function keyPath(key) {
	return `/${key.split("/").map(encodeURIComponent).join("/")}`;
}

/** A file (or the bytes start..end inclusive of it) as a web stream, read from disk as sent. */
export function fileStream(path, start, end) {
	return Readable.toWeb(createReadStream(path, { start, end, highWaterMark: 1 << 20 }));
}

/** SHA-256 (hex) and length of a body, consumed chunk by chunk. */
export async function hashBody(body, algorithm = "sha256") {
	const hash = createHash(algorithm);
	let bytes = 0;
	if (body) {
		for await (const chunk of body) {
			hash.update(chunk);
			bytes += chunk.length;
		}
	}
	return { digest: hash.digest("hex"), bytes };
}

/** Counts a body's bytes without keeping them. */
export async function drainBody(body) {
	let bytes = 0;
	if (body) for await (const chunk of body) bytes += chunk.length;
	return bytes;
}

/**
 * One request with node:http, no decoding: status, headers as received, and the SHA-256 and
 * length of the body bytes exactly as they came over the wire.
 */
export function rawRequest(url, { method = "GET", headers = {} } = {}) {
	return new Promise((resolve, reject) => {
		const req = httpRequest(url, { method, headers, agent: false }, (res) => {
			const hash = createHash("sha256");
			let bytes = 0;
			res.on("data", (chunk) => {
				hash.update(chunk);
				bytes += chunk.length;
			});
			res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, sha256: hash.digest("hex"), bytes }));
			res.on("error", reject);
		});
		req.on("error", reject);
		req.end();
	});
}

/** How a response went out: `gzip, chunked` or `none, length 1024` (its Content-Encoding, then its framing). */
export function wireSummary(headers) {
	const encoding = headers["content-encoding"] ?? "none";
	const framing =
		headers["transfer-encoding"] ??
		(headers["content-length"] !== undefined ? `length ${headers["content-length"]}` : "no length");
	return `${encoding}, ${framing}`;
}
