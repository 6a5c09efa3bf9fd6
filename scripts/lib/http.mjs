// HTTP helpers shared by the gateway tests in Node (test/node) and the benchmarks: streamed file bodies, incremental
// hashing of response bodies, a raw GET that shows the wire as it is (fetch would decode a
// compressed body and hide it), and one API v4 call with `npm run dev`'s credentials.
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

/** `npm run dev`'s API token and account (.dev.vars.example), which the benchmarks' zones use. */
const DEV_API_TOKEN = "edgezone_dev_token_000000000000000000000";
export const DEV_ACCOUNT_ID = "01a7362d577a6c3019a474fd6f485823";

/**
 * One API v4 call with the dev token: the envelope's `result`.
 * @param {string} base the Worker's address
 * @param {string} method
 * @param {string} path under `/client/v4`
 * @param {unknown} [body] sent as JSON
 * @throws Error naming the call, its status and the envelope's errors when it fails
 */
export async function apiV4(base, method, path, body) {
	const response = await fetch(`${base}/client/v4${path}`, {
		method,
		headers: { authorization: `Bearer ${DEV_API_TOKEN}`, "content-type": "application/json" },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const envelope = await response.json();
	if (!response.ok || !envelope.success)
		throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(envelope.errors)}`);
	return envelope.result;
}
