/**
 * The origins of the origin tests, in Node (a vitest global setup of the "workers" project): a
 * real HTTP server on a free loopback port, which workerd reaches as an edge reaches an origin.
 *
 * - any path: answers 200 with JSON `{method, url, headers, body}` (the request's body read whole:
 *   the tests send small ones), `set-cookie` twice, `expires`, `last-modified`, `x-accel-redirect`,
 *   `x-powered-by` and `x-frame-options: DENY`;
 * - `/slow/...`: answers after SLOW_MS;
 * - `/stream/<n>`: streams n bytes of "a" in 64 KiB chunks, no Content-Length;
 * - `/gzip/...`: answers "compressed by the origin" gzipped, with `Content-Encoding: gzip`;
 * - `/__count?path=P`: how many requests for path P it has seen (its own calls not counted);
 * - a WebSocket upgrade: accepted, and every text frame of up to 125 bytes echoed back.
 * `refusedPort` is a port nothing listens on (bound once, then closed).
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { gzipSync } from "node:zlib";
import type { TestProject } from "vitest/node";

declare module "vitest" {
	export interface ProvidedContext {
		originPort: number;
		refusedPort: number;
	}
}

/** How long `/slow/` waits before answering, in ms: longer than the tests' connect timeout. */
const SLOW_MS = 4000;

async function freePort(): Promise<number> {
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
	const { port } = probe.address() as { port: number };
	await new Promise<void>((resolve) => probe.close(() => resolve()));
	return port;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks).toString("utf8");
}

/** Answers a WebSocket handshake (RFC 6455 §4.2.2) and echoes short unfragmented text frames. */
function acceptWebSocket(request: IncomingMessage, socket: Socket): void {
	const key = request.headers["sec-websocket-key"] ?? "";
	const accept = createHash("sha1").update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest("base64");
	socket.write(
		`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
	);
	socket.on("data", (frame: Buffer) => {
		const opcode = (frame[0] ?? 0) & 0x0f;
		if (opcode === 8) return socket.end();
		const length = (frame[1] ?? 0) & 0x7f;
		const mask = frame.subarray(2, 6);
		const payload = Buffer.from(frame.subarray(6, 6 + length).map((byte, i) => byte ^ (mask[i % 4] ?? 0)));
		socket.write(Buffer.concat([Buffer.from([0x81, payload.length]), payload]));
	});
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
	const seen = new Map<string, number>();
	const server = createServer((request, response) => {
		// A request the edge gave up on (the slow origin's) ends its socket early: nothing more to answer.
		answer(request, response).catch(() => response.destroy());
	});
	const answer = async (request: IncomingMessage, response: ServerResponse) => {
		const url = new URL(request.url ?? "/", "http://origin");
		if (url.pathname === "/__count") {
			response.end(String(seen.get(url.searchParams.get("path") ?? "") ?? 0));
			return;
		}
		seen.set(url.pathname, (seen.get(url.pathname) ?? 0) + 1);
		if (url.pathname.startsWith("/stream/")) {
			let left = Number(url.pathname.slice("/stream/".length));
			const chunk = Buffer.alloc(65536, "a");
			response.writeHead(200, { "content-type": "application/octet-stream" });
			while (left > 0) {
				const part = chunk.subarray(0, Math.min(left, chunk.length));
				left -= part.length;
				if (!response.write(part)) await new Promise((resolve) => response.once("drain", resolve));
			}
			response.end();
			return;
		}
		if (url.pathname.startsWith("/gzip/")) {
			response.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
			response.end(gzipSync("compressed by the origin"));
			return;
		}
		if (url.pathname.startsWith("/slow/")) await new Promise((resolve) => setTimeout(resolve, SLOW_MS));
		const body = await bodyOf(request);
		response.writeHead(200, [
			["content-type", "application/json"],
			["set-cookie", "first=1; Path=/"],
			["set-cookie", "second=2; Path=/"],
			["expires", "Thu, 01 Dec 2044 16:00:00 GMT"],
			["last-modified", "Tue, 15 Nov 1994 12:45:26 GMT"],
			["x-accel-redirect", "/internal"],
			["x-powered-by", "Express"],
			["x-frame-options", "DENY"],
		]);
		response.end(JSON.stringify({ method: request.method, url: request.url, headers: request.headers, body }));
	};
	server.on("upgrade", acceptWebSocket);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	project.provide("originPort", (server.address() as { port: number }).port);
	project.provide("refusedPort", await freePort());
	return () =>
		new Promise<void>((resolve) => {
			server.closeAllConnections();
			server.close(() => resolve());
		});
}
