/**
 * `Expect: 100-continue` through wrangler dev, as the aws CLI and the AWS SDKs send it before a
 * large body (RFC 9110 §10.1.1): the client waits for `100 Continue`, then sends an aws-chunked
 * body with a CRC32 trailer (the SDKs' default framing), and gets its answer.
 *
 * The interim answer is workerd's own: its HTTP server sends `100 Continue` for a request that
 * expects it, and a Worker cannot send a 1xx answer itself; this checks that a client gets one
 * and that the upload completes through the S3 dialect.
 */
import { request as httpRequest } from "node:http";
import { Crc32 } from "@aws-sdk/checksums/crc";
import { AwsClient } from "aws4fetch";
import { describe, expect, inject, it } from "vitest";

const base = inject("dev").url;
/** The S3 credentials of .dev.vars.example's default token, as docs/s3.md gives them. */
const client = new AwsClient({
	accessKeyId: "38cba963a34a25df28b6e7a6e80f828e",
	secretAccessKey: "fa39b6fb4dca9fff1cdaf8d365f0346ed42b9ee1e823c0a2beadf5aa6a613a2f",
	service: "s3",
	region: "auto",
});

interface Outcome {
	/** Whether `100 Continue` came before the body was sent. */
	continued: boolean;
	status: number;
	body: string;
}

/** Sends `headers`, waits for `100 Continue` (5 s at most), then sends `body`. */
function putExpectingContinue(url: string, headers: Headers, body: Uint8Array): Promise<Outcome> {
	return new Promise((resolve, reject) => {
		let continued = false;
		const request = httpRequest(url, {
			method: "PUT",
			headers: { ...Object.fromEntries(headers), expect: "100-continue", "content-length": String(body.byteLength) },
		});
		const timer = setTimeout(() => request.end(body), 5000);
		request.on("continue", () => {
			continued = true;
			clearTimeout(timer);
			request.end(body);
		});
		request.on("response", (response) => {
			clearTimeout(timer);
			const chunks: Buffer[] = [];
			response.on("data", (chunk: Buffer) => chunks.push(chunk));
			response.on("end", () =>
				resolve({ continued, status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
			);
		});
		request.on("error", reject);
	});
}

describe("Expect: 100-continue", () => {
	it("gets 100 Continue, then stores an aws-chunked body with a CRC32 trailer", async () => {
		const data = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 7) & 0xff);
		const crc = new Crc32();
		crc.update(data);
		const checksum = Buffer.from(await crc.digest()).toString("base64");
		const frames = Buffer.concat([
			Buffer.from(`${data.byteLength.toString(16)}\r\n`),
			data,
			Buffer.from(`\r\n0\r\nx-amz-checksum-crc32:${checksum}\r\n\r\n`),
		]);
		const url = `${base}/edgezone-bucket/s3-expect/${crypto.randomUUID()}`;
		const signed = await client.sign(url, {
			method: "PUT",
			headers: {
				"x-amz-content-sha256": "STREAMING-UNSIGNED-PAYLOAD-TRAILER",
				"content-encoding": "aws-chunked",
				"x-amz-decoded-content-length": String(data.byteLength),
				"x-amz-trailer": "x-amz-checksum-crc32",
				"x-amz-sdk-checksum-algorithm": "CRC32",
			},
		});
		const outcome = await putExpectingContinue(url, signed.headers, frames);
		expect(outcome).toMatchObject({ continued: true, status: 200 });

		const read = await client.fetch(url);
		expect(read.status).toBe(200);
		expect(Buffer.from(await read.arrayBuffer()).equals(Buffer.from(data))).toBe(true);
	});
});
