/**
 * Bench-only Worker (config derived from wrangler.toml by scripts/bench/config.mjs): edgezone
 * itself, with every class it exports, plus "floor" routes that do
 * the least a Worker can do to serve an object, so the benchmark compares the gateway and the
 * floor in the same workerd process, over the same bucket. Never deployed.
 *
 * - `GET /__floor/{key}`: the floor. One `get()`, the body returned with its length and a
 *   Content-Type that Miniflare's emulation of Cloudflare's compression leaves alone.
 * - `PUT /__floor/{key}?uploadId=&partNumber=`: the floor of an upload part, the request body
 *   handed to `uploadPart()` as is (the memory benchmark's reference); with `&relay`, relayed as
 *   below.
 * - `PUT /__floor/{key}`: the floor of one PUT, the request body handed to `put()` as is.
 * - `PUT /__floor/{key}?relay`: the floor of a body checked in JavaScript: the request body read
 *   in 1 MiB blocks (BYOB, two buffers in turn) and written, each write awaited, to a
 *   FixedLengthStream that `put()` reads; what src/edge/s3/body/body-pump.ts does, without its checks.
 * - `/__variant/{name}/{key}`: the variants BENCHMARKS.md investigates (which of them the
 *   runtime compresses, and what each costs). `const` answers 1 KiB from memory, no R2 at all.
 * - `/__worker-floor/{path}`: the floor of a Worker behind a route (scripts/bench-workers-route.mjs):
 *   the request handed as it is to the service binding `BENCH_TARGET`, bound only in that
 *   benchmark's config, and its answer returned as it is.
 * - `/__forward/{port}/{path}`: the floor of a proxied origin (scripts/bench-origin.mjs): the
 *   request forwarded as it is to `http://127.0.0.1:{port}/{path}`, the origin's answer returned
 *   as it came.
 * - `/__minimal-proxy/{port}/{path}`: the least that Cloudflare's proxy must do on the way to
 *   the same origin, in edgezone's own functions and without its pipeline (zone by Host,
 *   phases, log tap, choice of destination): the visitor's `request.cf` read for `CF-IPCountry`,
 *   the headers toward the origin (`origin/headers.ts`), the connect timeout's race and the
 *   answer's own copy (`origin/proxy.ts`), and `CF-Ray` on it. What edgezone costs beyond it
 *   is its pipeline's.
 * - everything else: edgezone's default handler, untouched.
 */
import { countryOfCf } from "../../src/edge/geo";
import { originRequestHeaders } from "../../src/edge/origin/headers";
import { proxy } from "../../src/edge/origin/proxy";
import { cfRayHeader, newRayId } from "../../src/edge/ray";
import edgezone from "../../src/index";

// Every Durable Object class edgezone exports (Zone, ZoneRegistry, …), so the bindings of
// wrangler.toml resolve here as they do in edgezone itself.
export * from "../../src/index";

const FLOOR = "/__floor/";
const VARIANT = "/__variant/";
const WORKER_FLOOR = "/__worker-floor/";
const CONSTANT = new Uint8Array(1024);
const FORWARD = "/__forward/";
const MINIMAL_PROXY = "/__minimal-proxy/";

type Variant = (object: R2ObjectBody) => Response;

const VARIANTS: Record<string, Variant> = {
	/** `new Response(object.body)`: no length, no type. */
	bare: (object) => new Response(object.body),
	/** Length, no type. */
	length: (object) => new Response(object.body, { headers: { "content-length": String(object.size) } }),
	/** Type, no length. */
	type: (object) => new Response(object.body, { headers: { "content-type": "application/octet-stream" } }),
	/** Length, no type, `encodeBody: "manual"`. */
	manual: (object) =>
		new Response(object.body, { headers: { "content-length": String(object.size) }, encodeBody: "manual" }),
	/** Length, no type, `Content-Encoding: identity`. */
	identity: (object) =>
		new Response(object.body, { headers: { "content-length": String(object.size), "content-encoding": "identity" } }),
	/** Length and the stored httpMetadata (`writeHttpMetadata`). */
	metadata: (object) => {
		const headers = new Headers({ "content-length": String(object.size) });
		object.writeHttpMetadata(headers);
		return new Response(object.body, { headers });
	},
};

const BLOCK_BYTES = 1024 * 1024;

/** The request body relayed through JavaScript, block by block, into a stream of its length. */
function relayed(request: Request): ReadableStream {
	const { readable, writable } = new FixedLengthStream(Number(request.headers.get("content-length")));
	const writer = writable.getWriter();
	const reader = (request.body ?? new Blob().stream()).getReader({ mode: "byob" });
	const relay = async () => {
		const buffers = [new ArrayBuffer(BLOCK_BYTES), new ArrayBuffer(BLOCK_BYTES)];
		for (let turn = 0; ; turn ^= 1) {
			const { done, value } = await reader.readAtLeast(BLOCK_BYTES, new Uint8Array(buffers[turn] as ArrayBuffer));
			if (value !== undefined && value.byteLength > 0) {
				await writer.write(value);
				buffers[turn] = value.buffer as ArrayBuffer;
			}
			if (done) break;
		}
		await writer.close();
	};
	relay().catch((error: unknown) => writer.abort(error));
	return readable;
}

export default {
	async fetch(request, env, ctx) {
		const url = new URL(request.url);
		const path = url.pathname;
		if (path.startsWith(FLOOR) && request.method === "PUT") {
			const key = path.slice(FLOOR.length);
			const body = url.searchParams.has("relay") ? relayed(request) : (request.body ?? "");
			const uploadId = url.searchParams.get("uploadId");
			if (uploadId === null) return Response.json({ etag: (await env.BUCKET.put(key, body))?.etag });
			const upload = env.BUCKET.resumeMultipartUpload(key, uploadId);
			return Response.json(await upload.uploadPart(Number(url.searchParams.get("partNumber")), body));
		}
		if (path.startsWith(FLOOR)) {
			const object = await env.BUCKET.get(path.slice(FLOOR.length));
			if (object === null) return new Response(null, { status: 404 });
			return new Response(object.body, {
				headers: { "content-length": String(object.size), "content-type": "application/octet-stream" },
			});
		}
		if (path.startsWith(WORKER_FLOOR)) {
			// Bound by scripts/bench-workers-route.mjs's config only, so not in Env.
			const target = (env as unknown as { BENCH_TARGET?: Fetcher }).BENCH_TARGET;
			return target === undefined ? new Response(null, { status: 404 }) : target.fetch(request);
		}
		if (path.startsWith(FORWARD)) {
			const [port = "", ...rest] = path.slice(FORWARD.length).split("/");
			return fetch(`http://127.0.0.1:${port}/${rest.join("/")}${url.search}`, {
				method: request.method,
				headers: request.headers,
				body: request.body,
				encodeResponseBody: "manual",
			});
		}
		if (path.startsWith(MINIMAL_PROXY)) {
			const [port = "", ...rest] = path.slice(MINIMAL_PROXY.length).split("/");
			const rayId = newRayId();
			const cfRay = cfRayHeader(rayId, request);
			const headers = originRequestHeaders(request.headers, {
				clientIp: request.headers.get("cf-connecting-ip") ?? "",
				scheme: url.protocol.slice(0, -1),
				cfRay,
				ipCountry: countryOfCf(request.cf) ?? "XX",
				host: url.host,
				cdnLoop: request.headers.get("cdn-loop"),
				geoHeadersRead: false,
			});
			const origin = {
				kind: "url",
				url: `http://127.0.0.1:${port}/${rest.join("/")}${url.search}`,
				host: "127.0.0.1",
				ip: "127.0.0.1",
			} as const;
			const { response } = await proxy(request, origin, headers, env, rayId);
			response.headers.set("cf-ray", cfRay);
			return response;
		}
		if (path.startsWith(VARIANT)) {
			const [name = "", ...key] = path.slice(VARIANT.length).split("/");
			if (name === "const") return new Response(CONSTANT, { headers: { "content-type": "application/octet-stream" } });
			const variant = VARIANTS[name];
			if (variant === undefined) return new Response(null, { status: 404 });
			const object = await env.BUCKET.get(key.join("/"));
			if (object === null) return new Response(null, { status: 404 });
			return variant(object);
		}
		return edgezone.fetch(request, env, ctx);
	},
} satisfies ExportedHandler<Env>;
